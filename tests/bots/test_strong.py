"""The strong Dou Dizhu player: its hand decomposition, its endgame worlds, legal plays in
every preset, the research interface, and (cheaply) its strength.

The full strength table (thousands of paired deals against RLCard's rule agent and the
greedy bot) is ``benchmarks/bots_strength.py``'s; here a few hundred fast deals show the
decomposition player ahead of the greedy one beyond doubt.
"""

from __future__ import annotations

import random

import pytest

from qipai.bots.arena import compare, play_hand
from qipai.bots.doudizhu import BOTS, GreedyPolicy, RandomPolicy, StrongPolicy, choose_play
from qipai.bots.doudizhu.decompose import evaluate, split_parts
from qipai.bots.doudizhu.endgame import deal_worlds
from qipai.bots.doudizhu.research import position_of, sample_positions, view_of
from qipai.bots.doudizhu.situation import situation_of
from qipai.bots.turns import play_out
from qipai.errors import InvalidActionError
from qipai.games.doudizhu import RULES, State
from qipai.games.doudizhu.actions import Play
from qipai.games.doudizhu.combos import (
    WILD,
    contains,
    from_text,
    readings,
    size,
    to_text,
    unit,
)
from qipai.games.doudizhu.view import View

SLOTS = [s for s in range(15) for _ in range(4 if s <= 12 else 1)]


def _random_hand(rng: random.Random, cards: int, wild: bool = False) -> int:
    slots = rng.sample(SLOTS, cards - int(wild))
    return sum(unit(s) for s in slots) + (unit(WILD) if wild else 0)


@pytest.mark.parametrize("wild", [False, True])
def test_a_split_covers_the_hand_with_real_combinations(wild: bool) -> None:
    rng = random.Random(3)
    for _ in range(2000):
        hand = _random_hand(rng, rng.randint(1, 20), wild)
        parts = split_parts(hand)
        natural = hand - unit(WILD, 1) if wild else hand
        total = sum(parts)
        assert size(total) == size(hand)
        if wild:  # the 财神 counted as one rank: the rest are the natural cards
            assert contains(total, natural)
        else:
            assert total == hand
        for part in parts:
            assert readings(to_text(part)), to_text(part)
        assert evaluate(hand)[1] == len(parts)


def test_fewer_combinations_are_worth_more() -> None:
    straight, broken = from_text("3456789"), from_text("3456799")
    assert evaluate(straight) > evaluate(broken)
    assert evaluate(from_text("333444555666789T"))[1] == 1  # a plane with four wings


def test_the_sampled_worlds_respect_counts_and_known_cards() -> None:
    for seed in range(30):
        [view] = _views_in_play("caishen" if seed % 2 else "jj", seed, 1)
        situation = situation_of(view)
        rng = random.Random(seed)
        for _ in range(20):
            hands = deal_worlds(situation, rng)
            assert hands[situation.seat] == situation.hand
            assert [size(h) for h in hands] == list(situation.counts)
            assert sum(hands) == situation.hand + situation.unseen
            for seat, known in enumerate(situation.known):
                assert contains(hands[seat], known)


@pytest.mark.parametrize("rules", sorted(RULES))
def test_strong_plays_whole_hands_legally_in_every_preset(rules: str) -> None:
    """The engine validates every action: an illegal one would raise."""
    for seed in range(4):
        seats = [StrongPolicy(seed), StrongPolicy(seed + 1), RandomPolicy(seed)]
        state = play_hand(State.new(rules, seed=seed), seats)
        assert state.is_terminal and sum(state.returns()) == 0


def test_the_same_seed_and_view_give_the_same_play() -> None:
    for seed in range(10):
        [view] = _views_in_play("jj", seed, 1)
        assert StrongPolicy(4).choose(view) == StrongPolicy(4).choose(view)


def test_the_decomposition_player_beats_greedy_beyond_doubt() -> None:
    duel = compare("doudizhu", "jj", StrongPolicy(worlds=0), GreedyPolicy(), deals=200, seed=11)
    assert duel.overall.interval[0] > 0.55
    assert duel.a[0].rate > duel.b[0].rate and duel.a[1].rate > duel.b[1].rate


# --- the research interface -------------------------------------------------------------------


def test_choose_play_answers_a_legal_move_in_random_positions() -> None:
    """Every bot, every preset, with qipai's moves and with a list the caller gives."""
    rng = random.Random(8)
    for rules in sorted(RULES):
        for position in sample_positions(rules, seed=len(rules), count=60):
            hand, seat, landlord = position.hand, position.seat, position.landlord
            history, bottom, legal = position.history, position.bottom, position.legal
            bot = rng.choice(sorted(BOTS))
            answer = choose_play(hand, seat, landlord, history, bottom, rules=rules, bot=bot)
            assert answer in legal, (position, answer)
            offered = sorted(legal)[: rng.randint(1, len(legal))]
            answer = choose_play(hand, seat, landlord, history, bottom, offered, rules, bot)
            assert answer in offered


def test_a_position_in_text_is_the_view_it_came_from() -> None:
    views: list[View] = []
    play_out(State.new("jj", seed=2), [GreedyPolicy()] * 3, lambda s, view, a: views.append(view))
    view = next(v for v in views[::-1] if v.landlord is not None and v.plays)
    position = position_of(view)
    again = view_of(
        position.hand, position.seat, position.landlord, position.history, position.bottom
    )
    assert again.to_beat == view.to_beat and again.to_beat_seat == view.to_beat_seat
    assert again.card_counts == view.card_counts
    assert list(again.legal_actions) == [a for a in view.legal_actions if isinstance(a, Play)]


def test_choose_play_refuses_unknown_names_and_bad_cards() -> None:
    with pytest.raises(InvalidActionError) as caught:
        choose_play("3", 0, 0, [], "2BR", bot="oracle")
    assert caught.value.code == "unknown_bot"
    with pytest.raises(InvalidActionError):
        choose_play("3X", 0, 0, [], "2BR")


def _views_in_play(rules: str, seed: int, count: int) -> list[View]:
    """Views of the card play of random hands (:func:`sample_positions`)."""
    return [
        view_of(p.hand, p.seat, p.landlord, p.history, p.bottom, rules=rules)
        for p in sample_positions(rules, seed, count)
    ]
