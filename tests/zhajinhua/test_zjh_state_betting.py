"""Scripted Zha Jin Hua hands: every action and limit of ``docs/zhajinhua.md``."""

from __future__ import annotations

import pytest
from zjh_kit import rig, snapshot

from qipai.cards import parse_cards
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.zhajinhua import (
    RULES,
    Action,
    AutoCall,
    Call,
    Compare,
    DealerRule,
    Fold,
    Look,
    Raise,
    State,
    get_rules,
    replay,
)
from qipai.games.zhajinhua.events import (
    AntesPaid,
    AutoCallChanged,
    Called,
    CapReached,
    CardsDealt,
    HandEnded,
    HandStarted,
)

YIFA = RULES["yifa"]
WEAK, MID, STRONG = "2s4h7d", "9s9hKd", "AsAhAd"


def refused(state: State, action: Action, code: str, seat: int | None = None) -> None:
    """``action`` is refused with ``code`` and nothing changes."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action, seat)
    assert info.value.code == code
    assert snapshot(state) == before
    assert not state.can_apply(action, seat)


# --- the start of a hand ------------------------------------------------------------------


def test_ante_deal_and_first_actor() -> None:
    state = rig([WEAK, MID, STRONG, "3c5c8d"], dealer=2)
    assert state.pot == 4 * YIFA.ante and state.stacks == (199,) * 4
    assert state.current_player == 3 and state.first == 3
    assert [type(e) for e in state.events] == [HandStarted, AntesPaid, CardsDealt]
    assert state.hands[2] == tuple(parse_cards(STRONG))


def test_deal_starts_with_the_dealer() -> None:
    state = State.new("yifa", seed=5, players=3, dealer=1)
    deck = [c for i in range(3) for c in (state.hands[1][i], state.hands[2][i], state.hands[0][i])]
    again = State.new("yifa", seed=99, players=3, dealer=1, deck=deck)
    assert again.hands == state.hands


def test_first_dealer_is_random_but_seeded() -> None:
    dealers = {State.new("yifa", seed=s, players=5).dealer for s in range(40)}
    assert dealers == set(range(5))
    assert State.new("yifa", seed=8, players=5).hands == State.new("yifa", seed=8, players=5).hands


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": 1}, "bad_players"),
        ({"players": 7}, "bad_players"),
        ({"players": 3, "stacks": [10, 10]}, "bad_stacks"),
        ({"players": 3, "stacks": [10, 0, 10]}, "bad_stacks"),
        ({"players": 3, "dealer": 3}, "bad_seat"),
        ({"players": 3, "deck": parse_cards("As As Ks Qs Js Ts 9s 8s 7s")}, "bad_deck"),
    ],
)
def test_bad_tables(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        State.new("yifa", seed=0, **kwargs)  # type: ignore[arg-type]
    assert info.value.code == code


def test_rules_presets_and_derive() -> None:
    assert get_rules("yifa") is YIFA and get_rules(YIFA) is YIFA
    with pytest.raises(InvalidActionError, match="unknown_rules"):
        get_rules("nope")
    with pytest.raises(InvalidActionError, match="bad_rules"):
        YIFA.derive("x", colour="red")
    with pytest.raises(InvalidActionError, match="bad_rules"):
        YIFA.derive("x", cap=1)
    with pytest.raises(InvalidActionError, match="bad_rules"):
        YIFA.derive("x", max_players=7)
    assert YIFA.raise_levels(2) == (5, 10)


# --- look, call, raise, fold ------------------------------------------------------------


def test_blind_call_costs_the_stake_seen_twice() -> None:
    state = rig([WEAK, MID, STRONG])
    events = state.apply(Call())
    assert events[0] == Called(1, 1, 1, auto=False) and state.current_player == 2
    state.apply(Look())
    assert state.current_player == 2  # looking keeps the turn
    refused(state, Look(), "already_seen")
    state.apply(Call())
    assert state.stacks == (199, 198, 197)


def test_raise_levels_and_top_bet() -> None:
    state = rig([WEAK, MID, STRONG], rules=YIFA.derive("t5", top_bet=5))
    assert [a for a in state.legal_actions() if isinstance(a, Raise)] == [Raise(2), Raise(5)]
    refused(state, Raise(10), "over_top_bet")
    refused(state, Raise(1), "raise_too_low")
    refused(state, Raise(3), "not_a_level")
    state.apply(Raise(2))  # blind: pays the new stake once
    assert state.stake == 2 and state.put[1] == 3
    state.apply(Look())
    state.apply(Raise(5))  # seen: pays twice the new stake
    assert state.stake == 5 and state.put[2] == 11
    refused(state, Raise(5), "raise_too_low")
    assert not any(isinstance(a, Raise) for a in state.legal_actions())


def test_fold_and_last_standing_takes_the_whole_pot() -> None:
    rules = YIFA.derive("a20", ante=20, cap=400)
    state = rig([WEAK, MID, STRONG], rules=rules, stacks=[400] * 3)
    state.apply(Raise(10))  # seat 1 blind: 10
    state.apply(Fold())  # seat 2
    events = state.apply(Fold())  # seat 0: seat 1 is left
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    assert (ended.winner, ended.reason, ended.pot) == (1, "last_standing", 70)
    assert ended.returns == state.returns() == (-20, 40, -20)  # zero-sum: the hall rakes
    assert sum(state.stacks) + state.pot == 1200
    refused(state, Call(), "hand_over")
    assert state.legal_actions() == []


def test_the_smallest_pot_returns_the_ante() -> None:
    state = rig([WEAK, MID])  # ante 1: the winner's profit is the other's ante
    state.apply(Fold())
    assert state.winner == 0 and state.returns() == (1, -1) and state.stacks == (201, 199)


def test_turn_and_input_errors() -> None:
    state = rig([WEAK, MID, STRONG])
    refused(state, Call(), "not_your_turn", seat=0)
    with pytest.raises(InvalidActionError, match="bad_seat"):
        state.apply(Call(), 3)
    with pytest.raises(InvalidActionError, match="bad_action"):
        state.apply("call")  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match="bad_action"):
        Raise(0)
    with pytest.raises(InvalidActionError, match="bad_action"):
        Compare(-1)


def test_actions_round_trip() -> None:
    actions = [Look(), Call(), Raise(5), Fold(), Compare(3), AutoCall(True), AutoCall(False)]
    assert [Action.parse(str(a)) for a in actions] == actions
    assert Raise.parse("raise 2") == Raise(2)
    for text in ("jump", "raise", "call 3", "autocall maybe", "compare 2x"):
        with pytest.raises(InvalidActionError, match="bad_action"):
            Action.parse(text)
    with pytest.raises(InvalidActionError, match="bad_action"):
        Raise.parse("call")


# --- compare -----------------------------------------------------------------------------


def _to_round_two(state: State) -> None:
    for _ in range(state.players):
        state.apply(Call())


def test_compare_only_from_round_two_at_double_cost() -> None:
    state = rig([WEAK, MID, STRONG])
    refused(state, Compare(2), "compare_too_early")
    assert not any(isinstance(a, Compare) for a in state.legal_actions())
    _to_round_two(state)
    assert state.round == 2 and Compare(2) in state.legal_actions()
    state.apply(Look())
    assert state.compare_cost(1) == 2 * state.call_cost(1) == 4
    events = state.apply(Compare(2))  # 9 9 K against A A A: the initiator loses
    assert state.put[1] == 2 + 4 and state.out[1] and state.compares[0].loser == 1
    assert events[0].loser == 1  # type: ignore[attr-defined]
    assert state.current_player == 2


def test_blind_compare_costs_twice_the_blind_call() -> None:
    state = rig([STRONG, MID, WEAK])
    _to_round_two(state)
    assert state.compare_cost(1) == 2
    state.apply(Compare(2))
    assert state.out == (False, False, True) and state.put[1] == 4


def test_compare_ties_lose_for_the_initiator() -> None:
    state = rig(["Ks9h4d", "Kh9c4s", WEAK])
    _to_round_two(state)
    state.apply(Fold())  # seat 1
    state.apply(Compare(0))  # seat 2 (weak) loses; seat 0 is left
    state = rig(["Ks9h4d", "Kh9c4s"])
    _to_round_two(state)
    state.apply(Compare(0))  # seat 1 asks with an equal hand and loses
    assert state.winner == 0 and state.out == (False, True)


def test_235_beats_trips_in_a_compare() -> None:
    state = rig(["2h3d5c", STRONG])
    _to_round_two(state)
    state.apply(Call())
    state.apply(Compare(1))
    assert state.winner == 0


def test_compare_targets() -> None:
    state = rig([WEAK, MID, STRONG, "3c5c8d"])
    _to_round_two(state)
    state.apply(Fold())  # seat 1
    refused(state, Compare(2), "bad_target")  # seat 2 itself
    refused(state, Compare(1), "bad_target")  # folded
    refused(state, Compare(9), "bad_target")
    assert {a for a in state.legal_actions() if isinstance(a, Compare)} == {Compare(0), Compare(3)}


# --- auto-call ---------------------------------------------------------------------------


def test_look_out_of_turn_is_refused() -> None:
    state = rig([WEAK, MID, STRONG])
    refused(state, Look(), "not_your_turn", seat=0)


def test_auto_call_and_cancel() -> None:
    state = rig([WEAK, MID, STRONG])
    assert state.apply(AutoCall(True), 0) == [AutoCallChanged(0, on=True)]
    refused(state, AutoCall(True), "auto_call_unchanged", seat=0)
    state.apply(Call())  # seat 1
    events = state.apply(Raise(2))  # seat 2; then the system calls for blind seat 0
    assert events[-1] == Called(0, 2, 2, auto=True)
    assert state.current_player == 1 and state.turns[0] == 1
    state.apply(AutoCall(True), 1)  # seat 1 to act: the call happens at once
    assert state.current_player == 2 and state.put[1] == 1 + 1 + 2
    state.apply(AutoCall(False), 0)  # 取消跟注, out of turn
    assert state.auto_call == (False, True, False)
    state.apply(Look())
    state.apply(AutoCall(True))  # seat 2, seen: the system calls 2 × 2; seat 0 is to act
    assert state.put[2] == 1 + 2 + 4 and state.current_player == 0


def test_auto_call_runs_to_the_cap() -> None:
    state = rig([WEAK, MID, STRONG], rules=YIFA.derive("c20", cap=20))
    state.apply(AutoCall(True), 0)
    state.apply(AutoCall(True), 2)
    state.apply(AutoCall(True), 1)
    assert state.is_terminal and state.reason == "cap" and state.winner == 2
    assert max(state.put) == 20


def test_auto_call_stops_when_the_call_is_unaffordable() -> None:
    state = rig([WEAK, MID, STRONG], stacks=[3, 200, 200])
    state.apply(AutoCall(True), 0)
    state.apply(Raise(2))
    events = state.apply(Raise(5))
    assert events[-1] == AutoCallChanged(0, on=False) and state.current_player == 0
    assert Call() not in state.legal_actions() and Fold() in state.legal_actions()
    refused(state, Call(), "cannot_afford")


def test_auto_call_refusals() -> None:
    state = rig([WEAK, MID, STRONG])
    state.apply(Fold())
    refused(state, AutoCall(True), "not_in_hand", seat=1)
    off = rig([WEAK, MID], rules=YIFA.derive("noauto", auto_call=False))
    refused(off, AutoCall(True), "not_in_rules", seat=0)
    assert not any(isinstance(a, AutoCall) for a in off.legal_actions())


# --- the cap and the automatic showdown ----------------------------------------------


def test_cap_opens_all_hands_in_betting_order() -> None:
    rules = YIFA.derive("c11", cap=11)
    # dealer 0: betting order 1, 2, 0.  Three hands: 235 is the lowest, trips win.
    state = rig(["9s9hKd", "2h3d5c", STRONG], rules=rules)
    state.apply(Raise(10))  # seat 1: 1 + 10 reaches the cap at once
    ended = state.events[-1]
    assert state.events[-2] == CapReached(1, 11)
    assert isinstance(ended, HandEnded) and ended.opened == (1, 2, 0)
    assert ended.winner == 2 and ended.reason == "cap"


def test_cap_ties_lose_for_the_earlier_opened() -> None:
    rules = YIFA.derive("c12", cap=12)
    state = rig(["Ks9h4d", "Kh9c4s", WEAK], rules=rules)  # order 1, 2, 0
    state.apply(Fold())
    while not state.is_terminal:
        state.apply(Raise(10) if state.stake < 10 else Call())
    assert state.opened == (2, 0) and state.winner == 0


def test_payment_is_cut_at_the_cap() -> None:
    state = rig([WEAK, MID], rules=YIFA.derive("c8", cap=8))
    state.apply(Raise(10))  # would be 10; cut to 7 (ante 1 + 7 = cap)
    assert state.put[1] == 8 and state.is_terminal and state.reason == "cap"


def test_payment_overshoots_without_clipping() -> None:
    state = rig([WEAK, MID], rules=YIFA.derive("c8", cap=8, clip_to_cap=False), stacks=[50, 50])
    state.apply(Raise(10))
    assert state.put[1] == 11 and state.is_terminal


# --- dealer rule, replay -------------------------------------------------------------------


def test_next_dealer() -> None:
    state = rig([WEAK, MID, STRONG], dealer=2)
    assert state.next_dealer is None
    state.apply(Fold())
    state.apply(Fold())
    assert state.winner == 2 and state.next_dealer == 2
    rotate = YIFA.derive("rot", dealer_rule=DealerRule.ROTATE)
    state = rig([WEAK, MID, STRONG], dealer=2, rules=rotate)
    state.apply(Fold())
    state.apply(Fold())
    assert state.next_dealer == 0


def test_replay_rebuilds_the_hand() -> None:
    state = State.new("yifa", seed=11, players=4)
    state.apply(AutoCall(True), (state.first + 2) % 4)
    for action in (Look(), Call(), Raise(5), Call(), Fold()):
        if not state.is_terminal:
            state.apply(action)
    again = replay("yifa", 11, state.history, players=4)
    assert again.events == state.events and snapshot(again) == snapshot(state)
    assert replay("yifa", 11, [(s.seat, s.action) for s in state.history], players=4).events == (
        state.events
    )


def test_clone_is_independent() -> None:
    state = State.new("yifa", seed=2, players=3)
    other = state.clone()
    other.apply(Call())
    assert state.put != other.put and len(state.events) < len(other.events)
