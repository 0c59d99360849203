"""The economy 福利 through a real hall: check-in, relief and the daily tasks over HTTP,
with hands really played (``docs/hall.md``, "The economy")."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_kit import RunningHall, play_hand, running_hall
from sqlalchemy import select
from wire_kit import config_with, of_type, room_like, until

from qipai.client.connection import HallClient
from qipai.errors import InvalidActionError
from qipai.hall.economy.settings import EconomySettings, TaskSpec
from qipai.hall.records import HandRecord, replay_steps
from qipai.registry import game_type
from qipai.server.serve import rooms_from
from qipai.store import Store
from qipai.store.audit import audit
from qipai.store.schema import hand_seats

ROOM = room_like("doudizhu-yifa", "eco-play", min_coins=10_500)
"""The one room: a new player's 10,000 coins are too few, so he is broke."""
ECONOMY = EconomySettings(
    relief_coins=1000, relief_guests=True, relief_min_account_hours=0, tasks_per_day=2,
    tasks=(TaskSpec("play_1", "玩1局", "Play a hand", 1, 100),
           TaskSpec("win_9", "赢9局", "Win 9 hands", 9, 900, count="won")),
)  # fmt: skip


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall whose only room needs 10,500 coins."""
    url = f"sqlite:///{tmp_path_factory.mktemp('economy') / 'hall.db'}"
    config = dataclasses.replace(config_with(url), rooms=(ROOM,), economy=ECONOMY)
    with running_hall(config) as running:
        yield running


@pytest.fixture
def http(hall: RunningHall) -> Iterator[httpx.Client]:
    """A plain HTTP client of the hall."""
    with httpx.Client(base_url=hall.url, timeout=30) as client:
        yield client


def _guest(http: httpx.Client) -> dict[str, str]:
    token = http.post("/api/guest").json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _refused(response: httpx.Response) -> str:
    assert response.status_code == 409, response.text
    body = response.json()
    assert set(body) == {"error", "message"}
    return str(body["error"])


def test_a_check_in_pays_once_and_shows_in_the_economy(http: httpx.Client) -> None:
    auth = _guest(http)
    before = http.get("/api/me/economy", headers=auth).json()
    assert before["checked_in"] is False and before["streak"] == 0
    assert before["next_checkin"] == 300 and before["broke"] is True
    assert before["broke_line"] == 10_500 and before["relief_left"] == 3
    paid = http.post("/api/me/checkin", headers=auth).json()
    assert paid == {"paid": 300, "coins": 10_300, "streak": 1}
    assert _refused(http.post("/api/me/checkin", headers=auth)) == "already_checked_in"
    after = http.get("/api/me/economy", headers=auth).json()
    assert after["checked_in"] is True and after["coins"] == 10_300 and after["streak"] == 1
    assert http.post("/api/me/checkin").status_code == 401


def test_two_check_ins_at_once_pay_once(hall: RunningHall, http: httpx.Client) -> None:
    auth = _guest(http)
    codes: Counter[int] = Counter()
    start = threading.Barrier(6)

    def check_in() -> None:
        with httpx.Client(base_url=hall.url, timeout=30) as client:
            start.wait()
            codes[client.post("/api/me/checkin", headers=auth).status_code] += 1

    threads = [threading.Thread(target=check_in) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes == Counter({200: 1, 409: 5})
    assert http.get("/api/me", headers=auth).json()["coins"] == 10_300


def test_a_broke_player_takes_relief_plays_and_claims_his_task(hall: RunningHall) -> None:
    hand = asyncio.run(_relief_then_play(hall.url))
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []
        record = store.hand_record(hand)
        with store.read() as connection:
            stored = connection.execute(
                select(hand_seats.c.feats).where(hand_seats.c.hand_id == hand)
                .order_by(hand_seats.c.seat)
            ).scalars().all()  # fmt: skip
    assert record is not None
    parsed = HandRecord.from_json(record)
    *_, (_, state) = replay_steps(parsed)
    feats = game_type(parsed.game).feats(state)  # what the game says the seats did
    assert stored == [",".join(sorted(names)) or None for names in feats]


async def _relief_then_play(url: str) -> str:
    """Relief, a hand played, its task claimed; the hand's id."""
    async with HallClient(url) as client, httpx.AsyncClient(base_url=url, timeout=30) as http:
        session = await client.guest()
        auth = {"Authorization": f"Bearer {session.token}"}
        async with client.connect(session.token) as conn:
            await conn.send({"type": "join", "room": ROOM.id})
            refused = await until(conn, lambda f: f["type"] in ("error", "queued"))
            assert refused["code"] == "not_enough_coins"
            paid = (await http.post("/api/me/relief", headers=auth)).json()
            assert paid == {"paid": 1000, "coins": 11_000, "relief_left": 2}
            tasks = (await http.get("/api/me/tasks", headers=auth)).json()["tasks"]
            assert [(t["id"], t["progress"], t["claimed"]) for t in tasks] == [
                ("play_1", 0, False), ("win_9", 0, False)
            ]  # fmt: skip
            claim = await http.post("/api/me/tasks/play_1/claim", headers=auth)
            assert _refused(claim) == "task_not_done"
            assert _refused(await http.post("/api/me/tasks/nope/claim", headers=auth)) == (
                "unknown_task"
            )
            asked: list[str] = []

            def choose(legal: list[str]) -> str:
                if not asked:  # his first decision: the hand waits for him, he is in it
                    # asked from here (the client's loop waits for the answer), not beside
                    # the hand: that plays on at once, and on a busy machine ended first
                    with httpx.Client(base_url=url, timeout=30) as blocking:
                        asked.append(_refused(blocking.post("/api/me/relief", headers=auth)))
                return legal[0]

            _, over = await play_hand(conn, ROOM.id, choose=choose)
            assert asked == ["in_hand"]
            await until(conn, of_type("left"))
        coins = (await http.get("/api/me", headers=auth)).json()["coins"]
        relief = await http.post("/api/me/relief", headers=auth)
        if coins >= ROOM.min_coins:
            assert _refused(relief) == "not_broke"
        else:  # he lost below the line again: a second relief
            assert relief.json()["paid"] == 1000
            coins += 1000
        done = (await http.post("/api/me/tasks/play_1/claim", headers=auth)).json()
        assert done["paid"] == 100 and done["coins"] == coins + 100
        assert done["task"]["claimed"] is True and done["task"]["progress"] == 1
        again = await http.post("/api/me/tasks/play_1/claim", headers=auth)
        assert _refused(again) == "task_claimed"
        return str(over["hand"])


def test_the_config_file_gives_the_economy(tmp_path: Path) -> None:
    shipped = rooms_from(None)
    assert shipped.economy == EconomySettings()
    path = tmp_path / "rooms.toml"
    room = '[[room]]\nid = "x"\nname = "x"\ngame = "doudizhu"\nrules = "yifa"\n'
    path.write_text(f'[economy]\nrelief_coins = 5\ntimezone = "UTC"\n{room}', "utf-8")
    assert rooms_from(str(path)).economy == EconomySettings(timezone="UTC", relief_coins=5)
    path.write_text(f'[economy]\ntimezone = "Mars/Olympus"\n{room}', "utf-8")
    with pytest.raises(InvalidActionError) as caught:
        rooms_from(str(path))
    assert caught.value.code == "bad_room" and "Mars/Olympus" in caught.value.message
