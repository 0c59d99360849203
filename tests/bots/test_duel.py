"""The duel (``qipai.bots.duel``) and the ``qipai arena`` command."""

from __future__ import annotations

import json
import math

import pytest

from qipai.bots.arena import WinRate, compare
from qipai.bots.doudizhu import GreedyPolicy, TrusteePolicy
from qipai.bots.duel import (
    DecisionTimes,
    DuelResult,
    PairPoints,
    duel,
    percentile,
    split,
)
from qipai.cli import main
from qipai.errors import InvalidActionError


def _figures(result: DuelResult) -> tuple[object, ...]:
    """Everything but the clock's readings."""
    return (result.a, result.b, result.points, tuple(t.count for t in result.times))


@pytest.mark.slow  # worker processes
@pytest.mark.parametrize(
    ("game", "bots"),
    [("doudizhu", ("greedy", "random")), ("zhajinhua", ("random", "simple"))],
)
def test_figures_do_not_depend_on_jobs(game: str, bots: tuple[str, str]) -> None:
    alone = duel(game, *bots, deals=6, seed=2, jobs=1)
    shared = duel(game, *bots, deals=6, seed=2, jobs=2)
    assert _figures(alone) == _figures(shared)
    assert alone.deals == shared.deals == 6


def test_same_seed_replays_and_another_differs() -> None:
    first = duel("showhand", "random", "simple", deals=8, seed=4)
    assert _figures(first) == _figures(duel("showhand", "random", "simple", deals=8, seed=4))
    assert _figures(first) != _figures(duel("showhand", "random", "simple", deals=8, seed=5))


def test_plays_the_deals_of_compare() -> None:
    result = duel("doudizhu", "greedy", "trustee", rules="jj", deals=5, seed=1)
    same = compare("doudizhu", "jj", GreedyPolicy(), TrusteePolicy(), deals=5, seed=1)
    assert (result.a, result.b) == (same.a, same.b)
    assert result.points is not None
    assert result.points.total == same.points[0] == -same.points[1]


def test_sides_and_intervals_agree() -> None:
    result = duel("doudizhu", "random", "greedy", deals=10, seed=3)
    deals = result.deals
    assert result.a[0].wins + result.b[1].wins == deals  # one hand: landlord A, farmers B
    assert result.a[1].wins + result.b[0].wins == deals
    for rate in (*result.a, *result.b, result.overall):
        low, high = rate.interval
        assert low <= rate.rate <= high
    assert result.points is not None
    low, high = result.points.interval
    assert low <= result.points.mean <= high
    assert result.points.per_hand == result.points.mean / 2
    for times in result.times:
        assert times.count > 0
        assert 0 <= times.p50_ms <= times.p90_ms <= times.p99_ms <= times.max_ms


def test_json_round_trips() -> None:
    result = duel("zhajinhua", "simple", "random", deals=5, seed=6)
    text = result.to_json()
    assert DuelResult.from_json(text) == result
    data = json.loads(text)
    assert data["names"] == ["simple", "random"] and data["unit"] == "chips"
    assert data["a"][0]["rate"] == result.a[0].rate
    unscored = DuelResult(
        "doudizhu", "jj", ("x", "y"), ("landlord", "farmers"), 0,
        (WinRate(1, 1), WinRate(0, 1)), (WinRate(1, 1), WinRate(0, 1)),
        None, (DecisionTimes.of([0.5]), DecisionTimes.of([])), arena="rlcard",
    )  # fmt: skip
    assert DuelResult.from_json(unscored.to_json()) == unscored


def test_lines() -> None:
    result = duel("doudizhu", "greedy", "random", deals=3, seed=1)
    lines = result.lines()
    assert lines[0] == "doudizhu yifa: 3 deals from seed 1, each played from both sides"
    assert lines[1].startswith("A greedy as landlord ")
    assert lines[4].startswith("B random as farmers ")
    assert lines[6].startswith("A points per deal ")
    assert lines[-1].startswith(f"B random {result.times[1].count} decisions: p50 ")


def test_pair_points() -> None:
    points = PairPoints.of([4, -2, 7, 1])
    assert (points.pairs, points.total, points.squares, points.mean) == (4, 10, 70, 2.5)
    low, high = points.interval
    assert low == pytest.approx(2.5 - 1.959963984540054 * math.sqrt(15 / 4))
    assert high == pytest.approx(5 - low)
    assert PairPoints.of([3]).interval == (-math.inf, math.inf)


def test_split_and_percentiles() -> None:
    for deals, parts in [(10, 3), (7, 7), (3, 8), (1000, 8)]:
        chunks = split(deals, parts)
        assert [deal for chunk in chunks for deal in chunk] == list(range(deals))
        assert max(map(len, chunks)) - min(map(len, chunks)) <= 1
    assert percentile([], 0.5) == 0.0
    times = DecisionTimes.of([0.004, 0.001, 0.003, 0.002])
    assert (times.count, times.p50_ms, times.max_ms) == (4, 2.0, 4.0)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("chess", "a", "b"), "unknown_game"),
        (("doudizhu", "greedy", "deep"), "unknown_bot"),
        (("showhand", "greedy", "simple"), "unknown_bot"),
    ],
)
def test_refuses_unknown_names(args: tuple[str, str, str], code: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        duel(*args, deals=1)
    assert error.value.code == code


def test_refuses_bad_counts() -> None:
    with pytest.raises(InvalidActionError, match="bad_deals"):
        duel("doudizhu", "greedy", "random", deals=0)
    with pytest.raises(InvalidActionError, match="bad_jobs"):
        duel("doudizhu", "greedy", "random", deals=1, jobs=0)
    with pytest.raises(InvalidActionError, match="unknown_rules"):
        duel("doudizhu", "greedy", "random", rules="nope", deals=1)


def test_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "doudizhu", "greedy", "random", "--deals", "4", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "doudizhu yifa: 4 deals from seed 0, each played from both sides"
    assert lines[-1].endswith(" s)") and "hands/s" in lines[-1]
    argv = ["arena", "showhand", "simple", "random", "--deals", "3", "--jobs", "1", "--json"]
    assert main([*argv, "--seed", "2"]) == 0
    result = DuelResult.from_json(capsys.readouterr().out)
    assert (result.game, result.names, result.seed, result.deals) == (
        "showhand",
        ("simple", "random"),
        2,
        3,
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["doudizhu", "greedy", "deep"], "error: unknown_bot: no doudizhu bot 'deep'"),
        (["zhajinhua", "simple", "rlcard"], "error: unknown_bot: rlcard plays doudizhu only"),
        (["doudizhu", "rlcard", "greedy"], "error: unknown_bot: rlcard plays doudizhu only"),
        (["doudizhu", "greedy", "random", "--jobs", "0"], "error: bad_jobs: "),
    ],
)
def test_command_refuses(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", *argv, "--deals", "1"]) == 2
    assert capsys.readouterr().err.startswith(message)


def test_command_refuses_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "mahjong", "a", "b"])
    assert "invalid choice: 'mahjong'" in capsys.readouterr().err
