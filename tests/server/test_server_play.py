"""Whole hands through the real hall: HTTP, WebSocket, tables, settlement, history, audit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_kit import RunningHall, fast_config, play_hand, running_hall

from qipai.client.connection import HallClient, HallError
from qipai.hall.records import HandRecord, verify
from qipai.hall.rooms import default_rooms
from qipai.hall.seeds import commitment
from qipai.hall.table.botseats import BOT_NAMES, HIGH_FACTOR, HIGH_FLOOR, LOW_FACTOR, LOW_FLOOR
from qipai.store import Store
from qipai.store.audit import audit

ROOMS = {room.id: room for room in default_rooms()}


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('hall') / 'hall.db'}"
    with running_hall(fast_config(url)) as running:
        yield running


@pytest.mark.parametrize("room", list(ROOMS))
def test_a_lone_player_plays_a_hand_of_every_room(hall: RunningHall, room: str) -> None:
    result = asyncio.run(_one_hand(hall, room))
    frames, over, me_before, me_after, record = result
    seat = next(f["seat"] for f in frames if f["type"] == "snapshot")
    start = next(f for f in frames if f["type"] == "hand_start")
    assert over["hand"] == start["hand"]
    assert me_after["coins"] == me_before["coins"] + over["result"][seat]
    assert me_after["hands"] == me_before["hands"] + 1
    # provably fair: the seed revealed matches the commitment published before the deal
    assert commitment(int(over["seed"])) == start["commitment"]
    assert record["verified"] is True
    assert verify(HandRecord.from_json(_json(record["record"]))).ok
    numbers = [f["n"] for f in frames if f["type"] == "event"]
    assert numbers == list(range(1, len(numbers) + 1))  # no gap: placeholders fill them
    # the bots: nicknames, and coins of their own that cover the room's stakes (issue 27)
    players = next(f for f in frames if f["type"] == "snapshot")["players"]
    bots = [s for s, player in enumerate(players) if player["bot"]]
    assert bots and all(players[s]["name"] in BOT_NAMES for s in bots)
    assert len({player["name"] for player in players}) == len(players)
    low, high = _bot_range(ROOMS[room].min_coins)
    assert all(low <= over["coins"][s] - over["result"][s] <= high for s in bots)


async def _one_hand(
    hall: RunningHall, room: str
) -> tuple[list[dict[str, Any]], dict[str, Any], Any, Any, Any]:
    async with HallClient(hall.url) as client:
        session = await client.guest()
        _afford(hall, session.user, ROOMS[room].min_coins - session.coins)
        before = await client.me(session.token)
        async with client.connect(session.token) as conn:
            frames, over = await play_hand(conn, room)
        after = await client.me(session.token)
        record = await client.request("GET", f"/api/hands/{over['hand']}")
        history = await client.request("GET", "/api/history", session.token)
        assert history[0]["hand_id"] == over["hand"]
        return frames, over, before, after, record


def _afford(hall: RunningHall, user: int, missing: int) -> None:
    """Give a new player the coins he lacks for a room's minimum (a 高级场's is more than a
    new account's 10,000)."""
    if missing > 0:
        with Store.open(hall.db_url) as store:
            store.grant(user, missing, f"test:afford:{user}")


def _bot_range(min_coins: int) -> tuple[int, int]:
    return max(LOW_FACTOR * min_coins, LOW_FLOOR), max(HIGH_FACTOR * min_coins, HIGH_FLOOR)


def _json(value: Any) -> str:
    import json  # noqa: PLC0415

    return json.dumps(value)


def test_a_finished_hand_replays_with_its_players_and_every_card(hall: RunningHall) -> None:
    async def scenario() -> tuple[Any, ...]:
        async with HallClient(hall.url) as client:
            session = await client.guest()
            async with client.connect(session.token) as conn:
                frames, over = await play_hand(conn, "doudizhu-yifa")
            snapshot = next(f for f in frames if f["type"] == "snapshot")
            seat, names = snapshot["seat"], [p["name"] for p in snapshot["players"]]
            path = f"/api/hands/{over['hand']}"
            hand = await client.request("GET", path)
            replay = await client.request("GET", f"{path}/replay?seat={seat}")
            errors = []
            for bad in (f"{path}/replay?seat=3", f"{path}/replay?seat=x", "/api/hands/nope/replay"):
                with pytest.raises(HallError) as caught:
                    await client.request("GET", bad)
                errors.append(caught.value.code)
            return session.name, seat, names, hand, replay, errors

    name, seat, names, hand, replay, errors = asyncio.run(scenario())
    assert names[seat] == name and len(set(names)) == 3
    assert hand["seats"] == names  # the two bots named as at the table, never 机器人N
    steps = replay["steps"]
    assert replay["seat"] == seat
    assert [[s["seat"], s["action"]] for s in steps[1:]] == hand["record"]["actions"]
    dealt = steps[-1]["cards"]
    # every card revealed: the seat's own hand at the end, and all 54 accounted for
    assert sorted(steps[-1]["view"]["hand"]) == sorted(dealt["hands"][seat])
    assert sum(map(len, dealt["hands"])) + sum(map(len, dealt["played"])) == 54
    assert errors == ["bad_parameter", "bad_parameter", "unknown_hand"]


def test_answers_over_a_kibibyte_are_gzipped(hall: RunningHall) -> None:
    page = httpx.get(f"{hall.url}/js/strings.js", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "table.trustee" in page.text
    assert int(page.headers["content-length"]) < len(page.text.encode()) / 2
    assert "content-encoding" not in httpx.get(f"{hall.url}/healthz").headers  # too small


def test_the_ledger_is_clean_after_the_hands(
    hall: RunningHall, tmp_path_factory: pytest.TempPathFactory
) -> None:
    asyncio.run(_one_hand(hall, "doudizhu-huanle"))
    store = Store.open(hall.db_url)
    try:
        assert audit(store) == []
    finally:
        store.close()


def test_an_action_for_a_finished_table_is_refused_as_stale(hall: RunningHall) -> None:
    async def scenario() -> dict[str, Any]:
        async with HallClient(hall.url) as client:
            session = await client.guest()
            async with client.connect(session.token) as conn:
                # a regrouping room: its table ends with the hand (a zhengtu table plays on)
                _, over = await play_hand(conn, "doudizhu-yifa")
                answer = await conn.act("pass", table=over["table"])
                async with asyncio.timeout(10):
                    while not answer.done():
                        await conn.recv()
                return answer.result()

    answer = asyncio.run(scenario())
    assert answer["type"] == "error" and answer["code"] == "stale_table"
