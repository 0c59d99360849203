"""What one seat may see of a Showhand hand: the :class:`View`, the only door for hidden cards.

A view is a fresh, frozen snapshot built by :meth:`.State.view`; nothing in it aliases the
live state.  It holds the seat's own hole card and its face-down card awaiting 换牌, every
seat's up cards, the chips, and — once the hand is over by a showdown — the hole cards of
the players who reached it.  It never holds another seat's hole card before that, nor the
hole card of a player who folded (that one stays hidden for good).

A spectator's view (seat :data:`~qipai.games.events.SPECTATOR`) holds no hole card and no
pending card of its own, nothing to call and no legal action: only the up cards, the chips
and the hole cards shown at the showdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from qipai.cards import Card
from qipai.games.events import is_spectator
from qipai.games.showhand.actions import Action
from qipai.games.showhand.hands import category_of_cards

if TYPE_CHECKING:
    from qipai.games.showhand.state import Phase, State


@dataclass(frozen=True, slots=True)
class View:
    """One seat's snapshot of a hand (all tuples, indexed by seat)."""

    seat: int
    """Whose view this is (:data:`~qipai.games.events.SPECTATOR`: a spectator's)."""
    rules: str
    """The rule set's name."""
    phase: Phase
    """The current phase."""
    round: int
    """The betting round (or the next one, during 换牌)."""
    current_player: int | None
    """The seat to act (``None`` once over)."""
    leader: int
    """Who shows the best up cards (acts first in the round; may 开 from round 4)."""
    hole: Card | None
    """The seat's own hole card (a seat that folded still sees its own); ``None`` for a
    spectator."""
    pending: Card | None
    """The seat's own face-down card awaiting its 换牌 decision."""
    up: tuple[tuple[Card, ...], ...]
    """Every seat's face-up cards, in the order they were turned."""
    shown: tuple[Card | None, ...]
    """Hole cards shown at the showdown (``None``: hidden, folded, or no showdown yet)."""
    categories: tuple[str, ...]
    """The category of what this seat may see of each hand: its own cards, another seat's
    up cards, or his whole hand once shown (``hands.CATEGORIES``; of 1-4 cards: at most
    ``four_of_a_kind``)."""
    folded: tuple[bool, ...]
    """Seats that folded."""
    stacks: tuple[int, ...]
    """Chips each seat holds out of the pot."""
    bets: tuple[int, ...]
    """Each seat's bets in this hand (ante excluded)."""
    round_bets: tuple[int, ...]
    """Each seat's bets in this round."""
    pot: int
    """Chips in the pot."""
    level: int
    """The round's bet."""
    to_call: int
    """Chips this seat must add to call (0 for a spectator)."""
    most: int
    """The most one player may bet in this hand (梭 level)."""
    winners: tuple[int, ...]
    """The winner once over."""
    returns: tuple[int, ...] | None
    """Chips won or lost per seat once over."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now (empty when it is not its turn)."""

    @property
    def own_cards(self) -> tuple[Card, ...]:
        """The seat's own hole card and up cards (none for a spectator)."""
        if self.hole is None:
            return ()
        return (self.hole, *self.up[self.seat])


def _category(state: State, seat: int, other: int, shown: Card | None) -> str:
    flip = state.rules.flush_beats_full_house
    up = state.up[other]
    cards = (state.hole[other], *up) if other == seat or shown is not None else up
    return category_of_cards(cards, flush_beats_full_house=flip)


def make_view(state: State, seat: int) -> View:
    """Build ``seat``'s view of ``state`` (use :meth:`.State.view`)."""
    over = state.is_terminal
    seated = not is_spectator(seat)
    showdown = over and state.reason == "showdown"
    shown = tuple(
        state.hole[s] if showdown and not state.folded[s] else None for s in range(state.players)
    )
    return View(
        seat=seat,
        rules=state.rules.name,
        phase=state.phase,
        round=state.round,
        current_player=state.current_player,
        leader=state.leader,
        hole=state.hole[seat] if seated else None,
        pending=state.pending[seat] if seated else None,
        up=tuple(tuple(cards) for cards in state.up),
        shown=shown,
        categories=tuple(_category(state, seat, s, shown[s]) for s in range(state.players)),
        folded=tuple(state.folded),
        stacks=tuple(state.stacks),
        bets=tuple(state.bets),
        round_bets=tuple(state.round_bets),
        pot=state.pot,
        level=state.level,
        to_call=state.to_call(seat) if seated else 0,
        most=state.most,
        winners=state.winners,
        returns=state.returns() if over else None,
        legal_actions=tuple(state.legal_actions()) if seat == state.current_player else (),
    )
