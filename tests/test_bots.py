"""The Dou Dizhu policies, Dou Dizhu in the arena and the terminal game."""

from __future__ import annotations

import pytest

from qipai.bots.arena import play_hand, selfplay
from qipai.bots.doudizhu import GreedyPolicy, Policy, RandomPolicy, TrusteePolicy
from qipai.cli import main
from qipai.console import ConsoleGame, read_action
from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Action, Bid, Play
from qipai.games.doudizhu.combos import Kind
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.state import State
from qipai.games.doudizhu.view import View

PRESETS = list(RULES)


def decisions(rules: str, seed: int) -> list[tuple[View, Action]]:
    """Every (view, action) a trustee seat 0 took in one hand against greedy bots."""
    seen: list[tuple[View, Action]] = []

    def observe(seat: int, view: View, action: Action) -> None:
        if seat == 0:
            seen.append((view, action))

    policies: list[Policy] = [TrusteePolicy(), GreedyPolicy(), GreedyPolicy()]
    play_hand(State.new(rules, seed=seed), policies, observe)
    return seen


@pytest.mark.parametrize("rules", PRESETS)
def test_trustee_declines_passes_and_leads_its_smallest_single(rules: str) -> None:
    checked = 0
    for seed in range(40):
        for view, action in decisions(rules, seed):
            assert action in view.legal_actions
            if not isinstance(action, Play):
                assert str(action) in {"bid 0", "nocall", "norob", "nodouble", "noshow"}
                continue
            if len(view.hand) == 1:
                continue  # the last card is played whenever it may be
            checked += 1
            if not view.to_beat.is_pass:
                assert action.move.is_pass
            else:
                assert action.move.kind is Kind.SINGLE
                assert not action.move.uses_wild  # never the 财神 while other cards are left
                assert action.move.main == min(
                    m.main
                    for a in view.legal_actions
                    if isinstance(a, Play) and (m := a.move).kind is Kind.SINGLE and not m.uses_wild
                )
    assert checked > 50


def test_greedy_never_beats_its_partner() -> None:
    def observe(seat: int, view: View, action: Action) -> None:
        partner = not view.to_beat.is_pass and view.landlord not in (seat, view.to_beat_seat)
        if partner and isinstance(action, Play) and action.move.size < len(view.hand):
            assert action.move.is_pass

    for seed in range(30):
        play_hand(State.new("yifa", seed=seed), [GreedyPolicy()] * 3, observe)


@pytest.mark.parametrize("rules", PRESETS)
def test_selfplay_counts_the_landlords_wins_and_multipliers(rules: str) -> None:
    summary = selfplay("doudizhu", rules, hands=30, seed=11)
    assert (summary.hands, summary.balance) == (30, 0)
    assert 0 < summary.total("landlord_wins") < 30
    assert summary.per_hand("multiplier_total") >= 2  # two pairs, each multiplier ≥ 1
    lines = summary.lines()
    rate = summary.per_hand("landlord_wins")
    assert lines[1] == f"landlord win rate {rate:.3f}"


def test_random_policies_finish_every_preset() -> None:
    for rules in PRESETS:
        state = play_hand(State.new(rules, seed=5), [RandomPolicy(s) for s in range(3)])
        assert state.is_terminal
        assert sum(state.returns()) == 0


def test_selfplay_command_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doudizhu", "selfplay", "--rules", "jj", "--hands", "5", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "rules jj: 5 hands" in out
    assert "landlord win rate" in out
    assert "hands/s" in out


def scripted(lines: list[str]) -> tuple[ConsoleGame, list[str]]:
    said: list[str] = []
    answers = iter(lines)

    def ask(prompt: str) -> str:
        del prompt
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return ConsoleGame("yifa", 3, ask=ask, say=said.append), said


def test_console_game_plays_a_hand_through_trustee() -> None:
    game, said = scripted(["nonsense", "no", "auto"])  # refused, declined, then 托管
    game.play(1)
    assert any(line.startswith("你: 不") for line in said)  # 不叫 / 不抢 / 不加倍
    assert any(line.startswith("不能这样出") for line in said)
    assert any(line.startswith("得分:") for line in said)
    assert said[-1].startswith("你的总分")


def test_console_game_stops_on_quit_or_end_of_input() -> None:
    game, said = scripted(["quit"])
    assert game.play(3) == 0
    assert not any(line.startswith("得分:") for line in said)


def test_typed_cards_name_the_play_and_bids_parse() -> None:
    state = State.new("yifa", seed=3)
    while state.current_player is None:
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    assert read_action("bid 2", view) == Bid(2)
    assert read_action("no", view) == Bid(0)
    assert read_action("33344", view) is None  # not the play phase


def test_a_table_of_trustees_gives_up_instead_of_dealing_for_ever() -> None:
    with pytest.raises(IllegalActionError) as error:
        play_hand(State.new("yifa", seed=1), [TrusteePolicy()] * 3)
    assert error.value.code == "no_landlord"
