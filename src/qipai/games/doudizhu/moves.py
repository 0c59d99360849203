"""Legal-move generation for natural hands: one generator per kind, tables built once.

A hand is a packed rank-count vector (:mod:`.combos`).  Each kind's moves depend only on
a few *masks* of the hand — which ranks it holds at least once, twice, three or four
times (:func:`~.combos.at_least`) — so every kind's list is computed once per distinct
mask and kept (the caches are bounded: see :data:`CACHE_LIMIT`).  The airplanes and
four-with-two, whose kickers depend on the exact counts, are cached by the whole hand.

The generator here knows no wildcard; :mod:`.wild` adds the ``caishen`` readings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, combinations_with_replacement

from qipai.games.doudizhu.combos import (
    ACE,
    BLACK,
    MIN_CHAIN,
    PASS,
    RED,
    SLOT_BITS,
    SLOT_MASK,
    TWO,
    Kind,
    Move,
    at_least,
    contains,
    count_of,
    unit,
)
from qipai.games.doudizhu.rules import Rules

CACHE_LIMIT = 200_000
"""Entries a per-kind cache may hold before it is cleared (bounds memory in long runs)."""

_CHAIN_SLOTS = sum(8 << (SLOT_BITS * i) for i in range(ACE + 1))
_JOKERS = unit(BLACK) | unit(RED)
_UNITS = tuple(unit(s) for s in range(16))


def slots_of(mask: int) -> list[int]:
    """Slots whose bit is set in a sparse :func:`~.combos.at_least` mask, low to high."""
    found = []
    while mask:
        low = mask & -mask
        found.append((low.bit_length() - 1) >> 2)
        mask ^= low
    return found


def _plain(kind: Kind, slot: int, width: int) -> Move:
    cards = unit(slot, width)
    return Move(kind, slot, 1, cards, cards)


SINGLES = tuple(_plain(Kind.SINGLE, s, 1) for s in range(RED + 1))
PAIRS = tuple(_plain(Kind.PAIR, s, 2) for s in range(TWO + 1))
TRIOS = tuple(_plain(Kind.TRIO, s, 3) for s in range(TWO + 1))
BOMBS = tuple(_plain(Kind.BOMB, s, 4) for s in range(TWO + 1))
ROCKET = Move(Kind.ROCKET, RED, 1, _JOKERS, _JOKERS)
_TRIO_SINGLE = tuple(
    tuple(Move(Kind.TRIO_SINGLE, t, 1, c := unit(t, 3) + unit(k), c) for k in range(RED + 1))
    for t in range(TWO + 1)
)
_TRIO_PAIR = tuple(
    tuple(Move(Kind.TRIO_PAIR, t, 1, c := unit(t, 3) + unit(k, 2), c) for k in range(TWO + 1))
    for t in range(TWO + 1)
)


def _cached(build: Callable[..., tuple[Move, ...]]) -> Callable[..., tuple[Move, ...]]:
    """Memoise a builder on its (hashable) arguments, clearing past :data:`CACHE_LIMIT`."""
    cache: dict[object, tuple[Move, ...]] = {}

    def lookup(*key: int) -> tuple[Move, ...]:
        try:
            return cache[key]
        except KeyError:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            result = cache[key] = build(*key)
            return result

    lookup.cache = cache  # type: ignore[attr-defined]
    return lookup


@_cached
def _singles(g1: int) -> tuple[Move, ...]:
    return tuple(SINGLES[s] for s in slots_of(g1))


@_cached
def _pairs(g2: int) -> tuple[Move, ...]:
    return tuple(PAIRS[s] for s in slots_of(g2))


@_cached
def _trios(g3: int) -> tuple[Move, ...]:
    return tuple(TRIOS[s] for s in slots_of(g3))


@_cached
def _bombs(g4: int) -> tuple[Move, ...]:
    return tuple(BOMBS[s] for s in slots_of(g4))


def _runs(mask: int, shortest: int) -> Iterator[tuple[int, int]]:
    """(low, high) of every run of consecutive slots ≤ A in ``mask``, ``shortest``+ long."""
    slots = slots_of(mask & _CHAIN_SLOTS)
    present = set(slots)
    for low in slots:
        high = low
        while high + 1 in present:
            high += 1
            if high - low + 1 >= shortest:
                yield low, high


def _chain_builder(kind: Kind, width: int) -> Callable[..., tuple[Move, ...]]:
    def build(mask: int) -> tuple[Move, ...]:
        moves = []
        for low, high in _runs(mask, MIN_CHAIN[kind]):
            cards = sum(unit(s, width) for s in range(low, high + 1))
            moves.append(Move(kind, high, high - low + 1, cards, cards))
        return tuple(moves)

    return _cached(build)


_chains = _chain_builder(Kind.CHAIN, 1)
_pair_chains = _chain_builder(Kind.PAIR_CHAIN, 2)
_trio_chains = _chain_builder(Kind.TRIO_CHAIN, 3)


@_cached
def _trio_singles(g3: int, g1: int) -> tuple[Move, ...]:
    kickers = slots_of(g1)
    return tuple(_TRIO_SINGLE[t][k] for t in slots_of(g3) for k in kickers if k != t)


@_cached
def _trio_pairs(g3: int, g2: int) -> tuple[Move, ...]:
    kickers = slots_of(g2)
    return tuple(_TRIO_PAIR[t][k] for t in slots_of(g3) for k in kickers if k != t)


def _kicker_sets(hand: int, excluded: set[int], size: int, rocket: bool) -> list[int]:
    """Every multiset of ``size`` cards of ``hand`` outside ``excluded`` slots, packed.

    Both jokers together are left out unless ``rocket``.
    """
    rest = hand
    for slot in excluded:
        rest &= ~unit(slot, SLOT_MASK)
    distinct = slots_of(at_least(rest, 1))
    found = []
    for chosen in combinations_with_replacement(distinct, size):
        kick = sum(_UNITS[s] for s in chosen)
        if contains(rest, kick) and (rocket or kick & _JOKERS != _JOKERS):
            found.append(kick)
    return found


def _four_two_builder(rocket: bool) -> Callable[..., tuple[Move, ...]]:
    def build(g4: int, hand: int) -> tuple[Move, ...]:
        moves = []
        for f in slots_of(g4):
            four = unit(f, 4)
            for kick in (_kicker_sets(hand, {f}, 2, rocket)):
                moves.append(Move(Kind.FOUR_TWO_SINGLES, f, 1, four + kick, four + kick))
            paired = [s for s in slots_of(at_least(hand, 2)) if s != f]
            for a, b in combinations(paired, 2):
                cards = four + unit(a, 2) + unit(b, 2)
                moves.append(Move(Kind.FOUR_TWO_PAIRS, f, 1, cards, cards))
        return tuple(moves)

    return _cached(build)


def _plane_builder(rocket: bool) -> Callable[..., tuple[Move, ...]]:
    def build(g3: int, hand: int) -> tuple[Move, ...]:
        total = sum(count_of(hand, s) for s in range(RED + 1))
        moves = []
        for low, high in _runs(g3, 2):
            units = high - low + 1
            chain_ranks = set(range(low, high + 1))
            body = sum(unit(s, 3) for s in chain_ranks)
            if 4 * units <= total:
                for kick in (_kicker_sets(hand, chain_ranks, units, rocket)):
                    moves.append(Move(Kind.PLANE_SINGLES, high, units, body + kick, body + kick))
            paired = [s for s in slots_of(at_least(hand, 2)) if s not in chain_ranks]
            for chosen in combinations(paired, units):
                cards = body + sum(unit(s, 2) for s in chosen)
                moves.append(Move(Kind.PLANE_PAIRS, high, units, cards, cards))
        return tuple(moves)

    return _cached(build)


_FOUR_TWO = {r: _four_two_builder(r) for r in (False, True)}
_PLANES = {r: _plane_builder(r) for r in (False, True)}


def _allowed(rules: Rules, move: Move) -> bool:
    kind = move.kind
    if kind is Kind.TRIO_SINGLE:
        return rules.trio_single
    if kind is Kind.PLANE_SINGLES:
        return rules.plane_singles
    if kind in (Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
        return rules.four_two
    return True


def lead_moves(hand: int, rules: Rules) -> list[Move]:
    """Every combination a natural ``hand`` may lead under ``rules`` (no pass)."""
    g1 = at_least(hand, 1)
    g2 = at_least(hand, 2)
    g3 = at_least(hand, 3)
    g4 = at_least(hand, 4)
    moves = [*_singles(g1), *_pairs(g2), *_chains(g1 & _CHAIN_SLOTS)]
    if g2:
        moves += _pair_chains(g2 & _CHAIN_SLOTS)
    if g3:
        moves += _trios(g3)
        moves += _trio_pairs(g3, g2)
        if rules.trio_single:
            moves += _trio_singles(g3, g1)
        if g3 & (g3 >> SLOT_BITS) & _CHAIN_SLOTS:
            moves += _trio_chains(g3 & _CHAIN_SLOTS)
            moves += [m for m in _PLANES[rules.rocket_as_kickers](g3, hand) if _allowed(rules, m)]
    if g4:
        if rules.four_two:
            moves += _FOUR_TWO[rules.rocket_as_kickers](g4, hand)
        moves += _bombs(g4)
    if hand & _JOKERS == _JOKERS:
        moves.append(ROCKET)
    return moves


def _same_kind(kind: Kind, hand: int, rules: Rules) -> tuple[Move, ...]:
    g1 = at_least(hand, 1)
    if kind is Kind.SINGLE:
        return _singles(g1)
    if kind is Kind.CHAIN:
        return _chains(g1 & _CHAIN_SLOTS)
    g2 = at_least(hand, 2)
    if kind is Kind.PAIR:
        return _pairs(g2)
    if kind is Kind.PAIR_CHAIN:
        return _pair_chains(g2 & _CHAIN_SLOTS)
    g3 = at_least(hand, 3)
    if not g3:
        return ()
    if kind is Kind.TRIO:
        return _trios(g3)
    if kind is Kind.TRIO_SINGLE:
        return _trio_singles(g3, g1) if rules.trio_single else ()
    if kind is Kind.TRIO_PAIR:
        return _trio_pairs(g3, g2)
    if kind is Kind.TRIO_CHAIN:
        return _trio_chains(g3 & _CHAIN_SLOTS)
    if kind in (Kind.PLANE_SINGLES, Kind.PLANE_PAIRS):
        planes = _PLANES[rules.rocket_as_kickers](g3, hand)
        return tuple(m for m in planes if m.kind is kind)
    g4 = at_least(hand, 4)
    if g4 and rules.four_two and kind in (Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
        return tuple(m for m in _FOUR_TWO[rules.rocket_as_kickers](g4, hand) if m.kind is kind)
    return ()


def follow_moves(hand: int, previous: Move, rules: Rules) -> list[Move]:
    """Every answer of a natural ``hand`` to ``previous``: the pass, then the plays that beat it."""
    kind = previous.kind
    moves = [PASS]
    if kind is Kind.ROCKET:
        return moves
    if not kind.is_bomb:
        main, length = previous.main, previous.length
        moves += [
            m
            for m in _same_kind(kind, hand, rules)
            if m.main > main and m.length == length
        ]
    g4 = at_least(hand, 4)
    if g4:
        floor = previous.main if kind is Kind.BOMB else -1
        if kind is not Kind.WILD_BOMB:
            moves += [b for b in _bombs(g4) if b.main > floor]
    if hand & _JOKERS == _JOKERS:
        moves.append(ROCKET)
    return moves
