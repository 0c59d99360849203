"""Showhand policies: 托管, a random player, a simple player and a strong one.

Every policy maps a seat's view to one of the view's legal actions; self-play and paired
matches are :mod:`qipai.bots.arena`'s:

>>> from qipai.games.showhand.state import State
>>> state = play_hand(State.new("yifa", seed=1, players=3), [SimplePolicy()] * 3)
>>> state.is_terminal, sum(state.returns())
(True, 0)
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from qipai.bots.turns import play_out
from qipai.cards import Card
from qipai.games.showhand.actions import (
    Action,
    Bet,
    Call,
    Check,
    Fold,
    Keep,
    Open,
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
from qipai.games.showhand.rules import RULES, Rules
from qipai.games.showhand.state import DECK, State
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
    cards = view.own_cards
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


# --- the strong player ------------------------------------------------------------------

SAMPLES = 300
"""Monte Carlo deals of the unseen cards per decision, when there are more than
:data:`EXACT_LIMIT` deals to enumerate."""
EXACT_LIMIT = 600
"""Every deal of the unseen cards is enumerated when there are at most this many."""
SHOW_EDGE = 0.6
"""Edge (:func:`edge`) at or above which the strong player 梭s (from the round it is allowed)."""
BET_EDGE = 0.4
"""Edge at or above which he bets or raises the most the round allows."""
CALL_MARGIN = 1.2
"""A call needs an equity of this many times its pot odds ``cost / (pot + cost)``."""
OPEN_EDGE = -0.4
"""The leader opens (开: straight to the showdown) with an edge from this up to
:data:`BET_EDGE`."""
THIN_EDGE = 0.15
"""Edge at or above which he bets the least when he may check."""
BLUFF_RATE = 0.05
"""How often he bets the least when he would check: the bluff."""

_MASK: dict[Card, int] = {card: mask_of((card,)) for card in DECK}
"""The card-mask bit of each card of the deck."""


@dataclass(frozen=True, slots=True)
class Deal:
    """What one seat knows of the cards: its own, its rivals' up cards, the unseen ones."""

    own: int
    """The mask of the seat's own cards (hole, up and a card awaiting 换牌)."""
    rivals: tuple[int, ...]
    """The mask of each opponent's up cards (opponents still in)."""
    unseen: tuple[int, ...]
    """The bit of each card the seat has not seen."""

    @classmethod
    def of(cls, view: View) -> Deal:
        """The deal as ``view``'s seat sees it."""
        own = list(view.own_cards)
        if view.pending is not None:
            own.append(view.pending)
        known = {*own, *(card for cards in view.up for card in cards)}
        rivals = tuple(
            mask_of(up)
            for seat, up in enumerate(view.up)
            if seat != view.seat and not view.folded[seat]
        )
        unseen = tuple(bit for card, bit in _MASK.items() if card not in known)
        return cls(mask_of(own), rivals, unseen)

    @property
    def sizes(self) -> tuple[int, ...]:
        """The cards each hand still lacks, the seat's first (hole cards, cards awaiting
        换牌 and cards to come)."""
        return tuple(HAND_SIZE - mask.bit_count() for mask in (self.own, *self.rivals))

    def deals(self) -> int:
        """The number of ways to deal the unseen cards into the hands."""
        left, count = len(self.unseen), 1
        for size in self.sizes:
            count *= math.comb(left, size)
            left -= size
        return count

    def wins(self, extra: Sequence[int], flip: bool = False) -> bool:
        """Whether the seat's hand beats every rival's, each hand completed by its mask in
        ``extra`` (the seat's first); ``flip``: a flush beats a full house."""
        mine = evaluate_mask(self.own | extra[0], flip)
        return all(
            evaluate_mask(up | more, flip) < mine
            for up, more in zip(self.rivals, extra[1:], strict=True)
        )

    def equity(self, rng: random.Random, flip: bool = False) -> float:
        """The chance that the seat's hand wins the showdown: over every deal of the unseen
        cards when there are at most :data:`EXACT_LIMIT`, else over :data:`SAMPLES` random
        ones."""
        sizes = self.sizes
        if self.deals() <= EXACT_LIMIT:
            deals = list(_every_deal(self.unseen, sizes))
        else:
            deals = [_split(rng.sample(self.unseen, sum(sizes)), sizes) for _ in range(SAMPLES)]
        return sum(self.wins(extra, flip) for extra in deals) / len(deals)


def _split(cards: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """Cut ``cards`` (bits) into consecutive masks of ``sizes`` cards."""
    masks, start = [], 0
    for size in sizes:
        masks.append(sum(cards[start : start + size]))
        start += size
    return masks


def _every_deal(pool: tuple[int, ...], sizes: Sequence[int]) -> Iterator[list[int]]:
    """Every way to deal ``sizes`` cards out of ``pool`` (bits), as masks."""
    if not sizes:
        yield []
        return
    for chosen in itertools.combinations(pool, sizes[0]):
        rest = tuple(bit for bit in pool if bit not in chosen)
        for tail in _every_deal(rest, sizes[1:]):
            yield [sum(chosen), *tail]


class StrongPolicy:
    """A stronger player: equity from the cards it sees, against the pot odds.

    Its equity is the chance to win the showdown against every opponent still in, from
    its own cards and everybody's up cards, over the deals of the unseen cards of the 28
    (all of them when few, else a seeded sample).  换牌: it turns up the card that shows
    less.  ``seed`` seeds its samples and its bluffs.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The generator of its samples and bluffs."""

    def choose(self, view: View) -> Action:
        """The strong action for ``view``."""
        if Keep() in view.legal_actions:
            return hide_more(view)
        rules = RULES.get(view.rules) or Rules(name=view.rules)
        equity = Deal.of(view).equity(self.rng, rules.flush_beats_full_house)
        return self._bet(view, equity)

    def _bet(self, view: View, equity: float) -> Action:
        legal = view.legal_actions
        steps = sorted((a for a in legal if isinstance(a, (Bet, Raise))), key=_amount)
        advantage = edge(equity, sum(not f for f in view.folded) - 1)
        if ShowHand() in legal and advantage >= SHOW_EDGE:
            return ShowHand()
        if steps and advantage >= BET_EDGE:
            return steps[-1]
        if Open() in legal and advantage >= OPEN_EDGE:
            return Open()
        if Check() in legal:
            bluff = steps and (advantage >= THIN_EDGE or self.rng.random() < BLUFF_RATE)
            return steps[0] if bluff else Check()
        stay, cost = _cheapest_stay(view, steps)
        if stay is not None and equity >= CALL_MARGIN * cost / (view.pot + cost):
            return stay
        return Fold()


def edge(equity: float, rivals: int) -> float:
    """How far ``equity`` stands from a fair share ``1 / (rivals + 1)`` towards a sure win
    (1) or, below it, towards a sure loss (-1).

    >>> edge(0.75, 1), edge(0.25, 3), edge(0.25, 1)
    (0.5, 0.0, -0.5)
    """
    fair = 1 / (rivals + 1)
    return (equity - fair) / (1 - fair) if equity >= fair else (equity - fair) / fair


def _cheapest_stay(view: View, steps: Sequence[Action]) -> tuple[Action | None, int]:
    """The cheapest way to stay in when checking is not allowed, and its price: a call,
    else the smallest bet (an extra round), else 梭; ``(None, 0)`` if none is legal."""
    if Call() in view.legal_actions:
        return Call(), view.to_call
    if steps:
        return steps[0], _amount(steps[0]) - view.round_bets[view.seat]
    if ShowHand() in view.legal_actions:
        return ShowHand(), view.most - view.bets[view.seat]
    return None, 0


def _amount(action: Action) -> int:
    return action.amount if isinstance(action, (Bet, Raise)) else 0


def hide_more(view: View) -> Action:
    """换牌: :class:`.Swap` when turning up the old hole card shows less than turning up the
    new card (a weaker partial hand), else :class:`.Keep`."""
    up = mask_of(view.up[view.seat])
    pending, hole = view.pending, view.hole
    if pending is None or hole is None:
        return Keep()
    keep = evaluate_partial_mask(up | _MASK[pending])
    swap = evaluate_partial_mask(up | _MASK[hole])
    return Swap() if swap < keep else Keep()


Observer = Callable[[int, View, Action], None]
"""Told of every decision: the seat, the view it decided from, and its action."""


def play_hand(state: State, policies: Sequence[Policy], observe: Observer | None = None) -> State:
    """Play ``state`` to its end, each seat's policy deciding from its own view (the turn
    loop of :func:`qipai.bots.arena.play_hand`, typed for this game's policies)."""
    play_out(state, policies, observe)
    return state
