"""Wildcard moves of the ``caishen`` preset 财神斗地主: the 财神 ``W`` and wild jokers.

:func:`wild_moves` returns every legal play of a hand that may hold ``W`` and jokers: the
natural plays (from :func:`~.moves.lead_moves` / :func:`~.moves.follow_moves`, jokers as
themselves), then every play in which some card stands for another rank.  A move's
``cards`` are the physical cards, its ``natural`` the ranks they stand for, and its
kind, main rank and length those of the natural reading (``777W/7777`` is a bomb of
sevens).

**Readings** (where ``docs/rules/doudizhu.md`` and the 财神 page are silent):

1. ``W`` stands for any rank ``3 … 2``, never for a joker, and only together with other
   cards: it is never a single by itself (the 财神 stands for one of the cards it is
   played with; a player left with only ``W`` has won, ``Rules.only_wildcard_left_wins``).
2. A joker stands for a rank only in a play that holds a card other than jokers: ``B``
   and ``R`` alone are themselves, ``BR`` alone is only the rocket (never ``BR/22``).
3. No play holds both ``W`` and a joker; a hand holds at most one ``W``.
4. Four-card bombs may be made with a wildcard or with jokers: ``777W/7777``,
   ``777B/7777`` and ``77BR/7777`` are bombs of sevens (the 财神 page forbids jokers only in
   the five-card bomb).  The five-card 财神 bomb is always four natural cards plus ``W``
   (``7777W/77777``).
5. Using a wild card where a natural card of the rank is still in hand is a different
   move (other physical cards): ``33`` and ``3W/33`` are both listed.
6. One canonical reading per combination.  The natural main part is fixed by the kind,
   main rank and length; a wild card that is only a kicker gets one reading:

   - a joker that is a single kicker or wing stands for itself (``333B``, never
     ``333B/3334``);
   - ``W`` as a single kicker or wing stands for the lowest rank that is not of the main
     part (``333W/3334``, ``44445W/344445``);
   - a wild card in a kicker pair stands for its partner's rank (``3335W/33355``); the
     two jokers as one kicker pair stand for the lowest rank neither of the main part nor
     of another kicker pair (``333BR/33344``, only where jokers may go together);
   - when one joker of a play stands for a rank and the other for itself, the black
     joker ``B`` is the one standing for the rank (``33BR/333R``, never ``33BR/333B``).

7. ``rules.rocket_as_kickers = False`` forbids both jokers in the kicker part of one
   play, whether they stand for themselves or for ranks (``4444BR``, ``333444BR``,
   ``333BR/33344`` and ``33344456BR/3334445566`` are all out); one joker in the main
   part and the other as a kicker is allowed (``3335BR/33335R`` is a four with two
   singles).

How: each :class:`Shape` (a kind's natural main part and kicker slots, built once at
import) is made from the natural cards held plus ``W`` or plus the jokers, every way a
wild card can fill a main-part card, then every kicker choice; the result is cached by
hand and kind.  A 21-card hand with ``W`` and both jokers leads about 2,000 plays, built
in about 8 ms on first sight of the hand, then served from the cache.

>>> from qipai.games.doudizhu.combos import PASS, from_text, parse_move
>>> from qipai.games.doudizhu.rules import RULES
>>> caishen = RULES["caishen"]
>>> [str(m) for m in wild_moves(from_text("777W"), PASS, caishen)]
['7', '77', '777', '7W/77', '77W/777', '777W/3777', '777W/7777']
>>> [str(m) for m in wild_moves(from_text("5B"), parse_move("44"), caishen)]
['pass', '5B/55']
>>> [m.describe for m in wild_moves(from_text("7777W"), parse_move("2222"), caishen)]
['pass', '7777W/77777 wild_bomb(top 7, 1 units)']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product

from qipai.errors import InvalidActionError
from qipai.games.doudizhu.combos import (
    ACE,
    BLACK,
    MIN_CHAIN,
    RED,
    SLOT_BITS,
    SLOT_MASK,
    TWO,
    WILD,
    Kind,
    Move,
    at_least,
    beats,
    contains,
    count_of,
    counts,
    size,
    unit,
)
from qipai.games.doudizhu.moves import CACHE_LIMIT, follow_moves, lead_moves
from qipai.games.doudizhu.rules import Rules

RANKS = range(TWO + 1)
"""Slots a wild card may stand for: ``3 … 2``."""
_JOKERS = unit(BLACK) | unit(RED)
_NATURAL_MASK = sum(unit(s, SLOT_MASK) for s in range(RED + 1))
_RANKS_MASK = sum(unit(s, SLOT_MASK) for s in RANKS)
_UNITS = tuple(unit(s) for s in range(WILD + 1))
_ANSWERS = {
    Kind.BOMB: (Kind.BOMB, Kind.WILD_BOMB),
    Kind.WILD_BOMB: (Kind.WILD_BOMB,),
    Kind.ROCKET: (),
}


@dataclass(frozen=True, slots=True)
class Shape:
    """A combination's natural main part and kicker slots, whatever cards make it."""

    template: Move
    """Kind, main rank and length, with the natural main part as cards and natural."""
    slots: tuple[int, ...]
    """The ranks of the main part, low to high."""
    width: int
    """Cards of each main rank (1-3 for chains, 4 for a four, 5 for the 财神 bomb)."""
    singles: int = 0
    """Single kickers or wings (any cards not of the main ranks)."""
    pairs: int = 0
    """Kicker pairs (distinct ranks, none of the main ranks)."""
    taken: frozenset[int] = frozenset()
    """``slots`` as a set: kickers never have these ranks."""
    slot_bits: int = 0
    """``slots`` as an :func:`~.combos.at_least` mask."""
    size: int = 0
    """Cards in a play of this shape."""

    @classmethod
    def of(cls, kind: Kind, slots: range, width: int, singles: int = 0, pairs: int = 0) -> Shape:
        """The shape of ``kind`` with ``width`` cards of each rank of ``slots``."""
        body = sum(unit(s, width) for s in slots)
        template = Move(kind, slots[-1], len(slots), body, body)
        bits = sum(8 << (SLOT_BITS * s) for s in slots)
        total = width * len(slots) + singles + 2 * pairs
        return cls(template, tuple(slots), width, singles, pairs, frozenset(slots), bits, total)


def _build_shapes() -> dict[Kind, tuple[Shape, ...]]:
    """Every shape by kind, low ranks and short chains first (rocket: natural only)."""
    one = {
        Kind.SINGLE: (1, 0, 0),
        Kind.PAIR: (2, 0, 0),
        Kind.TRIO: (3, 0, 0),
        Kind.TRIO_SINGLE: (3, 1, 0),
        Kind.TRIO_PAIR: (3, 0, 1),
        Kind.FOUR_TWO_SINGLES: (4, 2, 0),
        Kind.FOUR_TWO_PAIRS: (4, 0, 2),
        Kind.BOMB: (4, 0, 0),
        Kind.WILD_BOMB: (5, 0, 0),
    }
    shapes: dict[Kind, list[Shape]] = {kind: [] for kind in Kind}
    for kind, (width, singles, pairs) in one.items():
        shapes[kind] = [Shape.of(kind, range(s, s + 1), width, singles, pairs) for s in RANKS]
    chains = ((Kind.CHAIN, 1), (Kind.PAIR_CHAIN, 2), (Kind.TRIO_CHAIN, 3))
    for kind, width in chains:
        for length in range(MIN_CHAIN[kind], ACE + 2):
            for low in range(ACE - length + 2):
                slots = range(low, low + length)
                shapes[kind].append(Shape.of(kind, slots, width))
                if kind is Kind.TRIO_CHAIN:
                    plane = Shape.of(Kind.PLANE_SINGLES, slots, 3, singles=length)
                    shapes[Kind.PLANE_SINGLES].append(plane)
                    plane = Shape.of(Kind.PLANE_PAIRS, slots, 3, pairs=length)
                    shapes[Kind.PLANE_PAIRS].append(plane)
    return {kind: tuple(found) for kind, found in shapes.items() if found}


SHAPES = _build_shapes()
"""Every :class:`Shape` by kind (all but the pass and the rocket), built once at import."""


def _covers(
    shape: Shape, have: list[int], wilds: tuple[int, ...]
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(natural cards, wild cards used) for every way to make the main part of ``shape``.

    A wild card may replace a natural card that is missing or one still in hand; ``B``
    is tried before ``R``, which makes ``B`` the joker standing for a rank on ties.
    """
    width = shape.width
    body = shape.template.cards
    short = {s: width - have[s] for s in shape.slots if width > have[s]}
    pick = combinations if width == 1 else combinations_with_replacement
    for k in range(sum(short.values()), len(wilds) + 1):
        choices = list(combinations(wilds, k))
        for targets in pick(shape.slots, k):
            if short and any(targets.count(s) < d for s, d in short.items()):
                continue
            cards = body - sum(map(_UNITS.__getitem__, targets))
            for used in choices:
                yield cards, used


Kickers = tuple[int, int, int]
"""One choice of kickers: (physical cards, what they stand for, how many stand in)."""


def _lowest_free(taken: Iterable[int]) -> int:
    """The lowest rank ``3 … 2`` not in ``taken``: what a kicker ``W`` stands for."""
    return min(set(RANKS).difference(taken))


def single_kickers(
    count: int, have: list[int], taken: frozenset[int], wilds: tuple[int, ...]
) -> Iterator[Kickers]:
    """Every multiset of ``count`` single kickers outside the ``taken`` ranks.

    Natural cards and jokers stand for themselves; ``W`` stands for the lowest rank not
    ``taken``.
    """
    items = [(_UNITS[s], _UNITS[s]) for s in RANKS if have[s] and s not in taken]
    stock = sum(unit(s, have[s]) for s in RANKS if s not in taken)
    for w in wilds:
        items.append((_UNITS[w], _UNITS[_lowest_free(taken)] if w == WILD else _UNITS[w]))
        stock += _UNITS[w]
    for chosen in combinations_with_replacement(items, count):
        cards = sum(c for c, _ in chosen)
        if contains(stock, cards):
            yield cards, sum(n for _, n in chosen), count_of(cards, WILD)


def pair_kickers(
    count: int, have: list[int], taken: frozenset[int], wilds: tuple[int, ...]
) -> Iterator[Kickers]:
    """Every choice of ``count`` kicker pairs of distinct ranks outside ``taken``.

    A pair is two natural cards, one natural card and a wild card, or (with both jokers
    free) the two jokers standing for the lowest rank still free.
    """
    options = {
        s: [(unit(s, 2), 0)] * (have[s] >= 2) + [(_UNITS[s], 1)] * bool(wilds)
        for s in RANKS
        if have[s] and s not in taken
    }
    for jokers in (0, 2)[: 1 + (len(wilds) == 2)]:
        for ranks in combinations(options, count - jokers // 2):
            natural = sum(unit(s, 2) for s in ranks)
            if jokers:
                natural += unit(_lowest_free(taken | set(ranks)), 2)
            for chosen in product(*(options[s] for s in ranks)):
                cost = sum(k for _, k in chosen)
                if cost + jokers > len(wilds):
                    continue
                cards = sum(c for c, _ in chosen) + (_JOKERS if jokers else 0)
                for used in combinations(wilds, cost):
                    yield cards + sum(_UNITS[w] for w in used), natural, cost + jokers


def _kickers(shape: Shape, have: list[int], wilds: tuple[int, ...], rules: Rules) -> list[Kickers]:
    """The kicker choices of ``shape`` from what is left, less both jokers if forbidden."""
    if shape.singles:
        found = single_kickers(shape.singles, have, shape.taken, wilds)
    elif shape.pairs:
        found = pair_kickers(shape.pairs, have, shape.taken, wilds)
    else:
        return [(0, 0, 0)]
    if rules.rocket_as_kickers:
        return list(found)
    return [kick for kick in found if kick[0] & _JOKERS != _JOKERS]


def shape_moves(shape: Shape, have: list[int], wilds: tuple[int, ...], rules: Rules) -> list[Move]:
    """The plays of ``shape`` in which some card stands for another rank.

    ``have`` holds the natural counts of ranks ``3 … 2``; ``wilds`` the wild cards of one
    kind the play may use (``(W,)`` or the jokers held).
    """
    template = shape.template
    kickers: dict[tuple[int, ...], list[Kickers]] = {}
    found: dict[int, Move] = {}
    for main_cards, used in _covers(shape, have, wilds):
        kicks = kickers.get(used)
        if kicks is None:
            rest = tuple(w for w in wilds if w not in used)
            kicks = _kickers(shape, have, rest, rules)
            # With a natural main part, only kickers that use a wild card are new plays.
            kicks = kickers[used] = kicks if used else [k for k in kicks if k[2]]
        stand_ins = main_cards + sum(map(_UNITS.__getitem__, used))
        for kick_cards, kick_natural, _ in kicks:
            cards = stand_ins + kick_cards
            if cards & ~_JOKERS and cards not in found:
                natural = template.natural + kick_natural
                found[cards] = Move(template.kind, template.main, template.length, cards, natural)
    return list(found.values())


def _wild_sets(hand: int, rules: Rules) -> list[tuple[int, ...]]:
    """The groups of wild cards a play may draw from: ``(W,)`` and the jokers held."""
    groups: list[tuple[int, ...]] = []
    if rules.wildcard and count_of(hand, WILD):
        groups.append((WILD,))
    jokers = tuple(j for j in (BLACK, RED) if count_of(hand, j))
    if rules.jokers_wild and jokers:
        groups.append(jokers)
    return groups


_CACHE: dict[tuple[int, ...], tuple[Move, ...]] = {}


def kind_moves(hand: int, kind: Kind, rules: Rules) -> tuple[Move, ...]:
    """The plays of ``kind`` in ``hand`` that use a wild card (cached by hand and rules).

    Empty for the pass, the rocket, a kind the rule set lacks, and the single (a joker
    alone is itself, and ``W`` is never played alone).
    """
    if kind is Kind.SINGLE:
        return ()
    allowed = rules.allows(kind)
    key = (hand, kind, allowed, rules.wildcard, rules.jokers_wild, rules.rocket_as_kickers)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    shapes = SHAPES.get(kind, ()) if allowed else ()
    have = counts(hand)[: TWO + 1]
    held = [at_least(hand & _RANKS_MASK, min(k, 4)) if k else 0 for k in range(6)]
    total = size(hand)
    moves: list[Move] = []
    for wilds in _wild_sets(hand, rules):
        if kind is Kind.WILD_BOMB and wilds != (WILD,):
            continue
        for shape in shapes:
            missing = shape.slot_bits & ~held[shape.width]
            if shape.size <= total and missing.bit_count() <= len(wilds):
                moves += shape_moves(shape, have, wilds, rules)
    if len(_CACHE) >= CACHE_LIMIT:
        _CACHE.clear()
    found = _CACHE[key] = tuple(moves)
    return found


def wild_moves(hand: int, previous: Move, rules: Rules) -> list[Move]:
    """Every legal play of ``hand`` (``W`` and wild jokers allowed) after ``previous``.

    ``previous`` is :data:`~.combos.PASS` when leading.  The natural plays come first
    (the pass first of all when following), then the plays using a wild card, by kind
    from single to five-card bomb, low ranks first.  See the module docstring for the
    readings chosen.

    :raises InvalidActionError: ``bad_cards`` if the hand holds more than one ``W``.
    """
    if count_of(hand, WILD) > 1:
        raise InvalidActionError("bad_cards", "a hand holds at most one wildcard W")
    natural = hand & _NATURAL_MASK
    if previous.is_pass:
        moves = lead_moves(natural, rules)
        if not _wild_sets(hand, rules):  # no wild card held: the natural plays only
            return moves
        for kind in SHAPES:
            moves += kind_moves(hand, kind, rules)
        return moves
    moves = follow_moves(natural, previous, rules)
    if not _wild_sets(hand, rules):
        return moves
    answers = _ANSWERS.get(previous.kind, (previous.kind, Kind.BOMB, Kind.WILD_BOMB))
    for kind in answers:
        moves += [m for m in kind_moves(hand, kind, rules) if beats(m, previous)]
    return moves
