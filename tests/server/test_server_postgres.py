"""The hall on PostgreSQL: hands of several rooms at once through real sockets, settled in
the ledger, every player's coins as his hands say, and a clean audit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import RunningHall, play_hand, running_hall
from wire_kit import (
    TOGETHER,
    Player,
    config_with,
    fresh_postgres,
    guests,
    of_type,
    play_all,
    room_like,
    seat_together,
)

from qipai.client.connection import HallClient
from qipai.store import Store
from qipai.store.audit import audit

ALONE = ("doudizhu-yifa", "doudizhu-huanle", "doudizhu-jj", "doudizhu-caishen", "showhand-yifa")
"""Rooms where one player sits with bots, two hands each."""
TOGETHER = room_like("zhajinhua-yifa", "pg-together", bot_wait=TOGETHER)
"""The room where three players share a table (they join at once, bots after 0.5 s)."""


@pytest.fixture(scope="module")
def hall() -> Iterator[RunningHall]:
    """A hall on a new PostgreSQL database."""
    with fresh_postgres("hall") as url, running_hall(config_with(url, TOGETHER)) as running:
        yield running


def test_hands_of_several_rooms_settle_on_postgresql(hall: RunningHall) -> None:
    results = asyncio.run(_play(hall.url))
    assert len(results) == len(ALONE) + 3
    with Store.open(hall.db_url) as store:
        assert store.dialect == "postgresql"
        assert audit(store) == []  # every hand settled once, every transaction balanced
        for user, nets in results:
            assert store.balance(user) == 10_000 + sum(nets)
            assert store.profile(user).hands == len(nets)


async def _play(url: str) -> list[tuple[int, list[int]]]:
    """Everybody plays at once; each player's id and results."""
    async with HallClient(url) as client:
        alone, together = await asyncio.gather(
            asyncio.gather(*(_alone(client, room) for room in ALONE)), _together(client)
        )
    return [*alone, *together]


async def _alone(client: HallClient, room: str) -> tuple[int, list[int]]:
    """One player, two hands in ``room``; his id and his results."""
    session = await client.guest()
    nets = []
    async with client.connect(session.token) as conn:
        for _ in range(2):
            frames, over = await play_hand(conn, room)
            seat = [f for f in frames if f["type"] == "snapshot"][-1]["seat"]
            nets.append(over["result"][seat])
            assert sum(over["result"]) + sum(over["rake"]) + sum(over["fees"]) == 0
            await _left(conn)
    return session.user, nets


async def _left(conn: Any) -> None:
    async with asyncio.timeout(20):
        while (await conn.recv())["type"] != "left":
            pass


async def _together(client: HallClient) -> list[tuple[int, list[int]]]:
    """Three players at one Zha Jin Hua table for a hand."""
    async with guests(client, 3) as players:
        await seat_together(players, TOGETHER.id)
        overs = await play_all(players, leave=True)
        assert all(over == overs[0] for over in overs)
        await asyncio.gather(*(p.until(of_type("left")) for p in players))
        return [_result(player, overs[0]) for player in players]


def _result(player: Player, over: dict[str, Any]) -> tuple[int, list[int]]:
    return player.session.user, [over["result"][player.seat]]
