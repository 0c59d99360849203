"""Views and events: what each seat sees, snapshots that never alias, clone and replay."""

from __future__ import annotations

import dataclasses

import pytest
from state_kit import act, assert_views_hide, lead_out, random_hand, snapshot

from qipai.cards import Card
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.actions import Bid, Call, Deal, Show
from qipai.games.doudizhu.combos import pack_cards, to_text
from qipai.games.doudizhu.events import BottomRevealed, BottomShown, CardsDealt, HandStarted, Shown
from qipai.games.doudizhu.scoring import bottom_bonus
from qipai.games.doudizhu.state import Phase, State, replay, sort_key


def test_a_view_is_a_frozen_snapshot() -> None:
    state = State.new("zhengtu", seed=1)
    state.apply(Bid(3))
    view = state.view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    assert isinstance(view.hand, tuple) and isinstance(view.plays, tuple)
    copy = dataclasses.replace(view)
    lead_out(state, 0, keep=10)
    assert view == copy  # the old view did not follow the state
    assert state.view(0) != view and len(state.view(0).hand) == 10


def test_own_hand_counts_and_hidden_bottom() -> None:
    state = State.new("yifa", seed=2)
    for seat in range(3):
        view = state.view(seat)
        assert view.hand == tuple(state.hands[seat]) and len(view.hand) == 17
        assert view.card_counts == (17, 17, 17)
        assert view.bottom is None and view.bottom_size == 3
        assert view.shown_hands == (None, None, None)
        assert view.landlord is None and view.multipliers == ()
    assert_views_hide(state)


def test_yifa_marker_card_is_public() -> None:
    state = State.new("yifa", seed=3)
    marker, holder = state.marker, state.marker_seat
    assert marker is not None and holder is not None
    assert all(
        (state.view(s).marker, state.view(s).marker_seat) == (marker, holder) for s in range(3)
    )
    assert state.view(holder).first_bidder == holder


def test_bottom_is_hidden_until_the_landlord_takes_it() -> None:
    state = State.new("huanle", seed=3)
    state.apply(Deal())
    assert all(state.view(s).bottom is None for s in range(3))
    assert state.view(0).bottom_size == 3
    while state.landlord is None:
        state.apply(state.legal_actions()[0] if state.phase is Phase.ROB else Call())
    assert all(state.view(s).bottom == state.bottom for s in range(3))


def test_caishen_bottom_lies_face_up_from_the_end_of_the_deal() -> None:
    state = State.new("caishen", seed=3)
    state.apply(Deal(16))
    assert state.view(0).bottom is None  # still dealing
    state.apply(Deal(1))
    assert all(state.view(s).bottom == state.bottom for s in range(3))
    shown = [e for e in state.events if isinstance(e, BottomShown)]
    assert len(shown) == 1 and all(shown[0].visible_to(s) for s in range(3))
    act(state, "call", "norob", "norob")
    landlord = state.landlord
    assert landlord is not None
    for seat in range(3):
        assert state.view(seat).bottom == state.bottom
        assert Card("W") in state.bottom
    revealed = [e for e in state.events if isinstance(e, BottomRevealed)]
    assert all(revealed[0].visible_to(s) for s in range(3))
    assert state.view(landlord).card_counts[landlord] == 21


def test_during_the_deal_only_dealt_cards_are_seen() -> None:
    state = State.new("jj", seed=4)
    assert state.phase is Phase.DEAL and state.current_player is None
    assert state.view(0).hand == () and state.view(0).legal_actions == (Show(),)
    state.apply(Deal(5))
    view = state.view(2)
    assert view.cards_dealt == 5 and view.card_counts == (5, 5, 5)
    assert view.hand == tuple(sorted(view.hand, key=sort_key))
    assert set(view.hand) == set(state._deal[2][:5])
    assert_views_hide(state)


def test_deal_events_are_private_shows_are_public() -> None:
    state = State.new("huanle", seed=5)
    state.apply(Deal(3))
    state.apply(Show(), 0)
    dealt = [e for e in state.events if isinstance(e, CardsDealt)]
    for event in dealt:
        assert [event.visible_to(s) for s in range(3)] == [s == event.seat for s in range(3)]
    shown = next(e for e in state.events if isinstance(e, Shown))
    assert all(shown.visible_to(s) for s in range(3)) and shown.cards == tuple(state.hands[0])
    assert isinstance(state.events[0], HandStarted)


def test_view_lists_the_seats_own_legal_actions() -> None:
    state = State.new("zhengtu", seed=6)
    assert state.view(0).legal_actions == tuple(state.legal_actions())
    assert state.view(1).legal_actions == ()


def test_view_shows_pair_multipliers_and_the_result() -> None:
    state = State.new("yifa", seed=7)
    first = state.current_player
    assert first is not None
    act(state, "bid 3", "double", "nodouble")
    one, two = (first + 1) % 3, (first + 2) % 3
    assert state.view(two).multipliers == ((one, 2), (two, 1))
    lead_out(state, first)
    view = state.view(one)
    assert view.returns == state.returns() and view.winner == first and view.spring
    assert_views_hide(state)


def test_the_multiplier_stands_from_the_deal_on() -> None:
    """Issue 27: before the landlord is known every seat sees the hand's multiplier as it
    stands (明牌 ×3 during the deal, each rob ×2); the pairs' once he is, and the table's
    (公共倍数) still."""
    state = State.new("huanle", seed=3)
    assert {state.view(s).standing_multiplier for s in range(3)} == {1}
    state.apply(Deal(10))
    state.apply(Show(), 0)  # after 10 cards of the deal: ×3
    state.apply(Deal(7))
    assert state.phase is Phase.BID
    assert [state.view(s).standing_multiplier for s in range(3)] == [3, 3, 3]
    act(state, "call", "rob")  # seat 0 (the shower bids first) calls, seat 1 robs
    assert [state.view(s).standing_multiplier for s in range(3)] == [6, 6, 6]
    while state.landlord is None:
        state.apply(state.legal_actions()[-1])
    # the landlord known: the table's multiplier goes on (the bottom counts now), each
    # pair's is it times the pair's own factors (none yet: nobody chose 加倍)
    [table] = {state.view(s).standing_multiplier for s in range(3)}
    assert table >= 6 and {m for _, m in state.view(0).multipliers} == {table}


def test_the_standing_multiplier_keeps_the_bottom_hidden() -> None:
    """jj's bottom bonus counts once the bottom is revealed, never before."""
    for seed in range(40):
        state = State.new("jj", seed=seed)
        state.apply(Deal())
        bonus = bottom_bonus(to_text(pack_cards(state.bottom)), state.rules)
        if bonus > 1:
            assert state.view(0).standing_multiplier == 1
            return
    raise AssertionError("no jj deal with a bottom bonus in 40 seeds")


def test_view_of_a_bad_seat_is_refused() -> None:
    with pytest.raises(InvalidActionError) as error:
        State.new("yifa", seed=1).view(3)
    assert error.value.code == "bad_seat"


def test_snapshot_sees_every_change() -> None:
    state = State.new("huanle", seed=8)
    before = snapshot(state)
    other = state.clone()
    other.apply(Show(), 1)
    assert snapshot(other) != before and snapshot(state) == before
    other = state.clone()
    other._chance.randbelow(2)  # only the source of chance moved
    assert snapshot(other) != before
    other = state.clone()
    other.hands[0].append(Card("W"))  # only a hand's contents changed
    assert snapshot(other) != before


def test_clone_is_independent_and_keeps_the_generator() -> None:
    state = State.new("zhengtu", seed=8)
    other = state.clone()
    assert snapshot(other) == snapshot(state)
    before = snapshot(state)
    act(other, "bid 0", "bid 0", "bid 0")  # a redeal draws from the cloned generator
    assert snapshot(state) == before
    act(state, "bid 0", "bid 0", "bid 0")
    assert snapshot(state) == snapshot(other)


@pytest.mark.parametrize("rules", ["yifa", "caishen", "huanle", "zhengtu", "jj"])
def test_replay_rebuilds_the_same_hand(rules: str) -> None:
    state = random_hand(rules, 3, show_rate=0.3, trustee_rate=0.1, check=True)
    again = replay(rules, 3, state.history)
    assert again.events == state.events and again.returns() == state.returns()
    assert snapshot(again) == snapshot(state)
    bare = replay(rules, 3, [(step.seat, step.action) for step in state.history])
    assert snapshot(bare) == snapshot(state)
    assert State.new(rules, seed=4)._deal != State.new(rules, seed=3)._deal
