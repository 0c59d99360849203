"""Random play over every preset: the state machine's invariants on many seeded hands.

``QIPAI_RANDOM_HANDS`` sets the number of hands per preset (default 1000),
``QIPAI_CHECKED_HANDS`` the number checked at every step (default 30).  For each hand:
cards are conserved, points sum to zero (an escape under zhengtu pays nobody: the sum is
the escaper's penalty), a non-terminal state always has a legal action, the history
replays to an identical state.  On a subset: no view or visible event ever holds a card
hidden from its seat, and every sampled refused action raises the typed error and leaves
the state exactly as it was.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from state_kit import all_cards, assert_views_hide, random_hand, snapshot

from qipai.cards import doudizhu_deck
from qipai.errors import IllegalActionError
from qipai.games.doudizhu import moves_for
from qipai.games.doudizhu.actions import (
    Action,
    Bid,
    Call,
    Deal,
    Double,
    NoShow,
    Play,
    Rob,
    Show,
)
from qipai.games.doudizhu.combos import PASS
from qipai.games.doudizhu.rules import RULES, EscapeModel
from qipai.games.doudizhu.state import Phase, State, replay

DEFAULT_HANDS = 1000
"""Hands per preset unless ``QIPAI_RANDOM_HANDS`` says otherwise."""
CHECKED_HANDS = int(os.environ.get("QIPAI_CHECKED_HANDS", "30"))
"""Hands per preset whose views and refused actions are checked at every step."""
PRESETS = list(RULES)


def hands_for(rules: str) -> int:
    """Hands per preset: ``QIPAI_RANDOM_HANDS`` if set, else :data:`DEFAULT_HANDS`."""
    del rules
    chosen = os.environ.get("QIPAI_RANDOM_HANDS")
    return int(chosen) if chosen else DEFAULT_HANDS


def _conserved(state: State) -> None:
    deck = doudizhu_deck(wildcard=state.rules.wildcard)
    assert Counter(all_cards(state)) == Counter(deck)


def _returns_balance(state: State) -> None:
    points = state.returns()
    if state.escaper is not None and state.rules.escape is EscapeModel.ZHENGTU:
        assert sum(points) == points[state.escaper] < 0
    else:
        assert sum(points) == 0
    if state.escaper is not None:
        assert points[state.escaper] < 0
    elif state.winner is not None:
        landlord = state.landlord
        assert landlord is not None
        won = state.winner == landlord
        assert (points[landlord] > 0) == won or state.rules.trustee_liability


def _wrong_phase_actions(state: State) -> list[Action]:
    by_phase: dict[Phase, Action] = {
        Phase.DEAL: Deal(1),
        Phase.BID: Bid(1) if state.rules.bidding.value == "points" else Call(),
        Phase.ROB: Rob(),
        Phase.DOUBLE: Double(),
        Phase.SHOW_AFTER_BOTTOM: NoShow(),
        Phase.PLAY: Play(PASS),
    }
    return [a for phase, a in by_phase.items() if phase is not state.phase]


def _illegal_plays(state: State, rng: random.Random) -> list[Action]:
    seat = state.current_player
    if state.phase is not Phase.PLAY or seat is None:
        return []
    legal = set(state.legal_actions())
    other = state.packed[(seat + 1) % 3]
    foreign = [Play(m) for m in moves_for(other, PASS, state.rules)]
    wrong = [a for a in foreign if a not in legal]
    return rng.sample(wrong, min(3, len(wrong)))


def _refusals(state: State, rng: random.Random) -> list[tuple[Action, int | None]]:
    tries: list[tuple[Action, int | None]] = [(a, None) for a in _wrong_phase_actions(state)]
    tries += [(a, None) for a in _illegal_plays(state, rng)]
    current = state.current_player
    for action in state.legal_actions():
        if isinstance(action, Show):
            continue
        wrong = [s for s in range(3) if s != current and s not in state.deciding]
        if wrong:  # (every seat may be choosing 加倍 at once)
            tries.append((action, rng.choice(wrong)))
    return tries


def _check_refusals(state: State, rng: random.Random) -> None:
    before = snapshot(state)
    for action, seat in _refusals(state, rng):
        with pytest.raises(IllegalActionError):
            state.apply(action, seat)
        assert snapshot(state) == before, f"{action} by {seat} changed the state"


def _play_checked(rules: str, seed: int) -> State:
    """A random hand checking views and refusals at every step (the slow path)."""
    rng = random.Random(seed)
    state = State.new(rules, seed=seed)
    checked = 0
    while not state.is_terminal:
        checked = assert_views_hide(state, checked)
        _check_refusals(state, rng)
        if state.phase is Phase.DEAL:
            seat = rng.randrange(3)
            if Show() in state.legal_actions(seat) and rng.random() < 0.2:
                state.apply(Show(), seat)
        state.apply(rng.choice(state.legal_actions()))
    assert_views_hide(state, checked)
    return state


@pytest.mark.parametrize("rules", PRESETS)
def test_random_hands(rules: str) -> None:
    endings: Counter[str] = Counter()
    hands = hands_for(rules)
    for seed in range(hands):
        state = random_hand(rules, seed, escape_rate=0.002, trustee_rate=0.02)
        _conserved(state)
        _returns_balance(state)
        again = replay(rules, seed, state.history)
        assert snapshot(again) == snapshot(state)
        assert again.returns() == state.returns()
        endings["escape" if state.escaper is not None else "spring" if state.spring else "end"] += 1
        endings["redeal"] += state.deal_number > 1
    assert endings["end"] > hands // 2
    assert endings["redeal"] > 0
    if RULES[rules].escape is not EscapeModel.NONE:
        assert endings["escape"] > 0


@pytest.mark.parametrize("rules", PRESETS)
def test_checked_random_hands(rules: str) -> None:
    for seed in range(1000, 1000 + CHECKED_HANDS):
        state = _play_checked(rules, seed)
        _conserved(state)
        assert snapshot(replay(rules, seed, state.history)) == snapshot(state)
