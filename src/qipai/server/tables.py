"""One asyncio task per table: the table's commands in order, its timers, its frames out.

The :class:`TableRunner` owns one pure :class:`~qipai.hall.table.Table`.  Every change to
the table goes through its inbox, so a table's actions are applied strictly in order, one
at a time, and nothing else touches it.  Between commands the runner sleeps until the
table's next deadline (the end of a hand's entropy window, a decision's time limit, a
bot's move, a grace period) and then calls ``tick``.  Frames the table produces go to the
:class:`~qipai.server.bus.Bus`, never to a socket.  The runner plays one hand, then asks
``again`` whether the table plays on (a room that keeps its tables, nobody leaving); if so
it waits ``pause`` seconds (the players read the result; commands still apply), asks
again, and deals the next hand to the same table.

With a :class:`~qipai.server.bots.BotPool` (``qipai serve --bot-workers N``), the runner
hands the decision its table needs next (:meth:`~qipai.hall.table.Table.bot_turn`) to the
pool after every change (*AskBot*), and the pool's answer comes back through the inbox as a
:class:`BotDecided` command; the table never waits on the pool (``docs/bots.md``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from qipai.errors import GameError
from qipai.hall.table import BotTurn, Table

from .bots import BotPool
from .bus import Bus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatAct:
    """A seat's action in text form."""

    seat: int
    text: str


@dataclass(frozen=True)
class Contribute:
    """A seat's entropy for a hand (:meth:`~qipai.hall.table.Table.contribute`)."""

    seat: int
    hand: str
    value: str


@dataclass(frozen=True)
class SetTrustee:
    """托管 on or off for a seat."""

    seat: int
    on: bool


@dataclass(frozen=True)
class SeatEscape:
    """A seat leaves on purpose."""

    seat: int


@dataclass(frozen=True)
class Presence:
    """A seat's player lost his last connection (``connected=False``) or came back."""

    seat: int
    connected: bool


@dataclass(frozen=True)
class LeaveEarly:
    """A seat's player leaves the room: an escape if the hand has not started yet
    (:attr:`~qipai.hall.table.Table.is_dealing`), nothing otherwise (he leaves after it)."""

    seat: int


@dataclass(frozen=True)
class Leaving:
    """A seat's player leaves the room once the hand is over (离开, 换桌): a table that
    plays on stops waiting for him in the pause between two hands."""

    seat: int


@dataclass(frozen=True)
class BotDecided:
    """The bot pool's answer to the table's :class:`~qipai.hall.table.BotTurn`
    (:meth:`~qipai.hall.table.Table.decided`)."""

    turn: BotTurn
    action: object


Command = (
    SeatAct | Contribute | SetTrustee | SeatEscape | Presence | LeaveEarly | Leaving | BotDecided
)
"""What a runner's inbox holds."""


@dataclass
class _Pending:
    command: Command
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class TableRunner:
    """Drives one table from its own task.

    :param table: the pure table, with its hand about to start.
    :param users: the user id at each seat, ``None`` for a bot.
    :param bus: where frames go.
    :param clock: the time, in the table's ``now`` scale (seconds since the epoch).
    :param start: called once in the task before the hand starts (records the hand in the
        database); the hand is dealt when it returns.
    :param finish: called in the task when a hand is over (settles it).
    :param again: called after each hand is settled, and again after ``pause``: whether
        the table plays another hand (by default it plays one).
    :param pause: seconds between two hands of a table that plays on.
    :param bots: where the table's bots decide (its table made with a ``bot_wait``);
        ``None``: inside the table's tick, on the event loop.
    """

    def __init__(
        self,
        table: Table,
        users: tuple[int | None, ...],
        bus: Bus,
        *,
        clock: Callable[[], float],
        start: Callable[[TableRunner], Coroutine[Any, Any, None]],
        finish: Callable[[TableRunner], Coroutine[Any, Any, None]],
        again: Callable[[TableRunner], bool] = lambda runner: False,
        pause: float = 0.0,
        bots: BotPool | None = None,
    ) -> None:
        self.table = table
        self.users = users
        self._bus = bus
        self._clock = clock
        self._start = start
        self._finish = finish
        self._again = again
        self._pause = pause
        self._bots = bots
        self._asked: BotTurn | None = None
        self._inbox: asyncio.Queue[_Pending] = asyncio.Queue()
        self._published = asyncio.Event()
        self._published.set()
        self.task: asyncio.Task[None] | None = None

    def seat_of(self, user: int) -> int:
        """The seat of ``user`` at this table."""
        return self.users.index(user)

    def launch(self) -> asyncio.Task[None]:
        """Start the table's task."""
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{id(self)}")
        return self.task

    async def submit(self, command: Command) -> None:
        """Apply ``command`` in the table's order; raises the table's error, if any."""
        pending = _Pending(command)
        self._inbox.put_nowait(pending)
        await pending.done

    def post(self, command: Command) -> None:
        """Queue ``command`` without waiting for it (its errors are dropped)."""
        pending = _Pending(command)
        pending.done.add_done_callback(_drop_error)
        self._inbox.put_nowait(pending)

    async def _run(self) -> None:
        while True:
            await self._play_hand()
            if not await self._plays_on():
                break
        self._answer_late_commands()

    async def _play_hand(self) -> None:
        """Start a hand, apply commands and timers until it is over, settle it."""
        await self._start(self)
        self.flush()
        self._ask_bot()
        while True:
            pending = await self._next_command()
            if pending is not None:
                self._apply(pending, self._clock())
            self.table.tick(self._clock())
            if self.table.is_over:
                break
            self.flush()
            self._ask_bot()
        self._published.clear()  # the hand's last events wait for the settlement
        try:
            await self._finish(self)  # settled before anybody is told the result
            self.flush()
        finally:
            self._published.set()

    async def _plays_on(self) -> bool:
        """Whether the table plays another hand: asked once the hand is settled and, if
        so, again after the pause (commands that came meanwhile applied)."""
        if not self._again(self):
            return False
        resume = self._clock() + self._pause
        while (left := resume - self._clock()) > 0:
            pending = await self._wait(left)
            if pending is not None:
                self._apply(pending, self._clock())
                self.flush()
                if isinstance(pending.command, Leaving) and not self._again(self):
                    return False  # a player leaves: the table breaks up now
        return self._again(self)

    def _ask_bot(self) -> None:
        """AskBot: the decision the table needs next, to the pool, once per position; the
        answer comes back through the inbox (:class:`BotDecided`)."""
        if self._bots is None:
            return
        turn = self.table.bot_turn()
        if turn is None or turn == self._asked:
            return
        self._asked = turn
        self._bots.ask(turn, lambda action: self.post(BotDecided(turn, action)))

    async def _next_command(self) -> _Pending | None:
        deadline = self.table.deadline()
        if not self._inbox.empty() or deadline is None:
            return await self._inbox.get()
        return await self._wait(deadline - self._clock())

    async def _wait(self, delay: float) -> _Pending | None:
        """The next command, or ``None`` when ``delay`` seconds pass first."""
        if delay <= 0:
            return None
        try:
            async with asyncio.timeout(delay):
                return await self._inbox.get()
        except TimeoutError:
            return None

    def _apply(self, pending: _Pending, now: float) -> None:
        command = pending.command
        try:
            match command:
                case SeatAct(seat, text):
                    self.table.act(seat, text, now)
                case Contribute(seat, hand, value):
                    self.table.contribute(seat, hand, value, now)
                case SetTrustee(seat, on):
                    self.table.set_trustee(seat, on, now)
                case SeatEscape(seat):
                    self.table.escape(seat, now)
                case Presence(seat, True):
                    self.table.reconnect(seat, now)
                case Presence(seat, False):
                    self.table.disconnect(seat, now)
                case LeaveEarly(seat):
                    if self.table.is_dealing:
                        self.table.escape(seat, now)
                case Leaving():
                    pass  # nothing at the table: the pause between hands looks again
                case BotDecided(turn, action):
                    self.table.decided(turn, action, now)
        except GameError as error:
            pending.done.set_exception(error)
        else:
            pending.done.set_result(None)

    def _answer_late_commands(self) -> None:
        """Commands that arrived after the hand ended get the table's refusal."""
        while not self._inbox.empty():
            self._apply(self._inbox.get_nowait(), self._clock())

    async def published(self) -> None:
        """Return once every frame the table produced is published: at once, except while
        a finished hand is being settled (its last events and ``hand_over`` wait for it).
        A snapshot taken then would be ahead of the events the player has had."""
        await self._published.wait()

    def flush(self) -> None:
        """Publish every frame the table produced to its seat's player."""
        for out in self.table.drain():
            user = self.users[out.seat]
            if user is not None:
                self._bus.publish(user, out.frame)


def _drop_error(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()
