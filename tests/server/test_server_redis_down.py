"""Redis lost under a node (``--redis``): the hall refuses new hands with a clear error and
moves no coin.  The node runs on a Redis of the test's own, stopped mid-play: ``/readyz``
says so (503, ``redis: false``), a join is refused with ``cluster_unavailable``, and a
table that plays on (a room that keeps its tables) does not deal its next hand: its
player is told why (``error`` ``cluster_unavailable``) and is out of the room (``left``).
His coins are what his one settled hand made them, and the ledger audits clean."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from process_kit import free_port
from server_kit import fast_config, running_hall

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient
from qipai.hall.rooms import default_rooms
from qipai.store import Store
from qipai.store.audit import audit

KEEPS_TABLES = "doudizhu-zhengtu"
"""A room whose tables play on (``regroup = false``)."""


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis server of this test's own (to stop), and its URL."""
    server = shutil.which("redis-server")
    assert server is not None, "this test needs redis-server (Debian: apt-get install redis-server)"
    port = free_port()
    command = [server, "--port", str(port), "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([*command, "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.kill()
        process.wait(10)


def test_a_node_without_redis_refuses_hands_and_moves_no_coin(
    tmp_path: Path, own_redis: tuple[str, subprocess.Popen[bytes]]
) -> None:
    url, redis_process = own_redis
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    [room] = [room for room in default_rooms() if room.id == KEEPS_TABLES]
    rooms = (dataclasses.replace(room, bot_wait=0.2),)
    config = fast_config(db_url, rooms=rooms, hand_pause=3.0, redis_url=url, node_id="lonely")
    with running_hall(config) as hall:
        _wait_ready(hall.url)
        coins, frames = asyncio.run(_play_then_lose_redis(hall.url, redis_process))
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


async def _play_then_lose_redis(
    url: str, redis_process: subprocess.Popen[bytes]
) -> tuple[tuple[int, int, int], list[dict[str, Any]]]:
    """A hand played to its end; Redis stopped before the table's next hand; what came
    then (until ``left``), a join refused; the coins before, after and won."""
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            frames, over = await _one_hand(conn)
            redis_process.kill()
            redis_process.wait(10)
            after = await _until_left(conn)
            await conn.send({"type": "join", "room": KEEPS_TABLES})
            async with asyncio.timeout(30):
                answer = await conn.recv()
            assert (answer["type"], answer.get("code")) == ("error", "cluster_unavailable")
        me = await client.me(session.token)
    won = over["result"][_seat(frames)]
    return (session.coins, me["coins"], won), after


async def _one_hand(conn: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    player = AutoPlayer(lambda legal: legal[0])
    frames: list[dict[str, Any]] = []
    await conn.send({"type": "join", "room": KEEPS_TABLES})
    async with asyncio.timeout(60):
        async for frame in conn:
            frames.append(frame)
            if frame["type"] == "hand_over":
                return frames, frame
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
