"""What one seat may see of a hand: the :class:`View`, the only door for hidden cards.

A view is a fresh, frozen snapshot built by :meth:`.State.view`.  Every seat sees the
public facts: stacks, totals put in, the pot and stake, who is blind or seen, who folded,
who lost a compare (every compare's two players, price and loser), who has 自动跟注 on.
Cards, by :meth:`.State.sees_own_cards` and the compare rule:

- his own cards once he has looked — never while blind, and never after he folded, until
  the hand is over;
- no opponent's cards before the end: a compare shows nobody the two hands
  ("所有玩家看不到两人的牌面"), its two players included;
- every hand once the hand is over ("游戏结束后，将公开全部玩家的牌").

A spectator (seat :data:`~qipai.games.events.SPECTATOR`) sees the public facts and no card
before the end (he has no hand to look at; a compare shows him nothing either), then every
hand; he has no cost to pay and no legal action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from qipai.cards import Card
from qipai.games.events import is_spectator
from qipai.games.zhajinhua.actions import Action
from qipai.games.zhajinhua.hands import category_of_cards

if TYPE_CHECKING:
    from qipai.games.zhajinhua.state import State


@dataclass(frozen=True, slots=True)
class View:
    """One seat's snapshot of a hand (all tuples, indexed by seat)."""

    seat: int
    """Whose view this is (:data:`~qipai.games.events.SPECTATOR`: a spectator's)."""
    rules: str
    """The rule set's name."""
    players: int
    """Number of seats."""
    dealer: int
    """庄家."""
    first_to_act: int
    """The seat after the dealer (betting order starts here)."""
    current_player: int | None
    """Whose turn it is (``None`` once over)."""
    round: int
    """The betting round of the player to act (his own turn number; 0 once over)."""
    stake: int
    """The current stake 单注."""
    pot: int
    """Chips in the pot (0 once paid out)."""
    stacks: tuple[int, ...]
    """Each seat's chips."""
    put: tuple[int, ...]
    """Each seat's total put into the pot."""
    seen: tuple[bool, ...]
    """Seats that are seen 明牌."""
    folded: tuple[bool, ...]
    """Seats that folded."""
    out: tuple[bool, ...]
    """Seats that lost a compare."""
    auto_call: tuple[bool, ...]
    """Seats with 自动跟注 on."""
    hand: tuple[Card, ...] | None
    """The seat's own cards, or ``None`` while he may not see them."""
    known_hands: tuple[tuple[Card, ...] | None, ...]
    """Every seat's cards as far as this seat may know them (``None``: hidden)."""
    known_categories: tuple[str | None, ...]
    """The category of each of :attr:`known_hands` (``hands.CATEGORIES``; ``None``: hidden)."""
    compares: tuple[tuple[int, int, int, int], ...]
    """Each compare as (initiator, target, amount paid, loser): public."""
    call_cost: int
    """What a call would cost this seat now (0 for a spectator)."""
    compare_cost: int
    """What a compare would cost this seat now (0 for a spectator)."""
    winner: int | None
    """The winner, once over."""
    reason: str | None
    """``last_standing`` or ``cap``, once over."""
    returns: tuple[int, ...] | None
    """Each seat's net chips (zero-sum, before the hall's rake), once over."""
    opened: tuple[int, ...]
    """The cap showdown's opening order (empty otherwise)."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now (nothing for a spectator)."""


def known_seats(state: State, seat: int) -> frozenset[int]:
    """The seats whose cards ``seat`` may see now: every seat once the hand is over, before
    that at most his own (never a compare's other hand; none for a spectator)."""
    if state.is_terminal:
        return frozenset(range(state.players))
    if is_spectator(seat):
        return frozenset()
    return frozenset({seat} if state.sees_own_cards(seat) else ())


def make_view(state: State, seat: int) -> View:
    """Build ``seat``'s view of ``state`` (use :meth:`.State.view`)."""
    known = known_seats(state, seat)
    over = state.is_terminal
    seated = not is_spectator(seat)
    return View(
        seat=seat,
        rules=state.rules.name,
        players=state.players,
        dealer=state.dealer,
        first_to_act=state.first,
        current_player=state.current_player,
        round=state.round,
        stake=state.stake,
        pot=state.pot,
        stacks=state.stacks,
        put=state.put,
        seen=state.seen,
        folded=state.folded,
        out=state.out,
        auto_call=state.auto_call,
        hand=state.hands[seat] if seat in known else None,
        known_hands=tuple(h if s in known else None for s, h in enumerate(state.hands)),
        known_categories=tuple(
            category_of_cards(h) if s in known else None for s, h in enumerate(state.hands)
        ),
        compares=tuple((r.initiator, r.target, r.amount, r.loser) for r in state.compares),
        call_cost=state.call_cost(seat) if seated else 0,
        compare_cost=state.compare_cost(seat) if seated else 0,
        winner=state.winner,
        reason=state.reason,
        returns=state.returns() if over else None,
        opened=state.opened,
        legal_actions=tuple(state.legal_actions(seat)) if seated else (),
    )
