"""Zha Jin Hua policies: 托管 (fold), a random player, a simple player and a strong one.

Every policy maps a seat's view to one of the view's legal actions; self-play and paired
matches are :mod:`qipai.bots.arena`'s:

>>> from qipai.games.zhajinhua.state import State
>>> state = play_hand(State.new("yifa", seed=1, players=4), [SimplePolicy()] * 4)
>>> state.is_terminal, sum(state.returns())
(True, 0)
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from qipai.bots.turns import play_out
from qipai.cards import Card, poker_deck
from qipai.games.zhajinhua.actions import Action, AutoCall, Call, Compare, Fold, Look, Raise
from qipai.games.zhajinhua.hands import CATEGORIES, beats_trips, evaluate_cards
from qipai.games.zhajinhua.rules import RULES, Rules
from qipai.games.zhajinhua.state import HAND_CARDS, State
from qipai.games.zhajinhua.view import View

PAIR_FLOOR = CATEGORIES.index("pair") << 12
"""The weakest pair's strength (:func:`~qipai.games.zhajinhua.hands.evaluate`)."""
STRAIGHT_FLOOR = CATEGORIES.index("straight") << 12
"""The weakest straight's strength."""
TRIPS_FLOOR = CATEGORIES.index("trips") << 12
"""The weakest trips' strength."""


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


SETTLE_ROUND = 4
"""From this round the simple player holding a pair or better compares instead of calling."""
STRAIGHT_SETTLE_ROUND = 3
"""From this round the simple player holding a straight or better compares."""


class SimplePolicy:
    """A simple player: looks on his first turn, then plays by strength.

    Weaker than a pair: call in round 1, then fold.  A pair or better: call (compare when
    the call is beyond his stack), and from round :data:`SETTLE_ROUND` compare with the
    next player still in, so that two bots holding pairs do not call each other up to the
    cap (hundreds of actions at the lowest stake); a straight or better: raise one level,
    and from round 3 compare.  Not a strong player; it exists for self-play and tables.
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
        settle = STRAIGHT_SETTLE_ROUND if strength >= STRAIGHT_FLOOR else SETTLE_ROUND
        if strength >= PAIR_FLOOR and view.round >= settle and compares:
            return compares[0]
        if strength >= STRAIGHT_FLOOR and strong:
            return strong[0]
        if strength >= PAIR_FLOOR or view.round == 1:
            return next((a for a in (Call(), *compares) if a in legal), Fold())
        return Fold()


# --- the strong player ------------------------------------------------------------------

LOOK_ROUND = 3
"""A blind strong player looks at his cards on this turn (his own turn number) at the latest."""
LOOK_SHARE = 0.5
"""... and earlier as soon as an opponent still in is read to hold the top this share of
hands (:meth:`Reads.share`)."""
BLIND_POINTS = 20
"""Percentiles :func:`blind_equity` averages over (the midpoints of as many equal bins)."""
BLIND_RAISE_RATE = 0.3
"""How often a blind player first to act in round 1 raises to the top blind (pressure)."""
BLUFF_RATE = 0.04
"""How often a seen player who would fold raises (or calls) instead: the bluff."""
TOP_EQUITY = 0.8
"""Equity at or above which a seen player raises to the top bet."""
RAISE_EQUITY = 0.65
"""Equity at or above which he raises one level (at the top bet: calls)."""
CONTINUE_EQUITY = 0.4
"""Equity at or above which he calls heads-up rather than compare."""
CALL_MARGIN = 1.5
"""A call needs an equity of this many times its pot odds ``cost / (pot + cost)``: more
calls follow it."""
DUEL_EQUITY = 0.6
"""With several opponents, a compare needs this chance of winning it."""
CALL_SHARES = (1.0, 0.85, 0.4, 0.35, 0.3)
"""The share of hands (the top of the ranking) a seen opponent is read to hold after 0, 1,
2, 3 and 4 or more seen calls (the first call is often made with anything)."""
RAISE_SHARE = 0.45
"""Each raise of a seen opponent multiplies his share by this."""
COMPARE_WIN_SHARE = 0.5
"""Each compare an opponent won multiplies his share by this."""
MIN_SHARE = 0.05
"""No opponent is read to hold less than this share of the hands."""


@dataclass(frozen=True, slots=True)
class HandTable:
    """The percentile of every three-card strength among the 22,100 hands."""

    percentile: dict[int, float]
    """Strength → share of all hands it beats (equal hands count half)."""
    trips_share: float
    """The share of hands that are trips (the 235 beats them in a duel)."""
    low_235_share: float
    """The share of hands that are a 235 beating trips; they rank lowest of all."""


@functools.cache
def hand_table() -> HandTable:
    """The :class:`HandTable`, built by enumeration on first use (about 50 ms).

    >>> table = hand_table()
    >>> round(table.trips_share * 22100), round(table.low_235_share * 22100)
    (52, 60)
    """
    hands = list(itertools.combinations(poker_deck(), HAND_CARDS))
    strengths = sorted(evaluate_cards(hand) for hand in hands)
    total = len(strengths)
    percentile = {
        s: (bisect.bisect_left(strengths, s) + bisect.bisect_right(strengths, s)) / 2 / total
        for s in set(strengths)
    }
    trips = total - bisect.bisect_left(strengths, TRIPS_FLOOR)
    low = sum(is_235(hand) for hand in hands)
    return HandTable(percentile, trips / total, low / total)


def is_235(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are the 235 that beats trips in a duel (as the engine defines it)."""
    return beats_trips("".join(str(card) for card in cards))


def duel_chance(cards: Sequence[Card], share: float, *, rule_235: bool = True) -> float:
    """The chance that ``cards`` beat one opponent holding a random hand from the top
    ``share`` of the ranking; ``rule_235``: the hands meet alone (a compare, a showdown
    of two), where the 235 beats trips.

    >>> from qipai.cards import parse_cards
    >>> duel_chance(parse_cards("AsAhAd"), 1.0) > 0.99
    True
    >>> low = parse_cards("2h3d5c")          # beats the trips of the top 0.1 only
    >>> round(duel_chance(low, 0.1), 3), duel_chance(low, 0.1, rule_235=False)
    (0.024, 0.0)
    """
    table = hand_table()
    strength = evaluate_cards(cards)
    chance = min(1.0, max(0.0, (table.percentile[strength] - (1 - share)) / share))
    if not rule_235:
        return chance
    if is_235(cards):
        return min(1.0, chance + table.trips_share / share)
    if strength >= TRIPS_FLOOR:
        return max(0.0, chance - max(0.0, table.low_235_share - (1 - share)) / share)
    return chance


def blind_equity(shares: Iterable[float]) -> float:
    """The chance that an unseen hand beats every opponent, each holding a random hand
    from the top ``share`` of the ranking (averaged over :data:`BLIND_POINTS` percentiles).

    >>> [round(blind_equity(shares), 3) for shares in ([1.0], [1.0, 1.0], [0.5])]
    [0.5, 0.333, 0.25]
    """
    points = [(i + 0.5) / BLIND_POINTS for i in range(BLIND_POINTS)]
    chances = [math.prod(min(1.0, max(0.0, (p - (1 - q)) / q)) for q in shares) for p in points]
    return sum(chances) / BLIND_POINTS


@dataclass(slots=True)
class Reads:
    """What one seat has read of its opponents so far in a hand, from its views alone."""

    players: int
    """Seats at the table."""
    round: int = 0
    """The seat's round at its last decision."""
    looked: bool = False
    """Whether its last decision was to look (the turn goes on)."""
    put: tuple[int, ...] = ()
    """Every seat's total put in, at the last decision."""
    stake: int = 0
    """The stake at the last decision."""
    compares: int = 0
    """Compares seen so far."""
    calls: list[int] = field(default_factory=list)
    """Per seat: turns it paid (or compared) while seen."""
    raises: list[int] = field(default_factory=list)
    """Per seat: raises it made while seen."""

    @classmethod
    def start(cls, view: View, rules: Rules) -> Reads:
        """The reads at the first decision of a hand: everyone put in the ante."""
        n = view.players
        return cls(n, 0, False, (rules.ante,) * n, rules.base_bet, 0, [0] * n, [0] * n)

    def continues(self, view: View) -> bool:
        """Whether ``view`` is a later decision of the same hand: a later turn, or the
        same one after a look."""
        same_turn = view.round == self.round and self.looked
        return view.players == self.players and (view.round > self.round or same_turn)

    def observe(self, view: View, rules: Rules) -> None:
        """Read what every opponent did since the last decision: who paid while seen, who
        raised (the stake per chip paid went up), who compared."""
        paid = [0] * self.players
        for initiator, _, amount, _ in view.compares[self.compares :]:
            paid[initiator] += amount
            self.calls[initiator] += view.seen[initiator]
        running = self.stake
        for step in range(self.players):  # from the seat's own last action on
            seat = (view.seat + step) % self.players
            delta = view.put[seat] - self.put[seat] - paid[seat]
            if delta <= 0:
                continue
            seen = view.seen[seat] and step > 0
            self.calls[seat] += seen
            units = delta // rules.call_factor(view.seen[seat])
            if units > running and view.put[seat] < rules.cap:
                running = units
                self.raises[seat] += seen
        self.round, self.put, self.stake = view.round, view.put, view.stake
        self.compares = len(view.compares)

    def share(self, view: View, seat: int) -> float:
        """The top share of the ranking ``seat`` is read to hold: every hand while blind,
        less with each seen call and raise, and with each compare won."""
        share = 1.0
        if view.seen[seat]:
            share = CALL_SHARES[min(self.calls[seat], len(CALL_SHARES) - 1)]
            share *= RAISE_SHARE ** self.raises[seat]
        wins = sum(seat in (a, b) and seat != loser for a, b, _, loser in view.compares)
        return max(MIN_SHARE, share * COMPARE_WIN_SHARE**wins)


class StrongPolicy:
    """A stronger player: reads, equity and pot odds (``docs/bots.md``).

    It stays blind while calls are cheap and nobody shows strength, then looks; seen, it
    weighs its hand's equity against every opponent still in, each read to hold the top
    share of the ranking his seen calls, raises and won compares point to, against the
    pot odds of a call or a compare.  ``seed`` seeds its bluffs.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The generator of its bluffs."""
        self.reads: dict[int, Reads] = {}
        """Per seat: its reads of the current hand."""

    def choose(self, view: View) -> Action:
        """The strong action for ``view``."""
        rules = RULES.get(view.rules) or Rules(name=view.rules)
        reads = self.reads.get(view.seat)
        if reads is None or not reads.continues(view):
            reads = self.reads[view.seat] = Reads.start(view, rules)
        reads.observe(view, rules)
        shares = {
            seat: reads.share(view, seat)
            for seat in range(view.players)
            if seat != view.seat and not (view.folded[seat] or view.out[seat])
        }
        action = self._decide(view, shares)
        reads.looked = isinstance(action, Look)
        return action

    def _decide(self, view: View, shares: dict[int, float]) -> Action:
        legal = view.legal_actions
        if Look() in legal and self._should_look(view, shares):
            return Look()
        if view.hand is None:
            return self._blind(view)
        return self._seen(view, view.hand, shares)

    @staticmethod
    def _should_look(view: View, shares: dict[int, float]) -> bool:
        cost = view.call_cost
        cheap = Call() in view.legal_actions and blind_equity(
            shares.values()
        ) >= CALL_MARGIN * cost / (view.pot + cost)
        return view.round >= LOOK_ROUND or min(shares.values()) <= LOOK_SHARE or not cheap

    def _blind(self, view: View) -> Action:
        legal = view.legal_actions
        raises = [a for a in legal if isinstance(a, Raise)]
        first = view.round == 1 and view.seat == view.first_to_act
        if first and raises and self.rng.random() < BLIND_RAISE_RATE:
            return raises[-1]
        return Call() if Call() in legal else Fold()

    def _seen(self, view: View, hand: Sequence[Card], shares: dict[int, float]) -> Action:
        legal = view.legal_actions
        heads_up = len(shares) == 1
        equity = math.prod(duel_chance(hand, q, rule_235=heads_up) for q in shares.values())
        raises = [a for a in legal if isinstance(a, Raise)]
        can_call = Call() in legal
        if equity >= RAISE_EQUITY and (raises or can_call):
            top = equity >= TOP_EQUITY
            return (raises[-1] if top else raises[0]) if raises else Call()
        compare = self._compare(view, hand, shares, equity)
        if compare is not None:
            return compare
        cost = view.call_cost
        if can_call and equity >= CALL_MARGIN * cost / (view.pot + cost):
            return Call()
        if self.rng.random() < BLUFF_RATE and (raises or can_call):
            return raises[0] if raises else Call()
        return Fold()

    @staticmethod
    def _compare(
        view: View, hand: Sequence[Card], shares: dict[int, float], equity: float
    ) -> Action | None:
        """A compare worth its price, or ``None``: heads-up, when the equity no longer
        warrants calling and the compare's pot odds are good; with several opponents,
        against the one most likely beaten, when that is likely enough."""
        targets = {a.target for a in view.legal_actions if isinstance(a, Compare)}
        if not targets:
            return None
        chance, target = max((duel_chance(hand, shares[t]), t) for t in targets)
        price = view.compare_cost
        if len(shares) == 1:
            calling = equity >= CONTINUE_EQUITY and Call() in view.legal_actions
            worth = chance * (view.pot + price) > price
            return Compare(target) if worth and not calling else None
        return Compare(target) if chance >= DUEL_EQUITY else None


def play_hand(state: State, policies: Sequence[Policy]) -> State:
    """Play ``state`` to its end, each seat's policy deciding from its own view (the turn
    loop of :func:`qipai.bots.arena.play_hand`, typed for this game's policies)."""
    play_out(state, policies)
    return state
