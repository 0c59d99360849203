"""What the live hall is told: the closed union of :data:`Command`.

Every change to the live hall (:class:`~qipai.hall.core.HallCore`) comes in as one of these
frozen values, and only through :meth:`~qipai.hall.core.HallCore.handle`: what a player
sent (:class:`Join`, :class:`Act`, ...), what the outside world found (a balance read from
the store comes *in* :class:`Join`; :class:`HandRecorded`, :class:`HandSettled`,
:class:`StoreFailed` answer the store's effects), and the passing of time (:class:`Tick`,
:class:`Matchmake`).  The core reads no clock and no store: the executor
(``qipai.server.run.executor``) reads them first and then sends the command.
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.match.commands import MatchCommand
from qipai.hall.private.options import PrivateOptions
from qipai.hall.private.saves import SavedPrivate
from qipai.hall.table.values import BotTurn


@dataclass(frozen=True, slots=True)
class Join:
    """``user`` queues in ``room`` holding ``balance`` coins (read from the store just
    before); ``once``: for one hand, in a room that regroups."""

    user: int
    room: str
    balance: int
    once: bool = False


@dataclass(frozen=True, slots=True)
class Leave:
    """``user`` stops waiting now, or leaves once his hand is over."""

    user: int


@dataclass(frozen=True, slots=True)
class Act:
    """``user`` plays ``text`` at his table (``table``: the one his client names, if any)."""

    user: int
    text: str
    table: int | None = None


@dataclass(frozen=True, slots=True)
class Contribute:
    """``user``'s entropy ``value`` for ``hand`` at ``table``."""

    user: int
    table: int
    hand: str
    value: str


@dataclass(frozen=True, slots=True)
class Trustee:
    """托管 on or off for ``user``."""

    user: int
    on: bool


@dataclass(frozen=True, slots=True)
class Escape:
    """``user`` leaves his hand on purpose (逃跑), and the room once it is over."""

    user: int


@dataclass(frozen=True, slots=True)
class EscapeCost:
    """What leaving his hand now would cost ``user`` (answered in a
    :class:`~qipai.hall.effects.Reply`)."""

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
class Matchmake:
    """Seat whoever can be seated now in ``rooms`` (the rooms this process owns)."""

    rooms: frozenset[str]


@dataclass(frozen=True, slots=True)
class BalancesRead:
    """The coins of each seat of seating ``seating`` (0 for a bot), read from the store
    (answers :class:`~qipai.hall.effects.ReadBalances`)."""

    seating: int
    balances: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatingFailed:
    """The balances of seating ``seating`` could not be read (the store does not answer)."""

    seating: int
    message: str


@dataclass(frozen=True, slots=True)
class HandRecorded:
    """The start of ``hand`` at ``table`` is in the store: it may be dealt."""

    table: int
    hand: str


@dataclass(frozen=True, slots=True)
class HandSettled:
    """The settlement (or the void) of ``hand`` at ``table`` is in the store."""

    table: int
    hand: str


@dataclass(frozen=True, slots=True)
class StoreFailed:
    """The store (or the cluster's lease) refused or did not answer for ``hand`` at
    ``table``: ``code`` and ``message`` say why."""

    table: int
    hand: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class BotDecided:
    """The bots' worker pool decided ``turn`` at ``table``: ``action`` (answers
    :class:`~qipai.hall.effects.AskBot`)."""

    table: int
    turn: BotTurn
    action: object


@dataclass(frozen=True, slots=True)
class Shutdown:
    """The process stops (or was taken over): every table stops, every hand in play is
    voided; with ``forget`` every queue and player is dropped too."""

    forget: bool = False


# --- spectators 观战 (issue 26: qipai.hall.watch.spectators) ------------------------------------


@dataclass(frozen=True, slots=True)
class CloseTable:
    """An operator closes table ``table`` (the console): its hand voided as on a crash (no
    coin moves), its players told ``reason``."""

    table: int
    reason: str


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


# --- private tables 好友房 (qipai.hall.private.tables) ---------------------------------------


@dataclass(frozen=True, slots=True)
class CreatePrivate:
    """``user``, holding ``balance`` coins, creates a private table of ``options``; its
    code is ``code`` when given (reserved by the caller for the whole hall: a node of
    several), else drawn by the core."""

    user: int
    options: PrivateOptions
    balance: int
    code: str | None = None


@dataclass(frozen=True, slots=True)
class JoinPrivate:
    """``user``, holding ``balance`` coins, sits at private table ``code``."""

    user: int
    code: str
    balance: int


@dataclass(frozen=True, slots=True)
class Ready:
    """准备 (``ready``) or not, at ``user``'s private table."""

    user: int
    ready: bool = True


@dataclass(frozen=True, slots=True)
class StartPrivate:
    """The owner starts his private table, bots in its empty seats."""

    user: int


@dataclass(frozen=True, slots=True)
class KickPrivate:
    """The owner removes the person at ``seat`` before the first hand."""

    user: int
    seat: int


@dataclass(frozen=True, slots=True)
class ClosePrivate:
    """The owner closes his private table (after the hand in play)."""

    user: int


@dataclass(frozen=True, slots=True)
class RestorePrivate:
    """Open again the private table ``saved`` (kept in the store by the node it was open
    on, which stopped), its people holding ``balances`` coins (user, coins): its seats,
    owner and 总成绩 as they were, no hand in play, nobody ready."""

    saved: SavedPrivate
    balances: tuple[tuple[int, int], ...] = ()


Private = CreatePrivate | JoinPrivate | Ready | StartPrivate | KickPrivate | ClosePrivate
"""The private tables' own commands from a person (``Leave`` leaves one too)."""


Command = (
    Join | Leave | Act | Contribute | Trustee | Escape | EscapeCost | Presence | Chat | Resync
    | Resume | Tick | Matchmake | BalancesRead | SeatingFailed | HandRecorded
    | HandSettled | StoreFailed | BotDecided | Shutdown | CloseTable | Spectate | StopSpectating
    | WatchByName
    | MatchCommand  # the matches' (hall/match/commands.py)
    | Private | RestorePrivate  # the private tables' (hall/private/tables.py)
)  # fmt: skip
"""Everything the live hall is told."""
