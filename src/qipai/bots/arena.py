"""Play whole Dou Dizhu hands between policies, and sum up many of them (self-play).

Pure: no clock and no printing; the command line times :func:`selfplay` and prints its
:class:`SelfplaySummary`.

>>> summary = selfplay("yifa", hands=20, seed=1)
>>> summary.hands, summary.points_balance
(20, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from qipai.bots.doudizhu import GreedyPolicy, Policy
from qipai.bots.turns import play_out
from qipai.errors import IllegalActionError
from qipai.games.doudizhu.actions import Action
from qipai.games.doudizhu.rules import Rules, get_rules
from qipai.games.doudizhu.scoring import multiplier_breakdown
from qipai.games.doudizhu.state import State
from qipai.games.doudizhu.view import View

SEATS = 3


MAX_DEALS = 100
"""Deals :func:`play_hand` allows before it gives up (policies that never bid)."""


Observer = Callable[[int, View, Action], None]
"""Told of every decision: the seat, the view it decided from, and its action."""


def play_hand(state: State, policies: Sequence[Policy], observe: Observer | None = None) -> State:
    """Play ``state`` to its end: the dealer deals, each seat's policy decides from its view.

    ``observe``, if given, is called after each decision is applied.

    :raises IllegalActionError: ``no_landlord`` after :data:`MAX_DEALS` all-pass deals.
    """

    def guard() -> None:
        if state.deal_number > MAX_DEALS:
            raise IllegalActionError("no_landlord", f"nobody bid in {MAX_DEALS} deals")

    play_out(state, policies, observe, guard)
    return state


@dataclass(slots=True)
class SelfplaySummary:
    """What many self-played hands came to."""

    rules: str
    """The rule set's name."""
    hands: int = 0
    """Hands played."""
    landlord_wins: int = 0
    """Hands the landlord won."""
    redeals: int = 0
    """All-pass redeals."""
    bombs: int = 0
    """Bombs (four-card and five-card) played."""
    rockets: int = 0
    """Rockets played."""
    springs: int = 0
    """春天."""
    anti_springs: int = 0
    """反春."""
    multiplier_total: int = 0
    """Sum over hands and landlord–farmer pairs of the pair multiplier."""
    points_balance: int = 0
    """Sum of every seat's points over every hand: 0 if scoring is zero-sum."""
    points_by_seat: list[int] = field(default_factory=lambda: [0] * SEATS)
    """Points each seat won in total."""

    def add(self, state: State) -> None:
        """Count one finished hand."""
        self.hands += 1
        self.landlord_wins += state.winner == state.landlord
        self.redeals += state.deal_number - 1
        self.bombs += state.bombs + state.wild_bombs
        self.rockets += state.rockets
        self.springs += state.spring
        self.anti_springs += state.anti_spring
        self.multiplier_total += sum(p.multiplier for p in multiplier_breakdown(state.facts()))
        points = state.returns()
        self.points_balance += sum(points)
        for seat, value in enumerate(points):
            self.points_by_seat[seat] += value

    @property
    def landlord_win_rate(self) -> float:
        """Share of hands won by the landlord."""
        return self.landlord_wins / self.hands if self.hands else 0.0

    @property
    def average_multiplier(self) -> float:
        """Average landlord–farmer pair multiplier."""
        return self.multiplier_total / (2 * self.hands) if self.hands else 0.0

    def lines(self) -> list[str]:
        """The summary as short report lines."""
        n = max(self.hands, 1)
        return [
            f"rules {self.rules}: {self.hands} hands",
            f"landlord win rate {self.landlord_win_rate:.3f}",
            f"average multiplier {self.average_multiplier:.2f}",
            f"bombs {self.bombs} ({self.bombs / n:.3f}/hand), rockets {self.rockets}",
            f"springs {self.springs}, anti-springs {self.anti_springs}, redeals {self.redeals}",
            f"points balance {self.points_balance} (zero-sum check)",
        ]


def selfplay(
    rules: str | Rules,
    *,
    hands: int,
    seed: int = 0,
    make_policy: Callable[[int], Policy] = lambda seat: GreedyPolicy(),
) -> SelfplaySummary:
    """Play ``hands`` hands; hand ``i`` is dealt from seed ``seed + i``."""
    rule_set = get_rules(rules)
    policies = [make_policy(seat) for seat in range(SEATS)]
    summary = SelfplaySummary(rule_set.name)
    for i in range(hands):
        state = State.new(rule_set, seed=seed + i, hand_number=i)
        summary.add(play_hand(state, policies))
    return summary
