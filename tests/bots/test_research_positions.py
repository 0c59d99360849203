"""The research interface at its border: random positions that can happen get a legal move
from every bot; positions whose facts contradict each other get ``bad_position`` naming the
contradiction, never an error from deep inside a bot (issue 27: a bottom holding only the
landlord's unplayed bottom cards made the endgame search fail with ``max() arg is an empty
sequence``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from qipai.bots.doudizhu import BOTS, RandomPolicy, choose_play
from qipai.bots.doudizhu.research import Position, position_of, view_of
from qipai.errors import InvalidActionError
from qipai.games.doudizhu import RULES, State
from qipai.games.doudizhu.actions import Play
from qipai.games.doudizhu.combos import RANK_CHARS

PRESETS = sorted(RULES)


def _position(rules: str, seed: int, stop: float) -> Position | None:
    """A decision of the card play of a hand of random players (dealt from ``seed``): the
    first one after ``stop`` of the hand's plays (late positions reach the endgame
    search), or ``None`` when nobody bid."""
    state = State.new(rules, seed=seed)
    players = [RandomPolicy(seed + s) for s in range(3)]
    views = []
    while not state.is_terminal and state.deal_number == 1:
        seat = state.current_player
        if seat is None:
            state.apply(state.legal_actions()[0])
            continue
        view = state.view(seat)
        if any(isinstance(a, Play) for a in view.legal_actions):
            views.append(view)
        state.apply(players[seat].choose(view), seat)
    if not views:
        return None
    return position_of(views[min(len(views) - 1, int(stop * len(views)))])


positions = st.builds(
    _position,
    st.sampled_from(PRESETS),
    st.integers(0, 2**31),
    st.floats(0.0, 1.0),
).filter(lambda p: p is not None)


def _ask(position: Position, bot: str, legal: list[str] | None = None) -> str:
    p = position
    return choose_play(p.hand, p.seat, p.landlord, p.history, p.bottom, legal, p.rules, bot)


@settings(max_examples=120)
@given(positions, st.sampled_from(sorted(BOTS)), st.data())
def test_every_bot_answers_a_legal_move_in_a_position_that_can_happen(
    position: Position, bot: str, data: st.DataObject
) -> None:
    assert _ask(position, bot) in position.legal
    offered = data.draw(st.lists(st.sampled_from(position.legal), min_size=1, unique=True))
    assert _ask(position, bot, offered) in offered


def _short_bottom(p: Position) -> Position:
    """Issue 27's position: the bottom less the cards the landlord has played from it."""
    left = list(p.bottom)
    for seat, move in p.history:
        for rank in move if seat == p.landlord and move != "pass" else "":
            if rank in left:
                left.remove(rank)
    if len(left) == len(p.bottom):
        left.pop()
    return _with(p, bottom="".join(left))


def _with(p: Position, **changes: object) -> Position:
    return dataclasses.replace(p, **changes)  # type: ignore[arg-type]


def _wrong_seat(p: Position) -> Position:
    return _with(p, seat=(p.seat + 1) % 3)


def _play_out_of_turn(p: Position) -> Position:
    assume(p.history)
    (seat, move), *rest = p.history
    return _with(p, history=(((seat + 1) % 3, move), *rest))


def _pass_leads(p: Position) -> Position:
    assume(p.history)
    (seat, _), *rest = p.history
    return _with(p, history=((seat, "pass"), *rest))


def _hand_too_big(p: Position) -> Position:
    return _with(p, hand=p.hand + p.hand[0])


def _empty_hand(p: Position) -> Position:
    return _with(p, hand="")


def _wild_without_caishen(p: Position) -> Position:
    assume(p.rules != "caishen")
    return _with(p, hand=p.hand[:-1] + "W")


def _legal_not_held(p: Position) -> Position:
    missing = [rank for rank in RANK_CHARS if rank not in p.hand and rank != "W"]
    assume(missing)
    return _with(p, legal=(*p.legal, missing[0]))


CONTRADICTIONS: dict[str, Callable[[Position], Position]] = {
    "the bottom without the cards the landlord played": _short_bottom,
    "another seat decides": _wrong_seat,
    "a play out of turn": _play_out_of_turn,
    "a pass leads": _pass_leads,
    "more cards than the seat holds": _hand_too_big,
    "an empty hand": _empty_hand,
    "a 财神 outside caishen": _wild_without_caishen,
    "a legal move not in the hand": _legal_not_held,
}


@settings(max_examples=150)
@given(positions, st.sampled_from(sorted(CONTRADICTIONS)), st.sampled_from(sorted(BOTS)))
def test_a_position_whose_facts_contradict_each_other_is_refused_at_the_border(
    position: Position, contradiction: str, bot: str
) -> None:
    bad = CONTRADICTIONS[contradiction](position)
    with pytest.raises(InvalidActionError) as caught:
        _ask(bad, bot, list(bad.legal) if contradiction.startswith("a legal") else None)
    assert caught.value.code == "bad_position", caught.value


ranks = st.text(alphabet=RANK_CHARS, min_size=0, max_size=22)


@settings(max_examples=300)
@given(
    st.sampled_from(PRESETS),
    ranks,
    st.integers(-1, 3),
    st.integers(-1, 3),
    st.lists(st.tuples(st.integers(0, 2), st.one_of(st.just("pass"), ranks)), max_size=8),
    st.text(alphabet=RANK_CHARS, max_size=5),
    st.sampled_from(sorted(BOTS)),
)
def test_any_input_gets_a_legal_move_or_a_clear_error(  # noqa: PLR0917
    rules: str,
    hand: str,
    seat: int,
    landlord: int,
    history: list[tuple[int, str]],
    bottom: str,
    bot: str,
) -> None:
    try:
        answer = choose_play(hand, seat, landlord, history, bottom, rules=rules, bot=bot)
    except InvalidActionError as error:
        assert error.code in {"bad_position", "bad_cards", "not_a_combination"}, error
        return
    view = view_of(hand, seat, landlord, history, bottom, rules=rules)
    assert answer in [str(a.move) for a in view.legal_actions if isinstance(a, Play)]


def test_the_bottom_is_the_whole_bottom() -> None:
    """A caller that gives the bottom as what is left of it (the landlord played 2BR)
    hears what is wrong."""
    with pytest.raises(InvalidActionError) as caught:
        choose_play("3", 1, 0, [(0, "2BR")], "", rules="jj")
    assert caught.value.message == "bottom: 0 cards, but a jj bottom has 3"


def test_a_seat_that_played_all_its_cards_ended_the_hand() -> None:
    plane = "33344455566677789TJQ"  # five trios and five wings: the landlord's 20 cards
    with pytest.raises(InvalidActionError) as caught:
        choose_play("3", 1, 0, [(0, plane)], "KA2", rules="jj")
    assert caught.value.message == "play 1: seat 0 has no card left, so the hand is over"
