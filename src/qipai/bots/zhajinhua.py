"""Zha Jin Hua policies (托管 fold, random, a simple player) and pure self-play.

Every policy maps a seat's view to one of the view's legal actions:

>>> summary = selfplay("yifa", players=4, hands=20, seed=1)
>>> summary.hands, summary.chips_balance
(20, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from qipai.bots.turns import play_out
from qipai.games.zhajinhua.actions import Action, AutoCall, Call, Compare, Fold, Look, Raise
from qipai.games.zhajinhua.hands import CATEGORIES, evaluate_cards
from qipai.games.zhajinhua.rules import Rules, get_rules
from qipai.games.zhajinhua.state import State
from qipai.games.zhajinhua.view import View

PAIR_FLOOR = CATEGORIES.index("pair") << 12
"""The weakest pair's strength (:func:`~qipai.games.zhajinhua.hands.evaluate`)."""
STRAIGHT_FLOOR = CATEGORIES.index("straight") << 12
"""The weakest straight's strength."""


class Policy(Protocol):
    """Anything that picks an action from a view."""

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``."""
        ...


class FoldPolicy:
    """托管 for an absent player: fold on his turn (the hall decides when, after the grace
    period, ``docs/hall.md``)."""

    def choose(self, view: View) -> Action:
        """:class:`.Fold`."""
        del view
        return Fold()


class RandomPolicy:
    """Uniformly random turn actions (never the 自动跟注 switch) from its own generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The policy's generator."""

    def choose(self, view: View) -> Action:
        """A random legal turn action."""
        turn = [a for a in view.legal_actions if not isinstance(a, AutoCall)]
        return self.rng.choice(turn)


class SimplePolicy:
    """A simple player: looks on his first turn, then plays by strength.

    Weaker than a pair: call in round 1, then fold.  A pair or better: call (compare when
    the call is beyond his stack); a straight or better: raise one level, and from round 3
    compare with the next player still in.  Not a strong player; it exists for self-play and tables.
    """

    def choose(self, view: View) -> Action:
        """The simple action for ``view``."""
        legal = view.legal_actions
        if Look() in legal:
            return Look()
        assert view.hand is not None
        strength = evaluate_cards(view.hand)
        strong = [a for a in legal if isinstance(a, Raise)][:1]
        compares = [a for a in legal if isinstance(a, Compare)][:1]
        if strength >= STRAIGHT_FLOOR and view.round >= 3 and compares:
            return compares[0]
        if strength >= STRAIGHT_FLOOR and strong:
            return strong[0]
        if strength >= PAIR_FLOOR or view.round == 1:
            return next((a for a in (Call(), *compares) if a in legal), Fold())
        return Fold()


def play_hand(state: State, policies: Sequence[Policy]) -> State:
    """Play ``state`` to its end, each seat's policy deciding from its own view."""
    play_out(state, policies)
    return state


@dataclass(slots=True)
class SelfplaySummary:
    """What many self-played hands came to."""

    rules: str
    """The rule set's name."""
    players: int
    """Seats per hand."""
    hands: int = 0
    """Hands played."""
    cap_showdowns: int = 0
    """Hands ended by the cap 封顶 (系统自动开牌)."""
    compares: int = 0
    """Compares 比牌 made."""
    folds: int = 0
    """Folds."""
    pot_total: int = 0
    """Sum of the pots."""
    rake_total: int = 0
    """The house's share over all hands."""
    chips_balance: int = 0
    """Sum of every seat's net chips plus the rake over every hand: 0 if chips are kept."""
    wins_by_seat: list[int] = field(default_factory=list)
    """Hands each seat won."""

    def add(self, state: State) -> None:
        """Count one finished hand."""
        self.hands += 1
        self.cap_showdowns += state.reason == "cap"
        self.compares += len(state.compares)
        self.folds += sum(state.folded)
        self.pot_total += sum(state.put)
        self.rake_total += state.rake
        self.chips_balance += sum(state.returns()) + state.rake
        if state.winner is not None:
            self.wins_by_seat[state.winner] += 1

    def lines(self) -> list[str]:
        """The summary as short report lines."""
        n = max(self.hands, 1)
        return [
            f"rules {self.rules}: {self.hands} hands, {self.players} players",
            f"cap showdowns {self.cap_showdowns}, compares {self.compares}, folds {self.folds}",
            f"average pot {self.pot_total / n:.1f}, rake {self.rake_total}",
            f"wins by seat {self.wins_by_seat}",
            f"chips balance {self.chips_balance} (conservation check)",
        ]


def selfplay(
    rules: str | Rules,
    *,
    players: int,
    hands: int,
    seed: int = 0,
    make_policy: Callable[[int], Policy] = lambda seat: SimplePolicy(),
) -> SelfplaySummary:
    """Play ``hands`` hands at one table; hand ``i`` is dealt from seed ``seed + i``.

    The first hand's dealer is random, later ones follow the rules' dealer rule; every
    hand starts with each stack at the cap (the minimum to sit).
    """
    rule_set = get_rules(rules)
    policies = [make_policy(seat) for seat in range(players)]
    summary = SelfplaySummary(rule_set.name, players, wins_by_seat=[0] * players)
    dealer: int | None = None
    for i in range(hands):
        state = State.new(rule_set, seed=seed + i, players=players, dealer=dealer)
        summary.add(play_hand(state, policies))
        dealer = state.next_dealer
    return summary
