"""出牌: leading, following, tricks, the end of a hand, spring, bombs, 财神, escape, 托管."""

from __future__ import annotations

import dataclasses

import pytest
from state_kit import act, farmers, lead_out, rig, snapshot

from qipai.cards import Card
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.actions import Action, Bid, Deal, Play
from qipai.games.doudizhu.combos import PASS, Kind, from_text
from qipai.games.doudizhu.events import Escaped, HandEnded, Played, TrusteeChanged
from qipai.games.doudizhu.rules import RULES, FirstBidder
from qipai.games.doudizhu.scoring import escape_points, score_hand
from qipai.games.doudizhu.state import Phase, State, pack_cards, replay

BOMBS_DECK = rig(["3333BR44455566678", "45677788899TTJJQK", "99TTJJQQQKKKAAAA2"], "222")
"""Seat 0: a bomb and the rocket; seat 2: a bomb of aces; the bottom: three 2s."""
PLANE_DECK = rig(["333444555666789TJ", "3456789TJQKA2789T", "JJQQQKKKAAA222789"], "TBR")


def _zhengtu_landlord_0(deck: list[Card] | None = None, seed: int = 1) -> State:
    state = State.new("zhengtu", seed=seed, deck=deck)
    state.apply(Bid(3))
    assert state.landlord == 0 and state.phase is Phase.PLAY
    return state


def _play(state: State, text: str) -> None:
    act(state, f"play {text}")


def _refused(state: State, action: Action, code: str, seat: int | None = None) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as error:
        state.apply(action, seat)
    assert error.value.code == code
    assert snapshot(state) == before


def test_the_landlord_leads_and_may_not_pass() -> None:
    state = _zhengtu_landlord_0()
    assert state.current_player == 0 and state.to_beat.is_pass
    assert Play(PASS) not in state.legal_actions()
    _refused(state, Play(PASS), "cannot_pass")


def test_a_trick_ends_when_both_others_pass() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    _play(state, "8")
    assert state.current_player == 1 and state.to_beat.cards == from_text("8")
    _refused(state, Play(PASS), "not_your_turn", seat=2)
    act(state, "play pass", "play pass")
    view = state.view(1)
    assert state.current_player == 0 and state.to_beat.is_pass
    assert view.trick == () and next(m for _, m in view.plays).cards == from_text("8")


def test_a_follower_must_beat_the_table() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    _play(state, "8")
    _refused(state, Action.parse("play 7"), "illegal_move")
    _refused(state, Action.parse("play 2"), "illegal_move")  # seat 1 holds no 2
    _play(state, "9")
    _play(state, "A")
    assert state.to_beat_seat == 2 and state.current_player == 0


def test_played_cards_leave_the_hand_as_physical_cards() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    before = list(state.hands[0])
    _play(state, "444")
    played = [e for e in state.events if isinstance(e, Played)][-1]
    assert [c.rank for c in played.cards] == ["4", "4", "4"]
    assert set(played.cards) <= set(before) and not set(played.cards) & set(state.hands[0])
    assert played.cards_left == 17 == len(state.hands[0])
    assert state.packed[0] == pack_cards(state.hands[0])


def test_spring_bombs_and_rocket_are_counted() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    assert state.facts().bombs_in_hand == (2, 0, 1)
    _play(state, "3333")
    act(state, "play pass", "play pass", "play BR", "play pass", "play pass")
    lead_out(state, 0)
    assert state.is_terminal and state.winner == 0
    assert (state.bombs, state.rockets, state.spring, state.anti_spring) == (1, 1, True, False)
    ended = [e for e in state.events if isinstance(e, HandEnded)]
    assert ended == [HandEnded(0, True, True, False)]
    # zhengtu: base 3 x bomb 2 x rocket 2 x spring 2 = 24 per farmer, landlord twice that
    assert state.returns() == (48, -24, -24)


def test_anti_spring_when_the_landlord_played_only_his_lead() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    _play(state, "4")
    _play(state, "K")
    act(state, "play pass", "play pass")
    lead_out(state, 1)
    assert state.winner == 1 and state.anti_spring and not state.spring
    assert state.returns() == (-12, 6, 6)  # base 3 x anti-spring 2, per farmer


def test_no_spring_once_a_farmer_played() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    _play(state, "4")
    _play(state, "5")
    act(state, "play pass", "play 6", "play pass", "play pass")
    lead_out(state, 0)
    assert state.winner == 0 and not state.spring and not state.anti_spring
    assert state.returns() == (6, -3, -3)


def test_an_ambiguous_play_is_played_with_the_reading_chosen() -> None:
    rules = RULES["yifa"].derive("yifa-seat-order", first_bidder=FirstBidder.SEAT_ORDER)
    state = State.new(rules, seed=1, deck=PLANE_DECK)
    state.apply(Bid(3))
    act(state, "1:nodouble", "2:nodouble")
    same = [a for a in state.legal_actions() if str(a).startswith("play 333444555666 ")]
    kinds = sorted((a.move.kind.label, a.move.main) for a in same)  # type: ignore[attr-defined]
    assert kinds == [("plane_singles", 2), ("plane_singles", 3), ("trio_chain", 3)]
    act(state, "play 333444555666 plane_singles:5")
    assert state.to_beat.kind is Kind.PLANE_SINGLES and state.to_beat.length == 3
    zhengtu = _zhengtu_landlord_0(PLANE_DECK)
    same = [a for a in zhengtu.legal_actions() if str(a).startswith("play 333444555666")]
    assert [a.move.kind for a in same] == [Kind.TRIO_CHAIN]  # type: ignore[attr-defined]


def test_caishen_landlord_with_only_the_wildcard_left_has_won() -> None:
    state = State.new("caishen", seed=4)
    state.apply(Deal())
    act(state, "call", "norob", "norob", "nodouble", "nodouble")
    landlord = state.landlord
    assert landlord is not None and len(state.hands[landlord]) == 21
    assert Card("W") in state.hands[landlord] and Card("W") in state.bottom
    lead_out(state, landlord)
    assert state.is_terminal and state.winner == landlord
    assert state.hands[landlord] == [Card("W")] and state.spring


def test_escape_ends_the_hand_with_escape_points() -> None:
    state = State.new("caishen", seed=4)
    state.apply(Deal())
    act(state, "call", "norob", "norob", "nodouble", "double")
    farmer = farmers(state)[1]
    events = state.escape(farmer)
    assert events == [Escaped(farmer)] and state.is_terminal and state.escaper == farmer
    assert state.returns() == escape_points(state.facts(), farmer)
    assert sum(state.returns()) == 0 and state.returns()[farmer] < 0
    _refused(state, Play(PASS), "hand_over")


def test_escape_before_the_landlord_is_known() -> None:
    state = State.new("zhengtu", seed=2)
    act(state, "bid 2")
    state.escape(2)
    facts = state.facts()
    assert (facts.landlord, facts.base, facts.winner) == (0, 2, None)
    assert state.returns() == escape_points(facts, 2)
    dealing = State.new("huanle", seed=2)
    dealing.escape(1)
    assert dealing.facts().landlord == 2 and dealing.returns()[1] < 0


def test_yifa_has_no_escape() -> None:
    state = State.new("yifa", seed=2)
    _refused(state, Action.parse("escape"), "not_in_rules", seat=1)


def test_trustee_is_recorded_with_the_cards_left() -> None:
    state = _zhengtu_landlord_0(BOMBS_DECK)
    assert state.set_trustee(1, True) == [TrusteeChanged(1, True, 17)]
    assert state.set_trustee(1, True) == []  # no change, no event, no history
    assert state.view(2).trustee == (False, True, False)
    lead_out(state, 0, keep=1)
    state.set_trustee(0, True)
    facts = state.facts()
    assert facts.trustee == (True, True, False)
    assert facts.trustee_last_card == (True, False, False)
    state.set_trustee(1, False)
    assert state.facts().trustee == (True, False, False)


def test_jj_trustee_farmer_pays_the_farmers_loss() -> None:
    state = State.new("jj", seed=4)
    state.apply(Deal())
    act(state, "call", "norob", "norob", "nodouble", "nodouble", "nodouble", "noshow")
    landlord = state.landlord
    assert landlord is not None
    lazy, other = farmers(state)
    state.set_trustee(lazy, True)
    lead_out(state, landlord)
    points = state.returns()
    normal = score_hand(dataclasses.replace(state.facts(), trustee=(False,) * 3))
    assert points == score_hand(state.facts())
    assert points[lazy] == normal[lazy] + normal[other] and points[other] == 0
    assert points[landlord] == normal[landlord]


def test_a_play_that_names_its_cards_takes_those_cards() -> None:
    """Issue 27: a player who lifts 8♥ 8♣ plays them, not the 8♠ 8♥ the suit order would take
    (suits never matter to the rules; they matter to what the table shows). The text
    round-trips and replays."""
    state = _zhengtu_landlord_0(seed=7)
    held = [str(card) for card in state.hands[0]]
    assert {"8s", "8h", "8c"} <= set(held)
    events = state.apply(Action.parse("play 88 @8c8h"))
    played = events[0]
    assert isinstance(played, Played)
    assert [str(card) for card in played.cards] == ["8h", "8c"]
    assert "8s" in [str(card) for card in state.hands[0]]
    assert [str(step.action) for step in state.history][-1] == "play 88 @8h8c"
    again = replay("zhengtu", 7, state.history)
    assert again.hands == state.hands and again.events == state.events


def test_named_cards_must_be_the_plays_and_in_the_hand() -> None:
    state = _zhengtu_landlord_0(seed=7)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Action.parse("play 3 @3s"))  # seat 0 holds 3d, not 3s
    assert refused.value.code == "cards_not_held" and snapshot(state) == before
    for text in ("play 3 @4s", "play 77 @7h7h", "play 7 @7x", "play 88 @8h"):
        with pytest.raises(InvalidActionError) as bad:
            Action.parse(text)
        assert bad.value.code == "bad_cards", text
