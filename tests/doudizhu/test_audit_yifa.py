"""Audit of the ``yifa`` preset (易发棋牌) against its rules, hand by hand.

Every test plays a rigged deal through :class:`State` and checks who acts, what is legal,
the multipliers each view shows and ``returns()``.  The deal (seat 0 is the landlord in
most tests): seat 0 holds four bombs and takes ``2BR`` from the bottom.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from state_kit import act, lead_out, multipliers, refused, rig

from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Bid, Double, NoDouble, Show
from qipai.games.doudizhu.events import MarkerTurned
from qipai.games.doudizhu.state import Phase, State
from qipai.hall.coins import settle_raked
from qipai.registry.doudizhu import YIFA_RAKE_PERCENT

DECK = rig(["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2BR")


def _first(first: int) -> State:
    """A yifa hand on ``DECK`` whose marker card lies in seat ``first``'s hand."""
    for seed in range(100):
        state = State.new("yifa", seed=seed, deck=DECK)
        if state.marker_seat == first:
            return state
    raise AssertionError("no seed found")


def _landlord_0_first_bid_3(*doubles: str) -> State:
    state = _first(0)
    act(state, "bid 3", *doubles)
    assert state.landlord == 0 and state.phase is Phase.PLAY
    return state


# --- the marker card and the first bidder -------------------------------------------------


def test_marker_card_is_a_dealt_card_public_and_its_holder_bids_first() -> None:
    seats = set()
    for seed in range(30):
        state = State.new("yifa", seed=seed, deck=DECK)
        marker = state.marker
        assert marker is not None and state.marker_seat is not None
        assert marker in DECK[:51] and marker not in state.bottom
        assert marker in state.hands[state.marker_seat]
        assert state.phase is Phase.BID and state.current_player == state.marker_seat
        assert all(state.view(s).marker == marker for s in range(3))
        turned = [e for e in state.events if isinstance(e, MarkerTurned)]
        assert [(e.card, e.seat) for e in turned] == [(marker, state.marker_seat)]
        seats.add(state.marker_seat)
    assert seats == {0, 1, 2}


def test_all_pass_redeals_and_turns_a_new_marker_card() -> None:
    state = _first(1)
    act(state, "bid 0", "bid 0", "bid 0")
    assert state.deal_number == 2 and state.phase is Phase.BID
    turned = [e for e in state.events if isinstance(e, MarkerTurned)]
    assert len(turned) == 2 and turned[-1].seat == state.marker_seat == state.current_player
    assert state.marker in state.hands[state.current_player]


# --- 叫分 and rob by outbidding -----------------------------------------------------------


def test_each_bids_once_strictly_higher_three_ends_it_base_is_the_bid() -> None:
    state = _first(1)
    assert state.legal_actions() == [Bid(0), Bid(1), Bid(2), Bid(3)]
    act(state, "bid 1")
    assert state.current_player == 2 and state.legal_actions() == [Bid(0), Bid(2), Bid(3)]
    refused(state, Bid(1), "bid_too_low")
    act(state, "bid 2", "bid 0")
    assert (state.landlord, state.base) == (2, 2)
    assert len(state.hands[2]) == 20 and state.phase is Phase.PLAY
    assert state.current_player == 2  # the landlord leads; nobody may 加倍


def test_outbid_rob_doubles_only_the_robber_and_the_robbed() -> None:
    state = _first(1)
    act(state, "bid 1", "bid 2", "bid 3")  # 2 robs 1, then 0 robs 2
    assert state.robs == [(2, 1), (0, 2)]
    assert (state.landlord, state.base, state.phase) == (0, 3, Phase.PLAY)
    assert multipliers(state) == {2: 2, 1: 1}  # the rob between two farmers: no effect
    lead_out(state, 0)  # spring: ×2 more
    assert state.spring
    assert state.returns() == (3 * 4 + 3 * 2, -3 * 2, -3 * 4)


# --- 农民加倍 / 跟加倍 --------------------------------------------------------------------


def test_first_bid_of_three_lets_both_unbid_farmers_double_and_follow() -> None:
    state = _first(0)
    act(state, "bid 3")
    assert state.phase is Phase.DOUBLE and state.current_player == 1
    assert state.legal_actions() == [Double(), NoDouble()]
    refused(state, Double(), "cannot_double", seat=0)
    act(state, "double")
    assert state.current_player == 2
    act(state, "double")  # 跟加倍
    assert multipliers(state) == {1: 2, 2: 2}


def test_a_farmer_who_does_not_follow_is_not_doubled() -> None:
    state = _landlord_0_first_bid_3("double", "nodouble")
    assert multipliers(state) == {1: 2, 2: 1}
    lead_out(state, 0)
    assert state.returns() == (3 * 4 + 3 * 2, -3 * 4, -3 * 2)


def test_a_farmer_who_had_the_chance_to_bid_may_not_double() -> None:
    state = _first(2)
    act(state, "bid 0", "bid 3")  # seat 2 passed, seat 0 bid 3: seat 1 never had the chance
    assert state.landlord == 0 and state.phase is Phase.DOUBLE
    assert state.current_player == 1
    refused(state, Double(), "cannot_double", seat=2)
    act(state, "double")
    assert state.view(0).phase is Phase.PLAY and state.doubled == [False, True, False]
    assert multipliers(state) == {1: 2, 2: 1}


def test_outbid_with_three_robs_and_the_unbid_farmer_doubles() -> None:
    state = _first(2)
    act(state, "bid 1", "bid 3", "double")
    assert state.robs == [(0, 2)] and state.doubled == [False, True, False]
    assert multipliers(state) == {1: 2, 2: 2}


@pytest.mark.parametrize("script", [("bid 2", "bid 0", "bid 0"), ("bid 0", "bid 0", "bid 3")])
def test_no_doubling_unless_a_three_ends_the_bidding_early(script: tuple[str, ...]) -> None:
    state = _first(1)
    act(state, *script)
    assert state.phase is Phase.PLAY
    refused(state, Double(), "wrong_phase")


# --- spring and anti-spring ---------------------------------------------------------------


def test_spring_landlord_out_and_no_farmer_card() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    lead_out(state, 0)
    assert state.winner == 0 and state.spring and not state.anti_spring
    assert multipliers(state) == {1: 2, 2: 2}
    assert state.returns() == (12, -6, -6)


def test_one_farmer_card_spoils_the_spring() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    lead_out(state, 0)
    assert state.winner == 0 and not state.spring
    assert state.returns() == (6, -3, -3)


def test_anti_spring_landlord_played_exactly_his_opening_lead() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    act(state, "play 7", "play J", "play pass", "play pass")
    lead_out(state, 1)
    assert state.winner == 1 and state.anti_spring and not state.spring
    assert state.returns() == (-12, 6, 6)


def test_two_landlord_plays_are_no_anti_spring() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    act(state, "play 33", "play 77", "play pass", "play pass")
    lead_out(state, 1)
    assert state.winner == 1 and not state.anti_spring
    assert state.returns() == (-6, 3, 3)


# --- bombs, the rocket and the cap --------------------------------------------------------


def test_bombs_and_rocket_played_double_and_the_cap_is_four_doublings_per_pair() -> None:
    state = _landlord_0_first_bid_3("double", "nodouble")
    seen = []
    for bomb in ("3333", "4444", "5555", "6666"):
        act(state, f"play {bomb}", "play pass", "play pass")
        seen.append(multipliers(state))
    assert state.bombs == 4
    assert seen == [{1: 4, 2: 2}, {1: 8, 2: 4}, {1: 16, 2: 8}, {1: 16, 2: 16}]
    act(state, "play BR", "play pass", "play pass")  # the rocket
    assert state.rockets == 1 and multipliers(state) == {1: 16, 2: 16}
    lead_out(state, 0)
    assert state.spring
    assert state.returns() == (96, -48, -48)  # the 易发 page's entry minimum is N × 96


def test_bombs_left_in_hand_do_not_count() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    lead_out(state, 0)  # the four bombs and the rocket go out as singles
    assert state.bombs == state.rockets == 0
    assert state.returns() == (6, -3, -3)


def test_seed_example_base_three_multiplier_two_landlord_wins() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    act(state, "play 3333", "play pass", "play pass")
    lead_out(state, 0)
    points = state.returns()
    assert points == (12, -6, -6)
    assert settle_raked(points, coefficient=10, rake=Fraction(YIFA_RAKE_PERCENT, 100)).net == (
        114,
        -60,
        -60,
    )


# --- no 明牌, no escape -------------------------------------------------------------------


def test_no_show_and_escape_is_refused_but_trustee_is_recorded() -> None:
    state = _landlord_0_first_bid_3("nodouble", "nodouble")
    refused(state, Show(), "not_in_rules", seat=1)
    with pytest.raises(IllegalActionError) as error:
        state.escape(1)
    assert error.value.code == "not_in_rules"
    state.set_trustee(1, True)
    assert state.trustee == [False, True, False] and state.phase is Phase.PLAY
