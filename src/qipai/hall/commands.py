"""What the live hall is told: the closed union of :data:`Command`.

Every change to the live hall (:class:`~qipai.hall.core.HallCore`) comes in as one of these
frozen values, and only through :meth:`~qipai.hall.core.HallCore.handle`: what a player
sent (:class:`~qipai.hall.cash.commands.Join`, :class:`~qipai.hall.table.commands.Act`,
...), what the outside world found (a balance read from the store comes *in* ``Join``;
``HandRecorded``, ``HandSettled``, ``StoreFailed`` answer the store's effects), and the
passing of time (:class:`Tick`, ``Matchmake``).  The core reads no clock and no store: the
executor (``qipai.server.run.executor``) reads them first and then sends the command.

Each wing defines the commands it handles, and their closed union:
:data:`~qipai.hall.table.commands.TableCommand` (a seat's play, the store's answers for a
hand, an operator's ``CloseTable``), :data:`~qipai.hall.cash.commands.CashCommand`,
:data:`~qipai.hall.private.commands.PrivateCommand`,
:data:`~qipai.hall.watch.commands.WatchCommand` and
:data:`~qipai.hall.match.commands.MatchCommand`.  This module keeps the commands of the
hall as a whole, each one that no single wing handles: :class:`Leave` (out of a cash room
or of a private table, whichever he holds), :class:`Presence` and :class:`Resume` (a
person's connection, which every place he holds hears of), :class:`Chat` (at a table of
any place), :class:`Resync` (a player's snapshot of his table, or a spectator's of the
table he watches), :class:`Tick` (what is due in every wing) and :class:`Shutdown` (the
whole process).  It names every command once more, so that ``commands.Join`` reads as it
did before the wings owned theirs (:data:`__all__`).
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.cash.commands import BalancesRead, CashCommand, Join, Matchmake, SeatingFailed
from qipai.hall.match.commands import MatchCommand
from qipai.hall.private.commands import (
    ClosePrivate,
    CreatePrivate,
    JoinPrivate,
    KickPrivate,
    Private,
    PrivateCommand,
    Ready,
    RestorePrivate,
    StartPrivate,
)
from qipai.hall.table.commands import (
    Act,
    BotDecided,
    CloseTable,
    Contribute,
    Escape,
    EscapeCost,
    HandRecorded,
    HandSettled,
    SeatCommand,
    StoreFailed,
    TableCommand,
    Trustee,
)
from qipai.hall.watch.commands import Spectate, StopSpectating, WatchByName, WatchCommand


@dataclass(frozen=True, slots=True)
class Leave:
    """``user`` stops waiting now, or leaves once his hand is over."""

    user: int


@dataclass(frozen=True, slots=True)
class Presence:
    """``user``'s last connection closed (``connected=False``), or he is back."""

    user: int
    connected: bool


@dataclass(frozen=True, slots=True)
class Chat:
    """Quick chat: ``user`` says ``phrase`` at his table."""

    user: int
    phrase: str
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class Resync:
    """``user`` asks for a full snapshot of his table (answered once every frame of the
    table is out: a settling hand's snapshot waits for its settlement)."""

    user: int


@dataclass(frozen=True, slots=True)
class Resume:
    """``user`` connects again: what he missed at his table after the event numbers his
    client had (``last``: table number as text → event number), or where he waits; then
    ``Presence`` once his connection takes his frames."""

    user: int
    last: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Tick:
    """The time has come for what was due (a :class:`~qipai.hall.effects.WakeAt`)."""


@dataclass(frozen=True, slots=True)
class Shutdown:
    """The process stops (or was taken over): every table stops, every hand in play is
    voided; with ``forget`` every queue and player is dropped too."""

    forget: bool = False


HallCommand = Leave | Presence | Chat | Resync | Resume | Tick | Shutdown
"""The commands of the hall as a whole (this module's own)."""

Command = (
    HallCommand
    | TableCommand  # the tables' (hall/table/commands.py)
    | CashCommand  # the cash rooms' (hall/cash/commands.py)
    | PrivateCommand  # the private tables' (hall/private/commands.py)
    | WatchCommand  # the spectators' (hall/watch/commands.py)
    | MatchCommand  # the matches' (hall/match/commands.py)
)
"""Everything the live hall is told."""

__all__ = [
    "Act", "BalancesRead", "BotDecided", "CashCommand", "Chat", "ClosePrivate", "CloseTable",
    "Command", "Contribute", "CreatePrivate", "Escape", "EscapeCost", "HallCommand",
    "HandRecorded", "HandSettled", "Join", "JoinPrivate", "KickPrivate", "Leave",
    "MatchCommand", "Matchmake", "Presence", "Private", "PrivateCommand", "Ready", "RestorePrivate",
    "Resume", "Resync", "SeatCommand", "SeatingFailed", "Shutdown", "Spectate",
    "StartPrivate", "StopSpectating", "StoreFailed", "TableCommand", "Tick", "Trustee",
    "WatchByName", "WatchCommand",
]  # fmt: skip
