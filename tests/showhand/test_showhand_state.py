"""Scripted Showhand hands: every action, every limit, 换牌, 开, 梭, extra rounds, views.

Hands are dealt from a stacked deck: :func:`stacked` takes each seat's five cards in the
order they are dealt (hole card, up card, cards 3, 4, 5) and puts them where the deal
takes them (all cards 1, then all cards 2, then cards 3 to the seats still in, ...).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from qipai.cards import Card, parse_cards
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.showhand import (
    DECK,
    RULES,
    Action,
    Bet,
    Call,
    Check,
    Fold,
    Keep,
    Open,
    Phase,
    Raise,
    ShowHand,
    State,
    Swap,
    replay,
)
from qipai.games.showhand.events import (
    CardDealt,
    CardTurned,
    HandEnded,
    RoundStarted,
    Showdown,
    SwapChosen,
)

YIFA = RULES["yifa"]


def stacked(*hands: str) -> list[Card]:
    """A deck dealing ``hands[seat]`` (five cards in deal order) when nobody folds early."""
    cards = [parse_cards(h) for h in hands]
    deck = [c[i] for i in range(5) for c in cards]
    return deck + [c for c in DECK if c not in deck]


def snapshot(state: State) -> list[object]:
    """A deep copy of every attribute, to compare before and after a refused action (the
    memo caches, shared between hands, aside)."""
    caches = {"_legal_cache", "_legal"}
    return [copy.deepcopy(getattr(state, n)) for n in State.__slots__ if n not in caches]


def refused(state: State, action: Action, code: str, seat: int | None = None) -> None:
    """``action`` is refused with ``code`` and the state is left exactly as it was."""
    before = snapshot(state)
    with pytest.raises((IllegalActionError, InvalidActionError)) as error:
        state.apply(action, seat)
    assert error.value.code == code
    assert snapshot(state) == before
    assert not state.can_apply(action, seat)


def texts(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: State, *actions: str) -> None:
    """Apply actions by their text, each by the player to act."""
    for text in actions:
        state.apply(Action.parse(text))


def conserved(state: State) -> bool:
    return sum(state.stacks) + state.pot == sum(state.start_stacks)


# A: seat 1 shows the king and leads round 1; seat 0 swaps the ace of card 3 under, shows
# the other ace, leads round 2 and 梭; the rest is dealt without betting; AA beats KK.
HANDS_A = ("As 8d Ah 9c Td", "Kd Kc Qh Jd 8c")


def hand_a() -> State:
    return State.new(YIFA, seed=0, players=2, deck=stacked(*HANDS_A))


def test_antes_and_first_leader_by_up_card() -> None:
    state = hand_a()
    assert state.pot == 4 and state.stacks == [98, 98] and conserved(state)
    assert state.most == 98  # min(cap 100, smallest stack 100 - ante 2)
    assert state.leader == 1 and state.current_player == 1  # Kc beats 8d
    assert texts(state) == ["fold", "check", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5"]


def test_round_one_limits_and_refusals() -> None:
    state = hand_a()
    refused(state, Bet(6), "bad_amount")
    refused(state, Raise(3), "use_bet")
    refused(state, Call(), "nothing_to_call")
    refused(state, ShowHand(), "showhand_too_early")
    refused(state, Open(), "cannot_open")
    refused(state, Swap(), "wrong_phase")
    refused(state, Check(), "not_your_turn", seat=0)
    refused(state, Check(), "bad_seat", seat=2)
    refused(state, "check", "bad_action")  # type: ignore[arg-type]
    play(state, "bet 3")
    assert texts(state) == ["fold", "call", "raise 4", "raise 5"]
    refused(state, Check(), "cannot_check")
    refused(state, Bet(5), "use_raise")
    refused(state, Raise(3), "bad_amount")
    play(state, "raise 5")
    assert texts(state) == ["fold", "call"]
    play(state, "call")
    assert state.bets == [5, 5] and state.pot == 14 and conserved(state)


def test_swap_is_private_until_everyone_decided() -> None:
    state = hand_a()
    play(state, "bet 3", "raise 5", "call")
    assert state.phase is Phase.SWAP and state.current_player == 1  # from the last leader
    assert texts(state) == ["swap", "keep"]
    refused(state, Check(), "wrong_phase")
    assert state.view(0).pending == Card.parse("Ah")
    assert state.view(1).pending == Card.parse("Qh")
    events = state.apply(Keep())
    assert events == [SwapChosen(1, False)] and not events[0].visible_to(0)
    assert state.view(0).up == ((Card.parse("8d"),), (Card.parse("Kc"),))  # nothing turned
    events = state.apply(Swap())
    turned = [e for e in events if isinstance(e, CardTurned)]
    assert turned == [CardTurned(0, Card.parse("As")), CardTurned(1, Card.parse("Qh"))]
    assert state.view(0).hole == Card.parse("Ah")  # the new card is the hole card now
    assert state.view(1).up[0] == tuple(parse_cards("8d As"))
    assert RoundStarted(2, 0) in events and state.current_player == 0  # A-high leads


def test_show_hand_runs_the_hand_to_the_showdown() -> None:
    state = hand_a()
    play(state, "bet 3", "raise 5", "call", "keep", "swap")
    assert texts(state)[-3:] == ["bet 9", "bet 10", "showhand"]
    refused(state, Bet(11), "bad_amount")  # round 2: 10 x base
    play(state, "showhand")
    assert state.round_bets == [93, 0] and state.bets == [98, 5]
    assert texts(state) == ["fold", "call"]  # no raise over 梭
    play(state, "call")
    # card 4: 换牌 still asked, then no betting (everyone is at the most) until the showdown
    assert state.phase is Phase.SWAP and state.current_player == 0
    play(state, "keep", "keep")
    assert state.is_terminal and state.reason == "showdown" and state.winners == (0,)
    assert state.returns() == (100, -100) and state.pot == 0 and conserved(state)
    assert state.must_leave() == (1,)
    shown = next(e for e in state.events if isinstance(e, Showdown))
    assert shown.hands[1] == (1, tuple(parse_cards("Kd Kc Qh Jd 8c")))
    assert state.view(1).shown == (Card.parse("Ah"), Card.parse("Kd"))
    assert not any(isinstance(e, RoundStarted) and e.number > 2 for e in state.events)


# B: nobody raises; round 4 has the fixed bet and 开; extra rounds until the most.
HANDS_B = ("9d As Kh Qd Jc", "8s Ad Kd Qc Tc")


def hand_b_to_round_four() -> State:
    state = State.new(YIFA, seed=0, players=2, deck=stacked(*HANDS_B))
    assert state.leader == 0  # As beats Ad by suit
    play(state, "check", "check", "keep", "keep", "check", "check", "keep", "keep")
    play(state, "check", "check")
    assert state.round == 4 and state.cards_dealt == 5 and state.current_player == 0
    return state


def test_round_four_fixed_bet_and_open() -> None:
    state = hand_b_to_round_four()
    assert texts(state) == ["fold", "check", "bet 20", "showhand", "open"]
    refused(state, Bet(19), "bad_amount")
    refused(state, Bet(21), "bad_amount")
    play(state, "check")
    refused(state, Open(), "cannot_open")  # seat 1 does not show the best up cards
    play(state, "bet 20")
    assert texts(state) == ["fold", "call", "showhand"]
    refused(state, Raise(40), "bad_amount")  # no raise in round 4, only 梭
    refused(state, Open(), "cannot_open")  # the leader opens first in a round or not at all
    play(state, "call")
    assert state.round == 5 and state.current_player == 0


def test_extra_rounds_until_the_most_then_open() -> None:
    state = hand_b_to_round_four()
    play(state, "check", "check")  # round 4 passes; the extra rounds follow
    assert state.round == 5
    refused(state, Check(), "cannot_check")
    assert texts(state) == ["fold", "bet 20", "showhand", "open"]
    for _ in range(4):
        play(state, "bet 20", "call")
    assert state.round == 9 and state.bets == [80, 80]
    assert texts(state) == ["fold", "showhand", "open"]  # 18 left: no bet of 20
    play(state, "open")
    assert state.is_terminal and state.opened_by == 0 and state.winners == (0,)
    assert state.returns() == (82, -82) and conserved(state)


def test_extra_rounds_end_at_the_most_without_open() -> None:
    state = hand_b_to_round_four()
    play(state, "bet 20", "call", "bet 20", "call", "showhand", "call")
    assert state.is_terminal and state.reason == "showdown" and state.bets == [98, 98]
    assert state.opened_by is None and state.winners == (0,)  # AKQJ9 beats AKQT8


def test_fold_ends_the_hand_and_hides_the_hole_card() -> None:
    state = State.new(YIFA, seed=0, players=3, deck=stacked(*HANDS_A, "Qs Ts Js Qc Qd"))
    assert state.current_player == 1  # Kc, Ts, 8d
    play(state, "bet 2", "fold", "call")  # seat 2 folds, seat 0 calls
    assert state.phase is Phase.SWAP and state.folded == [False, False, True]
    assert state.pending[2] is None  # folded seats get no more cards
    play(state, "keep", "keep")
    assert state.current_player == 0  # 8d Ah beats Kc Qh
    play(state, "check", "bet 1", "fold")
    assert state.is_terminal and state.reason == "fold" and state.winners == (1,)
    assert state.returns() == (-4, 6, -2) and conserved(state)
    assert all(v.shown == (None, None, None) for v in map(state.view, range(3)))
    assert state.legal_actions() == []
    refused(state, Check(), "hand_over")


def test_folded_hole_card_stays_hidden_at_the_showdown() -> None:
    state = State.new(YIFA, seed=0, players=3, deck=stacked(*HANDS_A, "Qs Ts Js Qc Qd"))
    play(state, "fold", "check", "check")  # seat 1 folds
    assert state.folded == [False, True, False]
    play(state, "keep", "keep")
    leader = state.current_player
    play(state, "showhand", "call", "keep", "keep")
    assert leader is not None and state.is_terminal and state.reason == "showdown"
    view = state.view(0)
    assert view.shown[1] is None and view.shown[0] is not None and view.shown[2] is not None
    hole = state.hole[1]
    assert all(hole not in _cards_in(state.view(s)) for s in (0, 2))


def _cards_in(value: object) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if isinstance(value, (tuple, list)):
        return set().union(*map(_cards_in, value)) if value else set()
    fields = getattr(value, "__dataclass_fields__", None)
    if fields:
        return _cards_in([getattr(value, name) for name in fields])
    return set()


def test_most_is_the_smallest_stack_and_limits_every_bet() -> None:
    rules = YIFA.derive("yifa-small", min_stack_units=3)
    state = State.new(rules, seed=0, stacks=(6, 200), deck=stacked(*HANDS_A))
    assert state.most == 4  # 6 - ante 2
    assert texts(state) == ["fold", "check", "bet 1", "bet 2", "bet 3", "bet 4"]
    play(state, "bet 4", "call")
    # everyone is at the most: 换牌 decisions only, then the showdown
    play(state, "keep", "swap", "keep", "keep")
    assert state.is_terminal and state.winners == (0,) and state.returns() == (6, -6)
    assert not any(isinstance(e, RoundStarted) and e.number > 1 for e in state.events)


def test_show_hand_goes_to_the_smallest_stack_at_the_table() -> None:
    rules = YIFA.derive("yifa-small", min_stack_units=10)
    deck = stacked(*HANDS_A, "Qs Ts Js Qc Qd")
    state = State.new(rules, seed=0, stacks=(300, 40, 300), deck=deck)
    assert state.most == 38
    play(state, "check", "check", "check")  # Kc, As, 8d: seat 1 leads
    play(state, *["keep"] * 3)
    play(state, "showhand")
    assert state.bets[state.history[-1].seat] == 38
    assert rules.cap == 100 and texts(state) == ["fold", "call"]


def test_flush_or_full_house_option_decides_the_showdown() -> None:
    hands = ("8s Ts Qs Ks As", "9h 9d Jh Jd 9c")
    results = []
    for flip in (False, True):
        rules = YIFA.derive("flip" if flip else "seed", flush_beats_full_house=flip)
        state = State.new(rules, seed=0, players=2, deck=stacked(*hands))
        play(state, "bet 5", "call", "keep", "keep", "showhand", "call", "keep", "keep")
        assert state.is_terminal and state.leader == 1  # 9d Jh Jd 9c: two pair shows
        results.append(state.winners)
    assert results == [(1,), (0,)]


def test_events_hide_face_down_cards() -> None:
    state = hand_a()
    dealt = [e for e in state.events if isinstance(e, CardDealt)]
    assert [(e.number, e.face_up) for e in dealt] == [(1, False)] * 2 + [(2, True)] * 2
    assert dealt[0].visible_to(0) and not dealt[0].visible_to(1)
    ended = HandEnded((0,), 10, "fold")
    assert all(ended.visible_to(s) for s in range(2))


def test_replay_rebuilds_the_hand() -> None:
    state = hand_a()
    play(state, "bet 3", "raise 5", "call", "keep", "swap", "showhand", "call", "keep", "keep")
    again = replay(YIFA, 0, state.history, players=2, deck=stacked(*HANDS_A))
    assert again.events == state.events and again.returns() == state.returns()
    clone = state.clone()
    assert snapshot(clone) == snapshot(state)


def test_seeded_deal_is_reproducible() -> None:
    one, two = (State.new("yifa", seed=42, players=4) for _ in range(2))
    assert one.events == two.events
    assert State.new("yifa", seed=43, players=4).events != one.events


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: State.new("yifa", seed=0, players=5), "bad_players"),
        (lambda: State.new("yifa", seed=0, players=1), "bad_players"),
        (lambda: State.new("yifa", seed=0, stacks=(100, 99)), "bad_stacks"),
        (lambda: State.new("yifa", seed=0, players=2, deck=list(DECK)[:27]), "bad_deck"),
        (lambda: State.new("nope", seed=0), "unknown_rules"),
        (lambda: YIFA.derive("x", colour=1), "bad_rules"),
        (lambda: YIFA.derive("x", base=0), "bad_rules"),
        (lambda: Action.parse("bet"), "bad_action"),
        (lambda: Action.parse("fold now"), "bad_action"),
        (lambda: Bet(0), "bad_action"),
        (lambda: Fold.parse("call"), "bad_action"),
    ],
)
def test_bad_input_is_refused(make: Callable[[], object], code: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        make()
    assert error.value.code == code


def test_actions_round_trip() -> None:
    for action in (Bet(5), Raise(20), Check(), Call(), Fold(), ShowHand(), Open(), Swap(), Keep()):
        assert Action.parse(str(action)) == action
