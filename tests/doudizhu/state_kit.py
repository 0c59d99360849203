"""Helpers shared by the Dou Dizhu state-machine tests (``test_state_*``, ``test_random_play``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import fields, is_dataclass

import pytest

from qipai.cards import SUITS, Card, doudizhu_deck
from qipai.chance import DealStream, LegacyChance
from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Action, Play, Show
from qipai.games.doudizhu.combos import PASS, Kind, Move
from qipai.games.doudizhu.state import Phase, State


def rig(hands: Sequence[str], bottom: str) -> list[Card]:
    """A prearranged deck: three 17-card rank strings and a 3-card bottom, suits assigned."""
    pool = {rank: [Card(rank, s) for s in SUITS] for rank in "3456789TJQKA2"}
    pool["B"], pool["R"] = [Card("B")], [Card("R")]
    deck = [pool[rank].pop(0) for part in (*hands, bottom) for rank in part]
    assert sorted(map(str, deck)) == sorted(map(str, doudizhu_deck())), "not a whole deck"
    return deck


def act(state: State, *script: str) -> None:
    """Apply actions written ``"bid 2"`` (current player) or ``"1:show"`` (seat 1)."""
    for line in script:
        seat_text, _, action_text = line.partition(":") if line[:1].isdigit() else ("", "", line)
        seat = int(seat_text) if seat_text else None
        state.apply(Action.parse(action_text), seat)


def snapshot(state: State) -> tuple[object, ...]:
    """Everything a state holds, copied (lists and the source of chance), for ``==``.

    Equal snapshots mean equal states: a refused action changed nothing, a replay rebuilt
    the same hand.  (Every element of a list is immutable, except the hands: copied too.)
    """
    parts: list[object] = []
    names = [name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())]
    assert len(names) > 40, "the state's fields are no longer where snapshot looks"
    for name in names:
        value: object = getattr(state, name)
        if isinstance(value, DealStream | LegacyChance):
            value = value.clone()  # compared by where the stream stands
        elif name == "hands":
            value = [list(hand) for hand in state.hands]
        elif isinstance(value, list):
            value = list(value)
        parts.append((name, value))
    return tuple(parts)


def cards_in(value: object) -> set[Card]:
    """Every physical card anywhere inside a view or an event."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, (Move, Action, int, str)) or value is None:
        return set()  # moves and actions hold ranks only
    if isinstance(value, (tuple, list)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name)) for f in fields(value)))
    return set()


def hidden_from(state: State, seat: int) -> set[Card]:
    """Cards ``seat`` may not see now: others' unshown hands, the undealt and the hidden bottom.

    The yifa marker card and the revealed bottom cards are public even in a hand.
    """
    hidden: set[Card] = set()
    for other in range(3):
        if other != seat and other not in state.show_order:
            hidden |= set(state.hands[other])
    undealt = {c for hand in state._deal for c in hand[state.cards_dealt :]}
    bottom_on_table = state.rules.bottom_face_up and state.phase is not Phase.DEAL
    if state.landlord is None and not bottom_on_table:
        hidden |= set(state.bottom) | undealt
    elif state.landlord is None:
        hidden |= undealt
    else:
        hidden -= set(state.bottom)
    if state.marker is not None:
        hidden.discard(state.marker)
    return hidden


def assert_views_hide(state: State, since: int = 0) -> int:
    """No seat's view, nor any event from ``since`` on that it may see, holds a hidden card.

    Within a deal a hidden card only ever becomes public, so checking each event once,
    when it is new, is enough.  Returns the number of events checked up to.
    """
    for seat in range(3):
        secret = hidden_from(state, seat)
        leaked = cards_in(state.view(seat)) & secret
        assert not leaked, f"seat {seat} sees {leaked}"
        for event in state.events[since:]:
            if event.visible_to(seat):
                seen = cards_in(event) & secret
                assert not seen, f"seat {seat} sees {seen} in {event}"
    return len(state.events)


def random_hand(
    rules: str,
    seed: int,
    *,
    show_rate: float = 0.1,
    escape_rate: float = 0.0,
    trustee_rate: float = 0.0,
    check: bool = False,
) -> State:
    """Play one hand with a seeded random policy over ``legal_actions()``.

    While dealing, each seat shows out of turn with probability ``show_rate`` per step;
    now and then a seat toggles 托管 or escapes.  ``check`` verifies views at every step.
    """
    rng = random.Random(seed * 7919 + 1)
    state = State.new(rules, seed=seed)
    checked = 0
    while not state.is_terminal:
        if check:
            checked = assert_views_hide(state, checked)
        _out_of_turn(state, rng, show_rate, trustee_rate)
        if escape_rate and rng.random() < escape_rate and state.rules.escape.value != "none":
            state.escape(rng.randrange(3))
            break
        actions = state.legal_actions()
        assert actions, f"no legal action in {state.phase}"
        state.apply(rng.choice(actions))
    if check:
        assert_views_hide(state, checked)
    return state


def _out_of_turn(state: State, rng: random.Random, show_rate: float, trustee_rate: float) -> None:
    for seat in rng.sample(range(3), 3):
        if rng.random() < show_rate and Show() in state.legal_actions(seat):
            state.apply(Show(), seat)
    if trustee_rate and rng.random() < trustee_rate:
        seat = rng.randrange(3)
        state.set_trustee(seat, not state.trustee[seat])


def all_cards(state: State) -> Iterable[Card]:
    """Every physical card of the deal: in hands, played, undealt, and the bottom until taken."""
    for hand in state.hands:
        yield from hand
    for dealt in state._deal:
        yield from dealt[state.cards_dealt :]
    for event in state.events:
        cards = getattr(event, "cards", None)
        if type(event).__name__ == "Played" and cards:
            yield from cards
    if state.landlord is None:
        yield from state.bottom


def farmers(state: State) -> tuple[int, int]:
    """The landlord's two farmers, in play order."""
    landlord = state.landlord
    assert landlord is not None
    return (landlord + 1) % 3, (landlord + 2) % 3


def lead_out(state: State, seat: int, *, keep: int = 0) -> None:
    """``seat`` leads single cards, lowest first, the others passing, until ``keep`` remain.

    :raises AssertionError: if ``seat`` is not to lead.
    """
    assert state.current_player == seat and state.to_beat.is_pass
    while len(state.hands[seat]) > keep and not state.is_terminal:
        single = next(
            a
            for a in state.legal_actions()
            if isinstance(a, Play) and a.move.kind is Kind.SINGLE and not a.move.uses_wild
        )
        state.apply(single)
        if not state.is_terminal:
            state.apply(Play(PASS))
            state.apply(Play(PASS))


def multipliers(state: State) -> dict[int, int]:
    """Each farmer's pair multiplier, as every seat's view shows it (all views agree)."""
    shown = {tuple(state.view(s).multipliers) for s in range(3)}
    assert len(shown) == 1
    return dict(shown.pop())


def refused(state: State, action: object, code: str, seat: int | None = None) -> None:
    """Assert that ``action`` is refused with the :class:`IllegalActionError` ``code``."""
    with pytest.raises(IllegalActionError) as error:
        state.apply(action, seat)  # type: ignore[arg-type]
    assert error.value.code == code
