"""What a table's parts share: the :class:`TableState` they read and change, and the two
small holders a table owns (:class:`TurnClock`, :class:`AskedDecisions`).

The parts (:mod:`~qipai.hall.table.asks`, :mod:`~qipai.hall.table.clock`,
:mod:`~qipai.hall.table.moves`, :mod:`~qipai.hall.table.frames`,
:mod:`~qipai.hall.table.end`) are functions of a table; they take it as a
:class:`TableState`, the part of :class:`~qipai.hall.table.table.Table` they use, so that
they need not import the table that imports them (no circle in ``hall/``).
"""

from __future__ import annotations

from typing import Protocol

from qipai.hall.rooms import Room
from qipai.hall.table.hand import HandState, TableHand
from qipai.hall.table.seats import SeatStatus
from qipai.hall.table.values import HandTerms, SeatInfo
from qipai.registry import GameRules, GameType

AnswerKey = tuple[str, int, int, str]
"""What an answer is for: (hand, position, seat, policy)."""


class TurnClock:
    """When the decision of the moment started: every time limit, bot's move and deal
    step of a hand runs from it."""

    def __init__(self, now: float) -> None:
        self.since = now
        """When the current decision (or deal step) started."""

    def restart(self, now: float) -> None:
        """A new decision starts at ``now``."""
        self.since = now


class AskedDecisions:
    """A table's position (it moves with every change a bot's decision depends on) and
    the answer given for a decision asked at it."""

    def __init__(self) -> None:
        self.position = 0
        """The table's position: a decision asked for is for one position."""
        self.answer: tuple[AnswerKey, object, float] | None = None
        """The answer kept: what it is for, the action, and when it came."""

    def moved(self) -> None:
        """The table changed: decisions asked before are for a position left."""
        self.position += 1

    def forget(self) -> None:
        """Drop the answer kept (it is played, or given up)."""
        self.answer = None


class TableState(Protocol):
    """The table as its parts see it (:class:`~qipai.hall.table.table.Table` is one)."""

    room: Room
    number: int
    seats: tuple[SeatInfo, ...]
    bot_delay: float
    deal_step: float
    entropy_window: float
    bot_wait: float | None
    hand_id: str | None
    commitment: str | None
    hands_started: int
    terms: HandTerms
    engine: GameType[GameRules, HandState, object, object]
    seat_status: tuple[SeatStatus, ...]
    hand: TableHand
    clock: TurnClock
    asked: AskedDecisions
    unanswered: int

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (or waits for its players' entropy)."""

    @property
    def last_event(self) -> int:
        """The number of the table's last event (0 before any)."""
