"""Redis lost under a node (``--redis``): the hall refuses new hands with a clear error and
moves no coin.  The node runs on a Redis of the test's own, stopped mid-play: ``/readyz``
says so (503, ``redis: false``), a join is refused with ``cluster_unavailable``, and a
table that plays on (a room that keeps its tables) does not deal its next hand: its
player is told why (``error`` ``cluster_unavailable``) and is out of the room (``left``).
His coins are what his one settled hand made them, and the ledger audits clean.

Redis started again, empty (no persistence): the node does not take itself for taken
over (its connections stay open), takes its room again, and the same player joins and
plays a hand that settles (its table's lease token is above every one given before)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from outage_kit import OwnRedis
from server_kit import fast_config, running_hall

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient
from qipai.hall.rooms import default_rooms
from qipai.server.edge.app import ServerConfig
from qipai.store import Store
from qipai.store.audit import audit

KEEPS_TABLES = "doudizhu-zhengtu"
"""A room whose tables play on (``regroup = false``)."""


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A Redis server of this test's own."""
    server = OwnRedis(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def test_a_node_without_redis_refuses_hands_and_moves_no_coin(
    tmp_path: Path, own_redis: OwnRedis
) -> None:
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    with running_hall(_config(db_url, own_redis)) as hall:
        _wait_ready(hall.url)
        coins, frames = asyncio.run(_play_then_lose_redis(hall.url, own_redis))
        refused = [f for f in frames if f["type"] == "error"]
        assert [f["code"] for f in refused] == ["cluster_unavailable"]
        assert any(f["type"] == "left" for f in frames)
        assert not any(f["type"] == "hand_start" for f in frames)  # no second hand
        ready = httpx.get(f"{hall.url}/readyz")
        assert (ready.status_code, ready.json()["redis"]) == (503, False)
        before, after, won = coins
        assert after == before + won
    with Store.open(db_url) as store:
        assert audit(store) == []


def test_a_node_plays_on_when_redis_comes_back_empty(tmp_path: Path, own_redis: OwnRedis) -> None:
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    with running_hall(_config(db_url, own_redis)) as hall:
        _wait_ready(hall.url)
        name, first, second = asyncio.run(_play_across_a_redis_restart(hall.url, own_redis))
        assert first["hand"] != second["hand"]
    with Store.open(db_url) as store:
        assert audit(store) == []
        user = store.user_by_name(name)
        assert user is not None
        settled = {row.hand_id for row in store.history(user.id)}
    assert {first["hand"], second["hand"]} <= settled


async def _play_across_a_redis_restart(
    url: str, server: OwnRedis
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A hand; Redis killed and started again empty; on the same connection, once the
    node answers again, a join and a second hand: the player's name, both ``hand_over``
    frames."""
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            _, first = await _one_hand(conn)
            server.stop()
            await _until_left(conn)
            server.start()
            async with asyncio.timeout(30):
                while not httpx.get(f"{url}/readyz").json()["redis"]:
                    await asyncio.sleep(0.2)
            async with asyncio.timeout(30):  # the room back at its node (a beat or two)
                while True:
                    _, second = await _one_hand(conn, tolerate_refusal=True)
                    if second:
                        return session.name, first, second
                    await asyncio.sleep(0.5)


def _config(db_url: str, server: OwnRedis) -> ServerConfig:
    [room] = [room for room in default_rooms() if room.id == KEEPS_TABLES]
    rooms = (dataclasses.replace(room, bot_wait=0.2),)
    return fast_config(
        db_url, rooms=rooms, hand_pause=3.0, redis_url=server.url, node_id="lonely"
    )


async def _play_then_lose_redis(
    url: str, server: OwnRedis
) -> tuple[tuple[int, int, int], list[dict[str, Any]]]:
    """A hand played to its end; Redis stopped before the table's next hand; what came
    then (until ``left``), a join refused; the coins before, after and won."""
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            frames, over = await _one_hand(conn)
            server.stop()
            after = await _until_left(conn)
            await conn.send({"type": "join", "room": KEEPS_TABLES})
            async with asyncio.timeout(30):
                answer = await conn.recv()
            assert (answer["type"], answer.get("code")) == ("error", "cluster_unavailable")
        me = await client.me(session.token)
    won = over["result"][_seat(frames)]
    return (session.coins, me["coins"], won), after


async def _one_hand(
    conn: Any, *, tolerate_refusal: bool = False
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Join the room and play a hand: the frames, and ``hand_over`` (``{}``: the join
    was refused ``cluster_unavailable``, where ``tolerate_refusal``)."""
    player = AutoPlayer(lambda legal: legal[0])
    frames: list[dict[str, Any]] = []
    await conn.send({"type": "join", "room": KEEPS_TABLES})
    async with asyncio.timeout(60):
        async for frame in conn:
            frames.append(frame)
            if frame["type"] == "hand_over":
                return frames, frame
            refused = frame["type"] == "error" and frame["code"] == "cluster_unavailable"
            if refused and tolerate_refusal:
                return frames, {}
            reply = player.on_frame(frame)
            if reply is not None and reply["type"] == "act":
                await conn.act(reply["action"], reply.get("table"))
            elif reply is not None:
                await conn.send(reply)
    raise AssertionError("unreachable")


async def _until_left(conn: Any) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(30):
        async for frame in conn:
            frames.append(frame)
            if frame["type"] == "left":
                return frames
    raise AssertionError("unreachable")


def _seat(frames: list[dict[str, Any]]) -> int:
    snapshot = next(f for f in frames if f["type"] == "snapshot")
    return int(snapshot["seat"])


def _wait_ready(url: str) -> None:
    assert httpx.get(f"{url}/readyz").json()["redis"] is True
