"""Zha Jin Hua 扎金花 hand ranking (``docs/zhajinhua.md``, the 易发棋牌 ``yifa`` rules).

Three cards from the 52-card deck, six categories, strongest first::

    trips 豹子 > straight_flush 顺金 > flush 金花 > straight 顺子 > pair 对子 > high_card 单张

* Ranks ``A > K > … > 2``.  Straights run ``AKQ > KQJ > … > 432 > A32``: the ace is high
  (``AKQ``) or low (``A23``, the lowest straight), and ``K-A-2`` is not a straight.
* Pair: the pair's rank, then the kicker.  High card and flush: the three ranks high to
  low.  Straight and straight flush: the straight's rank.  Suits never break a tie.
* The 235 rule: a high-card ``2-3-5`` that is not a flush (花色不同 235) beats trips and
  nothing else; against every other hand it is the lowest high card.  It makes the
  relation non-transitive, so it lives in :func:`compare`, not in :func:`evaluate`, and
  holds only between two hands (``rule_235=False`` for a showdown of three or more, where
  a 235 is the lowest hand: :func:`evaluate`'s order, which is transitive).

A strength is an ``int``: ``category index << 12`` then the three deciding ranks, one
nibble each (``2`` is 0, ``A`` is 12; a straight's rank is its top card's, ``A32``'s is 1).
Hands are looked up in a table of all 22,100 hands keyed by a 52-bit card mask, built by
enumeration on first use.

>>> category("AsKsQs"), category("2h3d5c"), category("Ah2c3d")
('straight_flush', 'high_card', 'straight')
>>> evaluate("AsAhAd") > evaluate("AsKsQs") > evaluate("2s3s5s") > evaluate("Ah2c3d")
True
>>> compare("2h3d5c", "AsAhAd"), compare("2h3d5c", "7h3d2c"), compare("Ks9h4d", "Kh9c4s")
(1, -1, 0)
>>> compare("2h3d5c", "AsAhAd", rule_235=False)
-1
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from qipai.cards import POKER_RANKS, Card, Suit
from qipai.errors import InvalidActionError

HAND_SIZE = 3
"""Cards in a Zha Jin Hua hand."""

CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "straight",
    "flush",
    "straight_flush",
    "trips",
)
"""Category names (the project's notation), weakest first: a strength's category is
``CATEGORIES[strength >> 12]``."""

_TRIPS = CATEGORIES.index("trips")
_TRIPS_FLOOR = _TRIPS << 12
"""The weakest trips' strength; every trips hand is at or above it."""

_SUIT_BITS = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
"""Bit ``4 × rank + i`` of a card mask is the card of rank index ``rank`` and suit ``i``."""

_BIT: dict[Suit | None, dict[str, int]] = {
    suit: {rank: 1 << (4 * r + s) for r, rank in enumerate(POKER_RANKS)}
    for s, suit in enumerate(_SUIT_BITS)
}
"""Card mask bit by suit then rank (two small dict look-ups beat hashing a ``Card``)."""

_BIT_OF_TEXT: dict[str, int] = {
    rank + suit.value: bit
    for suit, by_rank in _BIT.items()
    if suit
    for rank, bit in by_rank.items()
}

_STRENGTH: dict[int, int] = {}
"""Card mask → strength of all 22,100 hands; filled on first use by :func:`_table`."""

_LOW_235: frozenset[int] = frozenset()
"""Masks of the 60 non-flush ``2-3-5`` hands that beat trips; filled by :func:`_table`."""


def category(cards: str) -> str:
    """The category name of a three-card hand written in the notation (``"AsKsQs"``).

    :raises InvalidActionError: ``bad_cards`` unless it is three distinct cards.
    """
    return CATEGORIES[evaluate(cards) >> 12]


def evaluate(cards: str) -> int:
    """The strength of a hand: higher is stronger; equal means equally strong.

    The 235 rule is not in it (see :func:`compare`).

    :raises InvalidActionError: ``bad_cards`` unless it is three distinct cards.
    """
    return evaluate_mask(mask_of_text(cards))


def compare(a: str, b: str, *, rule_235: bool = True) -> int:
    """``1`` if hand ``a`` beats hand ``b``, ``-1`` if ``b`` wins, ``0`` if equally strong.

    Applies the 235 rule unless ``rule_235`` is ``False`` (a showdown of three or more
    hands).  The caller settles a tie (the initiator loses, the hand opened first loses).

    :raises InvalidActionError: ``bad_cards`` unless each is three distinct cards.
    """
    return compare_masks(mask_of_text(a), mask_of_text(b), rule_235=rule_235)


def evaluate_cards(cards: Sequence[Card]) -> int:
    """:func:`evaluate` on parsed cards.

    :raises InvalidActionError: ``bad_cards`` unless it is three distinct cards.
    """
    try:  # the hot path: three valid cards and a built table
        a, b, c = cards
        bit = _BIT
        return _STRENGTH[bit[a.suit][a.rank] | bit[b.suit][b.rank] | bit[c.suit][c.rank]]
    except (ValueError, KeyError):
        return evaluate_mask(mask_of(cards))


def compare_cards(a: Sequence[Card], b: Sequence[Card], *, rule_235: bool = True) -> int:
    """:func:`compare` on parsed cards.

    :raises InvalidActionError: ``bad_cards`` unless each is three distinct cards.
    """
    return compare_masks(mask_of(a), mask_of(b), rule_235=rule_235)


def category_of_cards(cards: Sequence[Card]) -> str:
    """:func:`category` of parsed cards.

    :raises InvalidActionError: ``bad_cards`` unless it is three distinct cards.
    """
    return CATEGORIES[evaluate_cards(cards) >> 12]


def mask_of(cards: Sequence[Card]) -> int:
    """The 52-bit mask of three cards (validated by :func:`evaluate_mask`, not here).

    :raises InvalidActionError: ``bad_cards`` for a count other than three or a joker.
    """
    if len(cards) != HAND_SIZE:
        raise InvalidActionError("bad_cards", f"a hand has {HAND_SIZE} cards, not {len(cards)}")
    a, b, c = cards
    try:
        return _BIT[a.suit][a.rank] | _BIT[b.suit][b.rank] | _BIT[c.suit][c.rank]
    except KeyError:
        raise InvalidActionError("bad_cards", f"not a suited card in {cards!r}") from None


def mask_of_text(cards: str) -> int:
    """The 52-bit mask of three cards written in the notation (``"AsKsQs"``, ``"As Ks Qs"``).

    :raises InvalidActionError: ``bad_cards`` for anything but three cards of the deck.
    """
    compact = "".join(cards.split())
    if len(compact) != 2 * HAND_SIZE:
        raise InvalidActionError("bad_cards", f"not {HAND_SIZE} cards: {cards!r}")
    try:
        return _BIT_OF_TEXT[compact[0:2]] | _BIT_OF_TEXT[compact[2:4]] | _BIT_OF_TEXT[compact[4:6]]
    except KeyError:
        raise InvalidActionError("bad_cards", f"not {HAND_SIZE} cards: {cards!r}") from None


def evaluate_mask(mask: int) -> int:
    """The strength of the hand whose card mask is ``mask`` (see :func:`mask_of`).

    :raises InvalidActionError: ``bad_cards`` unless the mask holds exactly three cards.
    """
    try:
        return _STRENGTH[mask]
    except KeyError:
        return _table(mask)


def compare_masks(a: int, b: int, *, rule_235: bool = True) -> int:
    """:func:`compare` on card masks.

    :raises InvalidActionError: ``bad_cards`` unless each mask holds exactly three cards.
    """
    strength_a = evaluate_mask(a)
    strength_b = evaluate_mask(b)
    if rule_235 and strength_a >= _TRIPS_FLOOR and b in _LOW_235:
        return -1
    if rule_235 and strength_b >= _TRIPS_FLOOR and a in _LOW_235:
        return 1
    return (strength_a > strength_b) - (strength_a < strength_b)


def beats_trips(cards: str) -> bool:
    """Whether the hand is the 235 that beats trips (a non-flush ``2-3-5``).

    :raises InvalidActionError: ``bad_cards`` unless it is three distinct cards.
    """
    mask = mask_of_text(cards)
    evaluate_mask(mask)
    return mask in _LOW_235


def _strength(ranks: Iterable[int], suits: Iterable[int]) -> int:
    """The strength of three cards given as rank indices (``2`` is 0 … ``A`` is 12) and
    suit indices, from the rules; the table is built from it."""
    high, mid, low = sorted(ranks, reverse=True)
    flush = len(set(suits)) == 1
    if high == low:
        return _pack("trips", high, 0, 0)
    top = _straight_top(high, mid, low)
    if top:
        return _pack("straight_flush" if flush else "straight", top, 0, 0)
    if flush:
        return _pack("flush", high, mid, low)
    if high == mid:
        return _pack("pair", high, low, 0)
    if mid == low:
        return _pack("pair", mid, high, 0)
    return _pack("high_card", high, mid, low)


def _straight_top(high: int, mid: int, low: int) -> int:
    """The straight's rank (its top card's index; 1 for ``A32``), or 0 if not a straight."""
    if high - mid == 1 and mid - low == 1:
        return high
    if (high, mid, low) == (12, 1, 0):
        return 1
    return 0


def _pack(name: str, first: int, second: int, third: int) -> int:
    return CATEGORIES.index(name) << 12 | first << 8 | second << 4 | third


def _table(mask: int) -> int:
    """Fill the tables on first use, then look ``mask`` up again.

    :raises InvalidActionError: ``bad_cards`` if ``mask`` is not a three-card hand.
    """
    global _LOW_235  # noqa: PLW0603 - a cache filled once
    if not _STRENGTH:
        cards = [(r, s) for r in range(len(POKER_RANKS)) for s in range(len(_SUIT_BITS))]
        low = set()
        for hand in itertools.combinations(cards, HAND_SIZE):
            key = sum(1 << (4 * r + s) for r, s in hand)
            ranks = [r for r, _ in hand]
            suits = [s for _, s in hand]
            _STRENGTH[key] = _strength(ranks, suits)
            if sorted(ranks) == [0, 1, 3] and len(set(suits)) > 1:
                low.add(key)
        _LOW_235 = frozenset(low)
    try:
        return _STRENGTH[mask]
    except KeyError:
        raise InvalidActionError("bad_cards", f"not {HAND_SIZE} distinct cards") from None
