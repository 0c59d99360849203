"""Round-trip fuzz of the notation (``docs/doudizhu.md``, "Notation") with Hypothesis.

Cards print and parse back to themselves; packed rank counts print and parse back; every
move that :func:`legal_moves` offers, in every rule set, prints as text that parses back
to the same cards (and, among the text's readings, to the move itself).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.cards import (
    DOUDIZHU_RANKS,
    WILDCARD,
    Card,
    doudizhu_deck,
    format_cards,
    parse_cards,
    poker_deck,
)
from qipai.games.doudizhu import RULES, Move, get_rules, legal_moves, parse_move, readings
from qipai.games.doudizhu.combos import RANK_CHARS, from_text, pack, to_text

ALL_CARDS = tuple(dict.fromkeys([*poker_deck(), *doudizhu_deck(wildcard=True)]))
"""Every distinct card of every game: 13 poker ranks × 4 suits, two jokers and ``W``."""

cards = st.sampled_from(ALL_CARDS)


def test_every_card_is_known() -> None:
    assert len(ALL_CARDS) == 13 * 4 + 3
    assert len(set(map(str, ALL_CARDS))) == len(ALL_CARDS)


@given(cards)
def test_card_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card


@given(st.lists(cards, max_size=12))
def test_cards_round_trip_apart_and_together(hand: list[Card]) -> None:
    assert parse_cards(format_cards(hand)) == hand
    assert parse_cards("".join(map(str, hand))) == hand


@given(st.lists(st.integers(0, 7), min_size=16, max_size=16))
def test_packed_counts_round_trip(slot_counts: list[int]) -> None:
    packed = pack(slot_counts)
    text = to_text(packed)
    assert [text.count(ch) for ch in RANK_CHARS] == slot_counts
    assert from_text(text) == packed


@given(st.lists(st.sampled_from(RANK_CHARS), max_size=20))
def test_rank_text_is_read_as_a_multiset(ranks: list[str]) -> None:
    text = "".join(ranks)
    packed = from_text(text)
    assert to_text(packed) == "".join(sorted(text, key=RANK_CHARS.index))
    assert from_text(text.lower()) == packed
    assert from_text(" ".join(ranks)) == packed


def deck_ranks(rules: str) -> list[str]:
    """The deck of a rule set as rank characters (suits do not matter in Dou Dizhu)."""
    ranks = [r for r in DOUDIZHU_RANKS[:-2] for _ in range(4)] + ["B", "R"]
    return [*ranks, WILDCARD] if get_rules(rules).wildcard else ranks


def assert_round_trips(move: Move) -> None:
    text = str(move)
    parsed = parse_move(text)
    assert (parsed.cards, parsed.natural) == (move.cards, move.natural)
    assert str(parsed) == text
    assert move in readings(text)


@pytest.mark.parametrize("rules", sorted(RULES))
@settings(max_examples=40)
@given(
    st.permutations(range(55)),
    st.integers(1, 21),
    st.integers(0, 20),
    st.data(),
)
def test_legal_moves_round_trip(
    rules: str, order: list[int], size: int, other_size: int, data: st.DataObject
) -> None:
    deck = deck_ranks(rules)
    shuffled = [deck[i] for i in order if i < len(deck)]
    hand = "".join(shuffled[: min(size, 21 if rules == "caishen" else 20)])
    other = "".join(shuffled[size : size + other_size])
    previous = ""
    if other:
        leads = legal_moves(other, "", rules)
        previous = str(data.draw(st.sampled_from(leads)))
    moves = legal_moves(hand, previous, rules)
    assert moves
    for move in moves:
        assert_round_trips(move)
