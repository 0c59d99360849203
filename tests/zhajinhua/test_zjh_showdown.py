"""The cap showdown 系统自动开牌 with a 235: the winner does not depend on the opening order.

易发棋牌's rules page: "当豹子存在时，"花色不同235"＞"豹子"" and, for the showdown,
"系统开牌后，根据牌型大小判定赢输，如遇牌型等大，根据开牌顺序(按下注顺序开牌)，先开为负".
Because 235 beats trips and loses to everything else, opening the hands one against the
best so far would let the order pick the winner.  The reading: the 235 rule holds only
between two hands (a compare, or a showdown of exactly two); in a showdown of three or
more a 235 is the lowest hand.  Ties still go against the hand opened first.
"""

from __future__ import annotations

import itertools
import random

from zjh_kit import rig

from qipai.cards import parse_cards, poker_deck
from qipai.games.zhajinhua import RULES, Fold, Raise
from qipai.games.zhajinhua.hands import beats_trips, category, evaluate
from qipai.games.zhajinhua.state import State, showdown_winner

CAP = RULES["yifa"].derive("cap11", cap=11)
"""The first actor's raise to 10 takes his total (ante 1 + 10) to the cap at once."""
TRIPS, LOW_235, PAIR = "KsKhKd", "2h3d5c", "9s9h4c"


def cap_at_once(hands: list[str], dealer: int) -> State:
    """A hand that the first actor ends at once by reaching the cap: every hand is opened."""
    state = rig(hands, dealer=dealer, rules=CAP)
    state.apply(Raise(10))
    assert state.reason == "cap" and len(state.opened) == len(hands)
    return state


def test_trips_235_and_a_pair_every_opening_order_gives_the_same_winner() -> None:
    """豹子, 235 and a pair, dealt to every seat arrangement and opened from every seat: the
    trips win (in three hands a 235 is the lowest hand, so it beats no trips)."""
    winners = set()
    for hands in itertools.permutations([TRIPS, LOW_235, PAIR]):
        for dealer in range(3):
            state = cap_at_once(list(hands), dealer)
            assert state.winner is not None
            winners.add(hands[state.winner])
    assert winners == {TRIPS}


def test_a_235_is_the_lowest_of_three_or_more_hands() -> None:
    """Four hands: 235 below even the weakest other high card, and below a flush 2-3-5."""
    for hands in itertools.permutations([LOW_235, "7c3c2d", "2s3s5s", TRIPS]):
        state = cap_at_once(list(hands), dealer=0)
        assert state.winner is not None and hands[state.winner] == TRIPS
    state = cap_at_once([LOW_235, "7c3c2d", "2s3s5s"], dealer=2)
    assert state.winner == 2  # the 金花 2-3-5
    state = cap_at_once(["7c3c2d", LOW_235, "4h3s2s"], dealer=0)
    assert category("4h3s2s") == "straight" and state.winner == 2


def test_235_beats_trips_when_exactly_two_hands_are_opened() -> None:
    """Three dealt, the first actor folds: the showdown is of two hands, and the 235 rule
    applies whichever of the two is opened first."""
    for hands in ([LOW_235, PAIR, TRIPS], [TRIPS, PAIR, LOW_235]):
        state = rig(hands, dealer=0, rules=CAP)
        state.apply(Fold())  # seat 1, the pair
        state.apply(Raise(10))  # seat 2 reaches the cap: seats 2 and 0 are opened
        assert state.reason == "cap" and state.opened == (2, 0)
        assert state.winner is not None and hands[state.winner] == LOW_235


def test_ties_still_lose_for_the_hand_opened_first() -> None:
    """如遇牌型等大 … 先开为负: three equal 235s, the last opened wins; trips and two equal
    pairs, the trips; two equal pairs above a 235, the later opened pair."""
    three_235 = ["2h3d5c", "2d3c5h", "2c3h5d"]
    for dealer in range(3):
        state = cap_at_once(three_235, dealer)
        assert state.winner == state.opened[-1]
    pairs = ["9s9h4c", "9d9c4d", LOW_235]
    for dealer in range(3):
        state = cap_at_once(pairs, dealer)
        later = [seat for seat in state.opened if seat != 2][-1]
        assert state.winner == later


def test_the_winner_never_depends_on_the_order_over_random_deals() -> None:
    """Random showdowns of three to six hands, each with a 235 and trips: every opening
    order (all rotations and a reversed one) names a winner of equal strength."""
    rng = random.Random(12)
    specials = [parse_cards(LOW_235), parse_cards(TRIPS)]
    used = {card for hand in specials for card in hand}
    rest = [card for card in poker_deck() if card not in used]
    for _ in range(300):
        n = rng.randrange(3, 7)
        drawn = rng.sample(rest, 3 * (n - 2))
        hands = [*specials, *(drawn[3 * i : 3 * i + 3] for i in range(n - 2))]
        orders = [tuple((start + i) % n for i in range(n)) for start in range(n)]
        orders.append(tuple(reversed(orders[0])))
        texts = {"".join(map(str, hands[showdown_winner(hands, order)])) for order in orders}
        assert len({evaluate(text) for text in texts}) == 1
        assert not any(beats_trips(text) for text in texts)
