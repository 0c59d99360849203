"""What the live hall asks of the world: the closed union of :data:`Effect`.

:meth:`~qipai.hall.core.HallCore.handle` returns these, in order; the one executor
(``qipai.server.run.executor``) carries them out: frames onto the players' connections, the
store's writes on its threads (answered back as commands: ``HandRecorded``,
``HandSettled``, ``StoreFailed``, ``BalancesRead``), one timer for the earliest
:class:`WakeAt`, the cluster's leases and claims.

Each wing defines the effects it asks, and their closed union:
:data:`~qipai.hall.table.effects.TableEffect` (a hand's writes, a bot's decision, a table's
lease), :data:`~qipai.hall.cash.effects.CashEffect` (a seating's balances),
:data:`~qipai.hall.private.effects.PrivateEffect` (a private table kept in the store) and
:data:`~qipai.hall.match.effects.MatchEffect` (the matches' store steps).  This module keeps
the effects that every wing asks alike: the frames' ways to a person (:class:`Send`,
:class:`Reply`, and :class:`KeepMissed`, :class:`NoteEnding` for one away from his
connection), a place given back (:class:`ReleasePlace`: a cash room, a private table or a
match), the one timer (:class:`WakeAt`) and the operators' log (:class:`Log`).  It names
every effect once more, so that ``effects.Send`` and ``effects.SettleHand`` read as they did
before the wings owned theirs (:data:`__all__`).
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.cash.effects import CashEffect, ReadBalances
from qipai.hall.frames import OutFrame
from qipai.hall.match.effects import MatchEffect
from qipai.hall.private.effects import KeepScoreboard, PrivateEffect, SavePrivate
from qipai.hall.table.effects import (
    AskBot,
    RecordHandStart,
    Release,
    SettleHand,
    TableEffect,
    VoidHand,
)


@dataclass(frozen=True, slots=True)
class Send:
    """Publish ``frame`` to every connection of ``user`` (none: dropped)."""

    user: int
    frame: OutFrame


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the command's sender (an ``escape_cost``, a snapshot, what a
    returning player missed, a chat refused for its rate)."""

    frames: tuple[OutFrame, ...]


@dataclass(frozen=True, slots=True)
class KeepMissed:
    """Keep ``frames`` for ``user``, away now, for when he comes back."""

    user: int
    frames: tuple[OutFrame, ...]


@dataclass(frozen=True, slots=True)
class NoteEnding:
    """How ``user``'s hand ended (a snapshot and its ``hand_over``): kept for him if he is
    ``away``, and noted in any case for a client that comes back without having had it
    (its connection may have been dead before anybody knew)."""

    user: int
    frames: tuple[OutFrame, ...]
    away: bool


@dataclass(frozen=True, slots=True)
class ReleasePlace:
    """``user`` has no place here any more: his claim goes back (several nodes)."""

    user: int


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Send ``Tick`` at ``when`` (seconds, the commands' ``now`` scale); one timer for the
    earliest is enough: each ``Tick`` names the next."""

    when: float


@dataclass(frozen=True, slots=True)
class Log:
    """A line for the operators' log: ``level`` ``warning`` or ``error``."""

    level: str
    text: str


HallEffect = Send | Reply | KeepMissed | NoteEnding | ReleasePlace | WakeAt | Log
"""The effects every wing asks alike (this module's own)."""

Effect = (
    HallEffect
    | TableEffect  # the tables' (hall/table/effects.py)
    | CashEffect  # the cash rooms' (hall/cash/effects.py)
    | PrivateEffect  # the private tables' (hall/private/effects.py)
    | MatchEffect  # the matches' store steps (hall/match/effects.py)
)
"""Everything the live hall asks of the world."""

__all__ = [
    "AskBot", "CashEffect", "Effect", "HallEffect", "KeepMissed", "KeepScoreboard", "Log",
    "MatchEffect", "NoteEnding", "PrivateEffect", "ReadBalances", "RecordHandStart", "Release",
    "ReleasePlace", "Reply", "SavePrivate", "Send", "SettleHand", "TableEffect", "VoidHand",
    "WakeAt",
]  # fmt: skip
