"""A small match killed mid-play, for the tests that carry a run on after a crash or a
lost node: its configuration, registering one player (bots fill the run), and what the
database says of it.  Also for any match test: a request of the match API as a player, and
a match whose scores never move (its ranks are the registration order)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable

import httpx
from sqlalchemy import select
from wire_kit import guests, of_type

from qipai.client.connection import HallClient
from qipai.hall.match.config import load_matches
from qipai.store import Store
from qipai.store.schema import hands

HANDS = 6
MATCHES = f"""
[[match]]
id = "crash-trio"
name = "三人赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = 3
entry_fee = 40
bots = true
bot_wait = 0.5
[[match.stage]]
kind = "fixed"
hands = {HANDS}
"""
RUN = "crash-trio#1"
"""The run the tests kill and carry on."""
BOT_DELAY = ("--bot-delay", "0.03")
"""Bots and 托管 at a pace the tests can kill in the middle of."""


async def start_then_leave(url: str) -> tuple[str, int]:
    """A player registers, bots fill the run, it starts, he leaves (托管 plays for him):
    his token and his coins before the fee."""
    async with HallClient(url) as client, guests(client, 1) as [player]:
        coins: int = (await client.me(player.session.token))["coins"]
        headers = {"authorization": f"Bearer {player.session.token}"}
        async with httpx.AsyncClient(timeout=30) as http:
            answer = await http.post(f"{url}/api/matches/crash-trio/register", headers=headers)
        assert answer.status_code == 200, answer.text
        await player.until(of_type("match_started"))
        await player.until(of_type("snapshot"))
        assert (await client.me(player.session.token))["coins"] == coins - 40
        return player.session.token, coins


def coins(url: str, token: str) -> int:
    """The player's coins, as the hall at ``url`` says."""

    async def ask() -> int:
        async with HallClient(url) as client:
            found: int = (await client.me(token))["coins"]
            return found

    return asyncio.run(ask())


def hand_counts(db_url: str) -> Counter[str]:
    """The match's hands by status (``playing``, ``settled``, ``voided``)."""
    with Store.open(db_url) as store, store.read() as connection:
        found = connection.execute(
            select(hands.c.status).where(hands.c.room_id == "match:crash-trio")
        )
        return Counter(status for (status,) in found)


def saved_hands(db_url: str) -> int:
    """Hands the saved run has dealt (0: not saved yet)."""
    with Store.open(db_url) as store:
        saved = store.match_snapshots().get(RUN)
    return 0 if saved is None else int(json.loads(saved[1])["run"]["hands"])


def run_state(db_url: str, run_id: str = RUN) -> str | None:
    """The run's state in the database."""
    with Store.open(db_url) as store:
        run = store.match_run(run_id)
    return None if run is None else run.state


def until(check: Callable[[], bool], what: str, seconds: float = 90) -> None:
    """Poll ``check()`` until it is true (fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"no {what} in {seconds} s"
        time.sleep(0.05)


def final_scores_sum(db_url: str) -> tuple[int, int]:
    """The run's final scores' sum, and what it must be (the start scores: match points
    are zero-sum)."""
    with Store.open(db_url) as store:
        run = store.match_run(RUN)
    assert run is not None and run.standings_json is not None
    [match] = load_matches(MATCHES)
    rows = json.loads(run.standings_json)
    return sum(row["score"] for row in rows), len(rows) * match.stages[0].start_score


async def post_as(url: str, path: str, token: str) -> httpx.Response:
    """``POST url/path`` with the player's session (the match API)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        return await http.post(path, headers={"authorization": f"Bearer {token}"})


def level_match(
    match_id: str, name: str, *, players: int, fields: str = "", prizes: str = ""
) -> str:
    """A regular ``jj`` match of ``players`` with bots: 预赛 (one hand; one table goes on),
    then 决赛 (one hand), every score 0 throughout (积分最小化 from 0: no payment can be more
    than 0), so that its ranks are the registration order (判定二: the first to register
    wins).  ``fields``: more of its fields (``bot_wait``, ``entry_fee``…); ``prizes``: its
    ``[[match.prize]]`` tables."""
    return f"""
[[match]]
id = "{match_id}"
name = "{name}"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = {players}
bots = true
minimise = true
rule_changes = {{ all_pass = "forced" }}
{fields}
[[match.stage]]
kind = "fixed"
name = "预赛"
hands = 1
start_score = 0
advance = 3
[[match.stage]]
kind = "fixed"
name = "决赛"
hands = 1
start_score = 0
{prizes}
"""
