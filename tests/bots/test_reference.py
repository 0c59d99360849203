"""qipai's bots against RLCard's rule agent on RLCard's game (``qipai.bots.reference``)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pytest

from qipai import cli
from qipai.bots import reference
from qipai.bots.duel import DuelResult
from qipai.bots.reference import RLCardHand, load_rlcard, rlcard_match
from qipai.errors import IllegalActionError, InvalidActionError

np = pytest.importorskip("numpy")
pytest.importorskip("rlcard")


def _figures(result: DuelResult) -> tuple[object, ...]:
    return (result.a, result.b, tuple(t.count for t in result.times))


@pytest.mark.slow  # worker processes
def test_figures_do_not_depend_on_jobs() -> None:
    alone = rlcard_match("greedy", deals=4, seed=3, jobs=1)
    assert _figures(alone) == _figures(rlcard_match("greedy", deals=4, seed=3, jobs=2))
    assert (alone.arena, alone.rules, alone.names) == ("rlcard", "jj", ("greedy", "rlcard"))


def test_same_seed_replays_and_sides_agree() -> None:
    first = rlcard_match("random", rules="yifa", deals=6, seed=8)
    assert _figures(first) == _figures(rlcard_match("random", rules="yifa", deals=6, seed=8))
    assert first.a[0].wins + first.b[1].wins == 6  # no draws in RLCard
    assert first.a[1].wins + first.b[0].wins == 6
    assert first.points is None and first.rules == "yifa"
    for rate in (*first.a, *first.b):
        low, high = rate.interval
        assert low <= rate.rate <= high
    assert DuelResult.from_json(first.to_json()) == first


def checked_game(moves: list[str]) -> Any:
    """RLCard's game, refusing any move that is not one of its legal moves (RLCard itself
    would apply it) and recording the moves it applies."""
    game = load_rlcard().game()
    step = game.step

    def checked_step(action: str) -> Any:
        legal = game.get_state(game.round.current_player)["actions"]
        assert action in legal, f"{action!r} not in {legal}"
        moves.append(action)
        return step(action)

    game.step = checked_step
    return game


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_every_move_is_legal_in_rlcard(bot: str) -> None:
    rlcard = load_rlcard()
    moves: list[str] = []
    checked = reference.RLCard(rlcard.numpy, lambda: checked_game(moves), rlcard.agent)
    for seed in range(6):
        seconds: tuple[list[float], list[float]] = ([], [])
        hand = RLCardHand(checked, bot, "jj", seed, seconds)
        for side in (0, 1):
            assert hand.play(side) in (True, False)
        assert seconds[0] and seconds[1]
    assert len(moves) > 100 and any(len(move) >= 5 for move in moves)


@pytest.mark.slow  # the strong bot's endgame searches
def test_a_strong_deal() -> None:
    result = rlcard_match("strong", deals=1, seed=11)
    assert result.deals == 1 and result.times[0].count > 0


def test_an_illegal_answer_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "choose_play", lambda *args, **kwargs: "pass")
    with pytest.raises(IllegalActionError, match="illegal_move"):
        rlcard_match("greedy", deals=1)  # the landlord may not pass its lead


def test_numpy_global_state_is_given_back() -> None:
    np.random.seed(123)
    expected = np.random.random()
    np.random.seed(123)
    rlcard_match("greedy", deals=1, seed=4)
    assert np.random.random() == expected


def test_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InvalidActionError, match="unknown_bot"):
        rlcard_match("deep", deals=1)
    with pytest.raises(InvalidActionError, match="unknown_rules"):
        rlcard_match("greedy", rules="nope", deals=1)
    real = importlib.import_module

    def without_rlcard(name: str, package: str | None = None) -> ModuleType:
        if name.startswith("rlcard"):
            raise ModuleNotFoundError(f"No module named {name!r}", name="rlcard")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_rlcard)
    with pytest.raises(InvalidActionError) as error:
        rlcard_match("greedy", deals=1)
    assert error.value.code == "missing_extra"
    assert "pip install -e '.[test]'" in error.value.message


def test_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.RLCARD == reference.RLCARD
    argv = ["arena", "doudizhu", "greedy", "rlcard", "--deals", "2", "--jobs", "1"]
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "doudizhu on rlcard's game (greedy thinks in jj): 2 deals from seed 0, "
        "each played from both sides"
    )
    assert lines[1].startswith("A greedy as landlord ")
    assert lines[7].startswith("B rlcard ") and "decisions: p50" in lines[7]
    assert cli.main([*argv, "--rules", "huanle", "--json"]) == 0
    result = DuelResult.from_json(capsys.readouterr().out)
    assert (result.rules, result.arena, result.points) == ("huanle", "rlcard", None)
    assert cli.main(["arena", "doudizhu", "deep", "rlcard", "--deals", "1"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown_bot: unknown bot 'deep'")
