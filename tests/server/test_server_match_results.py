"""What a match tells each player, through a real hall: a player knocked out is free at
once (a room takes him) and is told his final rank and prize when the run ends; a player
away at the end is told when he connects, even to a hall started again since, and only
once; 战绩 lists every run he played; withdrawing after the start is ``match_closed``;
the final standings say the stage each player reached; a table of players all away, in a
match that deals again when all pass, still plays its hands to a result."""

from __future__ import annotations

import asyncio
import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import httpx
from match_kit import level_match, post_as
from server_kit import running_hall
from wire_kit import WAIT, Frame, Player, config_with, guests

from qipai.client.connection import ClientSession, HallClient
from qipai.hall.match.config import load_matches

MATCHES = load_matches(
    level_match(
        "ties", "平分赛", players=6, fields="bot_wait = 3\nguarantee = 10",
        prizes="[[match.prize]]\nranks = [1, 1]\ncoins = 10",
    )
    + textwrap.dedent(
        """
        [[match]]
        id = "away"
        name = "托管赛"
        kind = "regular"
        game = "doudizhu"
        rules = "jj"
        players = 3
        [[match.stage]]
        kind = "fixed"
        hands = 1
        base = 10
        """
    )
)  # fmt: skip
"""``ties``: every score stays 0 (积分最小化 from 0), so the ranks are the registration
order (判定二): the first to register wins, the fourth is knocked out (bots fill the rest 3 s
after the first registration: time for the test's four).  ``away``: all pass
is dealt again (the jj default), and nobody is there."""


def _config(db_url: str) -> Any:
    return dataclasses.replace(config_with(db_url), matches=MATCHES)


async def _post(url: str, path: str, session: ClientSession) -> httpx.Response:
    return await post_as(url, path, session.token)


async def _get(url: str, path: str, session: ClientSession | None = None) -> Any:
    headers = {} if session is None else {"authorization": f"Bearer {session.token}"}
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        return (await http.get(path, headers=headers)).json()


def _run_path(run_id: str) -> str:
    return f"/api/runs/{run_id.replace('#', '%23')}"


async def _ended(url: str, run_id: str) -> dict[str, Any]:
    async with asyncio.timeout(WAIT * 6):
        while True:
            found = await _get(url, _run_path(run_id))
            if found.get("state") == "finished":
                return dict(found)
            await asyncio.sleep(0.2)


async def _knocked_out_first(url: str) -> dict[str, Any]:
    """Three guests register and go (托管 plays them), a fourth stays: he is knocked out
    after the first stage, joins a room at once, and is told the end."""
    async with HallClient(url) as client, guests(client, 1) as (dan,):
        away = [await client.guest() for _ in range(3)]
        runs = [(await _post(url, "/api/matches/ties/register", s)).json()["run"] for s in away]
        joined = await _post(url, "/api/matches/ties/register", dan.session)
        run_id = joined.json()["run"]
        assert runs == [run_id] * 3  # all four in one run, before the bots (after 3 s)
        await dan.until(lambda frame: frame["type"] == "match_started")
        closed = await _post(url, "/api/matches/ties/unregister", dan.session)
        out = await dan.play_out(until=lambda frame: frame["type"] == "match_eliminated")
        live = await _get(url, _run_path(run_id), dan.session)
        room = await _join_and_leave(dan)
        over = next((f for f in dan.frames if f["type"] == "match_over"), None) or (
            await dan.until(lambda frame: frame["type"] == "match_over", timeout=WAIT * 6)
        )  # (it may have come while he joined and left the room)
        ended = await _ended(url, run_id)
        results = {
            "dan": await _get(url, "/api/me/matches", dan.session),
            "first": await _get(url, "/api/me/matches", away[0]),
        }
        first_back = await _told_on_connect(client, away[0])
        again = await _told_on_connect(client, away[0])
        return {
            "run": run_id, "closed": closed.json(), "out": out, "live": live, "room": room,
            "over": over, "ended": ended, "results": results, "first_back": first_back,
            "again": again,
        }  # fmt: skip


async def _join_and_leave(player: Player) -> Frame:
    """Join a cash room (answered ``queued``, or an error), then leave it (if the room has
    seated him meanwhile, bots joining after 0.2 s, he goes once he has played its hand)."""
    await player.conn.send({"type": "join", "room": "doudizhu-yifa"})
    answer = await player.until(lambda frame: frame["type"] in ("queued", "error"))
    if answer["type"] == "queued":
        await player.conn.send({"type": "leave"})
        await player.play_out(until=lambda frame: frame["type"] == "left")
    return answer


async def _told_on_connect(client: HallClient, session: ClientSession) -> list[Frame]:
    """The ``match_over`` frames a connection gets before its first pong."""
    async with client.connect(session.token) as conn:
        await conn.send({"type": "ping"})
        frames = []
        async with asyncio.timeout(WAIT):
            while (frame := await conn.recv())["type"] != "pong":
                frames.append(frame)
    return [frame for frame in frames if frame["type"] == "match_over"]


def test_a_knocked_out_player_is_free_at_once_and_told_the_end(tmp_path: Path) -> None:
    with running_hall(_config(f"sqlite:///{tmp_path / 'hall.db'}")) as hall:
        seen = asyncio.run(_knocked_out_first(hall.url))
    assert seen["closed"]["error"] == "match_closed"  # withdrawing after the start
    assert seen["out"]["rank"] == 4  # fourth to register, every score level
    assert seen["live"]["me"]["out"] is True  # he can watch the standings
    assert seen["live"]["players_left"] == 3
    assert seen["room"]["type"] == "queued"  # free at once: a cash room takes him
    assert (seen["over"]["rank"], seen["over"]["prize"]) == (4, 0)
    ended = seen["ended"]
    assert ended["players_left"] == 0 and ended["stage"] is None
    rows = ended["standings"]
    stages = [(row["rank"], row["stage"], row["stage_name"], row["out"]) for row in rows]
    assert stages[:4] == [(1, 1, "决赛", False), (2, 1, "决赛", False), (3, 1, "决赛", False),
                          (4, 0, "预赛", True)]  # fmt: skip
    [dan] = seen["results"]["dan"]
    assert (dan["run"], dan["title"], dan["state"], dan["rank"], dan["prize"]) == (
        seen["run"], "平分赛", "finished", 4, 0
    )  # fmt: skip
    assert seen["results"]["first"][0]["rank"] == 1 and seen["results"]["first"][0]["prize"] == 10
    [told] = seen["first_back"]  # away all along: told when he connects…
    assert (told["run"], told["rank"], told["prize"]) == (seen["run"], 1, 10)
    assert told["standings"][0]["rank"] == 1
    assert seen["again"] == []  # …once


async def _register_and_go(url: str, match: str) -> tuple[str, ClientSession]:
    async with HallClient(url) as client:
        session = await client.guest()
        answer = await _post(url, f"/api/matches/{match}/register", session)
        return answer.json()["run"], session


def test_a_player_away_is_told_by_a_hall_started_again(tmp_path: Path) -> None:
    """The result waits in the database, not in the process's memory."""
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    with running_hall(_config(url)) as hall:
        run_id, session = asyncio.run(_register_and_go(hall.url, "ties"))
        asyncio.run(_ended(hall.url, run_id))
    with running_hall(_config(url)) as again:

        async def back() -> list[Frame]:
            async with HallClient(again.url) as client:
                return await _told_on_connect(client, session)

        [over] = asyncio.run(back())
    assert (over["run"], over["rank"], over["prize"]) == (run_id, 1, 10)


async def _all_away(url: str) -> dict[str, Any]:
    async with HallClient(url) as client:
        sessions = [await client.guest() for _ in range(3)]
        for session in sessions:
            answer = await _post(url, "/api/matches/away/register", session)
            assert answer.status_code == 200
        return await _ended(url, answer.json()["run"])


def test_a_table_of_players_all_away_still_plays_to_a_result(tmp_path: Path) -> None:
    """托管 never bids: all pass, dealt again until the table gives the hand up; the match
    deals it again with the all-pass scored (强制记分), so the cards decide the ranking,
    not the registration order (the scores move; before, all stayed 1,000 and the first
    to register won)."""
    with running_hall(_config(f"sqlite:///{tmp_path / 'hall.db'}")) as hall:
        ended = asyncio.run(_all_away(hall.url))
    scores = sorted(row["score"] for row in ended["standings"])
    assert sum(scores) == 3000 and scores != [1000, 1000, 1000]
