"""Group commit: the writes that many tables ask for at once go in one transaction.

A table that starts or settles a hand awaits :meth:`Batcher.submit`; a single writer task
takes everything queued at that moment (up to :data:`MAX_BATCH` items) and runs it as one
call of the store's batch method in a database thread (``start_hands``,
``settle_hands``: one transaction, all or none).  Under light load a batch is one item
and nothing waits; under heavy load the batches grow by themselves and the database sees
one commit (one fsync) for many hands.  If a batch is refused, its items are retried one
by one so that only the faulty item fails.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, ParamSpec, Protocol, TypeVar

log = logging.getLogger(__name__)

Item = TypeVar("Item")
Result = TypeVar("Result")
T = TypeVar("T")
P = ParamSpec("P")


class Runner(Protocol):
    """Awaits ``function(*args, **kwargs)`` in a database thread (``Database.run``)."""

    def __call__(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]:
        """``function``'s result, once run."""
        ...


MAX_BATCH = 200
"""Most items in one transaction."""


class Batcher(Generic[Item, Result]):
    """Collects items and writes them in batches.

    :param run: awaits ``function(*args)`` in a database thread (``Database.run``).
    :param many: the store's batch method (a list of results, one per item, or ``None``).
    :param one: the single-item method, used to isolate a failure in a refused batch.
    """

    def __init__(
        self,
        run: Runner,
        many: Callable[[Sequence[Item]], Sequence[Result] | None],
        one: Callable[[Item], Result],
    ) -> None:
        self._run = run
        self._many = many
        self._one = one
        self._queue: list[tuple[Item, asyncio.Future[Result | None]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.batches = 0
        """Transactions written so far."""
        self.items = 0
        """Items written so far."""

    async def submit(self, item: Item) -> Result | None:
        """Write ``item`` (in some batch); its result, or the store's error."""
        if self._task is None or self._task.done():
            self._closing = False
            self._task = asyncio.get_running_loop().create_task(self._write_forever())
        future: asyncio.Future[Result | None] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        self._wake.set()
        return await future

    async def close(self) -> None:
        """Write everything submitted, then stop the writer task: a write is never cut off
        half-way (its transaction would land after the caller thought it gone, a hand
        recorded in play with no table left to finish it), and its result or error reaches
        its caller if it still waits."""
        if self._task is not None:
            self._closing = True
            self._wake.set()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _write_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                await self._write(batch)
            if self._closing:
                return

    async def _write(self, batch: list[tuple[Item, asyncio.Future[Result | None]]]) -> None:
        items = [item for item, _ in batch]
        try:
            results: Sequence[Result | None] | None = await self._run(self._many, items)
        except Exception as error:
            if len(batch) == 1:
                _fail(batch[0][1], error)
                return
            log.warning("a batch of %d was refused: writing its items one by one", len(batch))
            await self._one_by_one(batch)
            return
        self.batches += 1
        self.items += len(batch)
        answers = results if results is not None else [None] * len(batch)
        for (_, future), answer in zip(batch, answers, strict=True):
            if not future.done():
                future.set_result(answer)

    async def _one_by_one(self, batch: list[tuple[Item, asyncio.Future[Result | None]]]) -> None:
        for item, future in batch:
            try:
                answer = await self._run(self._one, item)
            except Exception as error:  # this item's own error, for its caller
                _fail(future, error)
                continue
            self.batches += 1
            self.items += 1
            if not future.done():
                future.set_result(answer)


def _fail(future: asyncio.Future[Result], error: Exception) -> None:
    if not future.done():
        future.set_exception(error)
