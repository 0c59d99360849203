"""Two hall processes as one hall (``--redis``), in this process, on one PostgreSQL and one
Redis, over real sockets: a player's socket may reach either node; the node that owns his
room holds him and plays his hand; his messages and frames cross between the nodes; he
comes back on either one and finds his hand where it was."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from fuzz_kit import hall_log, problems
from nodes_kit import room_owner, two_halls
from outage_kit import failing
from refusal_kit import hello_refusal
from server_kit import RunningHall, play_hand
from sqlalchemy import select
from wire_kit import of_type, until

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient
from qipai.store import Store
from qipai.store.audit import audit
from qipai.store.schema import hands


@dataclasses.dataclass
class Pair:
    """Two nodes of one hall, and what they share."""

    nodes: dict[str, RunningHall]
    db_url: str
    prefix: str
    redis: redis.Redis

    def owner(self, room: str) -> str | None:
        """The node that owns ``room`` now."""
        return room_owner(self.redis, self.prefix, room)


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    with two_halls("nodes") as (nodes, url, prefix, client):
        yield Pair(nodes, url, prefix, client)


def _room_of(pair: Pair, node: str, game: str = "doudizhu") -> str:
    """A room of ``game`` owned by ``node`` (the rooms are shared out as the nodes start:
    wait until one is)."""
    rooms = list(pair.nodes[node].hall.rooms)
    for _ in range(100):
        for room in rooms:
            if room.startswith(game) and pair.owner(room) == node:
                return room
        time.sleep(0.1)
    raise AssertionError(f"node {node} owns no {game} room")


def test_a_player_on_one_node_plays_in_a_room_of_the_other(pair: Pair) -> None:
    room = _room_of(pair, "a")
    calls_before = _metric(pair.nodes["b"].url, "qipai_node_call_seconds_count")
    user, frames, over = asyncio.run(_hand_through(pair.nodes["b"].url, room))
    assert [f["type"] for f in frames][:1] == ["queued"]  # from node a, through node b
    # every message of his crossed to node a: a call each, timed
    calls = _metric(pair.nodes["b"].url, "qipai_node_call_seconds_count") - calls_before
    assert calls >= sum(f["type"] == "ack" for f in frames) > 0
    assert _metric(pair.nodes["a"].url, "qipai_node_messages_sent_total") >= len(frames)
    with Store.open(pair.db_url) as store:
        assert audit(store) == []
        assert [row.hand_id for row in store.history(user, limit=1)] == [over["hand"]]
        with store.read() as connection:
            query = select(hands.c.node).where(hands.c.id == over["hand"])
            assert connection.execute(query).scalar() == "a"  # played where the room is


def _metric(url: str, name: str) -> float:
    """The value of ``name`` in the node's ``/metrics``."""
    for line in httpx.get(f"{url}/metrics").text.splitlines():
        if line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no {name}")


async def _hand_through(url: str, room: str) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    """A new guest plays one hand of ``room`` with his socket on ``url``."""
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            frames, over = await play_hand(conn, room)
            return session.user, frames, over


@pytest.mark.parametrize("back_on", ["a", "b"])
def test_a_player_comes_back_on_either_node_to_his_hand(pair: Pair, back_on: str) -> None:
    """He leaves node b's socket at his first decision and comes back on ``back_on`` with
    his last event numbers: he gets what he missed (or, if 托管 finished the hand
    meanwhile, how it ended) and the hand's ``hand_over``."""
    room = _room_of(pair, "a")
    hand, over = asyncio.run(_come_back(pair, room, pair.nodes[back_on].url))
    assert over["hand"] == hand


async def _come_back(pair: Pair, room: str, back_url: str) -> tuple[str, dict[str, Any]]:
    async with HallClient(pair.nodes["b"].url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": room})
            hand = await _until_first_decision(conn)
            assert pair.redis.get(f"{pair.prefix}:player:{session.user}") == b"a"
            last = dict(conn.last)
    async with HallClient(back_url) as client, client.connect(session.token, last=last) as conn:
        await conn.send({"type": "leave"})
        player = AutoPlayer(lambda legal: legal[0])
        async with asyncio.timeout(60):
            async for frame in conn:
                if frame["type"] == "hand_over":
                    return hand, frame
                reply = player.on_frame(frame)
                if reply is not None:
                    await conn.send(reply)
    raise AssertionError("unreachable")


async def _until_first_decision(conn: Any) -> str:
    """Play the hand's opening (entropy) up to the player's first decision; the hand id."""
    player = AutoPlayer(lambda legal: legal[0])
    hand = ""
    async with asyncio.timeout(60):
        async for frame in conn:
            hand = frame.get("hand", hand) if frame["type"] == "hand_start" else hand
            if frame["type"] == "turn" and frame.get("legal"):
                return hand
            reply = player.on_frame(frame)
            if reply is not None and reply["type"] != "act":
                await conn.send(reply)
    raise AssertionError("unreachable")


def test_a_link_the_holder_forgot_is_linked_again(pair: Pair) -> None:
    """Node a (the holder) closes what it served for node b, as when b seemed gone for a
    beat (paused) and came back before being taken over: b's next call is refused
    ``not_attached``; b links the connection again, and the player plays his hand on."""
    room = _room_of(pair, "a")
    frames = asyncio.run(_play_on_after_the_holder_forgot(pair, room))
    assert any(f["type"] == "error" and f["code"] == "cluster_unavailable" for f in frames)
    assert frames[-1]["type"] == "hand_over"


async def _play_on_after_the_holder_forgot(pair: Pair, room: str) -> list[dict[str, Any]]:
    holder = pair.nodes["a"]
    async with HallClient(pair.nodes["b"].url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": room})
            await _until_first_decision(conn)
            forgotten: concurrent.futures.Future[None] = concurrent.futures.Future()

            def forget() -> None:
                holder.app.state.gateway.census({"a"}, set())
                forgotten.set_result(None)

            holder.hall._matcher.get_loop().call_soon_threadsafe(forget)
            await asyncio.wrap_future(forgotten)  # a serves b's links no more
            await conn.send({"type": "resync"})
            player = AutoPlayer(lambda legal: legal[0])
            frames: list[dict[str, Any]] = []
            async with asyncio.timeout(60):
                async for frame in conn:
                    frames.append(frame)
                    if frame["type"] == "hand_over":
                        return frames
                    reply = player.on_frame(frame)
                    if reply is not None and reply["type"] == "act":
                        await conn.act(reply["action"], reply.get("table"))
                    elif reply is not None:
                        await conn.send(reply)
    raise AssertionError("unreachable")


def test_either_node_counts_the_players_of_every_room(pair: Pair) -> None:
    """The lobby's 在线 N 人 (``GET /api/rooms/online``) from any node: a player seated in a
    room of node a, his socket on node b, is counted by both (node b from a's beat)."""
    room = _room_of(pair, "a", "zhajinhua")  # (the other tests play Dou Dizhu)
    counts = asyncio.run(_counts_while_seated(pair, room))
    assert counts == {"a": 1, "b": 1}


async def _counts_while_seated(pair: Pair, room: str) -> dict[str, int]:
    async with HallClient(pair.nodes["b"].url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": room})
            await _until_first_decision(conn)
            counts: dict[str, int] = {}
            async with asyncio.timeout(10):  # node a beats every second
                while counts != {"a": 1, "b": 1}:
                    await asyncio.sleep(0.2)
                    for node, running in pair.nodes.items():
                        async with httpx.AsyncClient() as http:
                            online = (await http.get(f"{running.url}/api/rooms/online")).json()
                        counts[node] = online["rooms"].get(room, {}).get("people", 0)
            return counts


def test_a_call_that_fails_on_the_holder_is_answered_at_once_and_logged_in_a_line(
    pair: Pair,
) -> None:
    """Node a's database stops answering while a player whose socket is on node b joins a
    room of a: he is answered ``server_error`` at once, as on a hall of one node, and node
    a logs one line for the call, no traceback (before: ``cluster_unavailable`` after 8 s
    of joins tried again, each logged with its traceback)."""
    room = _room_of(pair, "a")
    with hall_log() as records:
        answer = asyncio.run(_join_while_a_is_down(pair, room))
    assert answer["code"] == "server_error", answer
    failed = [r for r in records if r.name == "qipai.server.edge.gateway"]
    assert [r.levelname for r in failed] == ["WARNING"], [r.getMessage() for r in failed]
    assert "call for node b failed: ConnectionError" in failed[0].getMessage()
    assert problems(records) == []  # no traceback, no error


async def _join_while_a_is_down(pair: Pair, room: str) -> dict[str, Any]:
    async with HallClient(pair.nodes["b"].url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            with failing(pair.nodes["a"].hall.db.store, "balance"):  # a join reads it
                await conn.send({"type": "join", "room": room})
                answer: dict[str, Any] = await until(conn, of_type("error"))
            await conn.send({"type": "ping", "t": 1})  # the connection stays
            await until(conn, of_type("pong"))
            return answer


def test_a_hello_whose_holder_fails_is_answered_at_once_and_logged_in_a_line(pair: Pair) -> None:
    """A player at a table of node a comes back on node b while a's database does not
    answer (reading his notices): b's attach is answered ``server_error`` and the
    connection closed 1012 (come back) at once, a line in a's log (before: attached again
    and again for 15 s without a pause, each failure logged with its traceback, then
    ``cluster_unavailable``)."""
    room = _room_of(pair, "a")
    token = asyncio.run(_seated_through_b(pair, room))
    holder = pair.nodes["a"].hall
    working = holder.notices

    async def down(user: int) -> list[Any]:
        raise ConnectionError("the database does not answer")

    with hall_log() as records:
        holder.notices = down
        try:
            frame, code = asyncio.run(hello_refusal(pair.nodes["b"].url, token))
        finally:
            holder.notices = working
    assert (frame["code"], code) == ("server_error", 1012), (frame, code)
    failed = [r for r in records if r.name == "qipai.server.edge.gateway"]
    assert [r.getMessage()[:22] for r in failed] == ["attach for node b fail"], failed
    assert problems(records) == []


async def _seated_through_b(pair: Pair, room: str) -> str:
    """A new guest, his socket on node b, seated at a table of ``room`` (node a's) and
    gone at his first decision; his token."""
    async with HallClient(pair.nodes["b"].url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": room})
            await _until_first_decision(conn)
    return session.token


def test_a_players_watch_by_name_choice_goes_with_him_to_the_other_nodes_room(
    pair: Pair,
) -> None:
    """Ann, her socket on node b, turns watching by her name off, then joins a room of
    node a (which holds her from then on): Eve, on node a, cannot watch her by name until
    Ann turns it back to the default."""
    asyncio.run(_choice_across(pair, _room_of(pair, "a")))


async def _choice_across(pair: Pair, room: str) -> None:
    async def answer(conn: Any, message: dict[str, Any]) -> dict[str, Any]:
        pending = await conn.request(message)
        async with asyncio.timeout(10):
            while not pending.done():
                await conn.recv()
        return dict(pending.result())

    async with HallClient(pair.nodes["b"].url) as on_b, HallClient(pair.nodes["a"].url) as on_a:
        ann, eve = await on_b.guest(), await on_a.guest()
        async with on_b.connect(ann.token) as a, on_a.connect(eve.token) as e:
            off = {"type": "watch_by_name", "allow": False}
            assert (await answer(a, off))["type"] == "ack"  # told node b, which holds her now
            await a.send({"type": "join", "room": room})
            async with asyncio.timeout(10):
                while (await a.recv())["type"] != "snapshot":
                    pass
            by_name = {"type": "spectate", "player": ann.name}
            assert (await answer(e, by_name))["code"] == "not_playing"
            default = {"type": "watch_by_name", "allow": None}
            assert (await answer(a, default))["type"] == "ack"
            assert (await answer(e, by_name))["type"] == "ack"
