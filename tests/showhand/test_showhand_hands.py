"""Showhand hand ranking: exhaustive counts of whole and partial hands, golden hashes of
the whole orders, an independent rules-as-written key, treys and PokerKit (same categories
on the 28-card deck, and an order that ours refines with suits), the page's tie-breaks by
hand, the other flush / full house order, and malformed input."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from pokerkit.lookups import Label, StandardLookup
from treys import Card as TreysCard
from treys import Evaluator

from qipai.cards import Card, Suit, parse_cards, poker_deck
from qipai.errors import InvalidActionError
from qipai.games.showhand.hands import (
    RANKS,
    category,
    category_of,
    compare,
    compare_cards,
    evaluate,
    evaluate_cards,
    evaluate_partial,
    evaluate_partial_cards,
)

SUITS_LOW_FIRST = "dchs"
DECK = [r + s for r in reversed(RANKS) for s in reversed(SUITS_LOW_FIRST)]
"""The 28 cards, ``As Ah Ac Ad Ks … 8d``."""


def hands_of(size: int) -> list[str]:
    return ["".join(h) for h in itertools.combinations(DECK, size)]


HANDS = hands_of(5)


def test_counts() -> None:
    assert len(HANDS) == 98_280
    expected = {
        "straight_flush": 12,
        "four_of_a_kind": 168,
        "full_house": 1_008,
        "flush": 72,
        "straight": 3_060,
        "three_of_a_kind": 6_720,
        "two_pair": 15_120,
        "pair": 53_760,
        "high_card": 18_360,
    }
    assert Counter(category(h) for h in HANDS) == expected
    other = Counter(category(h, flush_beats_full_house=True) for h in HANDS)
    assert other == expected


def test_partial_counts() -> None:
    by_size = {
        size: Counter(category_of(evaluate_partial(h)) for h in hands_of(size))
        for size in range(1, 5)
    }
    assert by_size == {
        1: {"high_card": 28},
        2: {"pair": 42, "high_card": 336},
        3: {"three_of_a_kind": 28, "pair": 1_008, "high_card": 2_240},
        4: {
            "four_of_a_kind": 7,
            "three_of_a_kind": 672,
            "two_pair": 756,
            "pair": 10_080,
            "high_card": 8_960,
        },
    }


def md5_of_order(hands: Sequence[str], key: Callable[[str], Any]) -> str:
    ranked = sorted(hands, key=lambda h: (key(h), h))
    return hashlib.md5("\n".join(ranked).encode()).hexdigest()


def test_golden_orders() -> None:
    """The whole orders: hands sorted by strength, then by their text, hashed."""
    assert md5_of_order(HANDS, evaluate) == GOLDEN_MD5
    flush_high = md5_of_order(HANDS, lambda h: evaluate(h, flush_beats_full_house=True))
    assert flush_high == GOLDEN_MD5_FLUSH_HIGH
    partial = [h for size in range(1, 5) for h in hands_of(size)]
    assert md5_of_order(partial, lambda h: (len(h), evaluate_partial(h))) == GOLDEN_MD5_PARTIAL
    # 12 + 7 + 7 + 8 + 12 + 7 + 420 + 560 + 72: the deciding ranks and suit of each category
    assert len({evaluate(h) for h in HANDS}) == 1_105


GOLDEN_MD5 = "477aa04bff037f2d55f95978a72269d0"
GOLDEN_MD5_FLUSH_HIGH = "d0606c1b3c8e9f3c914b46ff0664aab4"
GOLDEN_MD5_PARTIAL = "c89c58b89e06e42ca7de1ea8e8ec1d62"


def reference_key(hand: str, flush_high: bool = False) -> tuple[int, ...]:
    """The page's ranking read literally, written independently of the module."""
    cards = sorted(
        (
            (RANKS.index(r), SUITS_LOW_FIRST.index(s))
            for r, s in zip(hand[::2], hand[1::2], strict=True)
        ),
        reverse=True,
    )
    ranks = [r for r, _ in cards]

    def suit_of(rank: int) -> int:  # the best suit among the cards of that rank
        return max(s for r, s in cards if r == rank)

    def having(n: int) -> list[int]:
        return sorted({r for r in ranks if ranks.count(r) == n}, reverse=True)

    fours, trios, pairs, singles = having(4), having(3), having(2), having(1)
    five = len(cards) == 5
    flush = five and len({s for _, s in cards}) == 1
    straight = five and len(singles) == 5 and ranks[0] - ranks[4] == 4
    top = (ranks[0], suit_of(ranks[0]))
    if straight and flush:
        return (8, *top)
    if fours:
        return (7, fours[0])
    if trios and pairs:
        return (5 if flush_high else 6, trios[0])
    if flush:
        return (6 if flush_high else 5, *top)
    if straight:
        return (4, *top)
    if trios:
        return (3, trios[0])
    suit = suit_of(singles[0]) if singles else suit_of(pairs[0])
    return (len(pairs), *pairs, *singles, suit)


def assert_same_order(hands: Sequence[str], ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Sorted by ours, theirs never decreases, and ties are the same ties."""
    ranked = sorted(hands, key=ours.__getitem__)
    for low, high in itertools.pairwise(ranked):
        assert theirs[low] <= theirs[high], (low, high)
        assert (ours[low] == ours[high]) == (theirs[low] == theirs[high]), (low, high)


@pytest.mark.parametrize("flush_high", [False, True])
def test_matches_rules_as_written(flush_high: bool) -> None:
    ours = {h: evaluate(h, flush_beats_full_house=flush_high) for h in HANDS}
    assert_same_order(HANDS, ours, {h: reference_key(h, flush_high) for h in HANDS})


def test_partial_matches_rules_as_written() -> None:
    for size in range(1, 5):
        hands = hands_of(size)
        ours = {h: evaluate_partial(h) for h in hands}
        assert_same_order(hands, ours, {h: reference_key(h) for h in hands})


TREYS_CLASSES = {
    "Royal Flush": "straight_flush",
    "Straight Flush": "straight_flush",
    "Four of a Kind": "four_of_a_kind",
    "Full House": "full_house",
    "Flush": "flush",
    "Straight": "straight",
    "Three of a Kind": "three_of_a_kind",
    "Two Pair": "two_pair",
    "Pair": "pair",
    "High Card": "high_card",
}
POKERKIT_LABELS = {
    Label.STRAIGHT_FLUSH: "straight_flush",
    Label.FOUR_OF_A_KIND: "four_of_a_kind",
    Label.FULL_HOUSE: "full_house",
    Label.FLUSH: "flush",
    Label.STRAIGHT: "straight",
    Label.THREE_OF_A_KIND: "three_of_a_kind",
    Label.TWO_PAIR: "two_pair",
    Label.ONE_PAIR: "pair",
    Label.HIGH_CARD: "high_card",
}


def assert_refines(theirs: dict[str, int]) -> None:
    """Ours, suits left out, is a coarsening of theirs (higher = stronger): sorted by
    theirs, ours never decreases and their ties are our ties.  The seed breaks fewer
    rank ties than standard poker (kickers of fours, trios, a full house's pair, a flush's
    lower cards), then breaks the rest with a suit."""
    ranks_only = {h: evaluate(h) >> 2 for h in HANDS}
    ranked = sorted(HANDS, key=theirs.__getitem__)
    for low, high in itertools.pairwise(ranked):
        assert ranks_only[low] <= ranks_only[high], (low, high)
        if theirs[low] == theirs[high]:
            assert ranks_only[low] == ranks_only[high], (low, high)


def test_treys() -> None:
    evaluator = Evaluator()
    ints = {c: TreysCard.new(c) for c in DECK}
    theirs = {
        h: -evaluator.evaluate([], [ints[h[i : i + 2]] for i in range(0, 10, 2)]) for h in HANDS
    }
    for hand, rank in theirs.items():
        name = evaluator.class_to_string(evaluator.get_rank_class(-rank))
        assert TREYS_CLASSES[name] == category(hand), hand
    assert_refines(theirs)


def test_pokerkit() -> None:
    lookup = StandardLookup()
    entries = {h: lookup.get_entry(h) for h in HANDS}
    assert all(POKERKIT_LABELS[entries[h].label] == category(h) for h in HANDS)
    assert_refines({h: entries[h].index for h in HANDS})


@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ("AsKsQsJsTs", "AhKhQhJhTh", 1),  # straight flush: highest card, then its suit
        ("KsQsJsTs9s", "AhKhQhJhTh", -1),
        ("QdJdTd9d8d", "AsAhAcAdKs", 1),
        ("AsAhAcAd8s", "KsKhKcKdAs", 1),  # four of a kind: the four's rank only
        ("AsAhAcAd8s", "AsAhAcAd9h", 0),
        ("8s8h8c9s9h", "AdKdJd9d8d", 1),  # full house over flush (the page's order)
        ("AsAhAc8s8h", "AsAhAcKdKh", 0),  # full house: the trio's rank only
        ("AsQsTs9s8s", "AhKhJh9h8h", 1),  # flush: highest card, then its suit
        ("KsQsTs9s8s", "AhJh9h8hTh", -1),
        ("8h9hTcJdQs", "8s9sThJcQh", 1),  # straight: highest card, then its suit
        ("TcJdQhKsAd", "9sTsJhQcKs", 1),
        ("8h9hTcJdQs", "AsAhAdKsQs", 1),
        ("8s8h8cAdKd", "9s9h9c8dJd", -1),  # three of a kind: the trio's rank
        ("KsKh8c8dAd", "KcKd8s8hAs", -1),  # two pair: pairs, single, then its suit
        ("AsAh8c8dKd", "KsKhQcQdAc", 1),
        ("KsKhQcQd9d", "KcKdJsJhAs", 1),
        ("KsKhQcQdTd", "KcKdQsQh9s", 1),
        ("AsAhKcQdJs", "AcAdKsQhTs", 1),  # pair: the pair, singles high to low, suit
        ("AsAhKcQdJs", "AcAdKsQhJh", -1),
        ("9s9hAcKdQs", "8c8dAsKsQh", 1),
        ("AsKhJc9d8s", "AhKsJd9c8h", 1),  # high card: five ranks, then the top's suit
        ("AdKhJc9d8s", "AsKhJcTd8h", -1),
        ("AsKhJc9d8s", "AhKsJdTc8h", -1),
        ("As8h9cTdJs", "KsQhJcTd8s", 1),  # no A-8 wrap: two high cards
        ("AsKsQsJs9s", "AhKhQhJhTd", 1),  # a flush beats a straight
    ],
)
def test_compare_examples(a: str, b: str, result: int) -> None:
    assert compare(a, b) == result
    assert compare(b, a) == -result
    assert compare_cards(parse_cards(a), parse_cards(b)) == result


def test_no_wrap_and_lowest_straight() -> None:
    assert category("As8h9cTdJs") == "high_card"
    assert category("AsKh8c9dTs") == "high_card"
    assert category("8h9hTcJdQs") == "straight"
    assert category("8h9hThJhQh") == "straight_flush"
    assert category("Ah8h9hThJh") == "flush"


def test_flush_beats_full_house_option() -> None:
    flush, full_house = "AdKdJd9d8d", "8s8h8c9s9h"
    assert compare(full_house, flush) == 1
    assert compare(full_house, flush, flush_beats_full_house=True) == -1
    assert category(flush, flush_beats_full_house=True) == "flush"
    assert compare("AsAhAcAdKs", flush, flush_beats_full_house=True) == 1
    assert compare(flush, "AsKhQcJdTs", flush_beats_full_house=True) == 1
    cards = parse_cards(flush), parse_cards(full_house)
    assert compare_cards(*cards, flush_beats_full_house=True) == 1


@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ("As", "Ah", 1),  # one card: rank, then suit
        ("Kd", "Ah", -1),
        ("AhAd", "AcKs", 1),  # a pair over high cards
        ("8s8d", "AhKh", 1),
        ("AsAd", "AhAc", 1),  # no single: the best suit in the pair
        ("AsKd", "AhKc", 1),  # high cards: ranks, then the top card's suit
        ("KsQs", "AdJd", -1),
        ("8s8h8c", "AsAhKd", 1),  # three cards
        ("AsAhKd", "AcAdKs", -1),  # the single's suit
        ("AsAhKd", "AcAdQs", 1),
        ("8s8h8c8d", "AsAhAcKd", 1),  # four cards
        ("AsAhAcKd", "9s9h8c8d", 1),
        ("9s9h8c8d", "AsAhKdQd", 1),
        ("AsAhKcKd", "AcAdKsKh", 1),  # two pair, no single: the best suit of the top pair
        ("AsKsQsJs", "AhKhQhJh", 1),  # no straight or flush in four cards
        ("AsKsQsJs", "8d8cTc9c", -1),
    ],
)
def test_partial_examples(a: str, b: str, result: int) -> None:
    ours, theirs = evaluate_partial(a), evaluate_partial(b)
    assert (ours > theirs) - (ours < theirs) == result
    assert evaluate_partial_cards(parse_cards(a)) == ours


def test_cards_and_text_agree() -> None:
    rng = random.Random(5)
    deck = poker_deck(RANKS)
    for _ in range(2_000):
        size = rng.randint(1, 5)
        cards = rng.sample(deck, size)
        text = " ".join(str(c) for c in cards)
        if size == 5:
            assert evaluate_cards(cards) == evaluate(text) == evaluate(text.replace(" ", ""))
        else:
            assert evaluate_partial_cards(cards) == evaluate_partial(text)


@pytest.mark.parametrize(
    "cards",
    [
        "",
        "AsKsQsJs",
        "AsKsQsJsTs9s",
        "AsAsQsJsTs",
        "7sKsQsJsTs",
        "2s3s4s5s6s",
        "AsKsQsJsBJ",
        "AsKx",
    ],
)
def test_malformed_text(cards: str) -> None:
    for call in (category, evaluate, lambda c: compare(c, "AsKsQsJsTs")):
        with pytest.raises(InvalidActionError) as info:
            call(cards)
        assert info.value.code == "bad_cards"


@pytest.mark.parametrize("cards", ["", "AsKsQsJsTs", "AsAs", "7s", "AsBJ", "As K"])
def test_malformed_partial(cards: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        evaluate_partial(cards)
    assert info.value.code == "bad_cards"


@pytest.mark.parametrize(
    "cards",
    [
        [],
        [Card("A", Suit.SPADES)] * 5,
        [*parse_cards("AsKsQsJs"), Card("7", Suit.SPADES)],
        [*parse_cards("AsKsQsJs"), Card("B")],
        parse_cards("AsKsQsJsTs9s"),
    ],
)
def test_malformed_cards(cards: list[Card]) -> None:
    for call in (evaluate_cards, lambda c: compare_cards(parse_cards("AsKsQsJsTs"), c)):
        with pytest.raises(InvalidActionError) as info:
            call(cards)
        assert info.value.code == "bad_cards"
    if len(cards) < 5:
        with pytest.raises(InvalidActionError):
            evaluate_partial_cards(cards)
