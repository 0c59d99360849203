"""Zha Jin Hua events: what happened, as frozen values, each knowing who may see it.

:meth:`.State.apply` returns the events an action caused and appends them to
``state.events``.  Events are public except :class:`CardsSeen` (a player's own cards when
he looks, to him alone).  Everyone learns *that* a player looked and who lost a compare
(:class:`Looked`, :class:`Compared`); a compare names no card ("所有玩家看不到两人的牌面":
not even its two players see the other's hand).  :class:`HandEnded` shows every hand to
everyone ("游戏结束后，将公开全部玩家的牌").

>>> from qipai.cards import parse_cards
>>> seen = CardsSeen(seat=1, cards=tuple(parse_cards("AsKsQs")))
>>> [seen.visible_to(s) for s in range(3)]
[False, True, False]
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.cards import Card
from qipai.games.events import Event as GameEvent


class Event(GameEvent):
    """Base of every Zha Jin Hua event (never instantiated itself); public by default."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand began: the players, the dealer, the stacks before the ante."""

    rules: str
    """The rule set's name."""
    players: int
    """Number of seats (2-6)."""
    dealer: int
    """庄家."""
    stacks: tuple[int, ...]
    """Each seat's chips before the ante."""


@dataclass(frozen=True, slots=True)
class AntesPaid(Event):
    """锅底: every seat put ``ante`` into the pot."""

    ante: int
    """What each seat paid."""
    pot: int
    """The pot afterwards."""


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Three cards face down to each seat, starting with the dealer (no card is named)."""

    dealer: int
    """Who was dealt first."""
    first_to_act: int
    """The seat after the dealer, who acts first."""


@dataclass(frozen=True, slots=True)
class Looked(Event):
    """看牌: ``seat`` is now seen 明牌 (public; the cards are in :class:`CardsSeen`)."""

    seat: int
    """Who looked."""


@dataclass(frozen=True, slots=True)
class CardsSeen(Event):
    """``seat``'s own cards, shown to him when he looks."""

    seat: int
    """Who looked."""
    cards: tuple[Card, ...]
    """His three cards."""

    def visible_to(self, seat: int) -> bool:
        """Only the owner."""
        return seat == self.seat


@dataclass(frozen=True, slots=True)
class Called(Event):
    """跟: ``seat`` paid ``amount`` at stake ``stake`` (``auto``: 自动跟注 did it)."""

    seat: int
    """Who called."""
    stake: int
    """The stake 单注 called."""
    amount: int
    """Chips paid (the stake × the blind / seen factor, cut at the cap)."""
    auto: bool
    """Whether the system called for the seat (自动跟注)."""


@dataclass(frozen=True, slots=True)
class Raised(Event):
    """加: ``seat`` raised the stake to ``stake`` and paid ``amount``."""

    seat: int
    """Who raised."""
    stake: int
    """The new stake."""
    amount: int
    """Chips paid."""


@dataclass(frozen=True, slots=True)
class Folded(Event):
    """弃: ``seat`` gave up."""

    seat: int
    """Who folded."""


@dataclass(frozen=True, slots=True)
class Compared(Event):
    """比牌: ``initiator`` paid ``amount`` to compare with ``target``; ``loser`` is out.
    Public, and all that anyone learns of the compare: no card."""

    initiator: int
    """Who asked to compare (he loses ties)."""
    target: int
    """The opponent chosen."""
    amount: int
    """Chips the initiator paid."""
    loser: int
    """Who is out."""


@dataclass(frozen=True, slots=True)
class AutoCallChanged(Event):
    """自动跟注 switched on, or off (取消跟注, or the system: he could not pay the call)."""

    seat: int
    """The seat."""
    on: bool
    """Whether the system now calls for the seat."""


@dataclass(frozen=True, slots=True)
class CapReached(Event):
    """封顶: ``seat``'s total in the pot reached the cap; the system opens all hands."""

    seat: int
    """Whose total reached the cap."""
    total: int
    """His total put in."""


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: the winner, the money, and every hand, shown to everyone."""

    winner: int
    """Who takes the pot."""
    reason: str
    """``last_standing`` (everyone else folded or lost a compare) or ``cap``."""
    pot: int
    """The whole pot, all of it the winner's."""
    returns: tuple[int, ...]
    """Each seat's net chips for the hand (zero-sum: the hall takes the room's rake)."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's three cards."""
    opened: tuple[int, ...]
    """The cap showdown: the seats opened, in betting order (empty otherwise)."""
    categories: tuple[str, ...]
    """Each seat's hand category (:data:`~qipai.games.zhajinhua.hands.CATEGORIES`)."""
