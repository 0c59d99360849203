"""What the live hall asks of the world: the closed union of :data:`Effect`.

:meth:`~qipai.hall.core.HallCore.handle` returns these, in order; the one executor
(``qipai.server.run.executor``) carries them out: frames onto the players' connections, the
store's writes on its threads (answered back as commands: ``HandRecorded``,
``HandSettled``, ``StoreFailed``, ``BalancesRead``), one timer for the earliest
:class:`WakeAt`, the cluster's leases and claims.
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.frames import OutFrame, Scoreboard
from qipai.hall.match.effects import MatchEffect
from qipai.hall.table.values import BotTurn, HandOutcome


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
class RecordHandStart:
    """Write the start of a hand before it is dealt (with the commitment of its seed);
    with several nodes the table's lease is taken first.  Answered by ``HandRecorded`` or
    ``StoreFailed``."""

    table: int
    hand: str
    room: str
    game: str
    rules: str
    commitment: str
    players: tuple[int | None, ...]
    bots: tuple[str | None, ...] = ()
    """The name each bot seat has at the table (``None`` at a person's seat; ``()``: not
    said), kept with the hand so that its replay names the bots as the table did."""


@dataclass(frozen=True, slots=True)
class SettleHand:
    """Settle the finished hand ``outcome`` in one transaction (void it, when the engine
    voided it) under the table's lease.  Answered by ``HandSettled`` or ``StoreFailed``."""

    table: int
    outcome: HandOutcome


@dataclass(frozen=True, slots=True)
class VoidHand:
    """Void ``hand`` (a hand recorded and never settled), again and again while the store
    does not answer: a hand is never left in play."""

    hand: str


@dataclass(frozen=True, slots=True)
class ReadBalances:
    """Read each seat's coins of seating ``seating`` (``None``: a bot, 0).  Answered by
    ``BalancesRead`` or ``SeatingFailed``."""

    seating: int
    users: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class AskBot:
    """The bots' worker pool decides ``turn`` at ``table`` (``--bot-workers``); answered
    by ``BotDecided`` (or never: the table then plays the basic 托管 after its wait)."""

    table: int
    turn: BotTurn


@dataclass(frozen=True, slots=True)
class Release:
    """The table ``table`` is closed: its lease goes back (several nodes)."""

    table: int


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Send ``Tick`` at ``when`` (seconds, the commands' ``now`` scale); one timer for the
    earliest is enough: each ``Tick`` names the next."""

    when: float


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


@dataclass(frozen=True, slots=True)
class Log:
    """A line for the operators' log: ``level`` ``warning`` or ``error``."""

    level: str
    text: str


Effect = (
    Send | Reply | KeepMissed | NoteEnding | ReleasePlace | RecordHandStart | SettleHand
    | VoidHand | ReadBalances | AskBot | Release | WakeAt | Log | KeepScoreboard | SavePrivate
    | MatchEffect  # the matches' store steps (hall/match/effects.py)
)  # fmt: skip
"""Everything the live hall asks of the world."""
