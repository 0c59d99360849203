"""A snapshot is never ahead of its events: a ``resync`` answered while a finished hand is
being settled waits until the hand's last events (Showhand's ``Showdown``, ``HandEnded``)
have been sent, so that no client sees the end before the events that lead to it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import config_with, room_like

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient

ROOM = room_like("showhand-yifa", "order-showhand", seats=2, bot_wait=0.0)
SETTLING = 0.4
"""Seconds each settlement is held back, to open the window a resync used to slip into."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('order') / 'hall.db'}"
    with running_hall(config_with(url, ROOM)) as running:
        executor = running.hall.executor
        settle = executor._settle

        async def slow_settlement(effect: Any) -> None:
            await asyncio.sleep(SETTLING)
            await settle(effect)

        executor._settle = slow_settlement  # hands from now on settle slowly
        yield running


def test_a_resync_during_the_settlement_comes_after_the_last_events(
    hall: RunningHall, tmp_path: Path
) -> None:
    for frames in asyncio.run(_hands(hall.url, 3)):
        events = [f for f in frames if f["type"] == "event"]
        for at, frame in enumerate(frames):
            if frame["type"] != "snapshot":
                continue
            late = [e["n"] for e in frames[at:] if e["type"] == "event" and e["n"] <= frame["n"]]
            assert late == [], f"events {late} came after the snapshot of n={frame['n']}"
        assert any(e.get("event", {}).get("kind") == "HandEnded" for e in events)


async def _hands(url: str, count: int) -> list[list[dict[str, Any]]]:
    """Hands played with a ``resync`` after every action (the last one lands while the
    hand is being settled); every frame of each."""
    hands = []
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            for _ in range(count):
                hands.append(await _one_hand(conn))
    return hands


async def _one_hand(conn: Any) -> list[dict[str, Any]]:
    """One hand, every action followed by a ``resync``; the player asks to leave at his
    first action (out once the hand is over: a ``leave`` sent after ``hand_over`` could
    find him already seated at the room's next table, bots joining at once, and playing
    its hand first); its frames until ``left``."""
    player = AutoPlayer(lambda legal: "showhand" if "showhand" in legal else legal[0])
    await conn.send({"type": "join", "room": ROOM.id})
    frames: list[dict[str, Any]] = []
    asked = False
    async with asyncio.timeout(30):
        async for frame in conn:
            frames.append(frame)
            reply = player.on_frame(frame)
            if reply is not None and reply["type"] == "act":
                await conn.act(reply["action"], reply.get("table"))
                await conn.send({"type": "resync"})
                if not asked:
                    await conn.send({"type": "leave"})
                    asked = True
            if frame["type"] == "left":
                break
    assert any(f["type"] == "hand_over" for f in frames)
    return frames
