"""Legal-move generation for natural hands: one generator per kind, tables built once.

A hand is a packed rank-count vector (:mod:`.combos`).  Each kind's moves depend only on
a few *masks* of the hand — which ranks it holds at least once, twice, three or four
times (:func:`~.combos.at_least`) — so every kind's list is computed once per distinct
mask, once, in :func:`tables`.  Trio-with and four-with-two moves are read from tables
indexed by their ranks; only the airplanes, whose wings depend on the exact counts, are
built per hand (and cached by hand, bounded by :data:`CACHE_LIMIT`).

The generator here knows no wildcard (a ``W`` in the hand is ignored); :mod:`.wild` adds
the ``caishen`` readings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from qipai.games.doudizhu.combos import (
    ACE,
    AT_LEAST_ADD,
    BLACK,
    HIGH_BITS,
    MIN_CHAIN,
    PASS,
    RED,
    SLOT_BITS,
    TWO,
    WILD,
    Kind,
    Move,
    at_least,
    size,
    unit,
)
from qipai.games.doudizhu.rules import Rules

CACHE_LIMIT = 200_000
"""Entries a per-kind cache may hold before it is cleared (bounds memory in long runs)."""

_CHAIN_SLOTS = sum(8 << (SLOT_BITS * i) for i in range(ACE + 1))
_JOKERS = unit(BLACK) | unit(RED)
_NATURAL_BITS = HIGH_BITS & ~(8 << (SLOT_BITS * WILD))
_ADD1, _ADD2, _ADD3, _ADD4 = AT_LEAST_ADD[1:5]


def _plain(kind: Kind, slot: int, width: int) -> Move:
    cards = unit(slot, width)
    return Move(kind, slot, 1, cards, cards)


def _with_kickers(kind: Kind, main: int, width: int, kickers: tuple[int, ...], each: int) -> Move:
    cards = unit(main, width) + sum(unit(k, each) for k in kickers)
    return Move(kind, main, 1, cards, cards)


SINGLES = tuple(_plain(Kind.SINGLE, s, 1) for s in range(RED + 1))
PAIRS = tuple(_plain(Kind.PAIR, s, 2) for s in range(TWO + 1))
TRIOS = tuple(_plain(Kind.TRIO, s, 3) for s in range(TWO + 1))
BOMBS = tuple(_plain(Kind.BOMB, s, 4) for s in range(TWO + 1))
ROCKET = Move(Kind.ROCKET, RED, 1, _JOKERS, _JOKERS)
_TRIO_SINGLE = tuple(
    tuple(_with_kickers(Kind.TRIO_SINGLE, t, 3, (k,), 1) for k in range(RED + 1))
    for t in range(TWO + 1)
)
_TRIO_PAIR = tuple(
    tuple(_with_kickers(Kind.TRIO_PAIR, t, 3, (k,), 2) for k in range(TWO + 1))
    for t in range(TWO + 1)
)


def _runs(slots: tuple[int, ...], shortest: int) -> Iterator[tuple[int, int]]:
    """(low, high) of every run of consecutive ``slots`` ≤ A, ``shortest`` or more long."""
    present = set(slots)
    for low in slots:
        high = low
        while high + 1 in present and high + 1 <= ACE:
            high += 1
            if high - low + 1 >= shortest:
                yield low, high


def _chains_of(kind: Kind, width: int, slots: tuple[int, ...]) -> tuple[Move, ...]:
    moves = []
    for low, high in _runs(slots, MIN_CHAIN[kind]):
        cards = sum(unit(s, width) for s in range(low, high + 1))
        moves.append(Move(kind, high, high - low + 1, cards, cards))
    return tuple(moves)


class _Tables:
    """Every mask-determined list of moves, built once on first use (about 0.2 s)."""

    def __init__(self) -> None:
        self.slots: dict[int, tuple[int, ...]] = {}
        """Sparse mask of slots 3..R → those slots."""
        self.singles: dict[int, tuple[Move, ...]] = {}
        self.pairs: dict[int, tuple[Move, ...]] = {}
        self.trios: dict[int, tuple[Move, ...]] = {}
        self.bombs: dict[int, tuple[Move, ...]] = {}
        self.chains: dict[int, tuple[Move, ...]] = {}
        self.pair_chains: dict[int, tuple[Move, ...]] = {}
        self.trio_chains: dict[int, tuple[Move, ...]] = {}
        for compact in range(1 << (RED + 1)):
            slots = tuple(i for i in range(RED + 1) if compact >> i & 1)
            mask = sum(8 << (SLOT_BITS * i) for i in slots)
            self.slots[mask] = slots
            self.singles[mask] = tuple(SINGLES[s] for s in slots)
            if slots and slots[-1] > TWO:
                continue
            self.pairs[mask] = tuple(PAIRS[s] for s in slots)
            self.trios[mask] = tuple(TRIOS[s] for s in slots)
            self.bombs[mask] = tuple(BOMBS[s] for s in slots)
            if slots and slots[-1] > ACE:
                continue
            self.chains[mask] = _chains_of(Kind.CHAIN, 1, slots)
            self.pair_chains[mask] = _chains_of(Kind.PAIR_CHAIN, 2, slots)
            self.trio_chains[mask] = _chains_of(Kind.TRIO_CHAIN, 3, slots)
        self.four_singles = tuple(
            {
                (a, b): _with_kickers(Kind.FOUR_TWO_SINGLES, f, 4, (a, b), 1)
                for a in range(RED + 1)
                for b in range(a, RED + 1)
                if f not in (a, b)
            }
            for f in range(TWO + 1)
        )
        self.plane_two_singles = tuple(
            {
                (a, b): Move(Kind.PLANE_SINGLES, low + 1, 2, c := body + unit(a) + unit(b), c)
                for a in range(RED + 1)
                for b in range(a, RED + 1)
                if a not in (low, low + 1) and b not in (low, low + 1)
            }
            for low in range(ACE)
            for body in (unit(low, 3) + unit(low + 1, 3),)
        )
        """Airplanes of two trios (lowest ``low``) with two single wings (a ≤ b)."""
        self.plane_two_pairs = tuple(
            {
                (a, b): Move(Kind.PLANE_PAIRS, low + 1, 2, c := body + unit(a, 2) + unit(b, 2), c)
                for a in range(TWO + 1)
                for b in range(a + 1, TWO + 1)
                if a not in (low, low + 1) and b not in (low, low + 1)
            }
            for low in range(ACE)
            for body in (unit(low, 3) + unit(low + 1, 3),)
        )
        """Airplanes of two trios (lowest ``low``) with two paired wings (a < b)."""
        self.four_pairs = tuple(
            {
                (a, b): _with_kickers(Kind.FOUR_TWO_PAIRS, f, 4, (a, b), 2)
                for a in range(TWO + 1)
                for b in range(a + 1, TWO + 1)
                if f not in (a, b)
            }
            for f in range(TWO + 1)
        )


_TABLES: list[_Tables] = []


def tables() -> _Tables:
    """The move tables, built on the first call."""
    if not _TABLES:
        _TABLES.append(_Tables())
    return _TABLES[0]


def _partitions(total: int, largest: int = 4) -> list[tuple[int, ...]]:
    """Ways to write ``total`` as parts of at most ``largest``, parts descending."""
    if total == 0:
        return [()]
    return [
        (part, *rest)
        for part in range(min(total, largest), 0, -1)
        for rest in _partitions(total - part, part)
    ]


_PARTITIONS = tuple(_partitions(k) for k in range(6))


def _wing_sets(t: _Tables, masks: tuple[int, ...], size: int, rocket: bool) -> list[int]:
    """Every multiset of ``size`` cards drawn from a hand given by its ``at_least`` masks.

    ``masks[k - 1]`` is the mask of slots holding ``k``+ cards.  For each way to split
    ``size`` into parts (2 + 1, …) every part gets its own slot; equal parts take slots in
    increasing order so that no multiset is produced twice.  Multisets are packed; both
    jokers together are left out unless ``rocket``.
    """
    found: list[int] = []

    def assign(parts: tuple[int, ...], used: int, acc: int, after: int) -> None:
        if not parts:
            found.append(acc)
            return
        part, rest = parts[0], parts[1:]
        same_next = bool(rest) and rest[0] == part
        for slot in t.slots[masks[part - 1] & ~used]:
            if slot > after:
                bit = 8 << (SLOT_BITS * slot)
                assign(rest, used | bit, acc + unit(slot, part), slot if same_next else -1)

    for parts in _PARTITIONS[size]:
        assign(parts, 0, 0, -1)
    if not rocket:
        found = [kick for kick in found if kick & _JOKERS != _JOKERS]
    return found


def _trio_singles(t: _Tables, g3: int, g1: int) -> list[Move]:
    kickers = t.slots[g1]
    return [_TRIO_SINGLE[m][k] for m in t.slots[g3] for k in kickers if k != m]


def _trio_pairs(t: _Tables, g3: int, g2: int) -> list[Move]:
    kickers = t.slots[g2]
    return [_TRIO_PAIR[m][k] for m in t.slots[g3] for k in kickers if k != m]


def _two_singles(
    table: dict[tuple[int, int], Move], ones: list[int], twos: list[int], rocket: bool
) -> list[Move]:
    """Moves of ``table`` for every two kickers: two ranks of ``ones`` or one of ``twos``."""
    moves = [table[pair] for pair in combinations(ones, 2)]
    if not rocket and ones[-2:] == [BLACK, RED]:
        moves.pop()  # (B, R) is the last pair of the combinations
    moves += [table[k, k] for k in twos]
    return moves


def _four_two(t: _Tables, g4: int, g1: int, g2: int, rocket: bool) -> list[Move]:
    moves: list[Move] = []
    for f in t.slots[g4]:
        ones = [k for k in t.slots[g1] if k != f]
        twos = [k for k in t.slots[g2] if k != f]
        moves += _two_singles(t.four_singles[f], ones, twos, rocket)
        pairs = t.four_pairs[f]
        moves += [pairs[pair] for pair in combinations(twos, 2)]
    return moves


_PLANE_MOVES: dict[tuple[Kind, int, int, int], Move] = {}


def _plane(kind: Kind, high: int, units: int, cards: int) -> Move:
    """The airplane move, interned (airplanes recur across hands)."""
    key = (kind, high, units, cards)
    move = _PLANE_MOVES.get(key)
    if move is None:
        if len(_PLANE_MOVES) >= CACHE_LIMIT:
            _PLANE_MOVES.clear()
        move = _PLANE_MOVES[key] = Move(kind, high, units, cards, cards)
    return move


def _planes(t: _Tables, hand: int, g3: int, rules: Rules) -> list[Move]:
    """Every airplane (with single or paired wings, as ``rules`` allow) of a natural hand."""
    total = size(hand)
    masks = tuple(at_least(hand, k) & _NATURAL_BITS for k in (1, 2, 3, 4))
    moves: list[Move] = []
    for low, high in _runs(t.slots[g3 & _CHAIN_SLOTS], 2):
        units = high - low + 1
        chain = sum(8 << (SLOT_BITS * s) for s in range(low, high + 1))
        body = sum(unit(s, 3) for s in range(low, high + 1))
        twos = list(t.slots[masks[1] & ~chain])
        if units == 2:
            if rules.plane_singles:
                ones = list(t.slots[masks[0] & ~chain])
                table = t.plane_two_singles[low]
                moves += _two_singles(table, ones, twos, rules.rocket_as_kickers)
            pairs = t.plane_two_pairs[low]
            moves += [pairs[pair] for pair in combinations(twos, 2)]
            continue
        if rules.plane_singles and 4 * units <= total:
            outside = tuple(m & ~chain for m in masks)
            for kick in _wing_sets(t, outside, units, rules.rocket_as_kickers):
                moves.append(_plane(Kind.PLANE_SINGLES, high, units, body + kick))
        for chosen in combinations(twos, units):
            cards = body + sum(unit(s, 2) for s in chosen)
            moves.append(_plane(Kind.PLANE_PAIRS, high, units, cards))
    return moves


def _has_trio_chain(g3: int) -> bool:
    return bool(g3 & (g3 >> SLOT_BITS) & _CHAIN_SLOTS)


def lead_moves(hand: int, rules: Rules) -> list[Move]:
    """Every combination a natural ``hand`` may lead under ``rules`` (no pass)."""
    t = _TABLES[0] if _TABLES else tables()
    g1 = (hand + _ADD1) & _NATURAL_BITS
    g2 = (hand + _ADD2) & HIGH_BITS
    moves = [*t.singles[g1], *t.pairs[g2], *t.chains[g1 & _CHAIN_SLOTS]]
    if not g2:
        return _with_rocket(hand, moves)
    moves += t.pair_chains[g2 & _CHAIN_SLOTS]
    g3 = (hand + _ADD3) & HIGH_BITS
    if not g3:
        return _with_rocket(hand, moves)
    moves += t.trios[g3]
    moves += _trio_pairs(t, g3, g2)
    if rules.trio_single:
        moves += _trio_singles(t, g3, g1)
    if _has_trio_chain(g3):
        moves += t.trio_chains[g3 & _CHAIN_SLOTS]
        moves += _planes(t, hand, g3, rules)
    g4 = (hand + _ADD4) & HIGH_BITS
    if g4:
        if rules.four_two:
            moves += _four_two(t, g4, g1, g2, rules.rocket_as_kickers)
        moves += t.bombs[g4]
    return _with_rocket(hand, moves)


def _with_rocket(hand: int, moves: list[Move]) -> list[Move]:
    if hand & _JOKERS == _JOKERS:
        moves.append(ROCKET)
    return moves


_ABOVE = tuple(sum(8 << (SLOT_BITS * s) for s in range(low + 1, 16)) for low in range(-1, 16))
"""``_ABOVE[r + 1]``: the mask bits of every slot above slot ``r`` (``r`` from −1)."""

Answers = Callable[[_Tables, int, Rules, Move], Sequence[Move]]
"""The plays of a natural hand that beat an ordinary ``previous`` of the same kind."""


def _of_length(moves: Sequence[Move], length: int) -> list[Move]:
    return [m for m in moves if m.length == length]


def _singles_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    return t.singles[(hand + _ADD1) & _NATURAL_BITS & _ABOVE[previous.main + 1]]


def _pairs_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    return t.pairs[(hand + _ADD2) & _ABOVE[previous.main + 1]]


def _trios_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    return t.trios[(hand + _ADD3) & _ABOVE[previous.main + 1]]


def _chain_floor(previous: Move) -> int:
    """Mask of the slots above the lowest rank of ``previous``'s chain (answers start there)."""
    return _CHAIN_SLOTS & _ABOVE[previous.main - previous.length + 2]


def _chains_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    return _of_length(t.chains[(hand + _ADD1) & _chain_floor(previous)], previous.length)


def _pair_chains_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    return _of_length(t.pair_chains[(hand + _ADD2) & _chain_floor(previous)], previous.length)


def _trio_chains_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    return _of_length(t.trio_chains[(hand + _ADD3) & _chain_floor(previous)], previous.length)


def _trio_singles_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    g3 = (hand + _ADD3) & _ABOVE[previous.main + 1]
    if not g3 or not rules.trio_single:
        return ()
    return _trio_singles(t, g3, (hand + _ADD1) & _NATURAL_BITS)


def _trio_pairs_above(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
    g3 = (hand + _ADD3) & _ABOVE[previous.main + 1]
    return _trio_pairs(t, g3, (hand + _ADD2) & HIGH_BITS) if g3 else ()


def _planes_above(kind: Kind) -> Answers:
    def planes(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
        g3 = (hand + _ADD3) & _chain_floor(previous)
        if not _has_trio_chain(g3) or not rules.allows(kind):
            return ()
        found = _planes(t, hand, g3, rules)
        return [m for m in found if m.kind is kind and m.length == previous.length]

    return planes


def _four_two_above(kind: Kind) -> Answers:
    def four_two(t: _Tables, hand: int, rules: Rules, previous: Move) -> Sequence[Move]:
        g4 = (hand + _ADD4) & _ABOVE[previous.main + 1]
        if not g4 or not rules.four_two:
            return ()
        g1 = (hand + _ADD1) & _NATURAL_BITS
        found = _four_two(t, g4, g1, (hand + _ADD2) & HIGH_BITS, rules.rocket_as_kickers)
        return [m for m in found if m.kind is kind]

    return four_two


_ANSWERS: dict[Kind, Answers] = {
    Kind.SINGLE: _singles_above,
    Kind.PAIR: _pairs_above,
    Kind.TRIO: _trios_above,
    Kind.CHAIN: _chains_above,
    Kind.PAIR_CHAIN: _pair_chains_above,
    Kind.TRIO_CHAIN: _trio_chains_above,
    Kind.TRIO_SINGLE: _trio_singles_above,
    Kind.TRIO_PAIR: _trio_pairs_above,
    Kind.PLANE_SINGLES: _planes_above(Kind.PLANE_SINGLES),
    Kind.PLANE_PAIRS: _planes_above(Kind.PLANE_PAIRS),
    Kind.FOUR_TWO_SINGLES: _four_two_above(Kind.FOUR_TWO_SINGLES),
    Kind.FOUR_TWO_PAIRS: _four_two_above(Kind.FOUR_TWO_PAIRS),
}
"""For each ordinary kind: the same-kind plays that beat a given one.  Each builds only
what can beat it: the masks are cut below the table's rank first."""


def follow_moves(hand: int, previous: Move, rules: Rules) -> list[Move]:
    """Every answer of a natural ``hand`` to ``previous``: the pass, then the plays that beat it."""
    t = _TABLES[0] if _TABLES else tables()
    kind = previous.kind
    moves = [PASS]
    floor = -1  # four-card bombs above this slot beat ``previous``
    answers = _ANSWERS.get(kind)
    if answers is not None:
        moves += answers(t, hand, rules, previous)
    elif kind is Kind.BOMB:
        floor = previous.main
    else:  # the rocket and the five-card bomb: no four-card bomb beats them
        floor = TWO
    g4 = (hand + _ADD4) & _ABOVE[floor + 1]
    if g4:
        moves += t.bombs[g4]
    if hand & _JOKERS == _JOKERS and kind is not Kind.ROCKET:
        moves.append(ROCKET)
    return moves
