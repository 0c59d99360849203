"""Random Showhand play over 1,200 seeded hands (2-4 players): the invariants.

After every action: chips are conserved (stacks + pot), nobody bets past the most, no view
and no visible event holds a card its seat may not see, a legal action exists until the
hand is over, and an illegal action (drawn from a pool around the legal ones) is refused
with a typed error, leaving the state exactly as it was.  At the end, ``replay`` rebuilds
the same hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from qipai.bots.arena import selfplay
from qipai.bots.showhand import (
    Policy,
    RandomPolicy,
    SimplePolicy,
    TrusteePolicy,
    play_hand,
)
from qipai.cards import Card
from qipai.errors import GameError
from qipai.games.showhand import (
    Action,
    Bet,
    Call,
    Check,
    Fold,
    Keep,
    Open,
    Raise,
    ShowHand,
    State,
    Swap,
    View,
    replay,
)
from qipai.games.showhand.events import CardDealt, Showdown, SwapChosen
from qipai.games.showhand.hands import category, category_of, evaluate_partial

HANDS = 1200
"""Hands played (a third each with 2, 3 and 4 players)."""


CACHES = frozenset({"_legal_cache", "_legal"})
"""Slots that memoise, shared between hands: not the hand's state."""


def fingerprint(state: State) -> str:
    """Everything a refused action could have touched, as text (the memo caches aside)."""
    return repr([getattr(state, name) for name in State.__slots__ if name not in CACHES])


def cards_in(value: object) -> set[Card]:
    """Every card anywhere inside a view (tuples and nested dataclasses)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple):
        return set().union(*map(cards_in, value)) if value else set()
    fields = getattr(value, "__dataclass_fields__", None)
    if fields:
        return cards_in(tuple(getattr(value, name) for name in fields))
    return set()


def hidden_from(state: State, seat: int) -> set[Card]:
    """Cards ``seat`` may not see now: others' hole and pending cards, unless shown."""
    shown = state.is_terminal and state.reason == "showdown"
    hidden: set[Card] = set()
    for other in range(state.players):
        if other == seat:
            continue
        if not (shown and not state.folded[other]):
            hidden.add(state.hole[other])
        pending = state.pending[other]
        if pending is not None:
            hidden.add(pending)
    return hidden


def seen_category(view: View, seat: int, other: int) -> str:
    """The category of what ``seat`` sees of ``other``'s hand, by the text evaluators:
    all five cards once shown, his own cards, else the up cards."""
    hole = view.hole if other == seat else view.shown[other]
    text = "".join(map(str, ((hole,) if hole is not None else ()) + view.up[other]))
    if len(text) == 10:
        return category(text)  # yifa: a full house beats a flush
    return category_of(evaluate_partial(text))


def check_views(state: State) -> None:
    for seat in range(state.players):
        view = state.view(seat)
        assert not cards_in(view) & hidden_from(state, seat)
        assert list(view.categories) == [seen_category(view, seat, s) for s in range(state.players)]
        for event in state.events:
            if isinstance(event, (CardDealt, SwapChosen)) and event.visible_to(seat):
                assert event.seat == seat or (isinstance(event, CardDealt) and event.face_up)


def candidates(state: State) -> list[Action]:
    """Actions around the legal ones: every kind, amounts near every limit."""
    amounts = {1, 2, 5, 6, 10, 11, 19, 20, 21, 40, state.most, state.most + 1}
    seat = state.current_player
    if seat is not None:
        amounts |= {state.room(seat), state.room(seat) + 1, state.level, state.level + 1}
    pool: list[Action] = [Check(), Call(), Fold(), ShowHand(), Open(), Swap(), Keep()]
    return pool + [kind(a) for a in sorted(amounts) if a >= 1 for kind in (Bet, Raise)]


def check_refusals(state: State, rng: random.Random) -> None:
    """Every candidate outside the legal list is refused, leaving the state unchanged;
    every listed action is accepted by ``can_apply``."""
    legal = state.legal_actions()
    assert all(state.can_apply(a) for a in legal)
    illegal = [a for a in candidates(state) if a not in legal]
    before = fingerprint(state)
    for action in rng.sample(illegal, min(3, len(illegal))):
        try:
            state.apply(action)
        except GameError as error:
            assert error.code and fingerprint(state) == before
        else:
            raise AssertionError(f"{action} was accepted but not listed as legal")
    if state.current_player is not None:
        other = (state.current_player + 1) % state.players
        try:
            state.apply(legal[0], other)
        except GameError as error:
            assert error.code == "not_your_turn" and fingerprint(state) == before
        else:
            raise AssertionError("an action out of turn was accepted")


def play_random(seed: int, players: int) -> State:
    rng = random.Random(seed)
    state = State.new("yifa", seed=seed, players=players)
    total = sum(state.start_stacks)
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal and state.current_player is not None
        if rng.random() < 0.25:
            check_refusals(state, rng)
        if rng.random() < 0.1:
            check_views(state)
        state.apply(rng.choice(legal))
        assert sum(state.stacks) + state.pot == total
        assert max(state.bets) <= state.most <= state.rules.cap
    check_views(state)
    assert sum(state.returns()) == 0 and state.pot == 0
    return state


def test_random_play_invariants_and_replay() -> None:
    reasons: Counter[str] = Counter()
    for i in range(HANDS):
        players = 2 + i % 3
        state = play_random(1000 + i, players)
        reasons[state.reason] += 1
        reasons["opened"] += state.opened_by is not None
        reasons["extra"] += state.round > 4
        again = replay("yifa", 1000 + i, state.history, players=players)
        assert again.events == state.events and again.returns() == state.returns()
        for shown in (e for e in state.events if isinstance(e, Showdown)):
            texts = ["".join(map(str, cards)) for _, cards in shown.hands]
            assert list(shown.categories) == [category(text) for text in texts]
    # the random hands reach every ending, 开 and the extra rounds
    assert reasons["fold"] and reasons["showdown"] and reasons["opened"] and reasons["extra"]


def test_policies_play_legal_hands() -> None:
    makers: list[Callable[[], Policy]] = [SimplePolicy, TrusteePolicy, lambda: RandomPolicy(9)]
    for i, make in enumerate(makers):
        for players in (2, 3, 4):
            state = State.new("yifa", seed=i * 10 + players, players=players)
            policies = [make() for _ in range(players)]
            assert play_hand(state, policies).is_terminal
    # 托管 seats fold: a table of them ends in round 1
    trustee = play_hand(State.new("yifa", seed=5, players=3), [TrusteePolicy()] * 3)
    assert trustee.reason == "fold" and trustee.round == 1


def test_selfplay_summary() -> None:
    summary = selfplay("showhand", "yifa", players=4, hands=200, seed=3)
    assert summary.hands == 200 and summary.balance == 0
    assert 0 < summary.total("showdowns") < summary.hands
    assert summary.lines()[-1] == "chips balance 0 (zero-sum check)"
    assert selfplay("showhand", "yifa", players=4, hands=50, seed=3) == selfplay(
        "showhand", "yifa", players=4, hands=50, seed=3
    )
