"""Zha Jin Hua hand ranking: exhaustive counts, a golden hash of the whole order, an
independent rules-as-written key, PokerKit's Rhode Island hold'em lookup (the same
categories and the same order inside each), the 235 rule and malformed input."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from pokerkit.lookups import Label, RhodeIslandHoldemLookup

from qipai.cards import POKER_RANKS, Card, Suit, parse_cards, poker_deck
from qipai.errors import InvalidActionError
from qipai.games.zhajinhua.hands import (
    CATEGORIES,
    beats_trips,
    category,
    compare,
    compare_cards,
    evaluate,
    evaluate_cards,
)

SUIT_TEXT = "shcd"


def all_hands() -> list[str]:
    """Every three-card hand, ranks high to low, suits in ``s h c d`` order."""
    deck = [r + s for r in reversed(POKER_RANKS) for s in SUIT_TEXT]
    return ["".join(h) for h in itertools.combinations(deck, 3)]


HANDS = all_hands()


def test_counts() -> None:
    assert len(HANDS) == 22_100
    counts = Counter(category(h) for h in HANDS)
    assert counts == {
        "trips": 52,
        "straight_flush": 48,
        "flush": 1_096,
        "straight": 720,
        "pair": 3_744,
        "high_card": 16_440,
    }
    assert sum(beats_trips(h) for h in HANDS) == 60  # 4^3 suitings of 2-3-5 less 4 flushes


def test_golden_order() -> None:
    """The whole order: hands sorted by strength, then by their text, hashed."""
    ranked = sorted(HANDS, key=lambda h: (evaluate(h), h))
    digest = hashlib.md5("\n".join(ranked).encode()).hexdigest()
    assert digest == GOLDEN_MD5
    assert len({evaluate(h) for h in HANDS}) == 741  # 13 + 12 + 274 + 12 + 156 + 274
    assert ranked[0] == "5c3c2d" and ranked[-1] == "AsAhAd"


GOLDEN_MD5 = "3cfe4adcd7990d77768418c729e4d73f"


def reference_key(hand: str) -> tuple[int, ...]:
    """The page's rules read literally, written independently of the module."""
    ranks = sorted((POKER_RANKS.index(c) for c in hand[0::2]), reverse=True)
    flush = len(set(hand[1::2])) == 1
    straights = [[i + 2, i + 1, i] for i in range(11)]  # 432 .. AKQ, then A32 lowest
    tops = {tuple(s): s[0] + 1 for s in straights} | {(12, 1, 0): 0}
    if ranks[0] == ranks[2]:
        return (6, ranks[0])
    if tuple(ranks) in tops:
        return (5 if flush else 3, tops[tuple(ranks)])
    if flush:
        return (4, *ranks)
    pair = [r for r in ranks if ranks.count(r) == 2]
    if pair:
        return (2, pair[0], *[r for r in ranks if r != pair[0]])
    return (1, *ranks)


def assert_same_order(hands: Sequence[str], ours: dict[str, int], theirs: dict[str, Any]) -> None:
    """Sorted by ours, theirs never decreases, and ties are the same ties."""
    ranked = sorted(hands, key=ours.__getitem__)
    for low, high in itertools.pairwise(ranked):
        assert theirs[low] <= theirs[high], (low, high)
        assert (ours[low] == ours[high]) == (theirs[low] == theirs[high]), (low, high)


def test_matches_rules_as_written() -> None:
    ours = {h: evaluate(h) for h in HANDS}
    assert_same_order(HANDS, ours, {h: reference_key(h) for h in HANDS})


LABELS = {
    Label.HIGH_CARD: "high_card",
    Label.ONE_PAIR: "pair",
    Label.STRAIGHT: "straight",
    Label.FLUSH: "flush",
    Label.STRAIGHT_FLUSH: "straight_flush",
    Label.THREE_OF_A_KIND: "trips",
}


def test_pokerkit_rhode_island() -> None:
    """Same categories; same order inside each (Rhode Island orders the categories
    differently: flush < straight < trips < straight flush)."""
    lookup = RhodeIslandHoldemLookup()
    entries = {h: lookup.get_entry(h) for h in HANDS}
    for name in CATEGORIES:
        members = [h for h in HANDS if LABELS[entries[h].label] == name]
        assert all(category(h) == name for h in members)
        assert len(members) == sum(category(h) == name for h in HANDS)
        ours = {h: evaluate(h) for h in members}
        assert_same_order(members, ours, {h: entries[h].index for h in members})


@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ("AsKsQs", "AhKhQh", 0),  # suits never break ties
        ("AsKsQs", "KsQsJs", 1),  # AKQ highest straight flush
        ("4s3s2s", "As2s3s", 1),  # A23 lowest
        ("4h3s2d", "Ah2c3d", 1),
        ("Ah2c3d", "AhKcJd", 1),  # A23 is still a straight
        ("KhAc2d", "KhAcJd", -1),  # K-A-2 is a high card, below A-K-J
        ("KhAc2d", "Ah5c3d", 1),
        ("QhKcAd", "JsQsKh", 1),
        ("2s2h2c", "AsKsQs", 1),  # trips over straight flush
        ("2s3s5s", "AhKdQc", 1),  # flush above straight
        ("9s9hAc", "9c9dKs", 1),  # pair, then kicker
        ("9s9h2c", "8c8dAs", 1),
        ("AsJh9c", "AhJc8d", 1),  # high card: high, then second, then third
        ("AsJh9c", "AhJc9d", 0),
        ("AsJs9s", "AhKhQh", -1),
        ("AsJs9s", "KhQh9h", 1),  # flushes compare like high cards
        # the 235 rule: a non-flush 2-3-5 beats trips, nothing else
        ("2h3d5c", "AsAhAd", 1),
        ("AsAhAd", "2h3d5c", -1),
        ("2h3h5c", "2s2h2c", 1),  # 花色不同: any 2-3-5 but a flush
        ("2h3h5h", "AsAhAd", -1),
        ("2h3d5c", "4h3d2c", -1),
        ("2h3d5c", "2s2h3c", -1),
        ("2h3d5c", "6h3d2c", -1),
        ("2h3d5c", "2s3h5c", 0),
        ("2h3d5c", "AsKsQs", -1),
    ],
)
def test_compare_examples(a: str, b: str, result: int) -> None:
    assert compare(a, b) == result
    assert compare(b, a) == -result
    assert compare_cards(parse_cards(a), parse_cards(b)) == result


def test_235_against_every_hand() -> None:
    """Each of the 60 hands beats all 52 trips, ties the other 235s, loses to the rest."""
    low = [h for h in HANDS if beats_trips(h)]
    assert {category(h) for h in low} == {"high_card"}
    rng = random.Random(3)
    for hand in low:
        for other in [h for h in HANDS if category(h) == "trips"] + rng.sample(HANDS, 300):
            expected = 1 if category(other) == "trips" else 0 if beats_trips(other) else -1
            assert compare(hand, other) == expected == -compare(other, hand), (hand, other)


def test_cards_and_text_agree() -> None:
    rng = random.Random(7)
    deck = poker_deck()
    for _ in range(2_000):
        cards = rng.sample(deck, 3)
        text = " ".join(str(c) for c in cards)
        assert evaluate_cards(cards) == evaluate(text) == evaluate(text.replace(" ", ""))


@pytest.mark.parametrize(
    "cards",
    ["", "AsKs", "AsKsQsJs", "AsAsKs", "AsKsBJ", "AsKsQ", "AsKsQx", "1sKsQs", "As Ks Qs Js"],
)
def test_malformed_text(cards: str) -> None:
    for call in (category, evaluate, beats_trips, lambda c: compare(c, "AsKsQs")):
        with pytest.raises(InvalidActionError) as info:
            call(cards)
        assert info.value.code == "bad_cards"


@pytest.mark.parametrize(
    "cards",
    [
        [],
        [Card("A", Suit.SPADES)] * 3,
        [Card("A", Suit.SPADES), Card("K", Suit.SPADES), Card("B")],
        [Card("A", Suit.SPADES), Card("K", Suit.SPADES), Card("Q", Suit.SPADES), Card("J")],
    ],
)
def test_malformed_cards(cards: list[Card]) -> None:
    for call in (evaluate_cards, lambda c: compare_cards(parse_cards("AsKsQs"), c)):
        with pytest.raises(InvalidActionError) as info:
            call(cards)
        assert info.value.code == "bad_cards"
