"""The strong Dou Dizhu player: hand decomposition, control, teamwork and endgame search.

- **The card play** (:mod:`.heuristic`): every play judged by the value of the hand it
  leaves (:mod:`.decompose`), with control, danger and teamwork on top.
- **Endgame search** (:mod:`.endgame`) once few cards are left: the unseen cards are dealt
  at random, consistent with what it knows, many times over, and each candidate play is
  played out; the play that wins most often is chosen.
- **Bidding** by the value of the 17 cards (bid, call, rob, 明牌 and 加倍 thresholds).

>>> from qipai.games.doudizhu.state import State
>>> from qipai.bots.arena import play_hand
>>> state = play_hand(State.new("jj", seed=3), [StrongPolicy(), StrongPolicy(), StrongPolicy()])
>>> state.is_terminal, sum(state.returns())
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from qipai.bots.doudizhu.decompose import value
from qipai.bots.doudizhu.endgame import BUDGET, WORLDS, search, wants_search
from qipai.bots.doudizhu.heuristic import heuristic_play
from qipai.bots.doudizhu.simple import decline
from qipai.bots.doudizhu.situation import Situation, situation_of
from qipai.games.doudizhu.actions import Action, Bid, Call, Double, Play, Rob, Show
from qipai.games.doudizhu.combos import Move, pack_cards
from qipai.games.doudizhu.view import View

BID_THRESHOLDS = (-75, -60, -48)
"""The 17-card value at or above which it bids 1, 2 or 3 points."""
CALL_AT = -62
"""The 17-card value at or above which it calls (叫地主)."""
ROB_AT = -50
"""... robs (抢地主)."""
DOUBLE_AT = -52
"""... chooses 加倍 (a farmer's value is judged the same way)."""
SHOW_AT = -25
"""... shows (明牌)."""


class StrongPolicy:
    """The strong player (module docstring).  ``seed`` seeds its endgame search, so that
    the same seed replays the same decisions; ``worlds`` is the number of deals the search
    tries at most (0: no search, the decomposition player alone) and ``budget`` the
    play-out decisions after which it tries no new deal."""

    def __init__(self, seed: int = 0, *, worlds: int = WORLDS, budget: int = BUDGET) -> None:
        self.seed = seed
        """Seeds the search: each decision's generator is drawn from it and the position,
        so the same position gets the same play whatever came before."""
        self.worlds = worlds
        """Deals per endgame search, at most."""
        self.budget = budget
        """Play-out decisions per endgame search, about."""

    def choose(self, view: View) -> Action:
        """The strong action for ``view``."""
        if any(isinstance(action, Play) for action in view.legal_actions):
            return Play(self.play(situation_of(view)))
        return self.bid(view)

    def play(self, situation: Situation) -> Move:
        """The strong play in ``situation``."""
        moves = situation.moves
        size = situation.counts[situation.seat]
        out = next((m for m in moves if not m.is_pass and m.size == size), None)
        if out is not None:
            return out
        if len(moves) == 1:
            return moves[0]
        if self.worlds and wants_search(situation):
            rng = random.Random(self._position_seed(situation))
            return search(situation, rng, self.worlds, self.budget)
        return heuristic_play(situation)

    def _position_seed(self, situation: Situation) -> int:
        """The search's seed for ``situation``: the policy's seed mixed with the position
        (ints only, whose hash Python keeps the same from run to run)."""
        to_beat = situation.to_beat
        position = (situation.seat, situation.hand, situation.counts, to_beat.cards, to_beat.main)
        return hash((self.seed, position)) & ((1 << 64) - 1)

    @staticmethod
    def bid(view: View) -> Action:
        """Bidding, robbing, 明牌 and 加倍 by the hand's value."""
        return bid_by_value(view.legal_actions, value(pack_cards(view.hand)))


def bid_by_value(legal: Sequence[Action], worth: int) -> Action:
    """The bidding action for a hand worth ``worth`` (:func:`.decompose.value`)."""
    bids = [Bid(points) for points in (3, 2, 1) if worth >= BID_THRESHOLDS[points - 1]]
    wanted: list[Action] = [*bids]
    if worth >= SHOW_AT:
        wanted.append(Show())
    if worth >= ROB_AT:
        wanted.append(Rob())
    if worth >= CALL_AT:
        wanted.append(Call())
    if worth >= DOUBLE_AT:
        wanted.append(Double())
    for action in wanted:
        if action in legal:
            return action
    return decline(legal)
