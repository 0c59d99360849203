"""Dou Dizhu policies: 托管 (trustee), a random player, and a simple greedy player.

Every policy maps a seat's view to one of the view's legal actions:

>>> from qipai.games.doudizhu.state import State
>>> state = State.new("yifa", seed=7)
>>> seat, view = drive_to_decision(state)
>>> isinstance(GreedyPolicy().choose(view), Action)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from qipai.games.doudizhu.actions import (
    Action,
    Bid,
    Call,
    Double,
    NoCall,
    NoDouble,
    NoRob,
    NoShow,
    Play,
    Rob,
)
from qipai.games.doudizhu.combos import BLACK, RED, TWO, Kind, Move, count_of, counts
from qipai.games.doudizhu.state import State, pack_cards
from qipai.games.doudizhu.view import View

_DECLINES = (Bid(0), NoCall(), NoRob(), NoDouble(), NoShow())


class Policy(Protocol):
    """Anything that picks an action from a view."""

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions``."""
        ...


def decline(legal: Sequence[Action]) -> Action:
    """The cautious choice in bidding, robbing, 明牌 and 加倍: pass, no, no, no."""
    for action in _DECLINES:
        if action in legal:
            return action
    return legal[0]


def _plays(view: View) -> list[Move]:
    return [a.move for a in view.legal_actions if isinstance(a, Play)]


def _going_out(view: View, moves: list[Move]) -> Move | None:
    """A play that empties the hand, if there is one."""
    size = len(view.hand)
    return next((m for m in moves if not m.is_pass and m.size == size), None)


class TrusteePolicy:
    """托管 exactly as the platforms describe it (the JJ rules page, used by every preset).

    Bidding, robbing, 明牌 and 加倍: decline.  Following: pass — except with one card left,
    which is played whenever it may be.  Leading: the smallest natural single (never the
    财神 while another card is left; with one card left, that card).  Three 托管 seats
    never call, so a table of them redeals for ever: :func:`~qipai.bots.arena.play_hand`
    stops that.
    """

    def choose(self, view: View) -> Action:
        """The 托管 action for ``view``."""
        moves = _plays(view)
        if not moves:
            return decline(view.legal_actions)
        if len(view.hand) == 1:
            out = _going_out(view, moves)
            if out is not None:
                return Play(out)
        if not view.to_beat.is_pass:
            return Play(moves[0])  # the pass comes first when following
        singles = [m for m in moves if m.kind is Kind.SINGLE and not m.uses_wild]
        return Play(_smallest(singles or moves))


def _smallest(moves: list[Move]) -> Move:
    """The smallest play, a natural one (no 财神 spent) when there is one."""
    return min(moves, key=lambda m: (m.uses_wild, m.size, m.main))


class RandomPolicy:
    """Uniformly random legal actions from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The policy's generator."""

    def choose(self, view: View) -> Action:
        """A random legal action."""
        return self.rng.choice(view.legal_actions)


def hand_strength(view: View) -> int:
    """A rough strength score of the seat's hand: jokers, 2s, aces and bombs count."""
    packed = pack_cards(view.hand)
    score = 4 * count_of(packed, RED) + 3 * count_of(packed, BLACK)
    score += 2 * count_of(packed, TWO) + count_of(packed, TWO - 1)
    score += 6 * sum(1 for c in counts(packed)[: TWO + 1] if c == 4)
    return score + 5 * count_of(packed, 15)


class GreedyPolicy:
    """A simple opponent: bids on strength, sheds long combinations, spares its partner.

    Not a strong player; it exists so that self-play and the terminal game have sensible
    opponents.  Bidding: a strength score (:func:`hand_strength`) against thresholds.
    Leading: the ordinary combination with the most cards, lowest first.  Following: the
    lowest play that beats, never over a partner, bombs only when an opponent is close to
    going out.  Always goes out when it can.
    """

    def choose(self, view: View) -> Action:
        """The greedy action for ``view``."""
        moves = _plays(view)
        if not moves:
            return self._bid(view)
        out = _going_out(view, moves)
        if out is not None:
            return Play(out)
        if view.to_beat.is_pass:
            return Play(_best_lead(moves))
        return Play(self._follow(view, moves))

    @staticmethod
    def _bid(view: View) -> Action:
        legal = view.legal_actions
        strength = hand_strength(view)
        wanted: list[Action] = [Bid(min(3, strength // 4)) if strength >= 4 else Bid(0)]
        if strength >= 6:
            wanted.append(Call())
        if strength >= 9:
            wanted += [Rob(), Double()]
        for action in wanted:
            if action in legal and action != Bid(0):
                return action
        return decline(legal)

    @staticmethod
    def _follow(view: View, moves: list[Move]) -> Move:
        landlord = view.landlord
        partner_played = view.to_beat_seat is not None and landlord not in (
            view.seat,
            view.to_beat_seat,
        )
        beating = [m for m in moves if not m.is_pass]
        if partner_played or not beating:
            return moves[0]
        ordinary = [m for m in beating if not m.kind.is_bomb]
        if ordinary:
            return min(ordinary, key=lambda m: (m.main, m.uses_wild))
        opponents = [
            n
            for seat, n in enumerate(view.card_counts)
            if seat != view.seat and (landlord in (seat, view.seat))
        ]
        if opponents and min(opponents) <= 5:
            return min(beating, key=lambda m: (m.kind, m.main))
        return moves[0]


def _best_lead(moves: list[Move]) -> Move:
    ordinary = [m for m in moves if not m.kind.is_bomb] or moves
    return max(ordinary, key=lambda m: (m.size, -m.main, not m.uses_wild))


def drive_to_decision(state: State) -> tuple[int, View]:
    """Run the dealer's steps until a seat must decide; that seat and its view."""
    while state.current_player is None and not state.is_terminal:
        state.apply(state.legal_actions()[0])
    if state.current_player is None:
        raise ValueError("the hand is over")
    seat = state.current_player
    return seat, state.view(seat)
