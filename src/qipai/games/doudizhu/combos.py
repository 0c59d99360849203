"""Dou Dizhu combinations 牌型: the packed-count representation, moves, and comparison.

Representation (as in OpenSpiel, packed for speed): a hand or a move is a *rank-count
vector* over 16 slots — ranks ``3 … A 2`` (0-12), ``B`` (13), ``R`` (14) and the
wildcard ``W`` (15) — packed into one int, four bits a slot.  Suits never matter.

A :class:`Move` names its :class:`Kind`, the top rank of its main part (``main``), the
number of units of its chain (``length``, 1 for non-chains), the physical cards it uses
(``cards``) and the natural ranks they stand for (``natural``; equal to ``cards`` unless
a wildcard or a wild joker is used, as in ``777W/7777``).

>>> [str(m) for m in readings("333444555666")]
['333444555666', '333444555666', '333444555666']
>>> [m.kind.name.lower() for m in readings("333444555666")]
['trio_chain', 'plane_singles', 'plane_singles']
>>> parse_move("777W/7777").kind
<Kind.BOMB: 13>
>>> beats(parse_move("7777"), parse_move("BR"))
False
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from qipai.cards import DOUDIZHU_RANKS, SUITS, WILDCARD, Card
from qipai.errors import InvalidActionError

RANK_CHARS = DOUDIZHU_RANKS + WILDCARD
"""Slot characters: ``3456789TJQKA2BRW``."""
SLOT_BITS = 4
"""Bits per rank slot in a packed count vector."""
TWO, BLACK, RED, WILD = 12, 13, 14, 15
"""Slot indices of the 2, the black joker, the red joker and the wildcard."""
ACE = 11
"""Slot index of the ace, the highest rank a chain may reach."""
SLOT_MASK = 0xF
HIGH_BITS = sum(8 << (SLOT_BITS * i) for i in range(16))
"""Bit 3 of every slot: set by :func:`at_least` where the slot's count reaches k."""
AT_LEAST_ADD = tuple(sum((8 - k) << (SLOT_BITS * i) for i in range(16)) for k in range(5))
"""``AT_LEAST_ADD[k]``: added to a packed vector, sets bit 3 of the slots holding ``k``+."""
_INDEX = {ch: i for i, ch in enumerate(RANK_CHARS)}


def unit(slot: int, count: int = 1) -> int:
    """The packed vector holding ``count`` cards of ``slot``."""
    return count << (SLOT_BITS * slot)


def count_of(packed: int, slot: int) -> int:
    """How many cards of ``slot`` the packed vector holds."""
    return (packed >> (SLOT_BITS * slot)) & SLOT_MASK


def counts(packed: int) -> list[int]:
    """The 16 slot counts of a packed vector."""
    return [(packed >> (SLOT_BITS * i)) & SLOT_MASK for i in range(16)]


def pack(slot_counts: list[int] | tuple[int, ...]) -> int:
    """Pack a list of slot counts (the inverse of :func:`counts`)."""
    return sum(c << (SLOT_BITS * i) for i, c in enumerate(slot_counts))


def at_least(packed: int, k: int) -> int:
    """A sparse mask with bit ``4*i+3`` set for every slot ``i`` holding ``k``+ cards (1-4)."""
    return (packed + AT_LEAST_ADD[k]) & HIGH_BITS


_NIBBLES = 0x0F0F_0F0F_0F0F_0F0F
_BYTES = 0x0101_0101_0101_0101


def size(packed: int) -> int:
    """Number of cards in a packed vector (its slots summed, without a loop)."""
    pairs = (packed & _NIBBLES) + ((packed >> SLOT_BITS) & _NIBBLES)  # 8 bytes, each < 16
    return ((pairs * _BYTES) >> 56) & 0xFF


def contains(hand: int, part: int) -> bool:
    """Whether ``hand`` holds every card of ``part`` (slot counts never exceed 7)."""
    return ((hand | HIGH_BITS) - part) & HIGH_BITS == HIGH_BITS


_SUIT_ORDER = {suit: i for i, suit in enumerate(SUITS)}


def card_slot(card: Card) -> int:
    """The packed-vector slot of a physical Dou Dizhu card."""
    return _INDEX[card.rank]


def sort_key(card: Card) -> tuple[int, int]:
    """Order cards by rank (``3`` … ``R``, ``W``), then suit (♠ ♥ ♣ ♦)."""
    return _INDEX[card.rank], _SUIT_ORDER[card.suit] if card.suit else 0


def pack_cards(cards: Iterable[Card]) -> int:
    """The packed rank-count vector of physical cards."""
    return sum(unit(_INDEX[card.rank]) for card in cards)


def to_text(packed: int) -> str:
    """Notation of a packed vector, ranks low to high (``""`` for empty)."""
    return "".join(RANK_CHARS[i] * count_of(packed, i) for i in range(16))


_PARSE = {
    **{ch: unit(i) for i, ch in enumerate(RANK_CHARS)},
    **{ch.lower(): unit(i) for i, ch in enumerate(RANK_CHARS) if ch.isalpha()},
}
"""Each rank character of the notation, in either case → its packed unit."""


def from_text(text: str) -> int:
    """Packed vector of a rank string such as ``"33445W"`` (spaces ignored).

    A table look-up per character, summed (in machine words: every unit is under 2**63).
    The sum checks itself: a count over 7 sets bit 3 of its slot, and a count over 15,
    carried into the next slot, leaves fewer cards than characters.  Text with spaces or
    a fault takes the character-at-a-time path, which says what is wrong.

    :raises InvalidActionError: ``bad_cards`` on an unknown character or over 7 of a slot.
    """
    try:
        packed = sum(map(_PARSE.__getitem__, text))
    except KeyError:
        return _from_text_checked(text)
    pairs = (packed & _NIBBLES) + ((packed >> SLOT_BITS) & _NIBBLES)  # as in size()
    if packed & HIGH_BITS or ((pairs * _BYTES) >> 56) & 0xFF != len(text):
        return _from_text_checked(text)
    return packed


def _from_text_checked(text: str) -> int:
    """:func:`from_text`, a character at a time, raising on the first fault."""
    packed = 0
    for ch in text:
        if ch.isspace():
            continue
        slot = _INDEX.get(ch.upper() if ch in "tjqkabrw" else ch)
        if slot is None:
            raise InvalidActionError("bad_cards", f"not a Dou Dizhu rank: {ch!r}")
        packed += unit(slot)
        if count_of(packed, slot) > 7:
            raise InvalidActionError("bad_cards", f"too many cards of rank {ch}")
    return packed


class Kind(enum.IntEnum):
    """The combination types; ``name.lower()`` is the notation's name."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    CHAIN = 6
    PAIR_CHAIN = 7
    TRIO_CHAIN = 8
    PLANE_SINGLES = 9
    PLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    WILD_BOMB = 14
    ROCKET = 15

    __hash__ = int.__hash__  # Enum hashes its name in Python code: moves hash their kind often

    @property
    def label(self) -> str:
        """The notation's name, e.g. ``plane_singles``."""
        return self.name.lower()

    @property
    def is_bomb(self) -> bool:
        """Bombs, the five-card 财神 bomb and the rocket beat every ordinary combination."""
        return self >= _BOMB_LEVEL


_BOMB_LEVEL = int(Kind.BOMB)
"""The first bomb kind, as a plain int (looking members up on an enum class is slow)."""

CHINESE = {
    Kind.PASS: "不出",
    Kind.SINGLE: "单牌",
    Kind.PAIR: "对牌",
    Kind.TRIO: "三张",
    Kind.TRIO_SINGLE: "三带一",
    Kind.TRIO_PAIR: "三带一对",
    Kind.CHAIN: "单顺",
    Kind.PAIR_CHAIN: "双顺",
    Kind.TRIO_CHAIN: "三顺",
    Kind.PLANE_SINGLES: "飞机带翅膀",
    Kind.PLANE_PAIRS: "飞机带对翅膀",
    Kind.FOUR_TWO_SINGLES: "四带二",
    Kind.FOUR_TWO_PAIRS: "四带两对",
    Kind.BOMB: "炸弹",
    Kind.WILD_BOMB: "财神炸弹",
    Kind.ROCKET: "火箭",
}
"""Chinese name of each kind."""

MIN_CHAIN = {Kind.CHAIN: 5, Kind.PAIR_CHAIN: 3, Kind.TRIO_CHAIN: 2}
"""Minimum number of units of each chain kind."""


@dataclass(frozen=True, slots=True)
class Move:
    """One play (or the pass) with its reading.

    Two moves with the same cards but different readings (a trio chain vs an airplane)
    are different moves; ``str`` prints only the cards, in the notation.
    """

    kind: Kind
    """Combination type."""
    main: int
    """Slot of the top rank of the main part (the chain's top, the trio, the four); −1 for pass."""
    length: int
    """Units in the main chain (chain kinds and airplanes); 1 otherwise, 0 for pass."""
    cards: int
    """Packed physical cards played (``W`` and jokers as themselves)."""
    natural: int
    """Packed ranks the cards stand for; equals ``cards`` unless wild cards are used."""

    def __str__(self) -> str:
        if self.kind is Kind.PASS:
            return "pass"
        text = to_text(self.cards)
        if self.natural != self.cards:
            text += "/" + to_text(self.natural)
        return text

    def wire_text(self) -> str:
        """The move as its ``play`` action writes it: the cards, and the reading when the
        cards have several (``"333444555666 plane_singles:6"``).  The hall's JSON writes a
        move so (:func:`qipai.hall.wire.to_json`)."""
        text = str(self)
        if not self.is_pass and len(readings(text)) > 1:
            text += f" {self.kind.label}:{RANK_CHARS[self.main]}"
        return text

    @property
    def is_pass(self) -> bool:
        """Whether this is the pass 不出."""
        return self.kind is Kind.PASS

    @property
    def size(self) -> int:
        """Number of cards played."""
        return size(self.cards)

    @property
    def uses_wild(self) -> bool:
        """Whether some card stands for another rank."""
        return self.natural != self.cards

    @property
    def describe(self) -> str:
        """``"333444555666 plane_singles(top 5, 3 units)"``: the move with its reading."""
        if self.kind is Kind.PASS:
            return "pass"
        return f"{self} {self.kind.label}(top {RANK_CHARS[self.main]}, {self.length} units)"


PASS = Move(Kind.PASS, -1, 0, 0, 0)
"""The pass 不出."""


def beats(move: Move, previous: Move) -> bool:
    """Whether ``move`` may be played on ``previous`` (``previous`` not a pass).

    The rocket beats everything; a five-card 财神 bomb beats four-card bombs; bombs of the
    same level compare by rank; ordinary combinations need the same kind, the same
    length and a strictly higher main rank.  Kickers never count; ties never beat.
    """
    if move.kind.is_bomb or previous.kind.is_bomb:
        if move.kind != previous.kind:
            return move.kind > previous.kind
        return move.kind is not Kind.ROCKET and move.main > previous.main
    return (
        move.kind == previous.kind
        and move.length == previous.length
        and move.size == previous.size
        and move.main > previous.main
    )


Reading = tuple[Kind, int, int]
"""A reading without its cards: (kind, main, length)."""


def natural_readings(natural: int, *, cards: int | None = None) -> list[Move]:
    """Every reading of a set of natural ranks, whatever the rule set.

    Rule-set restrictions (kinds a preset lacks, jokers attached together) are applied
    by the move generator, not here.  ``cards`` defaults to ``natural``.
    """
    played = natural if cards is None else cards
    return [Move(kind, main, length, played, natural) for kind, main, length in _readings(natural)]


def _readings(natural: int) -> list[Reading]:
    c = counts(natural)
    n = sum(c)
    if n == 0:
        return [(Kind.PASS, -1, 0)]
    ranks = [i for i in range(16) if c[i]]
    if c[WILD]:
        return []
    if n == 2 and c[BLACK] and c[RED]:
        return [(Kind.ROCKET, RED, 1)]
    if len(ranks) == 1:
        kind = _SAME_RANK.get(n)
        return [(kind, ranks[0], 1)] if kind and (n == 1 or ranks[0] <= TWO) else []
    return [*_four_with_two(c, n), *_trio_with(c, n, ranks), *_chains(c, ranks), *_planes(c, n)]


_SAME_RANK = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIO, 4: Kind.BOMB, 5: Kind.WILD_BOMB}


def _four_with_two(c: list[int], n: int) -> list[Reading]:
    found: list[Reading] = []
    for f in range(TWO + 1):
        if c[f] != 4:
            continue
        if n == 6:
            found.append((Kind.FOUR_TWO_SINGLES, f, 1))
        others = [r for r in range(15) if r != f and c[r]]
        if n == 8 and len(others) == 2 and all(c[r] == 2 for r in others):
            found.append((Kind.FOUR_TWO_PAIRS, f, 1))
    return found


def _trio_with(c: list[int], n: int, ranks: list[int]) -> list[Reading]:
    if len(ranks) != 2:
        return []
    found: list[Reading] = []
    for t, other in ((ranks[0], ranks[1]), (ranks[1], ranks[0])):
        if c[t] == 3 and n == 4:
            found.append((Kind.TRIO_SINGLE, t, 1))
        if c[t] == 3 and n == 5 and c[other] == 2:
            found.append((Kind.TRIO_PAIR, t, 1))
    return found


def _chains(c: list[int], ranks: list[int]) -> list[Reading]:
    width = c[ranks[0]]
    if ranks[-1] > ACE or any(c[r] != width for r in ranks):
        return []
    if ranks[-1] - ranks[0] + 1 != len(ranks):
        return []
    kind = {1: Kind.CHAIN, 2: Kind.PAIR_CHAIN, 3: Kind.TRIO_CHAIN}.get(width)
    if kind is None or len(ranks) < MIN_CHAIN[kind]:
        return []
    return [(kind, ranks[-1], len(ranks))]


def _planes(c: list[int], n: int) -> list[Reading]:
    found: list[Reading] = []
    for per_unit, kind in ((4, Kind.PLANE_SINGLES), (5, Kind.PLANE_PAIRS)):
        units = n // per_unit
        if units < 2 or units * per_unit != n:
            continue
        for low in range(ACE - units + 2):
            chain = range(low, low + units)
            if any(c[r] != 3 for r in chain):
                continue
            wings = [r for r in range(15) if r not in chain and c[r]]
            if kind is Kind.PLANE_PAIRS and (len(wings) != units or any(c[r] != 2 for r in wings)):
                continue
            found.append((kind, low + units - 1, units))
    return found


def readings(text: str) -> list[Move]:
    """Every reading of a move written in the notation (``"777W/7777"`` included).

    The result is empty when the cards form no combination.  ``""`` and ``"pass"``
    read as the pass.

    :raises InvalidActionError: ``bad_cards`` on malformed text.
    """
    text = text.strip()
    if text in ("", "pass"):
        return [PASS]
    played_text, _, natural_text = text.partition("/")
    cards = from_text(played_text)
    if not natural_text:
        return natural_readings(cards)
    natural = from_text(natural_text)
    if size(natural) != size(cards) or not can_stand_for(cards, natural):
        raise InvalidActionError(
            "bad_cards", f"{text!r}: the cards cannot stand for the ranks after the slash"
        )
    return natural_readings(natural, cards=cards)


def can_stand_for(cards: int, natural: int) -> bool:
    """Whether ``cards`` (as many as ``natural``) can stand for ``natural``.

    Each card of rank 3..2 stands for itself, a joker for itself or a rank 3..2, ``W``
    for a rank 3..2; nothing stands for ``W``.
    """
    if count_of(natural, WILD):
        return False
    jokers_kept = all(count_of(natural, j) <= count_of(cards, j) for j in (BLACK, RED))
    return jokers_kept and all(count_of(natural, s) >= count_of(cards, s) for s in range(TWO + 1))


def parse_move(text: str) -> Move:
    """The move written ``text``; an ambiguous one gets its preferred reading.

    The preferred reading is the first of :func:`readings`: a plain kind (chain, bomb)
    before a kicker kind, and among airplanes the lowest chain.

    :raises InvalidActionError: ``bad_cards`` if malformed, ``not_a_combination`` if the
        cards form no combination.
    """
    found = readings(text)
    if not found:
        raise InvalidActionError("not_a_combination", f"{text!r} is not a combination")
    return found[0]
