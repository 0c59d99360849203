"""Showhand policies: 托管, a random player and a simple player.

Every policy maps a seat's view to one of the view's legal actions; self-play and paired
matches are :mod:`qipai.bots.arena`'s:

>>> from qipai.games.showhand.state import State
>>> state = play_hand(State.new("yifa", seed=1, players=3), [SimplePolicy()] * 3)
>>> state.is_terminal, sum(state.returns())
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from qipai.bots.turns import play_out
from qipai.games.showhand.actions import (
    Action,
    Bet,
    Call,
    Check,
    Fold,
    Keep,
    Raise,
    ShowHand,
    Swap,
)
from qipai.games.showhand.hands import (
    HAND_SIZE,
    evaluate_mask,
    evaluate_partial_mask,
    mask_of,
)
from qipai.games.showhand.state import State
from qipai.games.showhand.view import View

_CATEGORY_SHIFT = 22
"""A strength's category sits above this bit (:mod:`qipai.games.showhand.hands`)."""


class Policy(Protocol):
    """Anything that picks an action from a view."""

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``."""
        ...


class TrusteePolicy:
    """托管 for an absent player (the 易发 rules page: "按照系统的规则做放弃处理"): fold.

    The hall decides when the grace period is over and hands the seat to this policy;
    in a 换牌 decision it keeps (the choice costs nothing and the seat folds next).
    """

    def choose(self, view: View) -> Action:
        """:class:`.Keep` in a 换牌 decision, else :class:`.Fold`."""
        return Keep() if Keep() in view.legal_actions else Fold()


class RandomPolicy:
    """Uniformly random legal actions from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The policy's generator."""

    def choose(self, view: View) -> Action:
        """A random legal action."""
        return self.rng.choice(view.legal_actions)


def own_category(view: View) -> int:
    """The category the seat's own cards (hole and up) make now (0 = high card)."""
    cards = [view.hole, *view.up[view.seat]]
    mask = mask_of(cards)
    strength = evaluate_mask(mask) if len(cards) == HAND_SIZE else evaluate_partial_mask(mask)
    return strength >> _CATEGORY_SHIFT


def best_shown_category(view: View) -> int:
    """The best category among the other players' up cards (0 = high card)."""
    return max(
        (
            evaluate_partial_mask(mask_of(up)) >> _CATEGORY_SHIFT
            for seat, up in enumerate(view.up)
            if seat != view.seat and not view.folded[seat] and up
        ),
        default=0,
    )


class SimplePolicy:
    """A simple opponent by hand strength; not a strong player.

    换牌: swap when the new card pairs an up card (the pair stays hidden).  Betting: ahead
    of every opponent's up cards (by category) it raises by the smallest step, or 梭 from
    round 4 with two pair or better; level, it checks or calls; behind, it checks when free
    and folds otherwise.
    """

    def choose(self, view: View) -> Action:
        """The simple action for ``view``."""
        legal = view.legal_actions
        if Keep() in legal:
            return self._swap(view)
        mine, theirs = own_category(view), best_shown_category(view)
        if mine > theirs:
            return _aggressive(view, legal, mine)
        free = Check() if Check() in legal else None
        if mine == theirs:
            return free or (Call() if Call() in legal else _raise(legal) or Fold())
        return free or Fold()

    @staticmethod
    def _swap(view: View) -> Action:
        pending = view.pending
        ranks = {card.rank for card in view.up[view.seat]}
        return Swap() if pending is not None and pending.rank in ranks else Keep()


def _raise(legal: Sequence[Action]) -> Action | None:
    """The smallest bet or raise, else 梭 if that is the only way up."""
    steps = [a for a in legal if isinstance(a, (Bet, Raise))]
    if steps:
        return min(steps, key=lambda a: a.amount)
    return ShowHand() if ShowHand() in legal else None


def _aggressive(view: View, legal: Sequence[Action], mine: int) -> Action:
    if view.round >= 4 and mine >= 2 and ShowHand() in legal:
        return ShowHand()
    return _raise(legal) or (Call() if Call() in legal else Check() if Check() in legal else Fold())


Observer = Callable[[int, View, Action], None]
"""Told of every decision: the seat, the view it decided from, and its action."""


def play_hand(state: State, policies: Sequence[Policy], observe: Observer | None = None) -> State:
    """Play ``state`` to its end, each seat's policy deciding from its own view (the turn
    loop of :func:`qipai.bots.arena.play_hand`, typed for this game's policies)."""
    play_out(state, policies, observe)
    return state
