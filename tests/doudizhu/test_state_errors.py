"""Refusals: every error has its type and stable code and leaves the state unchanged;
actions parse and print their text form."""

from __future__ import annotations

import pytest
from state_kit import act, rig, snapshot

from qipai.cards import doudizhu_deck
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu import moves_for
from qipai.games.doudizhu.actions import (
    ACTION_TYPES,
    Action,
    Bid,
    Call,
    Deal,
    Double,
    Escape,
    NoCall,
    NoDouble,
    NoRob,
    NoShow,
    Play,
    Rob,
    Show,
    Trustee,
)
from qipai.games.doudizhu.combos import PASS, Kind, Move, from_text
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.state import State

SIMPLE: list[Action] = [
    Deal(),
    Deal(3),
    Show(),
    NoShow(),
    Bid(0),
    Bid(3),
    Call(),
    NoCall(),
    Rob(),
    NoRob(),
    Double(),
    NoDouble(),
    Play(PASS),
    Escape(),
    Trustee(True),
    Trustee(False),
]


@pytest.mark.parametrize("action", SIMPLE, ids=str)
def test_actions_round_trip_through_text(action: Action) -> None:
    assert Action.parse(str(action)) == action
    assert type(action).parse(str(action)) == action
    assert type(action) in ACTION_TYPES


@pytest.mark.parametrize(
    ("hand", "rules"),
    [("333444555666789TJQ", "yifa"), ("33445566778899TTJJQK2BR", "jj"), ("777W5566B", "caishen")],
)
def test_every_legal_play_round_trips(hand: str, rules: str) -> None:
    plays = [Play(m) for m in moves_for(from_text(hand), PASS, RULES[rules])]
    assert len(plays) > 20
    for play in plays:
        assert Action.parse(str(play)) == play


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("fly", "bad_action"),
        ("", "bad_action"),
        ("bid 4", "bad_bid"),
        ("bid two", "bad_action"),
        ("deal 0", "bad_action"),
        ("deal 18", "bad_action"),
        ("call now", "bad_action"),
        ("trustee maybe", "bad_action"),
        ("play 3345", "not_a_combination"),
        ("play 333444555666 trio_single", "not_a_combination"),
        ("play 33X", "bad_cards"),
    ],
)
def test_malformed_actions_are_invalid(text: str, code: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        Action.parse(text)
    assert error.value.code == code


def test_parsing_on_a_subclass_wants_that_subclass() -> None:
    assert Bid.parse("bid pass") == Bid(0)
    with pytest.raises(InvalidActionError) as error:
        Bid.parse("call")
    assert error.value.code == "bad_action"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"rules": "nope"}, "unknown_rules"),
        ({"first_seat": 3}, "bad_seat"),
        ({"hand_number": -1}, "bad_hand_number"),
        ({"balances": (1, 2)}, "bad_balances"),
        ({"deck": list(doudizhu_deck())[:-1] * 2}, "bad_deck"),
        ({"deck": list(doudizhu_deck(wildcard=True))}, "bad_deck"),
    ],
)
def test_bad_table_options_are_invalid(options: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        State.new(seed=1, **options)  # type: ignore[arg-type]
    assert error.value.code == code


def _refused(state: State, action: object, code: str, seat: object = None) -> None:
    """``action`` by ``seat`` raises ``code`` (either error type) and changes nothing."""
    before = snapshot(state)
    assert not state.can_apply(action, seat)  # type: ignore[arg-type]
    with pytest.raises((IllegalActionError, InvalidActionError)) as error:
        state.apply(action, seat)  # type: ignore[arg-type]
    assert error.value.code == code  # type: ignore[union-attr]
    assert snapshot(state) == before


def test_refusals_while_dealing() -> None:
    state = State.new("huanle", seed=1)
    _refused(state, Call(), "wrong_phase")
    _refused(state, Deal(), "not_your_turn", seat=0)
    _refused(state, "deal", "bad_action")
    _refused(state, Deal(3), "bad_seat", seat=3)
    _refused(state, Deal(3), "bad_seat", seat=True)
    state.apply(Deal(10))
    _refused(state, Deal(8), "deal_too_many")
    assert state.can_apply(Deal(7)) and state.can_apply(Show(), 2)


def test_refusals_while_bidding() -> None:
    state = State.new("yifa", seed=1)
    first = state.current_player
    assert first is not None
    _refused(state, Bid(1), "not_your_turn", seat=(first + 1) % 3)
    _refused(state, Play(PASS), "wrong_phase")
    _refused(state, Rob(), "not_in_rules")
    _refused(state, Deal(), "wrong_phase")
    _refused(state, NoShow(), "not_in_rules")
    state.apply(Bid(2))
    _refused(state, Bid(2), "bid_too_low")
    assert state.can_apply(Bid(0)) and state.can_apply(Bid(3))


def test_refusals_while_playing() -> None:
    deck = rig(["3333BR44455566678", "45677788899TTJJQK", "99TTJJQQQKKKAAAA2"], "222")
    state = State.new("zhengtu", seed=1, deck=deck)
    state.apply(Bid(3))
    _refused(state, Bid(1), "wrong_phase")
    _refused(state, Play(PASS), "cannot_pass")
    _refused(state, Action.parse("play 99"), "illegal_move")  # not in his hand
    _refused(state, Action.parse("play 3334"), "illegal_move")  # no 三带一 in zhengtu
    forged = Move(Kind.SINGLE, 0, 1, from_text("33"), from_text("33"))  # a false reading
    _refused(state, Play(forged), "illegal_move")
    _refused(state, Action.parse("play 8"), "not_your_turn", seat=1)
    act(state, "play 8")
    _refused(state, Action.parse("play 88"), "illegal_move")
    _refused(state, Action.parse("play 7"), "illegal_move")


def test_everything_is_refused_once_the_hand_is_over() -> None:
    state = State.new("caishen", seed=1)
    state.escape(0)
    for action in (Deal(), Show(), Call(), Play(PASS), Escape(), Trustee(True)):
        _refused(state, action, "hand_over", seat=None if isinstance(action, Deal) else 1)
    assert state.legal_actions() == [] and state.current_player is None


def test_error_messages_reveal_no_hidden_card() -> None:
    state = State.new("zhengtu", seed=1)
    state.apply(Bid(3))
    hidden = {str(c) for seat in (1, 2) for c in state.hands[seat]}
    for action, seat in ((Action.parse("play 2222"), None), (Play(PASS), 1), (Bid(3), 2)):
        with pytest.raises(IllegalActionError) as error:
            state.apply(action, seat)
        assert not any(card in str(error.value) for card in hidden)
