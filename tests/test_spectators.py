"""The spectator's view 观战, every game and preset: random play over many seeded hands.

Each hand is played through the registry by a seeded random policy (out-of-turn actions
included: 明牌 during the deal, 自动跟注), and at every step:

- no card a player holds unseen is in the spectator's view (:meth:`GameType.spectator_view`,
  the view for :data:`SPECTATOR`), in its JSON form, or in an event the spectator may see
  (``visible_to(SPECTATOR)``) — the hidden cards read from the engine state, independently
  of the views;
- a spectator sees exactly the events every seat sees (the public ones);
- what is public does appear: every play, the 明牌 hands, the bottom once revealed, the
  marker card, the 任务, the up cards, the hands shown at the end (Zha Jin Hua: all;
  Showhand: the showdown's); and a spectator has no hand, no cost and no legal action.

``QIPAI_SPECTATOR_HANDS`` sets the hands per game and preset (default 60).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from json_kit import strings
from qipai.cards import Card
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.tasks import Task
from qipai.hall.wire import event_json, spectator_view_json
from qipai.registry import SPECTATOR, GameType, HandSetup, game_names, game_type

HANDS = int(os.environ.get("QIPAI_SPECTATOR_HANDS", "60"))
"""Hands per game and preset."""
OUT_OF_TURN = 0.08
"""How often the policy tries an out-of-turn action of a random seat."""
STACK = 100_000
"""Every seat's chips in the betting games (deep enough for any hand)."""

CASES = [(game, rules) for game in game_names() for rules in game_type(game).presets]


def cards_in(value: object) -> set[Card]:
    """Every physical card inside a view or an event (moves and actions carry ranks only)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, (tuple, list)):
        return set().union(*(cards_in(item) for item in value))
    fields = getattr(value, "__dataclass_fields__", None)
    if fields and not hasattr(value, "wire_text"):
        return cards_in(tuple(getattr(value, name) for name in fields))
    return set()


def texts(cards: Iterable[Card | None]) -> set[str]:
    return {str(card) for card in cards if card is not None}


# --- what each game hides from a spectator, read from the engine state -------------------


def hidden_doudizhu(state: Any) -> set[Card]:
    """Every unshown seat's cards (less the revealed bottom in the landlord's hand), the
    cards still to deal, the bottom until it is shown; never the yifa marker card."""
    hidden: set[Card] = set()
    for seat, hand in enumerate(state.hands):
        if seat not in state.show_order:
            hidden |= set(hand)
    hidden |= {card for dealt in state._deal for card in dealt[state.cards_dealt :]}
    bottom_public = state.landlord is not None or (
        state.rules.bottom_face_up and state.phase.name != "DEAL"
    )
    hidden = hidden - set(state.bottom) if bottom_public else hidden | set(state.bottom)
    return hidden - {state.marker}


def hidden_zhajinhua(state: Any) -> set[Card]:
    """Every hand until the end (a spectator never looks; a compare shows nobody)."""
    return set() if state.is_terminal else {card for hand in state.hands for card in hand}


def hidden_showhand(state: Any) -> set[Card]:
    """Every hole card but those shown at a showdown, every card awaiting 换牌."""
    showdown = state.is_terminal and state.reason == "showdown"
    hidden = {card for card in state.pending if card is not None}
    for seat in range(state.players):
        if not (showdown and not state.folded[seat]):
            hidden.add(state.hole[seat])
    return hidden


HIDDEN: dict[str, Callable[[Any], set[Card]]] = {
    "doudizhu": hidden_doudizhu,
    "zhajinhua": hidden_zhajinhua,
    "showhand": hidden_showhand,
}


# --- what must appear --------------------------------------------------------------------


def public_doudizhu(state: Any, view: Any, events: list[Any]) -> None:
    assert view.hand == () and view.legal_actions == ()
    assert view.plays == tuple(state.plays)
    assert view.card_counts == tuple(len(hand) for hand in state.hands)
    for seat in range(3):
        shown = tuple(state.hands[seat]) if seat in state.show_order else None
        assert view.shown_hands[seat] == shown
    if state.landlord is not None:
        assert view.bottom == state.bottom
    assert view.marker == state.marker and view.task is state.task
    plays = [e for e in state.events if type(e).__name__ == "Played"]
    assert all(e in events for e in plays), "a play the spectator did not see"


def public_zhajinhua(state: Any, view: Any, events: list[Any]) -> None:
    assert view.hand is None and view.legal_actions == ()
    assert view.call_cost == view.compare_cost == 0
    if state.is_terminal:
        assert view.known_hands == tuple(state.hands)
        assert type(events[-1]).__name__ == "HandEnded"
    else:
        assert view.known_hands == (None,) * state.players


def public_showhand(state: Any, view: Any, events: list[Any]) -> None:
    assert view.hole is None and view.pending is None and view.own_cards == ()
    assert view.legal_actions == () and view.to_call == 0
    assert view.up == tuple(tuple(up) for up in state.up)
    showdown = state.is_terminal and state.reason == "showdown"
    for seat in range(state.players):
        shown = state.hole[seat] if showdown and not state.folded[seat] else None
        assert view.shown[seat] == shown
    if showdown:
        assert any(type(e).__name__ == "Showdown" for e in events)


PUBLIC: dict[str, Callable[[Any, Any, list[Any]], None]] = {
    "doudizhu": public_doudizhu,
    "zhajinhua": public_zhajinhua,
    "showhand": public_showhand,
}


# --- the watcher -------------------------------------------------------------------------


class Watcher:
    """What a spectator has received of one hand, checked at every step."""

    def __init__(self, game: GameType, seats: int) -> None:
        self.game = game
        self.seats = seats
        self.checked = 0
        self.events: list[Any] = []

    def check(self, state: Any) -> None:
        hidden = HIDDEN[self.game.name](state)
        for event in state.events[self.checked :]:
            everyone = all(event.visible_to(seat) for seat in range(self.seats))
            assert event.visible_to(SPECTATOR) == everyone, f"not public: {event}"
            if type(event).__name__ == "Redealt":
                self.events = []  # a new deal: the old cards are in new places
            if event.visible_to(SPECTATOR):
                leak = cards_in(event) & hidden
                assert not leak, f"a spectator sees {leak} in {event}"
                assert not texts(leak) & set(strings(event_json(event)))
                self.events.append(event)
        self.checked = len(state.events)
        view = self.game.spectator_view(state)
        assert view.seat == SPECTATOR
        leak = cards_in(view) & hidden
        assert not leak, f"the spectator's view holds {leak}"
        wire = spectator_view_json(self.game.name, state)
        assert wire["seat"] == SPECTATOR and wire["legal_actions"] == []
        assert not texts(hidden) & set(strings(wire)), "the view's JSON holds a hidden card"
        PUBLIC[self.game.name](state, view, self.events)


def seats_of(game: GameType, seed: int) -> int:
    low, high = game.seats
    return low + seed % (high - low + 1)


def some_action(game: GameType, state: Any, rng: random.Random, seats: int) -> tuple[Any, Any]:
    """(seat, action): now and then a random seat's out-of-turn action, else the dealer's
    step or a random action of the seat to act."""
    if rng.random() < OUT_OF_TURN:
        seat = rng.randrange(seats)
        actions = [a for a in game.actions(state, seat) if not game.is_command(a)]
        if actions:
            return seat, rng.choice(actions)
    step = game.deal_step(state)
    if step is not None:
        return None, step
    seat = game.seat_to_act(state)
    actions = [a for a in game.actions(state, seat) if not game.is_command(a)]
    return seat, rng.choice(actions)


def watch_hand(game: GameType, rules: Any, seed: int) -> Any:
    """Play one random hand, the spectator checked before the first action and after each;
    the kinds of the events the spectator saw."""
    rng = random.Random(seed)
    seats = seats_of(game, seed)
    state = game.new_hand(rules, HandSetup(seed=seed, balances=(STACK,) * seats))
    watcher = Watcher(game, seats)
    watcher.check(state)
    while not state.is_terminal and not game.is_stalled(state):
        seat, action = some_action(game, state, rng, seats)
        state.apply(action, seat)
        watcher.check(state)
    return Counter(type(e).__name__ for e in state.events if e.visible_to(SPECTATOR))


def expected_kinds(game: str, rules: Any) -> set[str]:
    """Events whose public cards the hands must have shown a spectator at least once."""
    if game == "doudizhu":
        return {"Played", "BottomRevealed", "HandEnded"} | ({"Shown"} if rules.show.any else set())
    if game == "zhajinhua":
        return {"HandEnded", "Compared"}
    return {"CardTurned", "Showdown"}


@pytest.mark.parametrize(("game_name", "preset"), CASES, ids=[f"{g}-{r}" for g, r in CASES])
def test_a_spectator_sees_only_what_is_public(game_name: str, preset: str) -> None:
    game = game_type(game_name)
    rules = game.get_rules(preset)
    seen: Counter[str] = Counter()
    for seed in range(HANDS):
        tasks = game_name == "doudizhu" and seed % 2  # 任务 on in every other hand
        seen += watch_hand(game, rules.derive(preset, tasks=tuple(Task)) if tasks else rules, seed)
    expected = expected_kinds(game_name, rules)
    assert expected | ({"TaskDrawn"} if game_name == "doudizhu" else set()) <= set(seen), seen


def test_a_spectator_is_not_a_seat() -> None:
    """Only :data:`SPECTATOR` is the spectator: any other seat outside the table is refused."""
    for name in game_names():
        game = game_type(name)
        state = game.new_hand(game.get_rules(next(iter(game.presets))), HandSetup(1, (STACK,) * 3))
        for seat in (-2, 3 if name == "doudizhu" else 99, True, -1.0):
            with pytest.raises(InvalidActionError) as error:
                state.view(seat)
            assert error.value.code == "bad_seat"
