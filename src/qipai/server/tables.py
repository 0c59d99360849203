"""One asyncio task per table: the table's commands in order, its timers, its frames out.

The :class:`TableRunner` owns one pure :class:`~qipai.hall.table.Table` (one hand).  Every
change to the table goes through its inbox, so a table's actions are applied strictly in
order, one at a time, and nothing else touches it.  Between commands the runner sleeps
until the table's next deadline (a decision's time limit, a bot's move, a grace period) and
then calls ``tick``.  Frames the table produces go to the :class:`~qipai.server.bus.Bus`,
never to a socket.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from qipai.errors import GameError
from qipai.hall.table import Table

from .bus import Bus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Act:
    """A seat's action in text form."""

    seat: int
    text: str


@dataclass(frozen=True)
class SetTrustee:
    """托管 on or off for a seat."""

    seat: int
    on: bool


@dataclass(frozen=True)
class Escape:
    """A seat leaves on purpose."""

    seat: int


@dataclass(frozen=True)
class Presence:
    """A seat's player lost his last connection (``connected=False``) or came back."""

    seat: int
    connected: bool


Command = Act | SetTrustee | Escape | Presence
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
    :param finish: called once in the task when the hand is over (settles it).
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
    ) -> None:
        self.table = table
        self.users = users
        self._bus = bus
        self._clock = clock
        self._start = start
        self._finish = finish
        self._inbox: asyncio.Queue[_Pending] = asyncio.Queue()
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
        await self._start(self)
        self.flush()
        while True:
            pending = await self._next_command()
            if pending is not None:
                self._apply(pending, self._clock())
            self.table.tick(self._clock())
            if self.table.is_over:
                break
            self.flush()
        await self._finish(self)  # settled before anybody is told the result
        self.flush()
        self._answer_late_commands()

    async def _next_command(self) -> _Pending | None:
        deadline = self.table.deadline()
        if not self._inbox.empty() or deadline is None:
            return await self._inbox.get()
        delay = deadline - self._clock()
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
                case Act(seat, text):
                    self.table.act(seat, text, now)
                case SetTrustee(seat, on):
                    self.table.set_trustee(seat, on, now)
                case Escape(seat):
                    self.table.escape(seat, now)
                case Presence(seat, True):
                    self.table.reconnect(seat, now)
                case Presence(seat, False):
                    self.table.disconnect(seat, now)
        except GameError as error:
            pending.done.set_exception(error)
        else:
            pending.done.set_result(None)

    def _answer_late_commands(self) -> None:
        """Commands that arrived after the hand ended get the table's refusal."""
        while not self._inbox.empty():
            self._apply(self._inbox.get_nowait(), self._clock())

    def flush(self) -> None:
        """Publish every frame the table produced to its seat's player."""
        for out in self.table.drain():
            user = self.users[out.seat]
            if user is not None:
                self._bus.publish(user, out.frame)


def _drop_error(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()
