"""Whole matches played by bots in-process, and the ``qipai match`` commands."""

from __future__ import annotations

import dataclasses
import json

import pytest

from qipai.cli import main
from qipai.games.doudizhu.rules import RULES
from qipai.hall.match.config import default_matches, match_by_id
from qipai.hall.match.sim import simulate
from qipai.registry import HandSetup, game_type

SHIPPED = {"tiyan-9": 9, "dingju-30": 30, "zhengdian": 45}
"""Each shipped match and a player count it takes."""


@pytest.mark.parametrize(("match_id", "players"), SHIPPED.items())
def test_every_shipped_match_runs_to_its_end(match_id: str, players: int) -> None:
    match = match_by_id(default_matches(), match_id)
    result = simulate(match, players=players, seed=5)
    assert [s.rank for s in result.standings] == list(range(1, players + 1))
    assert sorted(s.player for s in result.standings) == sorted(
        f"p{n}" for n in range(1, players + 1)
    )
    ranks = {s.player: s.rank for s in result.standings}
    paid = match.paid_prizes(players)
    assert result.prizes == {player: paid[rank] for player, rank in ranks.items() if rank in paid}
    finalists = [s for s in result.standings if not s.out]
    assert finalists == list(result.standings[: len(finalists)])  # finalists rank first
    assert all(s.stage == len(match.stages) - 1 for s in finalists)
    assert simulate(match, players=players, seed=5) == result  # a seed decides everything


def test_a_scheduled_match_takes_any_count_from_its_minimum() -> None:
    match = match_by_id(default_matches(), "zhengdian")
    for players in (6, 7, 100):
        result = simulate(match, players=players, seed=1)
        finalists = [s for s in result.standings if not s.out]
        assert len(finalists) == min(30, players // 2 // 3 * 3)


def test_match_list_json_names_every_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in listed] == [m.id for m in default_matches()]
    assert {m["kind"] for m in listed} == {"regular", "scheduled"}
    for described in listed:
        assert described["min_players"] >= 3 and described["stages"]
        assert {"kind", "advance", "base", "start_score"} <= set(described["stages"][0])


def test_match_simulate_ends_with_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "simulate", "--match", "tiyan-9", "--players", "9", "--seed", "3", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["players"], summary["hands"]) == (9, 9) and summary["seconds"] > 0
    assert [s["rank"] for s in summary["standings"]] == list(range(1, 10))
    assert [p["rank"] for p in summary["prizes"]] == [1, 2, 3]
    assert [p["coins"] for p in summary["prizes"]] == [500, 250, 150]


def test_match_simulate_reports_each_stage(capsys: pytest.CaptureFixture[str]) -> None:
    """Per stage: entrants, advanced, hands per player (fewest / median / most) and why it
    ended; the knockout by its advance count."""
    argv = ["match", "simulate", "--match", "zhengdian", "--players", "300", "--seed", "2",
            "--json"]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    knockout, swiss = summary["stages"]
    assert (knockout["entrants"], knockout["advanced"]) == (300, 30)
    assert knockout["ended_by"] == "advance_reached"
    hands = knockout["hands_per_player"]
    assert 1 <= hands["min"] <= hands["median"] <= hands["max"]
    assert knockout["advanced_hands"]["max"] - knockout["advanced_hands"]["min"] <= 1
    assert (swiss["entrants"], swiss["ended_by"]) == (30, "rounds_played")
    assert swiss["hands_per_player"] == {"min": 6, "median": 6, "max": 6}  # 3 rounds of 2


def test_match_simulate_refuses_an_unknown_match_or_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "simulate", "--match", "nope", "--players", "9"]) == 2
    assert "unknown_match" in capsys.readouterr().err
    assert main(["match", "simulate", "--match", "tiyan-9", "--players", "10"]) == 2
    assert "match_full" in capsys.readouterr().err


@pytest.mark.parametrize("preset", ["yifa", "huanle", "jj"])
def test_the_quick_view_is_the_seats_view_but_the_multipliers_and_decides_the_same(
    preset: str,
) -> None:
    """A simulated match's bots decide from the view without the multipliers so far (three
    quarters of a view's cost): the same view otherwise, the same decisions."""
    game = game_type("doudizhu")
    for seed in range(3):
        state = game.new_hand(RULES[preset], HandSetup(seed=seed, balances=(10_000,) * 3))
        while not state.is_terminal and not game.is_stalled(state):
            step = game.deal_step(state)
            if step is not None:
                state.apply(step)
                continue
            seat = game.seat_to_act(state)
            assert seat is not None
            full, quick = state.view(seat), game.quick_view(state, seat)
            assert quick == dataclasses.replace(full, multipliers=(), standing_multiplier=None)
            choice = game.quick_bot.choose(quick)
            assert choice == game.quick_bot.choose(full)
            state.apply(choice, seat)
