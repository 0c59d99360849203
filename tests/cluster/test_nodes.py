"""Nodes beat in a real Redis; one that stops is seen, forgotten, and may come back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from cluster_kit import lapse, run_with

from qipai.cluster import Nodes


def run_nodes(scenario: Callable[[Nodes], Awaitable[None]]) -> None:
    run_with(lambda redis, prefix: Nodes(redis, prefix=prefix), scenario)


def test_a_stopped_node_is_seen_and_forgotten() -> None:
    async def scenario(nodes: Nodes) -> None:
        assert not await nodes.beat("a", {"url": "http://a"})  # first beat: not taken over
        assert not await nodes.beat("a", {"url": "http://a"})
        await nodes.beat("b", {"url": "http://b"})
        everyone = {"a": {"url": "http://a"}, "b": {"url": "http://b"}}
        assert await nodes.census() == (everyone, [])
        assert not await nodes.forget("a")  # alive: kept
        await lapse(nodes.redis, nodes.key("a"))  # a stops beating
        assert await nodes.census() == ({"b": {"url": "http://b"}}, ["a"])
        assert await nodes.forget("a")
        assert (await nodes.census())[1] == [] and not await nodes.forget("a")
        assert await nodes.beat("a")  # back, after it was forgotten: told, listed anew
        assert not await nodes.beat("a")  # told once
        assert sorted(await nodes.alive()) == ["a", "b"]
        await nodes.leave("b")  # stops on purpose: neither alive nor stopped
        assert await nodes.census() == ({"a": {}}, [])

    run_nodes(scenario)


def test_a_redis_emptied_is_not_taken_for_a_takeover() -> None:
    """Redis restarted without its data: the nodes' list is gone, and nobody forgot them."""

    async def scenario(nodes: Nodes) -> None:
        await nodes.beat("a")
        await nodes.beat("b")
        await nodes.redis.delete(nodes.key("a"), nodes.key("b"), f"{nodes.prefix}:nodes")
        assert not await nodes.beat("a")  # listed anew, not taken over
        assert await nodes.census() == ({"a": {}}, [])

    run_nodes(scenario)


def test_a_beat_lives_for_the_time_to_live() -> None:
    async def scenario(nodes: Nodes) -> None:
        await nodes.beat("a")
        assert 0 < await nodes.redis.pttl(nodes.key("a")) <= nodes.ttl_ms

    run_nodes(scenario)
