"""Showhand 梭哈 hand ranking (``docs/rules/showhand.md``, the 易发 ``yifa``).

Five cards from the 28-card deck ``8 9 T J Q K A`` × four suits, nine categories,
strongest first (the 易发 page's order; ``flush_beats_full_house=True`` swaps the two)::

    straight_flush 同花顺 > four_of_a_kind 铁支 > full_house 葫芦 > flush 同花 > straight 顺子
    > three_of_a_kind 三条 > two_pair 二对 > pair 对子 > high_card 散牌

* Ranks ``A > K > Q > J > T > 9 > 8``; suits ``♠ > ♥ > ♣ > ♦`` (``s > h > c > d``).
* ``8`` and ``A`` do not connect: the straights are ``89TJQ``, ``9TJQK`` and ``TJQKA``.
* Ties, word for word from the page: straight flush, flush and straight: the highest card,
  then its suit; four of a kind, full house, three of a kind: the rank of the four or the
  trio; two pair: high pair, low pair, the single, then the single's suit; pair: the pair,
  the singles high to low, then the suit of the highest single; high card: the five ranks
  high to low, then the suit of the highest card.  Two hands dealt from one deck never tie.
* Partial hands (1-4 up cards, to choose who acts first): the same order restricted to
  what they can make (four of a kind, three of a kind, two pair, pair, high card; no
  straights or flushes), then the same tie-breaks.  **Reading:** a pair or two pair with
  no single (two or four up cards) is settled by the best suit in its (highest) pair.

A strength is an ``int``: ``category << 22``, then five rank nibbles (``8`` is 6 …
``A`` is 12, unused nibbles 0), then two bits of suit (``♦`` 0 … ``♠`` 3).  Hands are
looked up by their 28-bit card mask in tables built by enumeration on first use (whole
hands in a list by a dense index of the mask, partial hands in a dict).

>>> category("AsKsQsJsTs"), category("8h9hTcJdQs"), category("AsAhAcAd8s")
('straight_flush', 'straight', 'four_of_a_kind')
>>> category("AsQsTs9s8s", flush_beats_full_house=True)
'flush'
>>> compare("AsQsTs9s8s", "AhKhJh9h8h")  # flush: highest card, then its suit
1
>>> compare("KsKh8c8dAd", "KcKd8s8hAs")  # two pair: the single's suit
-1
>>> evaluate_partial("AhAd") > evaluate_partial("AcKs") > evaluate_partial("AsQs")
True
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from qipai.cards import Card, Suit
from qipai.errors import InvalidActionError

RANKS = "89TJQKA"
"""The Showhand ranks, low to high."""

HAND_SIZE = 5
"""Cards in a whole Showhand hand."""

CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
"""Category names (the project's notation), weakest first, in the page's order: a
strength's category is ``CATEGORIES[strength >> 22]``."""

CATEGORIES_FLUSH_HIGH: tuple[str, ...] = (
    *CATEGORIES[:5],
    "full_house",
    "flush",
    *CATEGORIES[7:],
)
"""The other order (``flush_beats_full_house=True``), weakest first."""

_SUIT_BITS = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
"""Suits weakest first; bit ``4 × rank + i`` of a card mask is the card of suit ``i``."""

_RANK_BASE = 6
"""A rank's nibble is its index in ``23456789TJQKA``: ``8`` is 6 … ``A`` is 12."""

_BIT: dict[Suit | None, dict[str, int]] = {
    suit: {rank: 1 << (4 * r + s) for r, rank in enumerate(RANKS)}
    for s, suit in enumerate(_SUIT_BITS)
}
"""Card mask bit by suit then rank (two small dict look-ups beat hashing a ``Card``)."""

_BIT_OF_TEXT: dict[str, int] = {
    rank + suit.value: bit
    for suit, by_rank in _BIT.items()
    if suit
    for rank, bit in by_rank.items()
}

_HALF = 14
"""A card mask splits into two halves of 14 bits (ranks 8-J♦J♣ and J♥J♠-A)."""
_LOW_HALF = (1 << _HALF) - 1
_OFF = 1 << 18
"""Added per card of the low half (subtracted per card the high half leaves to it): a
mask of more or fewer than five cards indexes past either end of a table."""

_HIGH_INDEX: list[int | None] = [None] * (2 << _HALF)
"""High half of a mask → its part of the dense index (``None``: not filled yet, or more
than five cards; twice as long so that a negative mask's half finds ``None`` too)."""
_LOW_INDEX: list[int] = []
"""Low half of a mask → its part of the dense index (filled on first use)."""
_FULL: list[int] = []
"""Strength (seed order) of all 98,280 five-card hands by dense index: the index of a
mask is ``_HIGH_INDEX[mask >> 14] + _LOW_INDEX[mask & 0x3FFF]``, the combinatorial rank
of its two halves (a list the size of the deck's hands: 0.8 MB, about 3× faster to read
than a dict keyed by masks).  Filled on first use."""
_FULL_FLUSH_HIGH: list[int] = []
"""The same with ``flush_beats_full_house``; filled on first use."""

_PARTIAL: dict[int, int] = {}
"""Card mask → strength of all 24,157 hands of one to four up cards; filled on first use."""


def category(cards: str, *, flush_beats_full_house: bool = False) -> str:
    """The category name of a five-card hand written in the notation (``"AsKsQsJsTs"``).

    :raises InvalidActionError: ``bad_cards`` unless it is five distinct cards of the deck.
    """
    return category_of(
        evaluate(cards, flush_beats_full_house=flush_beats_full_house),
        flush_beats_full_house=flush_beats_full_house,
    )


def category_of(strength: int, *, flush_beats_full_house: bool = False) -> str:
    """The category name of a strength (of a whole or a partial hand)."""
    order = CATEGORIES_FLUSH_HIGH if flush_beats_full_house else CATEGORIES
    return order[strength >> 22]


def evaluate(cards: str, *, flush_beats_full_house: bool = False) -> int:
    """The strength of a five-card hand: higher is stronger.

    Two hands from one deck never have equal strength; equal strengths (``AAAA9`` and
    ``AAAA8``) are hands the seed does not tell apart.

    :raises InvalidActionError: ``bad_cards`` unless it is five distinct cards of the deck.
    """
    return evaluate_mask(mask_of_text(cards, HAND_SIZE), flush_beats_full_house)


def compare(a: str, b: str, *, flush_beats_full_house: bool = False) -> int:
    """``1`` if hand ``a`` beats hand ``b``, ``-1`` if ``b`` wins, ``0`` if equally strong.

    :raises InvalidActionError: ``bad_cards`` unless each is five distinct cards of the deck.
    """
    strength_a = evaluate(a, flush_beats_full_house=flush_beats_full_house)
    strength_b = evaluate(b, flush_beats_full_house=flush_beats_full_house)
    return (strength_a > strength_b) - (strength_a < strength_b)


def evaluate_partial(cards: str) -> int:
    """The strength of one to four up cards, to decide who acts first (higher acts first).

    Only hands of the same size are meant to be compared.

    :raises InvalidActionError: ``bad_cards`` unless it is 1-4 distinct cards of the deck.
    """
    size = len("".join(cards.split())) // 2
    if not 1 <= size < HAND_SIZE:
        raise InvalidActionError("bad_cards", f"a partial hand has 1-4 cards: {cards!r}")
    return _evaluate_partial(mask_of_text(cards, size), size)


def evaluate_cards(cards: Sequence[Card], *, flush_beats_full_house: bool = False) -> int:
    """:func:`evaluate` on parsed cards.

    :raises InvalidActionError: ``bad_cards`` unless it is five distinct cards of the deck.
    """
    try:  # the hot path: five valid cards and a built table
        a, b, c, d, e = cards
        bit = _BIT
        mask = (
            bit[a.suit][a.rank]
            | bit[b.suit][b.rank]
            | bit[c.suit][c.rank]
            | bit[d.suit][d.rank]
            | bit[e.suit][e.rank]
        )
        return (_FULL_FLUSH_HIGH if flush_beats_full_house else _FULL)[
            _HIGH_INDEX[mask >> _HALF] + _LOW_INDEX[mask & _LOW_HALF]  # type: ignore[operator]
        ]
    except (ValueError, KeyError, IndexError, TypeError):
        if len(cards) != HAND_SIZE:
            raise InvalidActionError("bad_cards", f"a hand has 5 cards, not {len(cards)}") from None
        return evaluate_mask(mask_of(cards), flush_beats_full_house)


def compare_cards(
    a: Sequence[Card], b: Sequence[Card], *, flush_beats_full_house: bool = False
) -> int:
    """:func:`compare` on parsed cards.

    :raises InvalidActionError: ``bad_cards`` unless each is five distinct cards of the deck.
    """
    strength_a = evaluate_cards(a, flush_beats_full_house=flush_beats_full_house)
    strength_b = evaluate_cards(b, flush_beats_full_house=flush_beats_full_house)
    return (strength_a > strength_b) - (strength_a < strength_b)


def evaluate_partial_cards(cards: Sequence[Card]) -> int:
    """:func:`evaluate_partial` on parsed cards.

    :raises InvalidActionError: ``bad_cards`` unless it is 1-4 distinct cards of the deck.
    """
    if not 1 <= len(cards) < HAND_SIZE:
        raise InvalidActionError("bad_cards", f"a partial hand has 1-4 cards, not {len(cards)}")
    return _evaluate_partial(mask_of(cards), len(cards))


def _evaluate_partial(mask: int, size: int) -> int:
    if mask.bit_count() != size:
        raise InvalidActionError("bad_cards", "the same card twice")
    return evaluate_partial_mask(mask)


def category_of_cards(cards: Sequence[Card], *, flush_beats_full_house: bool = False) -> str:
    """The category of five cards, or of the one to four a player has so far (a pair among
    four cards is a ``pair``; a flush or a straight needs five).

    :raises InvalidActionError: ``bad_cards`` unless it is 1-5 distinct cards of the deck.
    """
    if len(cards) < HAND_SIZE:
        return category_of(evaluate_partial_cards(cards))
    strength = evaluate_cards(cards, flush_beats_full_house=flush_beats_full_house)
    return category_of(strength, flush_beats_full_house=flush_beats_full_house)


def mask_of(cards: Sequence[Card]) -> int:
    """The 28-bit mask of some cards.  Duplicates merge: the evaluators, which know the
    expected count, reject the mask then.

    :raises InvalidActionError: ``bad_cards`` for a card outside the 28-card deck.
    """
    mask = 0
    try:
        for card in cards:
            mask |= _BIT[card.suit][card.rank]
    except KeyError:
        raise InvalidActionError("bad_cards", f"not a Showhand card in {cards!r}") from None
    return mask


def mask_of_text(cards: str, size: int) -> int:
    """The 28-bit mask of ``size`` cards written in the notation (``"AsKs"``, ``"As Ks"``).

    :raises InvalidActionError: ``bad_cards`` unless it is ``size`` cards of the deck.
    """
    compact = "".join(cards.split())
    if len(compact) != 2 * size:
        raise InvalidActionError("bad_cards", f"not {size} cards: {cards!r}")
    mask = 0
    try:
        for i in range(0, 2 * size, 2):
            mask |= _BIT_OF_TEXT[compact[i : i + 2]]
    except KeyError:
        raise InvalidActionError("bad_cards", f"not Showhand cards: {cards!r}") from None
    return mask


def evaluate_mask(mask: int, flush_beats_full_house: bool = False) -> int:
    """The strength of the five-card hand whose card mask is ``mask`` (:func:`mask_of`).

    :raises InvalidActionError: ``bad_cards`` unless the mask holds exactly five cards.
    """
    try:
        return (_FULL_FLUSH_HIGH if flush_beats_full_house else _FULL)[
            _HIGH_INDEX[mask >> _HALF] + _LOW_INDEX[mask & _LOW_HALF]  # type: ignore[operator]
        ]
    except (IndexError, TypeError):
        return _fill_full(mask, flush_beats_full_house)


def evaluate_partial_mask(mask: int) -> int:
    """The strength of the one to four up cards whose card mask is ``mask``.

    :raises InvalidActionError: ``bad_cards`` unless the mask holds one to four cards.
    """
    try:
        return _PARTIAL[mask]
    except KeyError:
        return _fill(_PARTIAL, mask)


def _fill_full(mask: int, flush_beats_full_house: bool) -> int:
    """Fill the five-card tables on first use, then look ``mask`` up again.

    :raises InvalidActionError: ``bad_cards`` unless ``mask`` holds exactly five cards.
    """
    if not _FULL:
        _build_full()
    if flush_beats_full_house and not _FULL_FLUSH_HIGH:
        shared: dict[int, int] = {}
        _FULL_FLUSH_HIGH[:] = [_shared(shared, _swap_flush(v)) for v in _FULL]
    if type(mask) is int and 0 <= mask < 1 << 2 * _HALF and mask.bit_count() == HAND_SIZE:
        high = _HIGH_INDEX[mask >> _HALF]
        assert high is not None
        return (_FULL_FLUSH_HIGH if flush_beats_full_house else _FULL)[
            high + _LOW_INDEX[mask & _LOW_HALF]
        ]
    raise InvalidActionError("bad_cards", "not five distinct Showhand cards")


def _build_full() -> None:
    """The dense index of five-card masks and the page-order strengths along it.

    Masks are ranked by how many cards their high half holds (``k``), then by the high
    half's rank among the ``k``-card halves, then by the low half's among the
    ``(5 - k)``-card ones.
    """
    halves: list[list[int]] = [[] for _ in range(_HALF + 1)]  # halves by card count
    for half in range(1 << _HALF):
        halves[half.bit_count()].append(half)
    low_index = [0] * (1 << _HALF)
    for count, members in enumerate(halves):
        for position, half in enumerate(members):
            low_index[half] = position + count * _OFF
    offset = 0
    for count in range(HAND_SIZE + 1):
        lows = len(halves[HAND_SIZE - count])
        for position, half in enumerate(halves[count]):
            _HIGH_INDEX[half] = offset + position * lows - (HAND_SIZE - count) * _OFF
        offset += len(halves[count]) * lows
    _LOW_INDEX[:] = low_index
    table: list[int] = [0] * offset
    shared: dict[int, int] = {}
    deck = [(r, s) for r in range(len(RANKS)) for s in range(len(_SUIT_BITS))]
    for hand in itertools.combinations(deck, HAND_SIZE):
        key = sum(1 << (4 * r + s) for r, s in hand)
        high = _HIGH_INDEX[key >> _HALF]
        assert high is not None
        table[high + low_index[key & _LOW_HALF]] = _shared(shared, _strength(hand))
    _FULL[:] = table


def _fill(table: dict[int, int], mask: int) -> int:
    """Fill ``table`` on first use, then look ``mask`` up again.

    :raises InvalidActionError: ``bad_cards`` if ``mask`` is not in the table.
    """
    if not table:
        _build(table)
    try:
        return table[mask]
    except KeyError:
        raise InvalidActionError("bad_cards", "not distinct Showhand cards") from None


def _build(table: dict[int, int]) -> None:
    """Enumerate every partial hand (1-4 cards) into ``table``."""
    shared: dict[int, int] = {}
    deck = [(r, s) for r in range(len(RANKS)) for s in range(len(_SUIT_BITS))]
    for size in range(1, HAND_SIZE):
        for hand in itertools.combinations(deck, size):
            key = sum(1 << (4 * r + s) for r, s in hand)
            table[key] = _shared(shared, _strength(hand))


def _shared(shared: dict[int, int], strength: int) -> int:
    """One ``int`` object per distinct strength: 1,105 hot objects rather than 98,280
    copies spread over memory make look-ups faster (fewer cache misses)."""
    return shared.setdefault(strength, strength)


def _swap_flush(strength: int) -> int:
    """A page-order strength in the other order: flush and full house trade numbers."""
    if strength >> 22 in _FLUSH_AND_FULL_HOUSE:
        return strength ^ _FLUSH_XOR_FULL_HOUSE
    return strength


_FLUSH_AND_FULL_HOUSE = (CATEGORIES.index("flush"), CATEGORIES.index("full_house"))
_FLUSH_XOR_FULL_HOUSE = (_FLUSH_AND_FULL_HOUSE[0] ^ _FLUSH_AND_FULL_HOUSE[1]) << 22


def _strength(hand: Sequence[tuple[int, int]]) -> int:
    """The strength (seed order) of cards given as (rank index in :data:`RANKS`, suit
    index) pairs."""
    counts = Counter(r for r, _ in hand)
    # ranks by (count, rank), largest group first: AAKKQ -> A K Q
    ranks = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(counts[r] for r in ranks)
    best_suit = {r: max(s for q, s in hand if q == r) for r in ranks}
    singles = [r for r in ranks if counts[r] == 1]
    if len(hand) == HAND_SIZE and shape == (1,) * HAND_SIZE:
        flush = len({s for _, s in hand}) == 1
        straight = ranks[0] - ranks[-1] == HAND_SIZE - 1
        if straight or flush:
            name = "straight_flush" if straight and flush else "straight" if straight else "flush"
            return _pack(CATEGORIES.index(name), ranks[:1], best_suit[ranks[0]])
    if shape[0] >= 3:  # four of a kind, full house, three of a kind: the group's rank
        name = {4: "four_of_a_kind", 3: "three_of_a_kind"}[shape[0]]
        if shape[:2] == (3, 2):
            name = "full_house"
        return _pack(CATEGORIES.index(name), ranks[:1], 0)
    # two pair, pair, high card: every rank, then the suit of the highest single, or of
    # the (highest) pair when there is no single
    name = {2: "pair", 1: "high_card"}[shape[0]]
    if shape[:2] == (2, 2):
        name = "two_pair"
    suit = best_suit[singles[0]] if singles else best_suit[ranks[0]]
    return _pack(CATEGORIES.index(name), ranks, suit)


def _pack(category_index: int, ranks: Sequence[int], suit: int) -> int:
    nibbles = 0
    for i in range(HAND_SIZE):
        nibbles = nibbles << 4 | (ranks[i] + _RANK_BASE if i < len(ranks) else 0)
    return (category_index << 20 | nibbles) << 2 | suit
