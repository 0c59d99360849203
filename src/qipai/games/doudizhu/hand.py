"""The data of one Dou Dizhu hand, its phases, its physical cards, and the deal.

:class:`Hand` holds everything a hand knows and deals the cards from the hand's own
generator.  The rules are added by its subclasses: :class:`.auction.Auction` (明牌, bidding,
robbing, doubling) and :class:`.state.State` (the public API, the play, the end).
Physical cards are tracked both as :class:`~qipai.cards.Card` lists (for views and hand
records) and as packed rank counts (for move generation, :mod:`.combos`).

>>> from qipai.cards import parse_cards
>>> cards = parse_cards("RJ 3h 3s Td")
>>> [str(c) for c in sorted(cards, key=sort_key)]
['3s', '3h', 'Td', 'RJ']
>>> from qipai.games.doudizhu.combos import to_text
>>> to_text(pack_cards(cards))
'33TR'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Self

from qipai.cards import WILDCARD, Card, doudizhu_deck, shuffled
from qipai.chance import DealStream, LegacyChance
from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import HAND_CARDS, Action
from qipai.games.doudizhu.combos import (
    BLACK,
    PASS,
    RANK_CHARS,
    RED,
    SLOT_MASK,
    TWO,
    Move,
    count_of,
    pack_cards,
    sort_key,
    unit,
)
from qipai.games.doudizhu.events import CardsDealt, Event
from qipai.games.doudizhu.rules import FirstBidder, Rules
from qipai.games.doudizhu.tasks import Task

SEATS = 3
"""Players at a Dou Dizhu table."""
_WILD_CARD = Card(WILDCARD)
_SLOT = {rank: slot for slot, rank in enumerate(RANK_CHARS)}


class Phase(enum.Enum):
    """Where a hand stands."""

    DEAL = "deal"
    """The cards are being dealt; 明牌 before / during the deal (caishen, huanle, jj)."""
    BID = "bid"
    """叫分 (points presets) or 叫地主 / 不叫 (call / rob presets)."""
    ROB = "rob"
    """抢地主: after a call, each other non-passer once, then the caller if robbed."""
    DOUBLE = "double"
    """加倍 decisions once the landlord has the bottom."""
    SHOW_AFTER_BOTTOM = "show_after_bottom"
    """The landlord may show (明牌) before the first lead (huanle, jj)."""
    PLAY = "play"
    """出牌."""
    OVER = "over"
    """A seat went out, or a seat escaped."""


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action and who applied it (``None``: the dealer)."""

    seat: int | None
    """The acting seat, or ``None`` for the dealer's :class:`.Deal`."""
    action: Action
    """The action."""


def bombs_in(packed: int) -> int:
    """Four-of-a-kind bombs plus the rocket held in a packed hand."""
    fours = sum(1 for s in range(TWO + 1) if count_of(packed, s) == 4)
    return fours + (1 if count_of(packed, BLACK) and count_of(packed, RED) else 0)


def take_cards(hand: list[Card], cards: int) -> list[Card]:
    """Remove the physical cards of the packed ``cards`` from ``hand`` (of each rank, the
    first in hand order: the lowest suits, ♠ ♥ ♣ ♦, hands being sorted)."""
    taken: list[Card] = []
    kept: list[Card] = []
    need = cards
    for card in hand:
        one = _UNIT_OF_RANK[card.rank]
        if need & (one * SLOT_MASK):
            need -= one
            taken.append(card)
        else:
            kept.append(card)
    hand[:] = kept
    return taken


def take_picked(hand: list[Card], picked: tuple[Card, ...]) -> list[Card]:
    """Remove the very cards ``picked`` (all in ``hand``) from ``hand``, in hand order."""
    chosen = set(picked)
    taken = [card for card in hand if card in chosen]
    hand[:] = [card for card in hand if card not in chosen]
    return taken


_UNIT_OF_RANK = {rank: unit(slot) for rank, slot in _SLOT.items()}


def _dealing_order(cards: list[Card], rules: Rules) -> tuple[Card, ...]:
    """One seat's 17 cards in the order they are dealt to him: as shuffled, or (jj,
    ``deal_high_to_low``) from his highest card to his lowest."""
    if rules.deal_high_to_low:
        return tuple(sorted(cards, key=sort_key, reverse=True))
    return tuple(cards)


def refuse(code: str, message: str) -> IllegalActionError:
    """The :class:`~qipai.errors.IllegalActionError` to raise (messages name no hidden card)."""
    return IllegalActionError(code, message)


_MUTABLE_LISTS = (
    "_queue",
    "shows",
    "show_order",
    "decided",
    "passed",
    "auction",
    "robs",
    "doubled",
    "plays",
    "play_counts",
    "trustee",
    "trustee_last_card",
    "events",
    "history",
)
_VALUES = (
    "rules",
    "seed",
    "hand_number",
    "first_seat",
    "balances",
    "phase",
    "deal_number",
    "_deal",
    "bottom",
    "cards_dealt",
    "marker",
    "marker_seat",
    "_drawn_first",
    "first_bidder",
    "shown_before_bidding",
    "current_player",
    "bid",
    "candidate",
    "landlord",
    "base",
    "trick_start",
    "to_beat",
    "to_beat_seat",
    "passes",
    "bombs",
    "rockets",
    "wild_bombs",
    "winner",
    "escaper",
    "spring",
    "anti_spring",
    "task",
    "task_completed",
)


class Hand:
    """What one Dou Dizhu hand knows, and its deal; :class:`.State` is the whole machine.

    The attributes are read-only for callers; hidden cards leave only through
    :meth:`.State.view` and the events' :meth:`~.events.Event.visible_to`.
    """

    __slots__ = (*_VALUES, *_MUTABLE_LISTS, "_chance", "hands", "packed")

    rules: Rules
    """The rule set."""
    _chance: DealStream | LegacyChance
    _deal: tuple[tuple[Card, ...], ...]
    _drawn_first: int | None
    _queue: list[int]
    seed: int
    """The seed of the hand's generator (secret: it decides every card)."""
    hand_number: int
    """The hand's number at its table (zhengtu rotates the first bidder by it)."""
    first_seat: int | None
    """The seat that sat down first (zhengtu's first bidder of hand 0; default seat 0)."""
    balances: tuple[int, ...] | None
    """Coins each seat brought (huanle doubling threshold); ``None``: no threshold."""
    phase: Phase
    """The current phase."""
    deal_number: int
    """1 for the first deal of the hand, 2 after the first redeal, ..."""
    bottom: tuple[Card, ...]
    """The bottom cards (hidden from the seats until :attr:`landlord` is known)."""
    cards_dealt: int
    """Cards dealt to each seat so far (17 once the deal is over)."""
    hands: list[list[Card]]
    """Each seat's physical cards, sorted."""
    packed: list[int]
    """Each seat's cards as a packed rank-count vector (for move generation)."""
    marker: Card | None
    """yifa: the marker card turned face up at the deal."""
    marker_seat: int | None
    """yifa: the seat that holds the marker card."""
    first_bidder: int | None
    """The seat that bid first (``None`` before the bidding or without bidding)."""
    shown_before_bidding: int
    """How many of :attr:`show_order` showed before the bidding began (their 明牌 gives
    the first of them the bidding's first word, or the landlord's seat if nobody calls)."""
    current_player: int | None
    """The seat to act; ``None`` while the dealer deals and once the hand is over."""
    shows: list[int]
    """Each seat's 明牌 factor (1 = has not shown)."""
    show_order: list[int]
    """Seats that showed, first shower first."""
    decided: list[bool]
    """Each seat made a bidding decision (bid, call or rob, or passed one) in this deal."""
    passed: list[bool]
    """Call / rob presets: each seat said 不叫 (so may not rob)."""
    auction: list[tuple[int, Action]]
    """Bidding, robbing, doubling and after-bottom show decisions, in order."""
    bid: int
    """The standing bid (points presets)."""
    candidate: int | None
    """The standing bidder, caller or last robber."""
    landlord: int | None
    """The landlord, once known."""
    base: int
    """底分: the winning bid (points presets), else 1."""
    robs: list[tuple[int, int]]
    """Each rob as (robber, robbed)."""
    doubled: list[bool]
    """Each seat chose 加倍."""
    plays: list[tuple[int, Move]]
    """Every play of the hand, passes included."""
    trick_start: int
    """Index in :attr:`plays` where the current trick began."""
    to_beat: Move
    """The combination to beat; :data:`~.combos.PASS` when the player to act leads."""
    to_beat_seat: int | None
    """Who played :attr:`to_beat`."""
    passes: int
    """Passes in a row since the last play."""
    play_counts: list[int]
    """Combinations (not passes) each seat played."""
    bombs: int
    """Four-card bombs played."""
    rockets: int
    """Rockets played."""
    wild_bombs: int
    """Five-card 财神 bombs played."""
    winner: int | None
    """The seat that went out first."""
    escaper: int | None
    """The seat that escaped, ending the hand."""
    spring: bool
    """春天."""
    anti_spring: bool
    """反春."""
    task: Task | None
    """The hand's 任务, drawn from ``rules.tasks`` when the hand starts (``None``: none)."""
    task_completed: bool
    """The winning side completed :attr:`task` (once over)."""
    trustee: list[bool]
    """Seats in 托管."""
    trustee_last_card: list[bool]
    """Seats that entered their current 托管 with one card left."""
    events: list[Event]
    """Every event so far."""
    history: list[Step]
    """Every applied action with its seat: ``replay`` input."""

    @property
    def chance(self) -> str:
        """The hand's chance version (:mod:`qipai.chance`): ``v2``, or ``v1`` for old records."""
        return self._chance.version

    def clone(self) -> Self:
        """An independent copy (lists copied, immutable values shared; no deepcopy)."""
        other = type(self).__new__(type(self))
        for name in _VALUES:
            setattr(other, name, getattr(self, name))
        for name in _MUTABLE_LISTS:
            setattr(other, name, list(getattr(self, name)))
        other.hands = [list(hand) for hand in self.hands]
        other.packed = list(self.packed)
        other._chance = self._chance.clone()
        return other

    # --- the deal ---------------------------------------------------------------------

    def _new_deal(self, deck: list[Card] | None = None) -> None:
        """Shuffle and deal with the hand's source of chance; reset everything of a deal.

        The draws of each deal, in order: the shuffle of :func:`~qipai.cards.doudizhu_deck`
        (skipped for a prearranged ``deck``), then ``randbelow(51)`` for the marker card's
        position (yifa) or ``randbelow(3)`` for a random first bidder.
        """
        rules = self.rules
        if deck is None:
            deck = shuffled(doudizhu_deck(), self._chance)
        dealt = SEATS * HAND_CARDS
        self._deal = tuple(
            _dealing_order(deck[s * HAND_CARDS : (s + 1) * HAND_CARDS], rules) for s in range(SEATS)
        )
        self.bottom = tuple(deck[dealt:]) + ((_WILD_CARD,) if rules.wildcard else ())
        self.marker = self.marker_seat = self._drawn_first = None
        if rules.first_bidder is FirstBidder.MARKER_CARD:
            index = self._chance.randbelow(dealt)
            self.marker, self.marker_seat = deck[index], index // HAND_CARDS
        elif rules.first_bidder is FirstBidder.RANDOM:
            self._drawn_first = self._chance.randbelow(SEATS)
        self._reset_deal()
        show = rules.show
        if show.before_deal or show.during_deal or show.before_bid:
            self.phase = Phase.DEAL
        else:
            self._deal_cards(HAND_CARDS)

    def _reset_deal(self) -> None:
        self.phase = Phase.DEAL
        self.current_player = None
        self.cards_dealt = 0
        self.hands = [[] for _ in range(SEATS)]
        self.packed = [0] * SEATS
        self.first_bidder = None
        self.shown_before_bidding = 0
        self._queue = []
        self.shows = [1] * SEATS
        self.show_order = []
        self.decided = [False] * SEATS
        self.passed = [False] * SEATS
        self.auction = []
        self.bid = 0
        self.candidate = self.landlord = None
        self.base = 1
        self.robs = []
        self.doubled = [False] * SEATS
        self.plays = []
        self.trick_start = self.passes = 0
        self.to_beat, self.to_beat_seat = PASS, None
        self.play_counts = [0] * SEATS
        self.bombs = self.rockets = self.wild_bombs = 0
        self.winner = self.escaper = None
        self.spring = self.anti_spring = self.task_completed = False

    def _deal_cards(self, cards: int) -> None:
        """Deal ``cards`` more to every seat; the bidding starts once all 17 are dealt."""
        start, end = self.cards_dealt, self.cards_dealt + cards
        for s in range(SEATS):
            new = self._deal[s][start:end]
            self.hands[s] = sorted(self.hands[s] + list(new), key=sort_key)
            self.packed[s] += pack_cards(new)
            self.events.append(CardsDealt(s, new, end, public=s in self.show_order))
        self.cards_dealt = end
        if end == HAND_CARDS:
            self._start_bidding()

    def _start_bidding(self) -> None:
        """The deal is complete: the subclass starts the bidding."""
        raise NotImplementedError

    # --- turns ------------------------------------------------------------------------

    def _turn(self, action: Action, seat: int | None) -> int:
        actor = self.current_player
        if actor is None:
            raise refuse("not_your_turn", f"no seat is to act ({action}): the dealer deals")
        if seat is not None and seat != actor:
            raise refuse("not_your_turn", f"seat {actor} is to act, not seat {seat} ({action})")
        return actor

    def _in_phase(self, action: Action, *phases: Phase) -> None:
        if self.phase not in phases:
            raise refuse("wrong_phase", f"{action} is not possible in phase {self.phase.value}")

    def _enter(self, phase: Phase, queue: list[int]) -> None:
        self.phase = phase
        self._queue = queue
        self.current_player = queue[0]

    def _next_in_queue(self) -> bool:
        """Drop the seat that acted; return whether someone is still to act in this phase."""
        self._queue.pop(0)
        if self._queue:
            self.current_player = self._queue[0]
            return True
        return False
