"""Zha Jin Hua policies: 托管 (fold), a random player and a simple player.

Every policy maps a seat's view to one of the view's legal actions; self-play and paired
matches are :mod:`qipai.bots.arena`'s:

>>> from qipai.games.zhajinhua.state import State
>>> state = play_hand(State.new("yifa", seed=1, players=4), [SimplePolicy()] * 4)
>>> state.is_terminal, sum(state.returns())
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from qipai.bots.turns import play_out
from qipai.games.zhajinhua.actions import Action, AutoCall, Call, Compare, Fold, Look, Raise
from qipai.games.zhajinhua.hands import CATEGORIES, evaluate_cards
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
    compare with the next player still in.  Not a strong player; it exists for self-play
    and tables.
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
    """Play ``state`` to its end, each seat's policy deciding from its own view (the turn
    loop of :func:`qipai.bots.arena.play_hand`, typed for this game's policies)."""
    play_out(state, policies)
    return state
