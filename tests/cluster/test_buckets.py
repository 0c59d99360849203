"""Token buckets in a real Redis (``QIPAI_TEST_REDIS``, each test under a key prefix of its
own): one allowance however the attempts are spread over the nodes, several buckets spent
together or not at all, refunds, forgetting, keys that expire; and a node counting alone
while Redis does not answer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

import pytest
from cluster_kit import REDIS, run_with
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from qipai.cluster.buckets import ALONE_SECONDS, Bucket, HallBuckets, RedisBuckets, Refusal
from qipai.server.edge.limits import MemoryBuckets


def run(scenario: Callable[[RedisBuckets], Awaitable[None]]) -> None:
    run_with(lambda redis, prefix: RedisBuckets(redis, prefix=prefix), scenario)


async def _spent(buckets: RedisBuckets, bucket: Bucket, times: int) -> list[Refusal | None]:
    return [await buckets.take([bucket]) for _ in range(times)]


def _waits(refusal: Refusal | None, index: int, seconds: float) -> bool:
    """Whether ``refusal`` names bucket ``index`` and a wait of about ``seconds`` (the
    milliseconds between two calls taken off)."""
    return refusal is not None and refusal.index == index and seconds - 1 < refusal.wait <= seconds


async def _rewind(buckets: RedisBuckets, bucket: Bucket, seconds: float) -> None:
    """Make ``bucket``'s last spend ``seconds`` older (as if that time had passed)."""
    key = buckets.key(bucket)
    when = int(await buckets.redis.hget(key, "w") or 0)  # type: ignore[misc]
    await buckets.redis.hset(key, "w", str(when - round(seconds * 1000)))  # type: ignore[misc]


def test_a_burst_then_a_wait_then_one_per_interval() -> None:
    async def scenario(buckets: RedisBuckets) -> None:
        codes = Bucket("codes", "203.0.113.7", 3, 60.0)  # 3 at once, then one every 20 s
        assert await _spent(buckets, codes, 3) == [None] * 3
        refused = await buckets.take([codes])
        assert _waits(refused, 0, 20.0)
        assert await buckets.take([Bucket("codes", "203.0.113.8", 3, 60.0)]) is None
        assert await buckets.take([Bucket("sign_in", "203.0.113.7", 3, 60.0)]) is None
        await _rewind(buckets, codes, 20.0)
        assert await buckets.take([codes]) is None  # one back after 20 s
        refused = await buckets.take([codes])
        assert _waits(refused, 0, 20.0)
        await _rewind(buckets, codes, 3_600.0)  # never more than full
        answers = await _spent(buckets, codes, 4)
        assert answers[:3] == [None] * 3 and _waits(answers[3], 0, 20.0)

    run(scenario)


def test_several_buckets_are_spent_together_or_not_at_all() -> None:
    async def scenario(buckets: RedisBuckets) -> None:
        address = Bucket("codes", "198.51.100.1", 4, 60.0)
        account = Bucket("codes_of", "7", 2, 60.0)
        assert await _spent_both(buckets, [address, account], 2) == [None, None]
        refused = await buckets.take([address, account])
        assert _waits(refused, 1, 30.0)  # the account's: none spent
        other = Bucket("codes_of", "8", 2, 60.0)
        answers = await _spent_both(buckets, [address, other], 3)
        assert answers[:2] == [None, None] and _waits(answers[2], 0, 15.0)  # 4 for the address

    run(scenario)


async def _spent_both(
    buckets: RedisBuckets, both: Sequence[Bucket], times: int
) -> list[Refusal | None]:
    return [await buckets.take(both) for _ in range(times)]


def test_refund_and_forget() -> None:
    async def scenario(buckets: RedisBuckets) -> None:
        name = Bucket("sign_in_name", "ann", 2, 900.0)
        await buckets.refund(name)  # a full bucket stays full: no key
        assert not await buckets.redis.exists(buckets.key(name))
        assert await _spent(buckets, name, 2) == [None, None]
        await buckets.refund(name)
        await buckets.refund(name)
        await buckets.refund(name)  # not beyond full
        assert [r is None for r in await _spent(buckets, name, 3)] == [True, True, False]
        await buckets.forget(name)
        assert await _spent(buckets, name, 2) == [None, None]

    run(scenario)


def test_keys_live_under_the_prefix_until_the_bucket_is_full_again() -> None:
    async def scenario(buckets: RedisBuckets) -> None:
        bucket = Bucket("connections", "2001:db8::/64", 60, 60.0)
        await buckets.take([bucket])
        keys = [key async for key in buckets.redis.scan_iter(f"{buckets.prefix}:*")]
        assert keys == [f"{buckets.prefix}:limit:connections:2001:db8::/64".encode()]
        assert 59_000 < await buckets.redis.pttl(keys[0]) <= 60_000

    run(scenario)


def test_three_nodes_share_one_allowance() -> None:
    """Three clients (three nodes) spend one bucket at once: exactly its size passes."""

    async def scenario(buckets: RedisBuckets) -> None:
        codes = Bucket("codes", "192.0.2.1", 30, 60.0)
        clients = [Redis.from_url(REDIS) for _ in range(3)]
        try:
            nodes = [RedisBuckets(client, prefix=buckets.prefix) for client in clients]
            tries = [nodes[n % 3].take([codes]) for n in range(60)]
            answers = await asyncio.gather(*tries)
        finally:
            for client in clients:
                await client.aclose()
        assert sum(answer is None for answer in answers) == 30

    run(scenario)


class Away:
    """Buckets whose Redis does not answer while ``away`` is set, else ``shared``'s."""

    def __init__(self, shared: MemoryBuckets) -> None:
        self.shared = shared
        self.away = True
        self.calls = 0

    async def take(self, buckets: Sequence[Bucket]) -> Refusal | None:
        self.calls += 1
        if self.away:
            raise RedisConnectionError("Connection refused")
        return await self.shared.take(buckets)

    async def refund(self, bucket: Bucket) -> None:
        raise AssertionError("not called")

    async def forget(self, bucket: Bucket) -> None:
        raise AssertionError("not called")


def test_a_node_counts_alone_while_redis_does_not_answer(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    shared, alone = MemoryBuckets(), MemoryBuckets()
    away = Away(shared)
    hall = HallBuckets(away, alone, clock=lambda: now[0])
    bucket = Bucket("codes", "192.0.2.9", 2, 60.0)

    async def scenario() -> None:
        with caplog.at_level(logging.WARNING, "qipai.cluster.buckets"):
            answers = [await hall.take([bucket]) for _ in range(3)]
            assert [answer is None for answer in answers] == [True, True, False]  # still limited
            assert away.calls == 1 and hall.is_alone  # Redis asked once, not at each attempt
            now[0] = ALONE_SECONDS
            away.away = False
            assert await hall.take([bucket]) is None  # asked again, and it answers
            assert not hall.is_alone and len(shared) == 1
        said = [record.getMessage() for record in caplog.records]
        assert said == [
            "limits: Redis does not answer, each node counts alone: Connection refused",
            "limits: Redis answers again, the hall counts as one",
        ]

    asyncio.run(scenario())


def test_a_redis_that_refuses_connections_falls_back_to_the_node() -> None:
    async def scenario() -> None:
        client = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
        try:
            hall = HallBuckets(RedisBuckets(client, prefix="nowhere"), MemoryBuckets())
            bucket = Bucket("sign_in", "192.0.2.2", 1, 60.0)
            assert await hall.take([bucket]) is None
            assert await hall.take([bucket]) is not None  # counted in the node's memory
            await hall.forget(bucket)
            assert await hall.take([bucket]) is None and hall.is_alone
        finally:
            await client.aclose()

    asyncio.run(scenario())
