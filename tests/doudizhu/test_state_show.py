"""明牌 at every moment each preset allows, with its factor, priority and visibility."""

from __future__ import annotations

import pytest
from state_kit import act, snapshot

from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Call, Deal, NoCall, NoShow, Show
from qipai.games.doudizhu.events import BiddingStarted, CardsDealt, LandlordChosen, Shown
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.state import Phase, State


def _factor_after(rules: str, dealt: int, seat: int = 1) -> int:
    state = State.new(rules, seed=5)
    if dealt:
        state.apply(Deal(dealt))
    state.apply(Show(), seat)
    shown = [e for e in state.events if isinstance(e, Shown)]
    assert shown[-1].cards_dealt == dealt and shown[-1].seat == seat
    assert state.shows[seat] == shown[-1].factor
    return shown[-1].factor


@pytest.mark.parametrize(
    ("rules", "factors"),
    [
        ("caishen", {0: 4, 1: 2, 9: 2, 16: 2}),
        ("huanle", {0: 5, 1: 4, 8: 4, 9: 3, 16: 3}),
        ("jj", {0: 10, 1: 5, 5: 5, 8: 5, 9: 3, 12: 3, 16: 3}),
    ],
)
def test_show_factor_depends_on_the_cards_dealt(rules: str, factors: dict[int, int]) -> None:
    for dealt, factor in factors.items():
        assert _factor_after(rules, dealt) == factor, dealt


@pytest.mark.parametrize("rules", ["yifa", "zhengtu"])
def test_no_show_in_rules_without_it(rules: str) -> None:
    state = State.new(rules, seed=1)
    with pytest.raises(IllegalActionError) as error:
        state.apply(Show())
    assert error.value.code == "not_in_rules"
    with pytest.raises(IllegalActionError):
        State.new(rules, seed=1, shows_before_deal=(0,))


def test_shows_before_deal_are_recorded_in_order() -> None:
    state = State.new("caishen", seed=2, shows_before_deal=(2, 0))
    assert state.show_order == [2, 0] and state.shows == [4, 1, 4]
    assert [step.seat for step in state.history] == [2, 0]
    state.apply(Deal())
    started = [e for e in state.events if isinstance(e, BiddingStarted)]
    assert (started[0].seat, started[0].reason) == (2, "first_shower")
    assert state.current_player == 2


def test_a_seat_shows_once() -> None:
    state = State.new("huanle", seed=2, shows_before_deal=(1,))
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as error:
        state.apply(Show(), 1)
    assert error.value.code == "already_shown"
    assert snapshot(state) == before


def test_show_during_the_deal_needs_a_seat() -> None:
    state = State.new("jj", seed=2)
    with pytest.raises(IllegalActionError) as error:
        state.apply(Show())
    assert error.value.code == "not_your_turn"


def test_a_shower_plays_open_cards_dealt_later_are_public() -> None:
    state = State.new("huanle", seed=3)
    state.apply(Deal(4))
    state.apply(Show(), 1)
    state.apply(Deal(13))
    later = [e for e in state.events if isinstance(e, CardsDealt) and e.cards_dealt == 17]
    assert [e.public for e in later] == [False, True, False]
    assert [later[1].visible_to(s) for s in range(3)] == [True, True, True]
    assert [later[0].visible_to(s) for s in range(3)] == [True, False, False]
    view = state.view(0)
    assert view.shown_hands[1] == tuple(state.hands[1])
    assert view.shown_hands[0] is None and view.shown_hands[2] is None


def test_caishen_show_before_own_bidding_decision_only() -> None:
    state = State.new("caishen", seed=4)
    state.apply(Deal())
    first = state.current_player
    assert first is not None
    third = (first + 2) % 3
    assert Show() in state.legal_actions()  # at his turn, before deciding
    state.apply(Show(), third)  # out of turn, before his decision: x2
    assert state.shows[third] == 2
    state.apply(NoCall())
    with pytest.raises(IllegalActionError) as error:
        state.apply(Show(), first)
    assert error.value.code == "show_closed"
    assert Show() not in state.legal_actions(first)
    act(state, "call")
    assert state.phase is Phase.ROB and state.current_player == third
    # the third seat already showed; the caller decided: nobody may show now
    assert all(Show() not in state.legal_actions(s) for s in range(3))


def test_caishen_show_factors_multiply_and_shower_bids_first() -> None:
    state = State.new("caishen", seed=6, shows_before_deal=(1,))
    state.apply(Deal(3))
    state.apply(Show(), 0)
    state.apply(Deal(14))
    assert state.current_player == 1
    assert state.facts().shows == (2, 4, 1)


@pytest.mark.parametrize("rules", ["caishen", "huanle"])
def test_shower_becomes_landlord_when_nobody_calls(rules: str) -> None:
    state = State.new(rules, seed=8)
    state.apply(Deal(6))
    state.apply(Show(), 2)
    state.apply(Show(), 0)
    state.apply(Deal(11))
    assert state.current_player == 2  # the first shower bids first
    act(state, "nocall", "nocall", "nocall")
    assert state.landlord == 2 and state.deal_number == 1
    chosen = [e for e in state.events if isinstance(e, LandlordChosen)]
    assert chosen[0].reason == "first_shower"


def test_jj_shower_is_landlord_without_bidding() -> None:
    state = State.new("jj", seed=9)
    state.apply(Deal(7))
    state.apply(Show(), 1)
    state.apply(Show(), 2)
    state.apply(Deal(10))
    assert state.landlord == 1 and state.auction == []
    assert not any(isinstance(e, BiddingStarted) for e in state.events)
    assert state.phase is Phase.DOUBLE
    act(state, "nodouble", "nodouble", "nodouble")
    # somebody showed earlier: jj offers no after-bottom show
    assert state.phase is Phase.PLAY


def _to_after_bottom(rules: str, seed: int) -> State:
    state = State.new(rules, seed=seed)
    state.apply(Deal())
    act(state, "call", "norob", "norob", "nodouble", "nodouble", "nodouble")
    return state


@pytest.mark.parametrize("rules", ["huanle", "jj"])
def test_landlord_may_show_after_taking_the_bottom(rules: str) -> None:
    state = _to_after_bottom(rules, 10)
    landlord = state.landlord
    assert state.phase is Phase.SHOW_AFTER_BOTTOM and state.current_player == landlord
    assert state.legal_actions() == [Show(), NoShow()]
    assert landlord is not None
    farmer = (landlord + 1) % 3
    with pytest.raises(IllegalActionError) as error:
        state.apply(Show(), farmer)
    assert error.value.code == "show_closed"
    state.apply(Show())
    assert state.shows[landlord] == 2 and state.phase is Phase.PLAY
    assert state.view(farmer).shown_hands[landlord] == tuple(state.hands[landlord])
    assert len(state.hands[landlord]) == 20
    declined = _to_after_bottom(rules, 10)
    declined.apply(NoShow())
    assert declined.phase is Phase.PLAY and declined.shows == [1, 1, 1]


def test_huanle_after_bottom_show_even_if_a_farmer_showed() -> None:
    state = State.new("huanle", seed=11)
    state.apply(Deal(2))
    state.apply(Show(), 0)
    state.apply(Deal(15))
    assert state.current_player == 0
    act(state, "nocall", "call", "norob", "nodouble", "nodouble", "nodouble")
    assert state.landlord == 1 and state.phase is Phase.SHOW_AFTER_BOTTOM
    state.apply(Show())
    assert state.facts().shows == (4, 2, 1)


def test_huanle_shower_who_is_landlord_is_not_asked_again() -> None:
    state = State.new("huanle", seed=12, shows_before_deal=(1,))
    state.apply(Deal())
    act(state, "call", "norob", "norob", "nodouble", "nodouble", "nodouble")
    assert state.landlord == 1 and state.phase is Phase.PLAY


def test_show_closed_once_the_deal_is_over_in_huanle_and_jj() -> None:
    for rules in ("huanle", "jj"):
        state = State.new(rules, seed=1)
        state.apply(Deal())
        with pytest.raises(IllegalActionError) as error:
            state.apply(Show(), 0)
        assert error.value.code == "show_closed"
        assert state.legal_actions() == [Call(), NoCall()]


def test_no_show_outside_its_phase() -> None:
    state = State.new("huanle", seed=1)
    state.apply(Deal())
    with pytest.raises(IllegalActionError) as error:
        state.apply(NoShow())
    assert error.value.code == "wrong_phase"
    assert RULES["huanle"].show.after_bottom == 2
