"""Cards, suits and decks, and their text notation (``docs/doudizhu.md``, "Notation").

A card is a rank character and, where suits exist, a :class:`Suit`.  The rank *order*
is a game's business: each game keeps exactly one rank-order table (Dou Dizhu ranks run
``3 … A 2 B R``, poker ranks ``2 … A``).  This module only knows which characters are
ranks and how to print and parse cards.

>>> Card.parse("Th")
Card(rank='T', suit=<Suit.HEARTS: 'h'>)
>>> [str(c) for c in parse_cards("3s BJ RJ W")]
['3s', 'BJ', 'RJ', 'W']
>>> format_cards(parse_cards("AsKsQs"))
'As Ks Qs'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from qipai.errors import InvalidActionError

POKER_RANKS = "23456789TJQKA"
"""Poker ranks low to high (Zha Jin Hua, Showhand)."""

DOUDIZHU_RANKS = "3456789TJQKA2BR"
"""Dou Dizhu ranks low to high; ``B``/``R`` are the black and red jokers."""

WILDCARD = "W"
"""The 财神 wildcard of the ``caishen`` Dou Dizhu preset."""

JOKER_CARDS = {"B": "BJ", "R": "RJ"}
"""How a joker rank is written as a physical card."""


class Suit(enum.Enum):
    """The four suits, written ``s h c d``."""

    SPADES = "s"
    HEARTS = "h"
    CLUBS = "c"
    DIAMONDS = "d"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash runs Python code

    @property
    def chinese(self) -> str:
        """The suit's Chinese name (黑桃, 红桃, 梅花, 方块)."""
        return _SUIT_CHINESE[self]

    @property
    def symbol(self) -> str:
        """The suit symbol ♠ ♥ ♣ ♦."""
        return _SUIT_SYMBOL[self]


_SUIT_CHINESE = {
    Suit.SPADES: "黑桃",
    Suit.HEARTS: "红桃",
    Suit.CLUBS: "梅花",
    Suit.DIAMONDS: "方块",
}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}
SUITS: tuple[Suit, ...] = tuple(Suit)
"""Suits in deck order (spades, hearts, clubs, diamonds)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card.

    ``rank`` is a single character of :data:`POKER_RANKS` or :data:`DOUDIZHU_RANKS`, or
    :data:`WILDCARD`.  Jokers and the wildcard have no suit.
    """

    rank: str
    """Rank character in the notation (``T`` is ten, ``B``/``R`` the jokers, ``W`` 财神)."""
    suit: Suit | None = None
    """Suit, or ``None`` for jokers and the wildcard."""

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``"3s"``, ``"Th"``, ``"BJ"``, ``"RJ"`` or ``"W"``.

        :raises InvalidActionError: ``bad_card`` if the text is not a card.
        """
        card = _CARD_BY_TEXT.get(text)
        if card is None:
            raise InvalidActionError("bad_card", f"not a card: {text!r}")
        return card

    def __str__(self) -> str:
        if self.suit is None:
            return JOKER_CARDS.get(self.rank, self.rank)
        return self.rank + self.suit.value


def _all_cards() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for rank in dict.fromkeys(POKER_RANKS + DOUDIZHU_RANKS[:-2]):
        for suit in SUITS:
            card = Card(rank, suit)
            table[str(card)] = card
    for rank in ("B", "R", WILDCARD):
        card = Card(rank)
        table[str(card)] = card
    return table


_CARD_BY_TEXT = _all_cards()


def parse_cards(text: str) -> list[Card]:
    """Parse cards written together (``"AsKs"``) or apart (``"As Ks"``).

    :raises InvalidActionError: ``bad_card`` on anything that is not a card.
    """
    compact = "".join(text.split())
    cards: list[Card] = []
    i = 0
    while i < len(compact):
        size = 1 if compact[i] == WILDCARD else 2
        cards.append(Card.parse(compact[i : i + size]))
        i += size
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards separated by spaces, in the given order."""
    return " ".join(str(card) for card in cards)


def poker_deck(ranks: str = POKER_RANKS) -> tuple[Card, ...]:
    """A suited deck of the given ranks (all 52 cards by default; Showhand uses ``8…A``)."""
    return tuple(Card(rank, suit) for rank in ranks for suit in SUITS)


def doudizhu_deck(*, wildcard: bool = False) -> tuple[Card, ...]:
    """The 54-card Dou Dizhu deck (52 + two jokers), plus ``W`` when ``wildcard``."""
    cards = [Card(rank, suit) for rank in DOUDIZHU_RANKS[:-2] for suit in SUITS]
    cards += [Card("B"), Card("R")]
    if wildcard:
        cards.append(Card(WILDCARD))
    return tuple(cards)


T = TypeVar("T")
"""Whatever a deck holds."""


class Shuffler(Protocol):
    """Anything that shuffles a list in place: a hand's :mod:`qipai.chance` source, or a
    ``random.Random``."""

    def shuffle(self, items: MutableSequence[T], /) -> None:
        """Shuffle ``items`` in place."""
        ...


def shuffled(cards: Sequence[Card], rng: Shuffler) -> list[Card]:
    """A shuffled copy of ``cards`` using the caller's seeded source of chance."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck
