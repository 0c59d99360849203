"""Group commit: concurrent writes share a transaction; a refused batch isolates its culprit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from qipai.errors import IllegalActionError
from qipai.server.run.batching import MAX_BATCH, Batcher


class FakeStore:
    """Records every call; refuses any batch (and item) holding a negative number."""

    def __init__(self) -> None:
        self.calls: list[list[int]] = []

    def many(self, items: Sequence[int]) -> list[int]:
        self.calls.append(list(items))
        if any(item < 0 for item in items):
            raise IllegalActionError("insufficient_coins", "a negative item")
        return [item * 10 for item in items]

    def one(self, item: int) -> int:
        return self.many([item])[0]


async def in_thread(function: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(function, *args)


def test_concurrent_items_share_transactions_and_each_gets_its_result() -> None:
    store = FakeStore()

    async def scenario() -> list[int | None]:
        batcher = Batcher(in_thread, store.many, store.one)
        results = await asyncio.gather(*(batcher.submit(n) for n in range(450)))
        await batcher.close()
        assert batcher.items == 450
        return list(results)

    assert asyncio.run(scenario()) == [n * 10 for n in range(450)]
    assert sorted(n for call in store.calls for n in call) == list(range(450))
    assert len(store.calls) < 450 // 2  # batched: far fewer transactions than items
    assert max(len(call) for call in store.calls) <= MAX_BATCH


def test_a_refused_batch_is_retried_one_by_one_and_only_the_culprit_fails() -> None:
    store = FakeStore()

    async def scenario() -> list[Any]:
        batcher = Batcher(in_thread, store.many, store.one)
        results = await asyncio.gather(
            *(batcher.submit(n) for n in (1, 2, -3, 4)), return_exceptions=True
        )
        await batcher.close()
        return list(results)

    results = asyncio.run(scenario())
    assert results[:2] == [10, 20] and results[3] == 40
    assert isinstance(results[2], IllegalActionError)
    assert results[2].code == "insufficient_coins"


def test_a_lone_item_is_written_at_once() -> None:
    store = FakeStore()

    async def scenario() -> int | None:
        batcher = Batcher(in_thread, store.many, store.one)
        result = await batcher.submit(7)
        await batcher.close()
        return result

    assert asyncio.run(scenario()) == 70
    assert store.calls == [[7]]


@pytest.mark.parametrize("items", [[-1], [5, -1]])
def test_errors_reach_their_callers(items: list[int]) -> None:
    store = FakeStore()

    async def scenario() -> list[Any]:
        batcher = Batcher(in_thread, store.many, store.one)
        results = await asyncio.gather(*(batcher.submit(n) for n in items), return_exceptions=True)
        await batcher.close()
        return list(results)

    assert isinstance(asyncio.run(scenario())[-1], IllegalActionError)


def test_closing_writes_what_was_submitted_even_if_its_callers_are_gone() -> None:
    """A table cancelled while its write waits (the hall stopping): the write still lands
    in the store (before, closing cut the writer off and a write under way in its thread
    landed after everyone had forgotten it)."""
    store = FakeStore()

    async def slow(function: Callable[..., Any], *args: Any) -> Any:
        await asyncio.sleep(0.05)  # (the thread's write under way)
        return await in_thread(function, *args)

    async def scenario() -> None:
        batcher = Batcher(slow, store.many, store.one)
        callers = [asyncio.ensure_future(batcher.submit(n)) for n in range(3)]
        await asyncio.sleep(0)  # submitted; the writer takes the first batch
        for caller in callers:
            caller.cancel()
        await batcher.close()

    asyncio.run(scenario())
    assert sorted(n for call in store.calls for n in call) == [0, 1, 2]
