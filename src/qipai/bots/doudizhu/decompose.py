"""Hand decomposition 拆牌: the best split of a hand into combinations, and its value.

A hand is worth what its best split is worth: every combination has a *score* (higher
ranks score more, bombs and the rocket most) and costs one *turn* (:data:`TURN_COST`), so
the best split has few combinations, each as high as possible.  The strong player
(:mod:`qipai.bots.doudizhu.strong`) judges a play by the value of the hand it leaves.

>>> from qipai.games.doudizhu.combos import from_text
>>> split(from_text("33445566789TJQKA22BR"))
['33445566', '789TJQKA', '22', 'BR']
>>> value(from_text("3456789")) > value(from_text("3456799"))
True
>>> turns(from_text("333444555666789T"))
1

The search takes the lowest rank first and tries every way it can leave the hand: alone
or as a pair, trio or bomb, as the start of a chain, as a trio's kicker or a plane's
wing.  Four-with-two is left out (it is played when it is legal and best, but never
counted as part of a plan).  Results are memoised by the packed hand.  The 财神 ``W``
counts as the rank that makes the hand worth most.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from qipai.games.doudizhu.combos import ACE, BLACK, RED, TWO, WILD, count_of, to_text, unit

TURN_COST = 7
"""What one more combination in the split costs, in score points."""
BOMB_SCORE = 10
"""A four-card bomb's score (plus a third of its rank)."""
ROCKET_SCORE = 12
"""The rocket's score."""
CHAIN_BONUS = 1
"""Added to a chain's score (its top rank's score) for shedding many cards at once."""


@dataclass(frozen=True, slots=True)
class Shapes:
    """Which kicker shapes a rule set allows (zhengtu allows no single kickers)."""

    trio_single: bool = True
    """三带一 and planes with single wings."""
    trio_pair: bool = True
    """三带一对 and planes with pair wings."""


FULL = Shapes()
"""Every shape (the presets but zhengtu)."""


# --- memos -------------------------------------------------------------------------------
# Plain dicts keyed by the packed hand (one per kicker shape), emptied when full: ints and
# tuples of ints only, which the garbage collector stops tracking, so that a big memo
# costs no collection pauses (functools.lru_cache keeps a tracked list per entry).

MEMO_LIMIT = 1 << 18
"""Entries a memo holds before it is emptied."""
R = TypeVar("R")
_BEST: dict[Shapes, dict[int, tuple[int, int, int]]] = {}
_WILD_BEST: dict[Shapes, dict[int, tuple[int, int, int, int]]] = {}
_SPLITS: dict[Shapes, dict[int, tuple[int, ...]]] = {}


def _memoised(
    memo: dict[Shapes, dict[int, R]], shapes: Shapes, hand: int, compute: Callable[[int, Shapes], R]
) -> R:
    """``compute(hand, shapes)``, remembered."""
    table = memo.get(shapes)
    if table is None:
        table = memo[shapes] = {}
    found = table.get(hand)
    if found is None:
        found = compute(hand, shapes)
        if len(table) >= MEMO_LIMIT:
            table.clear()
        table[hand] = found
    return found


def rank_score(slot: int) -> int:
    """A rank's score: ``3`` is -10, ``A`` 1, ``2`` 2, the jokers 3 and 4."""
    return slot - 10


def value(hand: int, shapes: Shapes = FULL) -> int:
    """The hand's value: its best split's scores less :data:`TURN_COST` a combination."""
    return _best_with_wild(hand, shapes)[0]


def turns(hand: int, shapes: Shapes = FULL) -> int:
    """The number of combinations in the hand's best split."""
    return _best_with_wild(hand, shapes)[1]


def evaluate(hand: int, shapes: Shapes = FULL) -> tuple[int, int]:
    """``(value, turns)`` of the hand's best split."""
    best = _best_with_wild(hand, shapes)
    return best[0], best[1]


def split(hand: int, shapes: Shapes = FULL) -> list[str]:
    """The best split's combinations, as text, longest first."""
    texts = [to_text(part) for part in split_parts(hand, shapes)]
    return sorted(texts, key=lambda text: (-len(text), text))


def split_parts(hand: int, shapes: Shapes = FULL) -> tuple[int, ...]:
    """The best split's combinations, packed (the 财神 as the rank it counts as)."""
    return _memoised(_SPLITS, shapes, hand, _split_parts)


def _split_parts(hand: int, shapes: Shapes) -> tuple[int, ...]:
    hand = _best_with_wild(hand, shapes)[3]
    parts = []
    while hand:
        part = _best(hand, shapes)[2]
        parts.append(part)
        hand -= part
    return tuple(parts)


def _best_with_wild(hand: int, shapes: Shapes) -> tuple[int, int, int, int]:
    """``(value, turns, first combination, the hand with the 财神 as a rank)``."""
    return _memoised(_WILD_BEST, shapes, hand, _best_with_wild_of)


def _best_with_wild_of(hand: int, shapes: Shapes) -> tuple[int, int, int, int]:
    wilds = count_of(hand, WILD)
    if not wilds:
        return (*_best(hand, shapes), hand)
    natural = hand - unit(WILD, wilds)
    options = [
        (*_best(natural + unit(slot, wilds), shapes), natural + unit(slot, wilds))
        for slot in range(TWO + 1)
        if count_of(natural, slot) + wilds <= 4
    ]
    return max(options, key=lambda o: o[:2]) if options else (*_best(natural, shapes), natural)


def _best(hand: int, shapes: Shapes) -> tuple[int, int, int]:
    """``(value, turns, first combination)`` of the best split of a natural hand."""
    return _memoised(_BEST, shapes, hand, _best_of)


def _best_of(hand: int, shapes: Shapes) -> tuple[int, int, int]:
    if not hand:
        return 0, 0, 0
    best = (-(1 << 30), 0, 0)
    for score, part in _options(hand, shapes):
        rest_value, rest_turns, _ = _best(hand - part, shapes)
        option = (score - TURN_COST + rest_value, -(rest_turns + 1), part)
        if option[:2] > best[:2]:
            best = option
    return best[0], -best[1], best[2]


def _options(hand: int, shapes: Shapes) -> list[tuple[int, int]]:
    """Every combination the lowest rank of ``hand`` can leave in: (score, cards)."""
    c = [(hand >> (4 * slot)) & 0xF for slot in range(RED + 1)]
    low = next(slot for slot in range(RED + 1) if c[slot])
    if low >= BLACK:
        if low == BLACK and c[RED]:
            return [(ROCKET_SCORE, unit(BLACK) + unit(RED)), (rank_score(BLACK), unit(BLACK))]
        return [(rank_score(low), unit(low))]
    n = c[low]
    options = [(_group_score(low, n), unit(low, n))]
    if n == 3:
        options += _with_kickers(c, low, shapes)
    if n <= 2:
        options += _as_kicker(c, low, n, shapes)
    if low <= ACE:
        options += _chains(c, low, shapes)
    return options


def _group_score(slot: int, n: int) -> int:
    return BOMB_SCORE + slot // 3 if n == 4 else rank_score(slot)


def _lowest(c: list[int], exactly: int, skip: range, how_many: int) -> list[int]:
    """The lowest ``how_many`` ranks (up to the 2) holding exactly ``exactly`` cards,
    outside ``skip``."""
    found = [s for s in range(TWO + 1) if c[s] == exactly and s not in skip]
    return found[:how_many]


def _with_kickers(c: list[int], trio: int, shapes: Shapes) -> list[tuple[int, int]]:
    """A trio at ``trio`` with the lowest lone single or pair as its kicker."""
    options = []
    span = range(trio, trio + 1)
    if shapes.trio_single:
        options += [(rank_score(trio), unit(trio, 3) + unit(s)) for s in _lowest(c, 1, span, 1)]
    if shapes.trio_pair:
        options += [(rank_score(trio), unit(trio, 3) + unit(s, 2)) for s in _lowest(c, 2, span, 1)]
    return options


def _as_kicker(c: list[int], low: int, n: int, shapes: Shapes) -> list[tuple[int, int]]:
    """The lowest rank's lone single or pair as the kicker of the lowest trio above it."""
    if not (shapes.trio_single if n == 1 else shapes.trio_pair):
        return []
    trios = [s for s in range(low + 1, TWO + 1) if c[s] == 3]
    return [(rank_score(t), unit(t, 3) + unit(low, n)) for t in trios[:1]]


def _chains(c: list[int], low: int, shapes: Shapes) -> list[tuple[int, int]]:
    """Chains, pair chains, trio chains and planes starting at ``low``."""
    options = []
    for width, shortest in ((1, 5), (2, 3), (3, 2)):
        top = low
        cards = 0
        while top <= ACE and c[top] >= width:
            cards += unit(top, width)
            if top - low + 1 >= shortest:
                score = rank_score(top) + CHAIN_BONUS
                options.append((score, cards))
                if width == 3:
                    options += _planes(c, range(low, top + 1), cards, shapes, score)
            top += 1
    return options


def _planes(
    c: list[int], span: range, body: int, shapes: Shapes, score: int
) -> list[tuple[int, int]]:
    """The trio chain over ``span`` with the lowest lone singles or pairs as its wings."""
    units = len(span)
    options = []
    for each, allowed in ((1, shapes.trio_single), (2, shapes.trio_pair)):
        wings = _lowest(c, each, span, units)
        if allowed and len(wings) == units:
            options.append((score, body + sum(unit(s, each) for s in wings)))
    return options
