"""What the live hall asks of the world for its private tables 好友房: the closed union of
:data:`PrivateEffect`.

Part of :data:`~qipai.hall.effects.Effect`, asked by the private tables
(:mod:`~qipai.hall.private.tables`): the store keeps a closed table's 总成绩
(:class:`KeepScoreboard`) and an open one as it is now (:class:`SavePrivate`), for the node
that would take it over.  Neither is answered.
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.frames import Scoreboard


@dataclass(frozen=True, slots=True)
class KeepScoreboard:
    """Store the final ``scoreboard`` of private table ``code`` for each of ``users``
    (readable after its close, and in their 战绩)."""

    code: str
    game: str
    rules: str
    stakes: str
    hands: int
    users: tuple[int, ...]
    scoreboard: Scoreboard
    base: int | None = None
    """The table's stake (房间系数 or base), kept with its scoreboard."""


@dataclass(frozen=True, slots=True)
class SavePrivate:
    """Keep open private table ``code`` in the store as it is now
    (:meth:`~qipai.hall.private.tables.PrivateTables.saved`; none: it closed, forget it there), for
    the node that would take it over."""

    code: str


PrivateEffect = KeepScoreboard | SavePrivate
"""Everything the live hall asks of the world for its private tables."""
