"""Audit of the ``zhengtu`` preset (征途) against its rules, hand by hand.

The deal: seat 0 holds four bombs and takes ``2BR`` from the bottom when it is landlord.
"""

from __future__ import annotations

import pytest
from state_kit import act, lead_out, multipliers, refused, rig

from qipai.games.doudizhu.actions import Bid, Double, Play, Show
from qipai.games.doudizhu.combos import Kind, parse_move
from qipai.games.doudizhu.state import Phase, State

DECK = rig(["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"], "2BR")


def _landlord_0(bid: int = 2) -> State:
    state = State.new("zhengtu", seed=1, deck=DECK)
    act(state, f"bid {bid}", *(["bid 0", "bid 0"] if bid < 3 else []))
    assert (state.landlord, state.base, state.phase) == (0, bid, Phase.PLAY)
    return state


# --- bidding ------------------------------------------------------------------------------


@pytest.mark.parametrize(("first_seat", "hand_number", "first"), [(1, 0, 1), (1, 1, 2), (1, 2, 0)])
def test_first_to_sit_bids_first_then_it_rotates_in_play_order(
    first_seat: int, hand_number: int, first: int
) -> None:
    state = State.new("zhengtu", seed=1, deck=DECK, first_seat=first_seat, hand_number=hand_number)
    assert state.phase is Phase.BID and state.current_player == first


def test_bids_strictly_higher_three_ends_no_rob_no_doubling_no_show() -> None:
    state = State.new("zhengtu", seed=1, deck=DECK)
    refused(state, Show(), "not_in_rules", seat=1)
    act(state, "bid 1")
    refused(state, Bid(1), "bid_too_low")
    act(state, "bid 3")
    assert (state.landlord, state.base, state.robs) == (1, 3, [])
    assert state.phase is Phase.PLAY and state.current_player == 1
    refused(state, Double(), "not_in_rules")


def test_all_pass_redeals() -> None:
    state = State.new("zhengtu", seed=1, deck=DECK)
    act(state, "bid 0", "bid 0", "bid 0")
    assert state.deal_number == 2 and state.phase is Phase.BID and state.current_player == 0


# --- combinations -------------------------------------------------------------------------


def test_no_trio_single_no_plane_singles_no_four_with_two() -> None:
    state = _landlord_0()
    kinds = {a.move.kind for a in state.legal_actions() if isinstance(a, Play)}
    assert {Kind.TRIO_PAIR, Kind.PLANE_PAIRS, Kind.TRIO_CHAIN, Kind.BOMB, Kind.ROCKET} <= kinds
    assert not kinds & {
        Kind.TRIO_SINGLE,
        Kind.PLANE_SINGLES,
        Kind.FOUR_TWO_SINGLES,
        Kind.FOUR_TWO_PAIRS,
    }
    for text in ("3334", "33344457", "333345", "33334455"):
        refused(state, Play(parse_move(text)), "illegal_move")
    act(state, "play 33344", "play 88899", "play pass")
    assert state.current_player == 0


# --- points -------------------------------------------------------------------------------


def test_landlord_wins_base_times_multiplier_times_two() -> None:
    state = _landlord_0(2)
    act(state, "play 7", "play 8", "play pass", "play 2", "play pass", "play pass")
    act(state, "play 3333", "play pass", "play pass", "play BR", "play pass", "play pass")
    assert multipliers(state) == {1: 4, 2: 4}
    lead_out(state, 0)
    assert not state.spring and state.returns() == (2 * 4 * 2, -8, -8)


def test_spring_and_anti_spring_double_the_result() -> None:
    state = _landlord_0(3)
    lead_out(state, 0)
    assert state.spring and state.returns() == (12, -6, -6)
    state = _landlord_0(1)
    act(state, "play 7", "play 8888", "play pass", "play pass")
    lead_out(state, 1)
    assert state.anti_spring and state.returns() == (-8, 4, 4)


def test_landlord_escape_pays_double_the_landlords_loss_others_nothing() -> None:
    state = _landlord_0(2)
    act(state, "play 3333", "play pass", "play pass")
    state.escape(0)
    assert state.returns() == (-2 * 2 * 2 * 2, 0, 0)


def test_farmer_escape_pays_double_his_loss_others_nothing() -> None:
    state = _landlord_0(3)
    act(state, "play 3333", "play pass", "play pass")
    state.escape(2)
    assert state.returns() == (0, 0, -3 * 2 * 2)
