"""Bidding per preset: first bidder, 叫分 with yifa's robs, 叫地主 / 抢地主, redeal, forced."""

from __future__ import annotations

import pytest
from state_kit import act, snapshot

from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Bid, Call, Deal, NoCall, NoRob, Rob
from qipai.games.doudizhu.events import (
    BiddingStarted,
    BottomRevealed,
    LandlordChosen,
    MarkerTurned,
    Redealt,
)
from qipai.games.doudizhu.rules import RULES, AllPass
from qipai.games.doudizhu.scoring import common_factors
from qipai.games.doudizhu.state import Phase, State

CALL_ROB = ["caishen", "huanle", "jj"]


def _bidding(rules: str, seed: int = 1, **options: object) -> tuple[State, int]:
    """A hand at its first bidding decision, and the first bidder."""
    state = State.new(rules, seed=seed, **options)  # type: ignore[arg-type]
    if state.phase is Phase.DEAL:
        state.apply(Deal())
    assert state.phase is Phase.BID and state.current_player is not None
    return state, state.current_player


def _seat(first: int, offset: int) -> int:
    return (first + offset) % 3


def rob_multiplier(state: State) -> int:
    """The whole hand's factor from robs."""
    return next((f.factor for f in common_factors(state.facts()) if f.reason == "rob"), 1)


def _started(state: State) -> BiddingStarted:
    return [e for e in state.events if isinstance(e, BiddingStarted)][-1]


def _chosen(state: State) -> LandlordChosen:
    return [e for e in state.events if isinstance(e, LandlordChosen)][-1]


# --- first bidder ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first_seat", "hand_number", "expected"),
    [(None, 0, 0), (2, 0, 2), (2, 1, 0), (1, 4, 2), (None, 5, 2)],
)
def test_zhengtu_first_bidder_is_first_seat_then_rotates(
    first_seat: int | None, hand_number: int, expected: int
) -> None:
    state, first = _bidding("zhengtu", first_seat=first_seat, hand_number=hand_number)
    assert first == expected
    assert _started(state).reason == "seat_order"


def test_yifa_marker_card_holder_bids_first() -> None:
    for seed in range(20):
        state, first = _bidding("yifa", seed)
        marker = [e for e in state.events if isinstance(e, MarkerTurned)]
        assert len(marker) == 1
        assert marker[0].seat == first == state.marker_seat
        assert marker[0].card in state.hands[first]
        assert _started(state).reason == "marker_card"


@pytest.mark.parametrize("rules", CALL_ROB)
def test_random_first_bidder_reaches_every_seat(rules: str) -> None:
    firsts = {_bidding(rules, seed)[1] for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert _started(_bidding(rules)[0]).reason == "random"


def test_first_seat_is_ignored_where_the_rules_draw_the_first_bidder() -> None:
    plain = _bidding("huanle", 3)[1]
    assert all(_bidding("huanle", 3, first_seat=s)[1] == plain for s in range(3))


# --- 叫分 (points) -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["yifa", "zhengtu"])
def test_bid_of_three_ends_bidding_at_once(rules: str) -> None:
    state, first = _bidding(rules)
    state.apply(Bid(3))
    assert (state.landlord, state.base) == (first, 3)
    assert _chosen(state).reason == "bid"
    assert len(state.hands[first]) == 20
    revealed = [e for e in state.events if isinstance(e, BottomRevealed)]
    assert revealed[0].cards == state.bottom and set(state.bottom) <= set(state.hands[first])


@pytest.mark.parametrize("rules", ["yifa", "zhengtu"])
def test_highest_bidder_is_landlord_at_his_bid(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "bid 1", "bid 2", "bid 0")
    assert (state.landlord, state.base) == (_seat(first, 1), 2)
    state, first = _bidding(rules)
    act(state, "bid 1", "bid 0", "bid 0")
    assert (state.landlord, state.base) == (first, 1)
    assert state.phase is Phase.PLAY and state.current_player == first


@pytest.mark.parametrize("rules", ["yifa", "zhengtu"])
def test_bid_must_be_higher_than_the_standing_one(rules: str) -> None:
    state, _first = _bidding(rules)
    state.apply(Bid(2))
    before = snapshot(state)
    for points in (1, 2):
        with pytest.raises(IllegalActionError) as error:
            state.apply(Bid(points))
        assert error.value.code == "bid_too_low"
    assert snapshot(state) == before
    assert state.legal_actions() == [Bid(0), Bid(3)]


@pytest.mark.parametrize("rules", ["yifa", "zhengtu"])
def test_all_pass_redeals_with_the_same_generator(rules: str) -> None:
    state, first = _bidding(rules)
    old_hands = [list(h) for h in state.hands]
    act(state, "bid 0", "bid 0", "bid 0")
    assert any(isinstance(e, Redealt) and e.deal == 2 for e in state.events)
    assert state.deal_number == 2 and state.phase is Phase.BID
    assert state.hands != old_hands and all(len(h) == 17 for h in state.hands)
    assert state.robs == [] and state.auction == [] and state.bid == 0
    if rules == "zhengtu":
        assert state.current_player == first  # the same hand: the same first bidder
    else:
        assert state.current_player == state.marker_seat
        assert sum(isinstance(e, MarkerTurned) for e in state.events) == 2


def test_yifa_outbidding_robs_the_standing_bidder() -> None:
    state, first = _bidding("yifa")
    act(state, "bid 1", "bid 2", "bid 3")
    one, two = _seat(first, 1), _seat(first, 2)
    assert state.robs == [(one, first), (two, one)]
    assert (state.landlord, state.base) == (two, 3)
    assert state.phase is Phase.PLAY  # everybody had the chance to bid: nobody may 加倍


def test_yifa_a_bid_after_passes_robs_nobody() -> None:
    state, first = _bidding("yifa")
    act(state, "bid 0", "bid 2", "bid 0")
    assert state.robs == []
    state, first = _bidding("yifa")
    act(state, "bid 1", "bid 0", "bid 2")
    assert state.robs == [(_seat(first, 2), first)]


def test_zhengtu_outbidding_is_no_rob() -> None:
    state, _first = _bidding("zhengtu")
    act(state, "bid 1", "bid 2", "bid 3")
    assert state.robs == []


def test_points_rules_have_no_call() -> None:
    state, _first = _bidding("yifa")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Call())
    assert error.value.code == "not_in_rules"


# --- 叫地主 / 抢地主 ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", CALL_ROB)
def test_call_then_every_other_seat_robs_once_last_robber_wins(rules: str) -> None:
    state, first = _bidding(rules)
    one, two = _seat(first, 1), _seat(first, 2)
    state.apply(Call())
    assert state.phase is Phase.ROB and state.current_player == one
    act(state, "rob", "rob")
    assert state.phase is Phase.ROB and state.current_player == first  # his rob back
    act(state, "norob")
    assert state.robs == [(one, first), (two, one)]
    assert (state.landlord, state.base) == (two, 1)
    assert _chosen(state).reason == "rob"


@pytest.mark.parametrize("rules", CALL_ROB)
def test_the_caller_robs_back_three_robs_make_eight(rules: str) -> None:
    """"当某人选择'叫地主'之后，按照次序每位玩家均有且只有一次'抢地主'的机会": every player,
    the caller too, whose one chance comes after the others, if somebody robbed him."""
    state, first = _bidding(rules)
    one, two = _seat(first, 1), _seat(first, 2)
    act(state, "call", "rob", "rob")
    assert state.current_player == first and state.legal_actions(first)[:2] == [Rob(), NoRob()]
    act(state, "rob")
    assert state.robs == [(one, first), (two, one), (first, two)]
    assert (state.landlord, _chosen(state).reason) == (first, "rob")
    assert rob_multiplier(state) == 8


@pytest.mark.parametrize("rules", CALL_ROB)
def test_the_caller_robs_back_the_only_robber(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "call", "norob", "rob", "rob")
    assert state.robs == [(_seat(first, 2), first), (first, _seat(first, 2))]
    assert state.landlord == first
    assert rob_multiplier(state) == 4


@pytest.mark.parametrize("rules", CALL_ROB)
def test_each_player_robs_only_once(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "call", "rob", "norob", "norob")
    assert state.phase is not Phase.ROB and state.landlord == _seat(first, 1)
    assert [seat for seat, action in state.auction if isinstance(action, (Rob, NoRob))] == [
        _seat(first, 1),
        _seat(first, 2),
        first,
    ]


@pytest.mark.parametrize("rules", CALL_ROB)
def test_nobody_robs_caller_is_landlord(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "call", "norob", "norob")
    assert state.landlord == first and state.robs == []
    assert _chosen(state).reason == "call"


@pytest.mark.parametrize("rules", CALL_ROB)
def test_one_rob_of_two_chances(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "call", "norob", "rob", "norob")
    assert state.robs == [(_seat(first, 2), first)]
    assert state.landlord == _seat(first, 2)


@pytest.mark.parametrize("rules", CALL_ROB)
def test_a_passer_may_not_rob(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "nocall", "call")
    caller = _seat(first, 1)
    assert state.phase is Phase.ROB and state._queue == [_seat(first, 2), caller]
    before = snapshot(state)
    for seat, code in ((first, "cannot_rob"), (caller, "not_your_turn")):
        with pytest.raises(IllegalActionError) as error:
            state.apply(Rob(), seat)
        assert error.value.code == code
    assert snapshot(state) == before
    act(state, "rob", "norob")
    assert state.landlord == _seat(first, 2)
    assert state.robs == [(_seat(first, 2), caller)]


@pytest.mark.parametrize("rules", CALL_ROB)
def test_last_seat_calls_after_two_passes_no_rob_left(rules: str) -> None:
    state, first = _bidding(rules)
    act(state, "nocall", "nocall", "call")
    assert state.landlord == _seat(first, 2) and state.robs == []


@pytest.mark.parametrize("rules", CALL_ROB)
def test_call_rob_all_pass_redeals(rules: str) -> None:
    state, _first = _bidding(rules)
    act(state, "nocall", "nocall", "nocall")
    assert state.deal_number == 2
    if RULES[rules].show.any:
        assert state.phase is Phase.DEAL and state.cards_dealt == 0
        assert state.current_player is None
        assert state.legal_actions() == [Deal(n) for n in range(1, 18)]
        assert all(h == [] for h in state.hands)
    assert state.passed == [False, False, False]


def test_jj_forced_scoring_makes_the_first_bidder_landlord() -> None:
    forced = RULES["jj"].derive("jj-forced", all_pass=AllPass.FORCED)
    state, first = _bidding(forced)  # type: ignore[arg-type]
    act(state, "nocall", "nocall", "nocall")
    assert state.deal_number == 1
    assert (state.landlord, state.base) == (first, 1)
    assert _chosen(state).reason == "forced"


def test_call_rob_rules_have_no_points_bid() -> None:
    state, _first = _bidding("huanle")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(1))
    assert error.value.code == "not_in_rules"
    assert state.legal_actions() == [Call(), NoCall()]
