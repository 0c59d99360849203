"""What the live hall is told about watching: the closed union of :data:`WatchCommand`.

Part of :data:`~qipai.hall.commands.Command`, handled by the spectators
(:mod:`~qipai.hall.watch.spectators`; a private table watched by its code goes through
:meth:`~qipai.hall.private.tables.PrivateTables.spectate` first).  A spectator's snapshot
is the hall's :class:`~qipai.hall.commands.Resync`, which a seated player sends too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Spectate:
    """``user`` watches table number ``table``, the table the player named ``player``
    sits at, or the private table of code ``code`` (exactly one of the three)."""

    user: int
    table: int | None = None
    player: str | None = None
    code: str | None = None


@dataclass(frozen=True, slots=True)
class StopSpectating:
    """``user`` stops watching."""

    user: int


@dataclass(frozen=True, slots=True)
class WatchByName:
    """Whether others may watch ``user``'s table by his name: ``allow``, or ``None`` for
    the default (yes but at a private table)."""

    user: int
    allow: bool | None


WatchCommand = Spectate | StopSpectating | WatchByName
"""Everything the live hall is told about watching."""
