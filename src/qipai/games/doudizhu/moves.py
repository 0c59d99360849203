"""Legal-move generation for natural hands: one generator per kind, tables built once.

A hand is a packed rank-count vector (:mod:`.combos`).  Each kind's moves depend only on
a few *masks* of the hand — which ranks it holds at least once, twice, three or four
times (:func:`~.combos.at_least`) — so every kind's list is computed once per distinct
mask, once, in :func:`tables`.  Trios with a kicker are read from *split rows*: for each
trio, its moves for every set of kicker ranks, split into the low ranks (3-T) and the high
ones (J-R), so that a hand takes two look-ups per trio instead of one per kicker.
Four-with-two and airplanes of two trios read their two kickers from tables keyed by the
kickers' ranks.  Only the longer airplanes, whose wings depend on the exact counts, are
built per hand (their moves interned by cards, bounded by :data:`CACHE_LIMIT`).

The generator here knows no wildcard (a ``W`` in the hand is ignored); :mod:`.wild` adds
the ``caishen`` readings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
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
    size,
    unit,
)
from qipai.games.doudizhu.rules import Rules

CACHE_LIMIT = 200_000
"""Entries a per-kind cache may hold before it is cleared (bounds memory in long runs)."""

_CHAIN_SLOTS = sum(8 << (SLOT_BITS * i) for i in range(ACE + 1))
_JOKERS = unit(BLACK) | unit(RED)
_JOKERS_BITS = (8 << (SLOT_BITS * BLACK)) | (8 << (SLOT_BITS * RED))
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


def _bits(low: int, high: int, count: int = 0) -> int:
    """``count`` cards of each slot ``low…high`` packed, or their mask bits if ``count`` is 0."""
    return sum(unit(s, count) if count else 8 << (SLOT_BITS * s) for s in range(low, high + 1))


def _chains_of(kind: Kind, width: int, slots: tuple[int, ...]) -> tuple[Move, ...]:
    moves = []
    for low, high in _runs(slots, MIN_CHAIN[kind]):
        cards = sum(unit(s, width) for s in range(low, high + 1))
        moves.append(Move(kind, high, high - low + 1, cards, cards))
    return tuple(moves)


_LOW = sum(8 << (SLOT_BITS * s) for s in range(8))
"""Mask bits of the low slots, ``3`` to ``T``."""
_HIGH = sum(8 << (SLOT_BITS * s) for s in range(8, RED + 1))
"""Mask bits of the high slots, ``J`` to ``R``."""
_LOW_ABOVE = tuple(_LOW & ~((16 << (SLOT_BITS * a)) - 1) for a in range(RED + 1))
"""``_LOW_ABOVE[a]``: the low slots above slot ``a``."""
_HIGH_ABOVE = tuple(_HIGH & ~((16 << (SLOT_BITS * a)) - 1) for a in range(RED + 1))
"""``_HIGH_ABOVE[a]``: the high slots above slot ``a``."""

Row = tuple[dict[int, tuple[Move, ...]], dict[int, tuple[Move, ...]]]
"""The moves of one main rank by kicker ranks: (low kicker mask → moves, high → moves).

``row[0][mask & _LOW] + row[1][mask & _HIGH]`` lists the moves whose kicker slot is in
``mask``, in slot order."""


def _submasks(bits: int) -> Iterator[int]:
    """Every mask made of some of ``bits`` (0 included)."""
    sub = bits
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & bits


def _by_kicker(moves: dict[int, Move], low: int = _LOW, high: int = _HIGH) -> Row:
    """The :data:`Row` of ``moves`` (kicker slot → move), keyed by sub-masks of ``low`` and
    ``high``: the tuple of a mask holds the moves of its slots, in slot order."""
    order = sorted(moves)
    halves = tuple(
        {
            sub: tuple(moves[s] for s in order if sub >> (SLOT_BITS * s + 3) & 1)
            for sub in _submasks(bits)
        }
        for bits in (low, high)
    )
    return halves[0], halves[1]


PairTable = dict[tuple[int, int], Move]
"""Moves with two kickers of different ranks, by the kickers' slots ``(a, b)``, ``a < b``."""


def _select(row: Row, mask: int) -> tuple[Move, ...]:
    return row[0][mask & _LOW] + row[1][mask & _HIGH]


def _pairs_in(table: PairTable, slots: tuple[int, ...]) -> list[Move]:
    """``table[a, b]`` for every two ``slots`` ``a < b``, in order."""
    return list(map(table.__getitem__, combinations(slots, 2)))


@dataclass(frozen=True, slots=True)
class _KickerPairs:
    """Moves with two kickers of one main part, as :data:`Row`\\s (built from a table)."""

    pairs: PairTable
    """Two different kicker ranks ``a < b``."""
    same: Row
    """Both kickers of one rank (``a == b``): by the mask of that rank."""

    @classmethod
    def of(cls, table: dict[tuple[int, int], Move]) -> _KickerPairs:
        same = _by_kicker({a: move for (a, b), move in table.items() if a == b})
        return cls({(a, b): move for (a, b), move in table.items() if a < b}, same)


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
        self.plane_runs: dict[int, tuple[tuple[int, int, int, int, int], ...]] = {
            mask: tuple(
                (low, high, high - low + 1, _bits(low, high), _bits(low, high, 3))
                for low, high in _runs(slots, 2)
            )
            for mask, slots in self.slots.items()
            if not slots or slots[-1] <= ACE
        }
        """Chain mask → (low, high, units, chain mask, the trios' cards) of every run of
        two or more slots: the airplanes' bodies."""
        self.trio_singles = tuple(
            _by_kicker({k: move for k, move in enumerate(_TRIO_SINGLE[t]) if k != t})
            for t in range(TWO + 1)
        )
        """``trio_singles[t]``: the trios of ``t`` with a single, by the kicker's mask."""
        self.trio_pairs = tuple(
            _by_kicker({k: move for k, move in enumerate(_TRIO_PAIR[t]) if k != t})
            for t in range(TWO + 1)
        )
        """``trio_pairs[t]``: the trios of ``t`` with a pair, by the pair's mask."""
        self.four_singles = tuple(
            _KickerPairs.of(
                {
                    (a, b): _with_kickers(Kind.FOUR_TWO_SINGLES, f, 4, (a, b), 1)
                    for a in range(RED + 1)
                    for b in range(a, RED + 1)
                    if f not in (a, b)
                }
            )
            for f in range(TWO + 1)
        )
        """``four_singles[f]``: the fours of ``f`` with two single kickers (a ≤ b)."""
        self.plane_two_singles = tuple(
            _KickerPairs.of(
                {
                    (a, b): Move(Kind.PLANE_SINGLES, low + 1, 2, c := body + unit(a) + unit(b), c)
                    for a in range(RED + 1)
                    for b in range(a, RED + 1)
                    if a not in (low, low + 1) and b not in (low, low + 1)
                }
            )
            for low in range(ACE)
            for body in (unit(low, 3) + unit(low + 1, 3),)
        )
        """Airplanes of two trios (lowest ``low``) with two single wings (a ≤ b)."""
        self.plane_two_pairs = tuple(
            (
                {
                    (a, b): Move(
                        Kind.PLANE_PAIRS, low + 1, 2, c := body + unit(a, 2) + unit(b, 2), c
                    )
                    for a in range(TWO + 1)
                    for b in range(a + 1, TWO + 1)
                    if a not in (low, low + 1) and b not in (low, low + 1)
                }
            )
            for low in range(ACE)
            for body in (unit(low, 3) + unit(low + 1, 3),)
        )
        """Airplanes of two trios (lowest ``low``) with two paired wings (a < b)."""
        self.four_pairs = tuple(
            (
                {
                    (a, b): _with_kickers(Kind.FOUR_TWO_PAIRS, f, 4, (a, b), 2)
                    for a in range(TWO + 1)
                    for b in range(a + 1, TWO + 1)
                    if f not in (a, b)
                }
            )
            for f in range(TWO + 1)
        )
        """``four_pairs[f]``: the fours of ``f`` with two pairs (a < b)."""


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


def _grouped(parts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(3, 1, 1)`` → ``((3, 1), (1, 2))``: each part size with how many times it comes."""
    sizes = sorted(set(parts), reverse=True)
    return tuple((part, parts.count(part)) for part in sizes)


_PARTITIONS = tuple(tuple(_grouped(p) for p in _partitions(k)) for k in range(6))
"""``_PARTITIONS[k]``: the partitions of ``k`` (largest parts first), grouped."""
_UNITS = tuple(tuple(unit(s, part) for s in range(RED + 1)) for part in range(5))
"""``_UNITS[part][slot]``: ``part`` cards of ``slot``, packed."""
_SLOT_BITS = tuple(8 << (SLOT_BITS * s) for s in range(RED + 1))
"""``_SLOT_BITS[slot]``: the mask bit of ``slot``."""


def _wing_sets(t: _Tables, masks: tuple[int, ...], size: int, rocket: bool) -> list[int]:
    """Every multiset of ``size`` cards drawn from a hand given by its ``at_least`` masks.

    ``masks[k - 1]`` is the mask of slots holding ``k``+ cards.  For each way to split
    ``size`` into parts (2 + 1, …) every part gets its own slot; equal parts take slots in
    increasing order (combinations) so that no multiset is produced twice.  Multisets are
    packed; both jokers together are left out unless ``rocket``.
    """
    found: list[int] = []

    def assign(groups: tuple[tuple[int, int], ...], used: int, acc: int) -> None:
        (part, times), rest = groups[0], groups[1:]
        slots = t.slots[masks[part - 1] & ~used]
        units = _UNITS[part]
        if not rest:  # the last group: all in C
            kicks = map(sum, combinations([units[s] for s in slots], times))
            found.extend(map(acc.__add__, kicks))
            return
        for chosen in combinations(slots, times):
            bits = sum(_SLOT_BITS[s] for s in chosen)
            assign(rest, used | bits, acc + sum(units[s] for s in chosen))

    for groups in _PARTITIONS[size]:
        assign(groups, 0, 0)
    if rocket:
        return found
    return [kick for kick in found if kick & _JOKERS != _JOKERS]


def _trios_with(rows: Sequence[Row], slots: Sequence[int], kickers: int) -> list[Move]:
    """The trios of ``slots``, each with every kicker of the ``kickers`` mask: two look-ups
    per trio in its precomputed row (one per half of the mask)."""
    low, high = kickers & _LOW, kickers & _HIGH
    moves: list[Move] = []
    for m in slots:
        row = rows[m]
        moves += row[0][low]
        moves += row[1][high]
    return moves


def _trio_singles(t: _Tables, g3: int, g1: int) -> list[Move]:
    return _trios_with(t.trio_singles, t.slots[g3], g1)


def _trio_pairs(t: _Tables, g3: int, g2: int) -> list[Move]:
    return _trios_with(t.trio_pairs, t.slots[g3], g2)


def _two_singles(t: _Tables, table: _KickerPairs, ones: int, twos: int, rocket: bool) -> list[Move]:
    """Moves of ``table`` for every two kickers: two ranks of ``ones`` or one of ``twos``
    (masks without the main part's ranks)."""
    moves = _pairs_in(table.pairs, t.slots[ones])
    if not rocket and ones & _JOKERS_BITS == _JOKERS_BITS:
        moves.pop()  # (B, R) is the last pair
    moves += _select(table.same, twos)
    return moves


def _four_two(t: _Tables, g4: int, g1: int, g2: int, rocket: bool) -> list[Move]:
    moves: list[Move] = []
    for f in t.slots[g4]:
        others = ~(8 << (SLOT_BITS * f))
        twos = g2 & others
        moves += _two_singles(t, t.four_singles[f], g1 & others, twos, rocket)
        moves += _pairs_in(t.four_pairs[f], t.slots[twos])
    return moves


_PLANE_MOVES: dict[tuple[Kind, int, int], dict[int, Move]] = {}
"""Airplanes interned by (kind, top, units), then cards: they recur across hands."""


def _planes_of(kind: Kind, high: int, units: int, cards: Iterable[int]) -> list[Move]:
    """The airplanes of one reading for each of ``cards``, interned."""
    table = _PLANE_MOVES.get((kind, high, units))
    if table is None or len(table) >= CACHE_LIMIT:
        table = _PLANE_MOVES[kind, high, units] = {}
    known = table.get
    return [known(c) or table.setdefault(c, Move(kind, high, units, c, c)) for c in cards]


def _planes(t: _Tables, hand: int, g3: int, rules: Rules) -> list[Move]:
    """Every airplane (with single or paired wings, as ``rules`` allow) of a natural hand.

    ``g3``: the slots of three or more whose runs make the bodies (cut to the answers'
    floor when following); the wings may be any other cards of ``hand``.
    """
    g1 = (hand + _ADD1) & _NATURAL_BITS
    g2 = (hand + _ADD2) & _NATURAL_BITS
    moves: list[Move] = []
    for low, high, units, chain, body in t.plane_runs[g3 & _CHAIN_SLOTS]:
        twos = g2 & ~chain
        if units == 2:
            if rules.plane_singles:
                table = t.plane_two_singles[low]
                moves += _two_singles(t, table, g1 & ~chain, twos, rules.rocket_as_kickers)
            moves += _pairs_in(t.plane_two_pairs[low], t.slots[twos])
            continue
        if rules.plane_singles and 4 * units <= size(hand):
            g3_all, g4 = (hand + _ADD3) & _NATURAL_BITS, (hand + _ADD4) & _NATURAL_BITS
            outside = (g1 & ~chain, twos, g3_all & ~chain, g4 & ~chain)
            wings = _wing_sets(t, outside, units, rules.rocket_as_kickers)
            moves += _planes_of(Kind.PLANE_SINGLES, high, units, map(body.__add__, wings))
        pairs = _UNITS[2]
        paired = map(sum, combinations([pairs[s] for s in t.slots[twos]], units))
        moves += _planes_of(Kind.PLANE_PAIRS, high, units, map(body.__add__, paired))
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
