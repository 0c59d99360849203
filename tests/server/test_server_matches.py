"""Matches through a real hall: the list, registration with its fee held and refunded, a run
played to its end over WebSocket (bots filling where the match allows), prizes paid, the
errors that change nothing, and the ledger's audit clean afterwards."""

from __future__ import annotations

import asyncio
import dataclasses
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from match_kit import post_as
from server_kit import CROWDED_ENTROPY_WINDOW, RunningHall, running_hall
from wire_kit import WAIT, Frame, Player, config_with, guests

from qipai.client.connection import HallClient
from qipai.client.loadtest import LoadConfig, run
from qipai.errors import IllegalActionError
from qipai.hall.match.config import load_matches
from qipai.store import Store
from qipai.store.audit import audit

MATCHES = load_matches(
    textwrap.dedent(
        """
        [[match]]
        id = "trio"
        name = "三人赛"
        kind = "regular"
        game = "doudizhu"
        rules = "jj"
        players = 3
        entry_fee = 10
        rule_changes = { all_pass = "forced" }
        [[match.stage]]
        kind = "fixed"
        hands = 2
        base = 10
        [[match.prize]]
        ranks = [1, 1]
        coins = 25

        [[match]]
        id = "solo"
        name = "单人试玩"
        kind = "regular"
        game = "doudizhu"
        rules = "jj"
        players = 6
        bots = true
        bot_wait = 0.3
        guarantee = 6
        rule_changes = { all_pass = "forced" }
        [[match.stage]]
        kind = "fixed"
        hands = 1
        advance = 3
        [[match.stage]]
        kind = "fixed"
        hands = 1
        [[match.prize]]
        ranks = [1, 6]
        coins = 1
        """
    )
)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """A hall with the two test matches."""
    url = f"sqlite:///{tmp_path_factory.mktemp('matches') / 'hall.db'}"
    config = dataclasses.replace(config_with(url), matches=MATCHES)
    with running_hall(config) as running:
        yield running


async def _post(url: str, path: str, player: Player) -> httpx.Response:
    return await post_as(url, path, player.session.token)


async def _play_match(player: Player) -> Frame:
    """Play every hand of the match (the first legal action) until it ends."""
    ends = ("match_over", "match_cancelled")
    return await player.play_out(until=lambda frame: frame["type"] in ends, timeout=WAIT * 6)


def test_the_list_shows_each_match_with_its_open_run(hall: RunningHall) -> None:
    listed = httpx.get(f"{hall.url}/api/matches").json()
    assert [m["name"] for m in listed] == ["trio", "solo"]
    run = listed[0]["run"]
    assert run["state"] == "registering" and run["id"].startswith("trio#") and not run["me"]


def test_three_players_register_play_and_the_winner_is_paid(hall: RunningHall) -> None:
    overs, before, after, errors = asyncio.run(_three(hall.url))
    assert {o["type"] for o in overs} == {"match_over"}
    assert sorted(o["rank"] for o in overs) == [1, 2, 3]
    for over, coins_before, coins_after in zip(overs, before, after, strict=True):
        assert coins_after == coins_before - 10 + over["prize"]
        assert over["prize"] == (25 if over["rank"] == 1 else 0)
    assert errors == {
        "again": "already_registered",
        "room": "in_match",
        "unknown": "unknown_match",
    }
    assert _audit_problems(hall) == []


async def _three(url: str) -> tuple[list[Frame], list[int], list[int], dict[str, str]]:
    async with HallClient(url) as client, guests(client, 3) as players:
        before = [(await client.me(p.session.token))["coins"] for p in players]
        errors: dict[str, str] = {}
        first = await _post(url, "/api/matches/trio/register", players[0])
        assert first.status_code == 200 and first.json()["number"] >= 1
        again = await _post(url, "/api/matches/trio/register", players[0])
        unknown = await _post(url, "/api/matches/nope/register", players[0])
        errors["again"], errors["unknown"] = again.json()["error"], unknown.json()["error"]
        await players[0].conn.send({"type": "join", "room": "doudizhu-yifa"})
        errors["room"] = (await players[0].until(lambda f: f["type"] == "error"))["code"]
        held = (await client.me(players[0].session.token))["coins"]
        assert held == before[0] - 10  # the fee is held on registration
        for player in players[1:]:
            assert (await _post(url, "/api/matches/trio/register", player)).status_code == 200
        overs = await asyncio.gather(*(_play_match(p) for p in players))
        after = [(await client.me(p.session.token))["coins"] for p in players]
        return list(overs), before, after, errors


def test_unregistering_refunds_the_fee(hall: RunningHall) -> None:
    async def run() -> tuple[int, int, int, str]:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            before = (await client.me(ann.session.token))["coins"]
            assert (await _post(hall.url, "/api/matches/trio/register", ann)).status_code == 200
            held = (await client.me(ann.session.token))["coins"]
            assert (await _post(hall.url, "/api/matches/trio/unregister", ann)).status_code == 200
            again = await _post(hall.url, "/api/matches/trio/unregister", ann)
            after = (await client.me(ann.session.token))["coins"]
            return before, held, after, again.json()["error"]

    before, held, after, code = asyncio.run(run())
    assert (held, after, code) == (before - 10, before, "not_registered")


def test_one_player_tries_a_match_with_bots_and_finishes_it(hall: RunningHall) -> None:
    """Bots take the empty places; an action sent to another table is refused."""

    async def run() -> tuple[Frame, list[str], str, list[Frame]]:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            assert (await _post(hall.url, "/api/matches/solo/register", ann)).status_code == 200
            snapshot = await ann.until(lambda frame: frame["type"] == "snapshot")
            elsewhere = {"type": "act", "table": snapshot["table"] + 1000, "action": "pass"}
            refused = await ann.answer(await ann.conn.request(elsewhere))
            over = await _play_match(ann)
            hands = await _scored(client, ann)
            return over, [f["type"] for f in ann.frames], refused["code"], hands

    over, kinds, refused, hands = asyncio.run(run())
    assert hands and all(isinstance(h["match_points"], int) for h in hands)  # 战绩: × base
    assert refused == "stale_table"
    assert over["type"] == "match_over" and over["prize"] == 1 and len(over["standings"]) == 6
    assert "match_started" in kinds and "match_update" in kinds and "snapshot" in kinds
    assert ("match_advanced" in kinds) != ("match_eliminated" in kinds)  # one or the other


async def _scored(client: HallClient, player: Player) -> list[Frame]:
    """The player's settled hands in 战绩 once the match has kept its points for each (it
    does so after each hand, beside the play: waited for, at most ``WAIT``)."""
    async with asyncio.timeout(WAIT):
        while True:
            rows = await client.request("GET", "/api/history", player.session.token)
            hands: list[Frame] = [row for row in rows if row["status"] == "settled"]
            if all(row["match_points"] is not None for row in hands):
                return hands
            await asyncio.sleep(0.05)


def test_a_registration_the_store_refuses_is_taken_back_and_told(
    hall: RunningHall, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desk holds the registration at once and the store writes it; refused there
    (his coins spent meanwhile), the executor takes it back in memory before the asker
    hears the store's refusal: he is not registered, and may register once he can."""
    store = hall.app.state.hall.db.store

    def refused(*_args: object, **_kwargs: object) -> None:
        raise IllegalActionError("not_enough_coins", "his coins went elsewhere")

    async def scenario() -> tuple[httpx.Response, bool, httpx.Response]:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            with monkeypatch.context() as patch:
                patch.setattr(store, "register_for_match", refused)
                first = await _post(hall.url, "/api/matches/trio/register", ann)
            listed = httpx.get(
                f"{hall.url}/api/matches", headers={"authorization": f"Bearer {ann.session.token}"}
            ).json()
            again = await _post(hall.url, "/api/matches/trio/register", ann)
            await _post(hall.url, "/api/matches/trio/unregister", ann)
            return first, bool(listed[0]["run"]["me"]), again

    first, registered, again = asyncio.run(scenario())
    assert (first.status_code, first.json()["error"]) == (409, "not_enough_coins"), first.text
    assert not registered
    assert again.status_code == 200, again.text
    assert _audit_problems(hall) == []


def _audit_problems(hall: RunningHall) -> list[Any]:
    store = Store.open(hall.db_url)
    try:
        return list(audit(store))
    finally:
        store.close()


def test_nothing_changes_for_bad_requests(hall: RunningHall) -> None:
    response = httpx.post(f"{hall.url}/api/matches/trio/register")
    assert response.json()["error"] == "bad_token"
    unknown = httpx.get(f"{hall.url}/api/runs/nope%231")
    assert unknown.json()["error"] == "unknown_run"


def test_the_load_tool_plays_a_match_to_its_end(hall: RunningHall) -> None:
    """``qipai loadtest --match trio --clients 3``: real socket clients register, play the
    match through and check their coins against the fee and their prize."""
    summary = asyncio.run(run(LoadConfig(hall.url, clients=3, duration=60, match="trio")))
    assert summary["match"] == "trio" and summary["match_finished"] is True
    assert summary["coins_conserved"] is True and summary["prizes"] == 25
    assert summary["failed_clients"] == 0 and summary["hands_total"] == 2
    assert summary["errors"] == 0, summary["error_codes"]


def test_a_player_away_at_the_end_is_told_when_he_comes_back(hall: RunningHall) -> None:
    """He registered and left; 托管 played his seats; the run ended; coming back he gets
    ``match_over``, and the run's final standings stay readable."""

    async def run_it() -> tuple[Frame, dict[str, Any]]:
        async with HallClient(hall.url) as client, guests(client, 1) as (ann,):
            answer = await _post(hall.url, "/api/matches/solo/register", ann)
            run_id = answer.json()["run"]
            await ann.conn.socket.close()
            async with asyncio.timeout(WAIT * 6):
                while True:
                    await asyncio.sleep(0.2)
                    ended = httpx.get(f"{hall.url}/api/runs/{run_id.replace('#', '%23')}")
                    if ended.status_code == 200 and ended.json()["state"] == "finished":
                        break
            async with client.connect(ann.session.token) as back:
                async with asyncio.timeout(WAIT):
                    while (frame := await back.recv())["type"] != "match_over":
                        pass
            return frame, ended.json()

    over, ended = asyncio.run(run_it())
    assert over["prize"] == 1 and over["rank"] in range(1, 7)
    assert len(ended["standings"]) == 6 and ended["run"] == over["run"]


@pytest.mark.parametrize(("match", "clients"), [("tiyan-9", 9), ("dingju-30", 30)])
def test_the_shipped_regular_matches_play_through_real_sockets(
    match: str, clients: int, tmp_path: Path
) -> None:
    """``qipai loadtest --match`` on the shipped matches: every place a socket client."""
    config = config_with(
        f"sqlite:///{tmp_path / 'shipped.db'}", entropy_window=CROWDED_ENTROPY_WINDOW
    )
    with running_hall(config) as running:
        summary = asyncio.run(
            run(LoadConfig(running.url, clients=clients, duration=120, match=match))
        )
        problems = _audit_problems(running)
    assert summary["match_finished"] and summary["coins_conserved"], summary
    assert summary["errors"] == 0 and summary["failed_clients"] == 0, (
        summary["error_codes"], summary["first_failure"])
    assert summary["prizes"] == {"tiyan-9": 900, "dingju-30": 1400}[match]
    assert problems == []
