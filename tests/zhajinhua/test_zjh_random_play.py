"""Random Zha Jin Hua hands over many seeds: chips conserved, privacy, refusals, replay."""

from __future__ import annotations

import random

from zjh_kit import snapshot

from qipai.cards import Card
from qipai.errors import GameError
from qipai.games.zhajinhua import RULES, Action, AutoCall, Call, Compare, Fold, Look, Raise
from qipai.games.zhajinhua.events import CardsSeen, HandEnded
from qipai.games.zhajinhua.hands import category
from qipai.games.zhajinhua.state import State, replay

YIFA = RULES["yifa"]
SMALL_CAP = YIFA.derive("cap30", cap=30)
HANDS = 1200
PRIVACY_EVERY = 4
"""Every this many hands, every seat's view and every event is checked at every step."""
PROBES: tuple[Action, ...] = (
    Look(),
    Call(),
    Fold(),
    *(Raise(n) for n in (1, 2, 3, 5, 10, 20)),
    *(Compare(n) for n in range(7)),
    AutoCall(True),
    AutoCall(False),
)


def allowed_cards(state: State, seat: int) -> set[Card]:
    """The cards ``seat`` may know, worked out from the rules, not from the view code: his
    own once seen and not folded, no other before the end (a compare shows nobody)."""
    if state.is_terminal:
        return {c for hand in state.hands for c in hand}
    if state.folded[seat] or not state.seen[seat]:
        return set()
    return set(state.hands[seat])


def check_privacy(state: State) -> None:
    for seat in range(state.players):
        view = state.view(seat)
        shown = {c for hand in view.known_hands if hand for c in hand}
        assert shown <= allowed_cards(state, seat)
        if not state.is_terminal and (state.folded[seat] or not state.seen[seat]):
            assert view.hand is None
        for event in state.events:
            if isinstance(event, CardsSeen):
                assert event.visible_to(seat) == (seat == event.seat)
            else:
                assert event.visible_to(seat)


def probe_refusals(state: State, rng: random.Random) -> None:
    """A few actions not legal now are refused with a typed error and change nothing."""
    seat = rng.randrange(state.players)
    legal = set(state.legal_actions(seat))
    for action in rng.sample(PROBES, 4):
        if action in legal:
            assert state.can_apply(action, seat)
            continue
        before = snapshot(state)
        try:
            state.apply(action, seat)
        except GameError:
            pass
        else:
            raise AssertionError(f"{action} by {seat} was accepted but not listed")
        assert snapshot(state) == before


def choose(state: State, rng: random.Random) -> tuple[int, Action]:
    """A random legal action; folds are made rare so that hands reach the cap."""
    if rng.random() < 0.08:
        anyone = rng.randrange(state.players)
        switch = [a for a in state.legal_actions(anyone) if isinstance(a, AutoCall)]
        if switch:
            return anyone, switch[0]
    seat = state.current_player
    assert seat is not None
    turn = [a for a in state.legal_actions() if not isinstance(a, AutoCall)]
    weights = [0.15 if isinstance(a, Fold) else 1.0 for a in turn]
    return seat, rng.choices(turn, weights)[0]


def play(index: int) -> tuple[State, int]:
    rng = random.Random(index)
    players = 2 + index % 5
    rules = SMALL_CAP if index % 2 else YIFA
    stacks = [rng.randrange(rules.ante, 2 * rules.cap) for _ in range(players)]
    state = State.new(rules, seed=index, players=players, stacks=stacks)
    total = sum(stacks)
    careful = index % PRIVACY_EVERY == 0
    for _ in range(10_000):
        if state.is_terminal:
            break
        if careful:
            check_privacy(state)
            probe_refusals(state, rng)
        seat, action = choose(state, rng)
        state.apply(action, seat)
        assert sum(state.stacks) + state.pot == total
        assert all(s >= 0 for s in state.stacks)
    assert state.is_terminal
    if careful:
        check_privacy(state)
    return state, total


def test_random_hands() -> None:
    reasons: dict[str, int] = {}
    compares = 0
    for index in range(HANDS):
        state, total = play(index)
        ended = state.events[-1]
        assert isinstance(ended, HandEnded) and ended.winner == state.winner
        texts = ["".join(map(str, cards)) for cards in ended.hands]
        assert list(ended.categories) == [category(text) for text in texts]
        assert sum(state.returns()) == 0 and state.pot == 0  # no rake: the hall's
        assert sum(state.stacks) == total
        assert state.returns()[ended.winner] == sum(state.put) - state.put[ended.winner]
        assert ended.returns == state.returns()
        assert state.legal_actions() == [] and state.current_player is None
        reasons[ended.reason] = reasons.get(ended.reason, 0) + 1
        compares += len(state.compares)
        if index % 10 == 0:
            again = replay(
                state.rules,
                index,
                state.history,
                players=state.players,
                stacks=state.start_stacks,
            )
            assert again.events == state.events
    assert reasons.get("cap", 0) > 50 and reasons.get("last_standing", 0) > 50
    assert compares > 200
