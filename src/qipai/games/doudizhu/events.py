"""Dou Dizhu events: what happened, as frozen values, each knowing who may see it.

:meth:`.State.apply` returns the events an action caused and appends them to
``state.events``.  An event is public unless it says otherwise: :meth:`Event.visible_to`
is ``False`` for the seats that may not see it (the server sends them a numbered
placeholder instead).  :class:`CardsDealt` is private (a seat sees its own cards, and
everyone sees the cards of a seat that showed 明牌 before they were dealt), and so is a
:class:`Doubled` made at the same time as the others' until :class:`DoublesRevealed`.

>>> from qipai.cards import parse_cards
>>> dealt = CardsDealt(seat=1, cards=tuple(parse_cards("3s 4h")), cards_dealt=2, public=False)
>>> [dealt.visible_to(s) for s in range(3)]
[False, True, False]
>>> BidMade(seat=0, points=2, robbed=None).visible_to(2)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.cards import Card
from qipai.games.doudizhu.combos import Move
from qipai.games.doudizhu.tasks import Task
from qipai.games.events import Event as GameEvent


class Event(GameEvent):
    """Base of every Dou Dizhu event (never instantiated itself); public by default."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand began under ``rules`` (the seed stays secret: it decides every card)."""

    rules: str
    """The rule set's name."""
    hand_number: int
    """The hand's number at its table (0 = the first)."""


@dataclass(frozen=True, slots=True)
class TaskDrawn(Event):
    """任务: the hand's task, drawn from the rules' list at the start of the hand."""

    task: Task
    """The task (its id on the wire: ``bomb_finish``...)."""


@dataclass(frozen=True, slots=True)
class Redealt(Event):
    """Everybody passed the bidding: the cards are collected and dealt again."""

    deal: int
    """The number of the new deal within the hand (2 = the first redeal)."""


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """``cards`` were dealt to ``seat``; private unless the seat had shown its hand."""

    seat: int
    """Who received the cards."""
    cards: tuple[Card, ...]
    """The physical cards dealt in this step."""
    cards_dealt: int
    """How many cards each seat holds once this step is done."""
    public: bool
    """The seat had shown (明牌) already, so everyone sees its new cards."""

    def visible_to(self, seat: int) -> bool:
        """The receiving seat, and everyone when the seat plays open."""
        return self.public or seat == self.seat


@dataclass(frozen=True, slots=True)
class MarkerTurned(Event):
    """yifa: the marker card 明牌 is face up; its holder bids first."""

    card: Card
    """The marker card."""
    seat: int
    """The seat that was dealt it."""


@dataclass(frozen=True, slots=True)
class BiddingStarted(Event):
    """The bidding starts with ``seat``, the first bidder."""

    seat: int
    """The first bidder."""
    reason: str
    """``marker_card``, ``random``, ``seat_order`` or ``first_shower``."""


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """明牌: ``seat`` plays with the hand open; ``cards`` is its whole hand at this moment."""

    seat: int
    """Who showed."""
    cards: tuple[Card, ...]
    """The seat's cards now (cards dealt later are revealed as they come)."""
    factor: int
    """The 明牌 factor earned by showing at this moment."""
    cards_dealt: int
    """Cards dealt to each seat when the seat showed (17 after the deal)."""


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """叫分: ``seat`` bid ``points`` (0 = pass)."""

    seat: int
    """The bidder."""
    points: int
    """The bid, 0 for a pass."""
    robbed: int | None
    """yifa (``rob_by_outbid``): the standing bidder this bid robbed, if any."""


@dataclass(frozen=True, slots=True)
class Called(Event):
    """叫地主 or 不叫."""

    seat: int
    """Who decided."""
    call: bool
    """``True`` for 叫地主."""


@dataclass(frozen=True, slots=True)
class Robbed(Event):
    """抢地主 or 不抢."""

    seat: int
    """Who decided."""
    rob: bool
    """``True`` for 抢地主."""
    robbed: int | None
    """The standing candidate who lost the seat (``None`` when not robbing)."""


@dataclass(frozen=True, slots=True)
class LandlordChosen(Event):
    """The landlord is known."""

    seat: int
    """The landlord."""
    base: int
    """底分 of the hand."""
    reason: str
    """``bid``, ``call``, ``rob``, ``first_shower`` or ``forced``."""


@dataclass(frozen=True, slots=True)
class BottomShown(Event):
    """The bottom cards are turned face up on the table before the bidding (caishen)."""

    cards: tuple[Card, ...]
    """The bottom cards."""


@dataclass(frozen=True, slots=True)
class BottomRevealed(Event):
    """The bottom cards are shown to all and join the landlord's hand."""

    landlord: int
    """Who takes them."""
    cards: tuple[Card, ...]
    """The bottom cards."""


@dataclass(frozen=True, slots=True)
class Doubled(Event):
    """加倍 or 不加倍; a choice made at the same time as the others' (huanle, jj) is the
    chooser's secret until :class:`DoublesRevealed`."""

    seat: int
    """Who decided."""
    double: bool
    """``True`` for 加倍."""
    secret: bool = False
    """Chosen at the same time as the others: only ``seat`` sees it now."""

    def visible_to(self, seat: int) -> bool:
        """Everyone, or only the chooser while the choices are secret."""
        return not self.secret or seat == self.seat


@dataclass(frozen=True, slots=True)
class DoublesRevealed(Event):
    """Every seat has chosen 加倍 or not (or let the time run out): the choices, together."""

    doubled: tuple[bool, ...]
    """Each seat's choice (``False`` also for a seat that was not asked)."""


@dataclass(frozen=True, slots=True)
class ShowDeclined(Event):
    """The landlord did not show after taking the bottom."""

    seat: int
    """The landlord."""


@dataclass(frozen=True, slots=True)
class Played(Event):
    """``seat`` played ``move`` (the pass included) with these physical ``cards``."""

    seat: int
    """Who played."""
    move: Move
    """The combination with its reading, or the pass."""
    cards: tuple[Card, ...]
    """The physical cards that left the hand (empty for a pass)."""
    cards_left: int
    """Cards the seat holds after the play."""


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """``winner`` went out; the hand is over."""

    winner: int
    """The seat that went out first."""
    landlord_won: bool
    """Whether that seat is the landlord."""
    spring: bool
    """春天."""
    anti_spring: bool
    """反春."""


@dataclass(frozen=True, slots=True)
class TaskCompleted(Event):
    """The winning side completed the hand's task: its result is doubled (just before
    :class:`HandEnded`)."""

    task: Task
    """The task."""
    side: str
    """``landlord`` or ``farmers``: who completed it."""


@dataclass(frozen=True, slots=True)
class Escaped(Event):
    """逃跑: ``seat`` left the unfinished hand; the hand is over."""

    seat: int
    """The escaper."""


@dataclass(frozen=True, slots=True)
class TrusteeChanged(Event):
    """托管 switched on or off for ``seat``."""

    seat: int
    """The seat."""
    on: bool
    """Whether the system now plays for the seat."""
    cards_left: int
    """Cards the seat held at the switch (jj: entering with one card is scored normally)."""
