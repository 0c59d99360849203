"""Leases with fencing tokens in a real Redis (``QIPAI_TEST_REDIS``, default the local
one, as on the developers' machines and in CI), and the store refusing a lapsed holder."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cluster_kit import lapse, run_with

from qipai.cluster import Lease, Leases
from qipai.errors import IllegalActionError
from qipai.store import HandSettlement, HandStart, Store


def run(scenario: Callable[[Leases], Awaitable[None]], ttl_ms: int = 5_000) -> None:
    run_with(lambda redis, prefix: Leases(redis, prefix=prefix, ttl_ms=ttl_ms), scenario)


async def _lapse(leases: Leases, resource: str) -> None:
    """Make the lease on ``resource`` run out now (as if its holder stopped renewing)."""
    await lapse(leases.redis, leases.key(resource))


def test_one_node_at_a_time_and_tokens_only_grow() -> None:
    async def scenario(leases: Leases) -> None:
        before = await _microseconds(leases)
        first = await leases.acquire("table:1", "a")
        assert first is not None and first.node == "a"
        assert before <= first.token <= await _microseconds(leases)  # the first: Redis's clock
        assert await leases.acquire("table:1", "b") is None  # held
        assert await leases.acquire("table:1", "a") == first  # its own: renewed
        assert await leases.holder("table:1") == first
        await _lapse(leases, "table:1")
        assert await leases.holder("table:1") is None
        second = await leases.acquire("table:1", "b")
        assert second == Lease("table:1", "b", first.token + 1)
        assert not await leases.renew(first)  # the lapsed holder cannot renew
        assert not await leases.release(first)  # nor give back what is not his
        assert await leases.holder("table:1") == second
        assert await leases.renew(second) and await leases.release(second)
        third = await leases.acquire("table:1", "a")
        assert third is not None and third.token == first.token + 2  # never one given before

    run(scenario)


def test_resources_are_leased_apart() -> None:
    async def scenario(leases: Leases) -> None:
        table = await leases.acquire("table:1", "a")
        match = await leases.acquire("match:r1", "b")
        assert table is not None and match is not None
        assert await leases.holder("match:r1") == match
        again = await leases.acquire("table:1", "a")
        assert again == table  # renewed: the same token; the match's counter is its own
        await leases.release(match)
        assert (await leases.acquire("match:r1", "b")) == Lease("match:r1", "b", match.token + 1)

    run(scenario)


def test_tokens_keep_growing_after_redis_lost_its_data() -> None:
    """Redis restarted empty: a resource's counter begins again from the clock, above
    every token given before, so the store never refuses the new holder's settlements."""

    async def scenario(leases: Leases) -> None:
        old = await leases.acquire("room:r1", "a")
        assert old is not None
        for _ in range(5):
            await _lapse(leases, "room:r1")
            assert await leases.acquire("room:r1", "a") is not None
        await leases.redis.delete(leases.key("room:r1"), f"{leases.prefix}:token:room:r1")
        new = await leases.acquire("room:r1", "b")
        assert new is not None and new.token > old.token + 5

    run(scenario)


async def _microseconds(leases: Leases) -> int:
    seconds, micros = await leases.redis.time()
    return int(seconds) * 1_000_000 + int(micros)


def test_a_lease_lapses_by_itself() -> None:
    async def scenario(leases: Leases) -> None:
        assert await leases.acquire("table:9", "a") is not None
        ttl = await leases.redis.pttl(leases.key("table:9"))
        assert 0 < ttl <= 200

    run(scenario, ttl_ms=200)


def test_a_holder_whose_lease_lapsed_cannot_settle(tmp_path: Path) -> None:
    """Node a plays a hand under its lease, is paused past it; node b takes the table and
    settles a hand; a, back, tries to settle: refused, nothing of it written."""
    with Store.open(f"sqlite:///{tmp_path / 'hall.db'}") as store:
        ann = store.register("ann", "hash", grant=100, now=_now())
        store.start_hands([_start("h1", ann), _start("h2", ann)])

        async def scenario(leases: Leases) -> None:
            old = await leases.acquire("table:7", "a")
            await _lapse(leases, "table:7")
            new = await leases.acquire("table:7", "b")
            assert old is not None and new is not None
            assert store.settle_hand(_settled("h2", new))
            with pytest.raises(IllegalActionError) as caught:
                store.settle_hand(_settled("h1", old))
            assert caught.value.code == "stale_lease"
            assert store.fence_token("table:7") == new.token

        run(scenario)
        assert store.balance(ann) == 102  # h2 only


def _now() -> datetime:
    return datetime(2026, 12, 2, tzinfo=UTC)


def _start(hand: str, user: int) -> HandStart:
    return HandStart(
        hand, "doudizhu-yifa", "doudizhu", "yifa", table=7, commitment="0" * 64,
        players=(user, None, None), started_at=_now(),
    )  # fmt: skip


def _settled(hand: str, lease: Lease) -> HandSettlement:
    return HandSettlement(
        hand, (2, -1, -1), (0, 0, 0), (0, 0, 0), points=(1, -1, -1), winners=(0,),
        record_json="{}", ended_at=_now(), fence=lease.fence,
    )  # fmt: skip
