"""A node takes over one that stopped (real Redis): not before every node had a beat's
time to beat since Redis answered (after an outage, the others' beats lapsed too); then it
runs ``on_stopped`` once, clears the stopped node's leases, forgets it, and keeps every
lease of its own."""

from __future__ import annotations

from cluster_kit import lapse, run_with

from qipai.server.run.node import BEAT_TTL_MS, MATCHES, ClusterNode, room_resource


def test_taking_over_a_stopped_node_keeps_the_takers_own_leases() -> None:
    async def scenario(node: ClusterNode) -> None:
        node.rooms = ("r1", "r2")
        stopped = ClusterNode(node.redis, "b", prefix=node.nodes.prefix)
        stopped.rooms = node.rooms
        recovered: list[str] = []

        async def recover(name: str) -> None:
            recovered.append(name)

        node.on_stopped = recover
        await stopped.nodes.beat("b")
        await node.nodes.beat("a")
        b_holds = await stopped.leases.acquire(MATCHES, "b")
        a_rooms = [room_resource(room) for room in node.rooms]
        for resource in a_rooms:
            lease = await node.leases.acquire(resource, "a")
            assert lease is not None
            node.held[resource] = lease
        await lapse(node.redis, stopped.nodes.key("b"))  # b stops beating
        now = [100.0]
        node.clock = lambda: now[0]
        await node.look()  # Redis answers since now (as after an outage): b may beat yet
        assert recovered == [] and "b" in node.stopped
        now[0] += BEAT_TTL_MS / 1000
        await node.look()
        assert b_holds is not None and recovered == ["b"]
        assert await node.leases.holder(MATCHES) in (None, node.held.get(MATCHES))  # cleared
        mine = [*a_rooms, *([MATCHES] if MATCHES in node.held else [])]
        assert sorted(node.held) == sorted(mine)
        for resource in a_rooms:
            holder = await node.leases.holder(resource)
            assert holder is not None and holder.node == "a"
        assert "b" not in await node.nodes.alive()
        await node.look()
        assert recovered == ["b"]  # once

    run_with(lambda redis, prefix: ClusterNode(redis, "a", prefix=prefix), scenario)
