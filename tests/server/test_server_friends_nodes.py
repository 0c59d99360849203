"""Friends on a hall of two nodes (``--redis``, one PostgreSQL): a friend held by the other
node shows online from his claim in the cluster, his place unknown; the node that holds
him says where he is."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Iterator

import pytest
from nodes_kit import REDIS, redis_keys, room_owner
from server_kit import RunningHall, fast_config, running_hall
from wire_kit import fresh_postgres, of_type, until

from qipai.client.connection import HallClient

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def nodes() -> Iterator[tuple[dict[str, RunningHall], str]]:
    """Nodes ``a`` and ``b``; a Dou Dizhu room node ``a`` owns."""
    with (
        redis_keys() as (prefix, client),
        fresh_postgres("friends") as url,
        contextlib.ExitStack() as stack,
    ):
        halls = {}
        for node in ("a", "b"):
            config = dataclasses.replace(
                fast_config(url), redis_url=REDIS, node_id=node, redis_prefix=prefix, matches=()
            )
            halls[node] = stack.enter_context(running_hall(config))
        for _ in range(100):  # the rooms are shared out as the nodes start
            owned = [r for r in halls["a"].hall.rooms if room_owner(client, prefix, r) == "a"]
            if any(room.startswith("doudizhu") for room in owned):
                yield halls, next(room for room in owned if room.startswith("doudizhu"))
                return
            time.sleep(0.1)
        raise AssertionError("node a owns no room")


def test_a_friend_held_by_the_other_node_shows_online(
    nodes: tuple[dict[str, RunningHall], str],
) -> None:
    halls, room = nodes

    async def scenario() -> None:
        async with HallClient(halls["a"].url) as on_a, HallClient(halls["b"].url) as on_b:
            kim = await on_a.register("kim-n", PASSWORD)
            lee = await on_a.register("lee-n", PASSWORD)
            await on_a.request("POST", "/api/friends/lee-n", kim.token)
            await on_b.request("POST", "/api/friends/kim-n", lee.token)
            async with on_b.connect(lee.token) as conn:  # his socket on b…
                await conn.send({"type": "join", "room": room})  # …his seat on a
                await until(conn, of_type("snapshot"))
                (seen_from_b,) = await on_b.request("GET", "/api/friends", kim.token)
                assert (seen_from_b["online"], seen_from_b["where"]) == (True, None)
                (seen_from_a,) = await on_a.request("GET", "/api/friends", kim.token)
                assert seen_from_a["online"] is True
                assert seen_from_a["where"] == {"kind": "room", "room": room}

    asyncio.run(scenario())
