"""A ban through one node of a hall of several closes the banned player's socket held by
another node at once (real PostgreSQL and Redis: the message goes to every node's inbox)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from nodes_kit import Cluster, cluster
from places_kit import waiting_room
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wire_kit import WAIT, ws_url

from qipai.cli import main

pytestmark = pytest.mark.postgres

PASSWORD = "a fine password"


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    tmp = tmp_path_factory.mktemp("console-nodes")
    with cluster(["c1", "c2"], waiting_room("con-0"), tmp, "console") as nodes:
        yield nodes


def _token(url: str, name: str) -> str:
    answer = httpx.post(f"{url}/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


async def _banned_elsewhere(hall: Cluster) -> tuple[str, int | None, float]:
    first, second = hall.urls
    moderator = _token(first, "nodes-moderator")
    role = ["admin", "add", "nodes-moderator", "--role", "moderator", "--db", hall.db_url]
    assert main(role) == 0
    token = _token(second, "nodes-cheat")
    async with connect(ws_url(second), compression=None) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(await socket.recv())["type"] == "welcome"
        ban = await asyncio.to_thread(
            httpx.post, f"{first}/api/admin/players/nodes-cheat/ban",
            headers={"authorization": f"Bearer {moderator}"},
            json={"reason": "a second account", "until": None}, timeout=WAIT,
        )  # fmt: skip
        assert ban.status_code == 200, ban.text
        loop = asyncio.get_running_loop()
        banned_at, code = loop.time(), ""
        with contextlib.suppress(ConnectionClosed):
            async with asyncio.timeout(WAIT):
                while True:
                    frames: Any = json.loads(await socket.recv())
                    for frame in frames if isinstance(frames, list) else [frames]:
                        code = frame.get("code", code)
        return code, socket.close_code, loop.time() - banned_at


def test_a_ban_on_one_node_closes_the_socket_another_node_holds(hall: Cluster) -> None:
    code, close, took = asyncio.run(_banned_elsewhere(hall))
    assert (code, close) == ("session_ended", 4003)
    assert took < 1.0
