"""Audit of the ``huanle`` preset (欢乐斗地主 with beans) against its rules.

Two deals: ``DECK`` (seat 0 holds four bombs, the bottom is ``2BR``) and ``ONE_BOMB``
(seat 0 holds the only bomb, ``3333``; nobody else can make one unless seat 2 gets the
bottom's red joker).
"""

from __future__ import annotations

import pytest
from state_kit import act, lead_out, multipliers, refused, rig

from qipai.cards import Card
from qipai.games.doudizhu.actions import Call, Deal, Double, NoShow, Show
from qipai.games.doudizhu.events import LandlordChosen
from qipai.games.doudizhu.rules import RULES, Rules
from qipai.games.doudizhu.state import Phase, State
from qipai.hall.coins import settle_losers_to_zero

DECK = rig(["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2BR")
ONE_BOMB = rig(["33334445556667778", "45678999TTTJJJQKA", "889TJQQQKKKAA222B"], "A2R")


def _dealt(
    first: int, rules: str | Rules = "huanle", deck: list[Card] = DECK, **options: object
) -> State:
    """A hand fully dealt whose first bidder is ``first``."""
    for seed in range(100):
        state = State.new(rules, seed=seed, deck=deck, **options)  # type: ignore[arg-type]
        state.apply(Deal())
        if state.current_player == first:
            return state
    raise AssertionError("no seed found")


def _to_play(state: State) -> None:
    """Decline every remaining 加倍 and the after-bottom 明牌."""
    while state.phase is not Phase.PLAY:
        state.apply(state.legal_actions()[-1])


# --- 明牌 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("dealt", "factor"), [(0, 5), (1, 4), (8, 4), (9, 3), (16, 3)])
def test_show_factor_by_cards_dealt(dealt: int, factor: int) -> None:
    state = State.new("huanle", seed=0, deck=DECK)
    if dealt:
        state.apply(Deal(dealt))
    state.apply(Show(), 2)
    assert state.shows == [1, 1, factor]


def test_no_show_during_the_bidding() -> None:
    state = _dealt(0)
    assert state.legal_actions(1) == []
    refused(state, Show(), "show_closed", seat=1)


def test_landlord_shows_after_the_bottom_for_two_farmers_may_not() -> None:
    state = _dealt(0)
    act(state, "call", "norob", "norob", "nodouble", "nodouble", "nodouble")
    assert state.phase is Phase.SHOW_AFTER_BOTTOM and state.current_player == 0
    assert state.legal_actions() == [Show(), NoShow()] and state.legal_actions(1) == []
    refused(state, Show(), "show_closed", seat=1)
    act(state, "show")
    assert state.shows == [2, 1, 1] and multipliers(state) == {1: 2, 2: 2}
    assert state.view(0).phase is Phase.PLAY


def test_several_showings_count_the_largest_factor_only() -> None:
    state = State.new("huanle", seed=0, deck=DECK, shows_before_deal=(0,))
    act(state, "deal 10", "1:show", "deal 7")
    assert state.shows == [5, 3, 1] and state.current_player == 0  # the first shower bids first
    act(state, "call", "norob", "norob")
    _to_play(state)  # the landlord showed: no after-bottom 明牌
    assert multipliers(state) == {1: 5, 2: 5}


def test_a_farmer_shows_and_the_landlord_shows_after_the_bottom_largest_counts() -> None:
    state = State.new("huanle", seed=0, deck=DECK)
    act(state, "deal 4", "1:show", "deal 13")
    assert state.current_player == 1
    act(state, "nocall", "call", "norob", "nodouble", "nodouble", "nodouble")
    assert state.landlord == 2 and state.phase is Phase.SHOW_AFTER_BOTTOM
    act(state, "show")
    assert state.shows == [1, 4, 2] and multipliers(state) == {0: 4, 1: 4}


def test_nobody_calls_the_first_shower_is_landlord() -> None:
    state = State.new("huanle", seed=0, deck=DECK)
    act(state, "deal 12", "2:show", "deal 5", "nocall", "nocall", "nocall")
    assert (state.landlord, state.base, state.deal_number) == (2, 1, 1)
    assert [e for e in state.events if isinstance(e, LandlordChosen)][-1].reason == "first_shower"


# --- 叫地主 / 抢地主 ----------------------------------------------------------------------


def test_robs_double_the_whole_hand_last_robber_wins_passers_may_not_rob() -> None:
    state = _dealt(1)
    act(state, "call", "rob", "rob", "norob")
    assert state.landlord == 0 and multipliers(state) == {1: 4, 2: 4}
    state = _dealt(1)
    act(state, "call", "rob", "rob", "rob")  # "每位玩家均有且只有一次": the caller robs back
    assert state.landlord == 1 and multipliers(state) == {2: 8, 0: 8}
    state = _dealt(1)
    act(state, "nocall", "call")
    assert state.phase is Phase.ROB and state._queue == [0, 2]  # seat 1 passed; caller last
    refused(state, Call(), "wrong_phase")
    act(state, "rob", "norob")
    assert state.landlord == 0 and state.robs == [(0, 2)]


# --- 加倍 ---------------------------------------------------------------------------------


def test_pair_result_is_own_factor_times_opponents_factor() -> None:
    state = _dealt(0)
    act(state, "call", "norob", "norob", "nodouble", "double", "double", "noshow")
    assert state.doubled == [True, False, True]
    assert multipliers(state) == {1: 2, 2: 4}
    lead_out(state, 0)
    assert state.spring and state.returns() == (12, -4, -8)


@pytest.mark.parametrize(
    ("balances", "doublers"),
    [((100, 100, 100), [1, 2, 0]), ((100, 0, 100), [2]), ((0, 100, 100), [])],
)
def test_preset_threshold_zero_needs_some_beans(
    balances: tuple[int, int, int], doublers: list[int]
) -> None:
    state = _dealt(0, balances=balances)
    act(state, "call", "norob", "norob")
    if not doublers:
        assert state.phase is Phase.SHOW_AFTER_BOTTOM
        return
    assert state.phase is Phase.DOUBLE and state._queue == doublers
    for seat in {0, 1, 2} - set(doublers):
        refused(state, Double(), "cannot_double", seat=seat)


# --- scoring and settlement ---------------------------------------------------------------


def test_initial_multiplier_and_the_seed_settlement_example() -> None:
    room = RULES["huanle"].derive("huanle-room", initial_multiplier=3)
    state = _dealt(1, rules=room)
    act(state, "call", "norob", "rob")
    _to_play(state)
    assert state.landlord == 0 and multipliers(state) == {1: 6, 2: 6}
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    lead_out(state, 0)
    points = state.returns()
    assert points == (12, -6, -6)
    settled = settle_losers_to_zero(points, (10**6,) * 3, coefficient=1000, fee=50)
    assert settled.stakes == (12000, -6000, -6000) and settled.fees == (50, 50, 50)


def test_bombs_rocket_and_anti_spring_double() -> None:
    state = _dealt(0)
    act(state, "call", "norob", "norob")
    _to_play(state)
    act(state, "play BR", "play pass", "play pass", "play 7", "play J", "play pass", "play pass")
    assert multipliers(state) == {1: 2, 2: 2}  # a second landlord play: no anti-spring
    lead_out(state, 1)
    assert not state.anti_spring and state.returns() == (-4, 2, 2)
    state = _dealt(0)
    act(state, "call", "norob", "norob")
    _to_play(state)
    act(state, "play 7", "play 8888", "play pass", "play pass")
    lead_out(state, 1)
    assert state.anti_spring and state.returns() == (-8, 4, 4)


# --- escapes ------------------------------------------------------------------------------


def _shown_landlord_0(deck: list[Card]) -> State:
    state = State.new("huanle", seed=0, deck=deck, shows_before_deal=(0,))
    act(state, "deal", "call", "norob", "norob")
    _to_play(state)
    assert state.landlord == 0 and state.shows == [5, 1, 1]
    return state


def test_landlord_escape_under_ten_is_twenty() -> None:
    state = _dealt(0, deck=ONE_BOMB[:])
    act(state, "call", "norob", "norob")
    _to_play(state)
    state.escape(0)
    assert state.returns() == (-20, 10, 10)  # his bomb in hand: in-game ×2, still under 10


def test_landlord_escape_counts_his_bombs_in_hand_and_ten_is_over() -> None:
    state = _shown_landlord_0(ONE_BOMB)
    assert multipliers(state) == {1: 5, 2: 5}
    state.escape(0)
    assert state.returns() == (-80, 40, 40)  # 明牌 5 × his unplayed bomb 2 = 10: 4 × 2 × 10


def test_escape_before_the_hand_starts_is_an_escape() -> None:
    state = State.new("huanle", seed=0, deck=DECK)
    state.escape(1)
    assert state.is_terminal and state.returns() == (5, -10, 5)


def test_every_unplayed_bomb_counts_in_an_escape_documented_reading() -> None:
    """The page counts 当盘所有的炸弹 (docs: bombs in *any* hand), not only the escaper's."""
    state = _shown_landlord_0(ONE_BOMB)
    state.escape(1)  # farmer 1 holds no bomb; the landlord's 3333 still counts: 5 × 2 = 10
    assert state.returns() == (10, -20, 10)


# --- settlement (beans) ---------------------------------------------------------------------


def test_a_loser_stops_at_zero_and_the_winner_gets_only_what_was_paid() -> None:
    settled = settle_losers_to_zero((12, -6, -6), (10**6, 1000, 10**6), coefficient=1000, fee=50)
    assert settled.stakes == (7000, -1000, -6000)
    assert settled.fees == (50, 0, 50)  # nobody goes below 0


def test_a_winner_gains_at_most_his_own_balance() -> None:
    settled = settle_losers_to_zero((12, -6, -6), (5000, 10**6, 10**6), coefficient=1000, fee=50)
    assert settled.stakes == (5000, -2500, -2500)
    settled = settle_losers_to_zero((-12, 6, 6), (10**6, 3000, 10**6), coefficient=1000, fee=50)
    assert settled.stakes == (-9000, 3000, 6000)
