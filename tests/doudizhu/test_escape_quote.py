"""What a seat is told escaping would cost (``escape_cost``) is a price from its own view: a
range that holds the true price, exact where nothing hidden from the seat changes it
(caishen, zhengtu), and the same whatever another seat holds or chose in secret."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest

from qipai.games.doudizhu.actions import Double, NoDouble
from qipai.games.doudizhu.quote import _most_bombs, escape_quote
from qipai.games.doudizhu.state import State
from qipai.registry.doudizhu import GAME
from qipai.registry.gametype import HandSetup

ESCAPING = ("caishen", "huanle", "zhengtu")
"""The presets with an escape penalty."""
EAGER = ("rob", "show", "double", "call")
"""Auction actions the random players prefer (multipliers grow: more to price)."""


def new_hand(rules: str, seed: int) -> State:
    state: State = GAME.new_hand(GAME.get_rules(rules), HandSetup(seed, (10**6,) * 3))
    return state


def step(state: State, rng: random.Random) -> None:
    """One random legal step: a deal step, or an action of the seat to act (the first of
    those choosing at once), preferring the auction's raises."""
    deal = GAME.deal_step(state)
    if deal is not None:
        state.apply(deal)
        return
    seat = state.deciding[0] if state.deciding else state.current_player
    assert seat is not None
    legal = GAME.actions(state, seat)
    eager = [a for a in legal if str(a).split()[0] in EAGER]
    state.apply(rng.choice(eager if eager and rng.random() < 0.7 else legal), seat)


def states(rules: str, hands: int) -> Iterator[State]:
    """Every state of ``hands`` random hands but the ends."""
    rng = random.Random(rules)
    for seed in range(hands):
        state = new_hand(rules, seed)
        while not state.is_terminal:
            yield state
            step(state, rng)


def true_price(state: State, seat: int) -> int:
    trial = copy.deepcopy(state)
    trial.escape(seat)
    return -trial.returns()[seat]


@pytest.mark.parametrize("rules", ESCAPING)
def test_the_quote_holds_the_true_price_and_is_exact_unless_huanle(rules: str) -> None:
    ranges = 0
    for state in states(rules, 10):
        for seat in range(3):
            least, most = escape_quote(state.rules, state.view(seat))
            assert least <= true_price(state, seat) <= most
            if rules != "huanle":
                assert least == most
            ranges += least < most
    if rules == "huanle":
        assert ranges > 0  # hidden bombs were priced as a range


def test_a_secret_double_does_not_change_what_the_others_are_told() -> None:
    """While the seats choose 加倍 at the same time (huanle), a choice made stays secret:
    the others' price of escaping is the same whatever it was, though the true price (with
    a multiplier past the threshold) doubles with it."""
    found = 0
    for state in states("huanle", 60):
        if len(state.deciding) < 3 or state.landlord is None:
            continue
        chooser = state.landlord  # his 加倍 doubles both farmers' pairs
        asker = (chooser + 1) % 3
        doubled, declined = copy.deepcopy(state), copy.deepcopy(state)
        if not doubled.can_apply(Double(), chooser):
            continue
        doubled.apply(Double(), chooser)
        declined.apply(NoDouble(), chooser)
        if true_price(doubled, asker) == true_price(declined, asker):
            continue  # under the threshold: the choice changes nothing anyway
        assert doubled.view(asker) == declined.view(asker)
        assert GAME.escape_cost(doubled, asker) == GAME.escape_cost(declined, asker)
        found += 1
    assert found >= 3


@pytest.mark.parametrize(
    ("sizes", "quads", "rocket", "most"),
    [
        ([17, 17], 5, True, 6),
        ([17, 17], 9, True, 8),  # 4 quads in each hand of 17 (16 cards), the rocket nowhere
        ([6, 0], 3, True, 2),  # 6 cards: a quad and the rocket
        ([3, 3], 4, True, 1),  # only the rocket fits
        ([3, 3], 4, False, 0),
        ([4, 8], 1, False, 1),
    ],
)
def test_the_most_bombs_hidden_hands_can_hold(
    sizes: list[int], quads: int, rocket: bool, most: int
) -> None:
    assert _most_bombs(sizes, quads, rocket) == most
