"""Friends on a hall of two nodes (``--redis``, one PostgreSQL): either node says where a
friend is, whichever node holds him or his socket; an invitation from a table on one node
reaches a friend whose socket is on the other, and his 加入 joins it; a new password closes
the account's other connections on every node."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from nodes_kit import room_owner, two_halls
from server_kit import RunningHall
from websockets.exceptions import ConnectionClosed
from wire_kit import of_type, until

from qipai.client.connection import ClientSession, HallClient

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def nodes() -> Iterator[tuple[dict[str, RunningHall], str]]:
    """Nodes ``a`` and ``b`` (each has seen the other's beat: whom a node asks of where
    a friend is); a Dou Dizhu room node ``a`` owns."""
    with two_halls("friends") as (halls, _, prefix, client):
        for _ in range(100):  # the rooms are shared out, the nodes see each other's beats
            owned = [r for r in halls["a"].hall.rooms if room_owner(client, prefix, r) == "a"]
            seen = all(set(halls[n].hall.cluster.said) == {"a", "b"} for n in halls)
            if seen and any(room.startswith("doudizhu") for room in owned):
                yield halls, next(room for room in owned if room.startswith("doudizhu"))
                return
            time.sleep(0.1)
        raise AssertionError("node a owns no room")


async def _friends(
    on_a: HallClient, on_b: HallClient, first: str, second: str
) -> tuple[ClientSession, ClientSession]:
    """Two new accounts, friends: the first asks on node a, the second accepts on node b."""
    one, two = [await on_a.register(name, PASSWORD) for name in (first, second)]
    await on_a.request("POST", f"/api/friends/{second}", one.token)
    await on_b.request("POST", f"/api/friends/{first}", two.token)
    return one, two


def test_either_node_says_where_a_friend_is(
    nodes: tuple[dict[str, RunningHall], str],
) -> None:
    halls, room = nodes

    async def scenario() -> None:
        async with HallClient(halls["a"].url) as on_a, HallClient(halls["b"].url) as on_b:
            kim, lee = await _friends(on_a, on_b, "kim-n", "lee-n")
            async with on_b.connect(lee.token) as conn:  # his socket on b…
                await conn.send({"type": "join", "room": room})  # …his seat on a
                await until(conn, of_type("snapshot"))
                where = {"kind": "room", "room": room}
                for client in (on_a, on_b):
                    (seen,) = await client.request("GET", "/api/friends", kim.token)
                    assert (seen["online"], seen["where"]) == (True, where)

    asyncio.run(scenario())


def test_an_invitation_and_a_password_change_cross_the_nodes(
    nodes: tuple[dict[str, RunningHall], str],
) -> None:
    halls, _ = nodes

    async def scenario() -> None:
        async with HallClient(halls["a"].url) as on_a, HallClient(halls["b"].url) as on_b:
            max_, ned = await _friends(on_a, on_b, "max-n", "ned-n")
            other = await on_b.login("ned-n", PASSWORD)
            async with (
                on_a.connect(max_.token) as owner,
                on_b.connect(ned.token) as friend,
                on_b.connect(other.token) as elsewhere,
            ):
                for conn in (owner, friend, elsewhere):
                    await conn.send({"type": "ping"})  # answered once linked
                    await until(conn, of_type("pong"))
                create = {"type": "private_create", "game": "doudizhu", "rules": "huanle"}
                await owner.request(create)
                table = await until(owner, of_type("private_table"))
                # asked of node b: the table is on a (max's claim), ned's socket on b
                assert await on_b.request("POST", "/api/friends/ned-n/invite", max_.token) == {
                    "ok": True
                }
                frame = await until(friend, of_type("invite"))
                assert (frame["name"], frame["code"]) == ("max-n", table["code"])
                await friend.request({"type": "private_join", "code": frame["code"]})
                assert (await until(friend, of_type("private_table")))["you"] == 1
                # a new password asked of node a closes ned's other session's socket on b
                body = {"password": PASSWORD, "new_password": "another secret"}
                await on_a.request("POST", "/api/me/password", ned.token, json=body)
                with pytest.raises(ConnectionClosed):
                    await until(elsewhere, lambda frame: False)

    asyncio.run(scenario())
