"""``kill -9`` during a match: ``qipai serve`` as a real process (SQLite).

Three players register in a match (fees held), it starts, and the process is killed while
its first hands are in play; a fourth player is registered in the next run, which had not
started.  Started again on the same database, the hall cancels both runs and refunds every
entry exactly once (a run in progress cannot be resumed: ``docs/matches.md``), the voided
hands move no coin, and ``qipai audit`` finds the ledger clean.  A second restart refunds
nothing more.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from process_kit import audit_cli, kill, serving
from wire_kit import Player, guests, my_turn, of_type

from qipai.client.connection import HallClient
from qipai.store import Store

ROOMS = """
[[room]]
id = "mc-ddz"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
"""
MATCHES = """
[[match]]
id = "crash-trio"
name = "三人赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = 3
entry_fee = 40
[[match.stage]]
kind = "fixed"
hands = 3
"""


def _register(url: str, player: Player) -> None:
    headers = {"authorization": f"Bearer {player.session.token}"}
    answer = httpx.post(f"{url}/api/matches/crash-trio/register", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text


async def _start_then_hold(url: str) -> tuple[list[str], list[int]]:
    """Three players register; the match starts; each sits at his first decision."""
    async with HallClient(url) as client, guests(client, 4) as players:
        coins = [(await client.me(p.session.token))["coins"] for p in players]
        for player in players[:3]:
            await asyncio.to_thread(_register, url, player)
        for player in players[:3]:
            await player.until(of_type("match_started"))
            await player.until(of_type("snapshot"))
        await asyncio.to_thread(_register, url, players[3])  # the next run
        held = [(await client.me(p.session.token))["coins"] for p in players]
        assert held == [c - 40 for c in coins]
        await players[0].until(lambda frame: my_turn(frame) or frame["type"] == "turn")
        return [p.session.token for p in players], coins


async def _coins(url: str, tokens: list[str]) -> list[int]:
    async with HallClient(url) as client:
        return [(await client.me(token))["coins"] for token in tokens]


def test_a_match_killed_mid_play_is_cancelled_and_refunded_once(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    rooms, matches = tmp_path / "rooms.toml", tmp_path / "matches.toml"
    rooms.write_text(ROOMS, encoding="utf-8")
    matches.write_text(MATCHES, encoding="utf-8")
    extra = ("--matches", str(matches))
    with serving(db_url, rooms, tmp_path / "first.log", *extra) as (process, url):
        tokens, before = asyncio.run(_start_then_hold(url))
        kill(process)
    with Store.open(db_url) as store:
        runs = {run.id: run.state for run in store.match_runs()}
    assert runs == {"crash-trio#1": "running", "crash-trio#2": "registering"}
    for log in ("second.log", "third.log"):
        with serving(db_url, rooms, tmp_path / log, *extra) as (process, url):
            assert asyncio.run(_coins(url, tokens)) == before  # every fee back, once
            run = httpx.get(f"{url}/api/matches", timeout=30).json()[0]["run"]
            assert (run["state"], run["registered"]) == ("registering", 0)
            kill(process)
    with Store.open(db_url) as store:
        states = {run.id: run.state for run in store.match_runs()}
    assert states["crash-trio#1"] == states["crash-trio#2"] == "cancelled"
    audited = audit_cli(db_url)
    assert audited.returncode == 0, audited.stdout + audited.stderr
