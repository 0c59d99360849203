"""What the strong player knows at a decision, in packed form: the :class:`Situation`.

Built from a seat's :class:`~qipai.games.doudizhu.view.View` only (:func:`situation_of`),
so the strong player sees no more than a human would: its own cards, the plays, the card
counts, the bottom once revealed and the hands shown (明牌).  ``unseen`` is every card it
cannot place for sure; ``known`` the cards it knows another seat holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from qipai.bots.doudizhu.decompose import FULL, Shapes
from qipai.cards import doudizhu_deck
from qipai.games.doudizhu.actions import Play
from qipai.games.doudizhu.combos import WILD, Move, pack_cards, unit
from qipai.games.doudizhu.rules import Rules, get_rules
from qipai.games.doudizhu.view import View

SEATS = 3
DECKS = {wild: pack_cards(doudizhu_deck(wildcard=wild)) for wild in (False, True)}
"""The whole deck, packed: 54 cards, or 55 with the 财神."""


@dataclass(frozen=True)
class Situation:
    """One seat's decision in the card play, in packed form."""

    seat: int
    """Who decides."""
    landlord: int
    """The landlord's seat."""
    hand: int
    """The seat's cards, packed."""
    counts: tuple[int, ...]
    """Cards each seat holds."""
    to_beat: Move
    """The play to beat (a pass: the seat leads)."""
    to_beat_seat: int | None
    """Who played :attr:`to_beat`."""
    moves: tuple[Move, ...]
    """The legal plays (the pass first when following)."""
    unseen: int
    """Every card the seat cannot see: the others' hands, packed."""
    known: tuple[int, ...]
    """Per seat, the cards the seat knows it holds (shown hands, the landlord's unplayed
    bottom cards); its own seat's entry is its hand."""
    rules: Rules
    """The rule set."""
    shapes: Shapes = FULL
    """The kicker shapes the rules allow."""

    @property
    def leading(self) -> bool:
        """Whether the seat leads (nothing to beat)."""
        return self.to_beat.is_pass

    @property
    def is_landlord(self) -> bool:
        """Whether the seat is the landlord."""
        return self.seat == self.landlord

    @cached_property
    def partner(self) -> int | None:
        """The other farmer, for a farmer."""
        if self.is_landlord:
            return None
        return 3 - self.seat - self.landlord

    @cached_property
    def opponents(self) -> tuple[int, ...]:
        """The seats on the other side."""
        if self.is_landlord:
            return tuple(s for s in range(SEATS) if s != self.seat)
        return (self.landlord,)

    @cached_property
    def opponent_pool(self) -> int:
        """The cards the opponents may hold: for a farmer, the unseen cards but those he
        knows his partner holds."""
        partner = self.partner
        return self.unseen if partner is None else self.unseen - self.known[partner]

    @cached_property
    def opponent_most(self) -> int:
        """The most cards an opponent holds."""
        return max(self.counts[s] for s in self.opponents)

    @cached_property
    def opponent_fewest(self) -> int:
        """The fewest cards an opponent holds."""
        return min(self.counts[s] for s in self.opponents)

    def after(self, seat: int) -> int:
        """The seat that plays after ``seat``."""
        return (seat + 1) % SEATS


def shapes_of(rules: Rules) -> Shapes:
    """The kicker shapes ``rules`` allows."""
    return Shapes(trio_single=rules.trio_single, trio_pair=True)


def situation_of(view: View) -> Situation:
    """The packed situation of a seat's view in the card play (its landlord known)."""
    assert view.landlord is not None
    rules = get_rules(view.rules)
    hand = pack_cards(view.hand)
    played = [0, 0, 0]
    for seat, move in view.plays:
        played[seat] += move.cards
    known = [pack_cards(h) if h is not None else 0 for h in view.shown_hands]
    known[view.seat] = hand
    if view.bottom is not None and not known[view.landlord]:
        known[view.landlord] = _unplayed(pack_cards(view.bottom), played[view.landlord])
    deck = DECKS[rules.wildcard]
    moves = tuple(action.move for action in view.legal_actions if isinstance(action, Play))
    return Situation(
        seat=view.seat,
        landlord=view.landlord,
        hand=hand,
        counts=view.card_counts,
        to_beat=view.to_beat,
        to_beat_seat=view.to_beat_seat,
        moves=moves,
        unseen=deck - hand - sum(played),
        known=tuple(known),
        rules=rules,
        shapes=shapes_of(rules),
    )


def _unplayed(cards: int, played: int) -> int:
    """The part of ``cards`` not (as far as ranks tell) among ``played``."""
    left = 0
    for slot in range(WILD + 1):
        have = (cards >> (4 * slot)) & 0xF
        gone = (played >> (4 * slot)) & 0xF
        left += unit(slot, max(0, have - gone))
    return left
