"""``kill -9`` during a match: ``qipai serve`` as a real process (SQLite).

A player registers in a match of six hands (fee held), bots fill it, it starts, he leaves
(托管 plays for him), and the process is killed once a hand has finished, while another is
in play.  Started again on the same database, the hall carries the running run on from its
last finished hand (the hand in play was voided and is dealt again: six hands settled in
all, not more) to its end, and cancels the next run, which was registering; ``qipai
audit`` finds the ledger clean.  A second restart changes nothing.  (Refunds of the runs a
hall cannot carry on: ``tests/store/test_store_matches.py``.)
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import httpx
from match_kit import (
    BOT_DELAY,
    HANDS,
    MATCHES,
    RUN,
    coins,
    final_scores_sum,
    hand_counts,
    run_state,
    saved_hands,
    start_then_leave,
    until,
)
from process_kit import audit_cli, kill, serving

from qipai.store import Store

ROOMS = """
[[room]]
id = "mc-ddz"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
"""


def test_a_match_killed_mid_play_is_carried_on_from_its_last_finished_hand(
    tmp_path: Path,
) -> None:
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    rooms, matches = tmp_path / "rooms.toml", tmp_path / "matches.toml"
    rooms.write_text(ROOMS, encoding="utf-8")
    matches.write_text(MATCHES, encoding="utf-8")
    extra = ("--matches", str(matches), *BOT_DELAY)
    with serving(db_url, rooms, tmp_path / "first.log", *extra) as (process, url):
        token, before = asyncio.run(start_then_leave(url))
        until(lambda: saved_hands(db_url) >= 2, "second hand dealt")
        kill(process)
    assert 1 <= hand_counts(db_url)["settled"] < HANDS
    with Store.open(db_url) as store:
        runs = {run.id: run.state for run in store.match_runs()}
    assert runs == {RUN: "running", "crash-trio#2": "registering"}
    with serving(db_url, rooms, tmp_path / "second.log", *extra) as (process, url):
        until(lambda: run_state(db_url) == "finished", "end of the carried-on run")
        assert coins(url, token) == before - 40  # no prizes: the house keeps the fee
        kill(process)
    played = hand_counts(db_url)
    assert played["settled"] == HANDS, played  # those finished kept, the rest played once
    assert played["playing"] == 0
    with serving(db_url, rooms, tmp_path / "third.log", *extra) as (process, url):
        assert coins(url, token) == before - 40
        run = httpx.get(f"{url}/api/matches", timeout=30).json()[0]["run"]
        assert (run["state"], run["registered"]) == ("registering", 0)
        kill(process)
    assert hand_counts(db_url) == played
    assert run_state(db_url, "crash-trio#2") == "cancelled"
    total, expected = final_scores_sum(db_url)
    assert total == expected
    audited = audit_cli(db_url)
    assert audited.returncode == 0, audited.stdout + audited.stderr


def test_a_hall_without_matches_leaves_the_runs_of_others_alone(tmp_path: Path) -> None:
    """A shard that runs no match (``--no-matches``) starting on a database where another
    hall's run is open: the run stays as it was (no refund, no fence written)."""
    db_url = f"sqlite:///{tmp_path / 'hall.db'}"
    with Store.open(db_url) as store:
        store.open_match_run("crash-trio#7", "crash-trio", 40, datetime.now(UTC))
    rooms = tmp_path / "rooms.toml"
    rooms.write_text(ROOMS, encoding="utf-8")
    with serving(db_url, rooms, tmp_path / "shard.log", "--no-matches") as (process, url):
        assert httpx.get(f"{url}/api/matches", timeout=30).json() == []
        kill(process)
    assert run_state(db_url, "crash-trio#7") == "registering"
