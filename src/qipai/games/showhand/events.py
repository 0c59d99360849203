"""Showhand events: what happened, as frozen values, each knowing who may see it.

:meth:`.State.apply` returns the events an action caused and appends them to
``state.events``.  An event is public unless it says otherwise: a face-down card dealt
(:class:`CardDealt` with ``face_up=False``) and a 换牌 decision (:class:`SwapChosen`) are
seen only by their seat; the up cards that result are public (:class:`CardTurned`) once
every player has decided.

>>> from qipai.cards import Card
>>> hole = CardDealt(seat=1, card=Card.parse("As"), number=1, face_up=False)
>>> [hole.visible_to(s) for s in range(3)]
[False, True, False]
>>> Acted(seat=0, action="call", put=5, round_bet=5, total=5).visible_to(2)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.cards import Card
from qipai.games.events import Event as GameEvent


class Event(GameEvent):
    """Base of every Showhand event (never instantiated itself); public by default."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand began under ``rules`` with these players and stacks (the seed stays secret)."""

    rules: str
    """The rule set's name."""
    stacks: tuple[int, ...]
    """Chips each seat brought to the hand, before the ante."""
    most: int
    """The most one player may bet in this hand (梭 level): the smallest stack, at most the cap."""


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """锅底: ``seat`` put ``amount`` into the pot."""

    seat: int
    """Who paid."""
    amount: int
    """Chips paid."""


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """Card number ``number`` (1-5) went to ``seat``, face up or face down."""

    seat: int
    """Who received it."""
    card: Card
    """The card."""
    number: int
    """1 = the hole card 底牌, 2 = the first up card, 3-5 later cards."""
    face_up: bool
    """Public when face up; a face-down card is seen by ``seat`` only."""

    def visible_to(self, seat: int) -> bool:
        """Everyone for a face-up card, else only the receiver."""
        return self.face_up or seat == self.seat


@dataclass(frozen=True, slots=True)
class SwapChosen(Event):
    """换牌 decision of ``seat`` (private until every player has decided)."""

    seat: int
    """Who decided."""
    swap: bool
    """``True``: the new card became the hole card."""

    def visible_to(self, seat: int) -> bool:
        """Only the deciding seat."""
        return seat == self.seat


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    """After the 换牌 decisions, ``card`` of ``seat`` lies face up (not saying which it was)."""

    seat: int
    """Whose card."""
    card: Card
    """The card now face up."""


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """Betting round ``number`` starts; ``leader`` shows the best up cards and acts first."""

    number: int
    """1-4, then the extra rounds 5, 6 ..."""
    leader: int
    """The seat with the best up cards."""


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """A betting action: ``action`` is its text (``bet 5``, ``call``, ``showhand``...)."""

    seat: int
    """Who acted."""
    action: str
    """The action's text form."""
    put: int
    """Chips this action put into the pot."""
    round_bet: int
    """The seat's chips in this round after the action."""
    total: int
    """The seat's bets in this hand after the action (ante excluded)."""


@dataclass(frozen=True, slots=True)
class Opened(Event):
    """开: ``seat`` opened; the hand goes to the showdown."""

    seat: int
    """Who opened."""


@dataclass(frozen=True, slots=True)
class Showdown(Event):
    """The hands of the players still in, shown to all: (seat, hole card + up cards)."""

    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    """Each remaining seat and its five cards, the hole card first."""
    categories: tuple[str, ...]
    """The category of each of those hands, in the same order
    (:data:`~qipai.games.showhand.hands.CATEGORIES`)."""


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: ``winners`` share the ``pot``."""

    winners: tuple[int, ...]
    """The winner (one seat, except in a tie that distinct cards cannot produce)."""
    pot: int
    """Chips in the pot, antes included."""
    reason: str
    """``fold`` (one player left) or ``showdown``."""
