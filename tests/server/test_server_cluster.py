"""A hall process as a node of a cluster (``qipai serve --redis``), over real sockets, a
real Redis and SQLite: it beats, plays each hand under its table's lease, settles with the
lease's fencing token and gives the lease back; starting again it voids only its own
hands.  (Several nodes together, and losing one, are the next steps.)"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import httpx
import redis
from server_kit import fast_config, play_hand, running_hall
from sqlalchemy import select

from qipai.client.connection import HallClient
from qipai.store import HandStart, Store
from qipai.store.schema import hands

REDIS = os.environ.get("QIPAI_TEST_REDIS", "redis://127.0.0.1:6379/0")


def test_a_node_plays_under_its_table_leases(tmp_path: Path) -> None:
    node = f"test-{uuid.uuid4().hex[:12]}"
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    config = dataclasses.replace(fast_config(url), redis_url=REDIS, node_id=node)
    client = redis.Redis.from_url(REDIS)
    try:
        with running_hall(config) as hall:
            assert client.exists(f"qipai:node:{node}")  # beating
            ready = httpx.get(f"{hall.url}/readyz").json()
            assert ready == {"ok": True, "database": True, "redis": True}
            assert f'node="{node}"' in httpx.get(f"{hall.url}/metrics").text
            over = asyncio.run(_one_hand(hall.url))
            table = over["table"]
            resource = f"table:{node}:{table}"
        token = int(client.get(f"qipai:token:{resource}") or 0)
        with Store.open(url) as store:
            assert store.fence_token(resource) == token > 0  # settled under the table's lease
            with store.read() as connection:
                query = select(hands.c.node).where(hands.c.id == over["hand"])
                assert connection.execute(query).scalar() == node
        assert not client.exists(f"qipai:lease:{resource}")  # given back
    finally:
        keys = list(client.scan_iter(f"qipai:*{node}*"))
        if keys:
            client.delete(*keys)
        client.srem("qipai:nodes", node)
        client.close()


async def _one_hand(url: str) -> dict[str, object]:
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            _, over = await play_hand(conn, "doudizhu-yifa")
            return over


def test_a_node_starting_again_voids_only_its_own_hands(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'hall.db'}") as store:
        now = datetime(2026, 12, 2, tzinfo=UTC)
        nodes = (("a1", "a"), ("b1", "b"), ("solo", None))
        store.start_hands([_bot_hand(hand, node, now) for hand, node in nodes])
        assert store.void_interrupted(now, node="a") == ["a1"]
        assert store.void_interrupted(now) == ["b1", "solo"]  # a hall alone: every one


def test_a_node_voids_the_hands_of_a_node_that_stopped(tmp_path: Path) -> None:
    """Node ``dead`` dealt a hand and stopped beating: the live node sees it within a
    beat's time to live, voids that hand (its own hands stay) and forgets the node."""
    node, dead = (f"test-{uuid.uuid4().hex[:12]}" for _ in range(2))
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    now = datetime.now(UTC)
    with Store.open(url) as store:
        store.start_hands([_bot_hand("lost", dead, now)])
    client = redis.Redis.from_url(REDIS)
    client.sadd("qipai:nodes", dead)  # listed, with no beat: it stopped
    config = dataclasses.replace(fast_config(url), redis_url=REDIS, node_id=node)
    try:
        with running_hall(config):
            deadline = time.monotonic() + 10
            while client.sismember("qipai:nodes", dead) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not client.sismember("qipai:nodes", dead)  # taken over, forgotten
        with Store.open(url) as store, store.read() as connection:
            status = select(hands.c.status).where(hands.c.id == "lost")
            assert connection.execute(status).scalar() == "voided"
    finally:
        for key in client.scan_iter("qipai:*"):
            if node in key.decode() or dead in key.decode():
                client.delete(key)
        client.srem("qipai:nodes", node, dead)
        client.close()


def _bot_hand(hand: str, node: str | None, now: datetime) -> HandStart:
    return HandStart(
        hand, "doudizhu-yifa", "doudizhu", "yifa", table=1, commitment="0" * 64,
        players=(None, None, None), started_at=now, node=node,
    )  # fmt: skip
