"""The arena: whole hands of any game between policies, self-play runs and paired matches.

One driver plays a hand of Dou Dizhu, Zha Jin Hua or Showhand to its end
(:func:`play_hand`): the dealer's steps where the game has them, then each seat's policy
deciding from ``state.view(seat)``, every action applied through the engine's
validate-then-apply.  :func:`selfplay` plays many hands at one table and sums them up in
an :class:`ArenaSummary`; :func:`compare` plays every deal twice with the sides swapped
(duplicate deals) and reports each policy's win rate per side with a 95% Wilson interval.

Pure: no clock and no printing; the command line times a run and prints its ``lines()``.

>>> summary = selfplay("doudizhu", "yifa", hands=20, seed=1)
>>> summary.hands, summary.balance, len(summary.wins_by_seat)
(20, 0, 3)
>>> selfplay("zhajinhua", "yifa", hands=20, seed=1, players=4).balance
0
>>> from qipai.bots.doudizhu import GreedyPolicy
>>> duel = compare("doudizhu", "yifa", GreedyPolicy(), GreedyPolicy(), deals=10, seed=1)
>>> duel.overall.rate, duel.a == duel.b
(0.5, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from qipai.bots import doudizhu as ddz_bots
from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.bots.turns import Chooser, PlayableHand, play_out
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu import rules as ddz_rules
from qipai.games.doudizhu import state as ddz
from qipai.games.doudizhu.actions import Action as DdzAction
from qipai.games.doudizhu.scoring import multiplier_breakdown
from qipai.games.doudizhu.view import View as DdzView
from qipai.games.showhand import rules as sh_rules
from qipai.games.showhand import state as sh
from qipai.games.showhand.actions import Action as ShAction
from qipai.games.showhand.view import View as ShView
from qipai.games.zhajinhua import rules as zjh_rules
from qipai.games.zhajinhua import state as zjh
from qipai.games.zhajinhua.actions import Action as ZjhAction
from qipai.games.zhajinhua.view import View as ZjhView

MAX_DEALS = 100
"""Dou Dizhu deals :func:`play_hand` allows before it gives up (policies that never bid)."""
SEAT_STRIDE = 7
"""Seat ``s`` of a run seeded ``seed`` seeds its bot with ``seed * SEAT_STRIDE + s``
(:func:`seat_policies`); more than any table's seats, so no two seats share a seed."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


class ArenaHand(PlayableHand[Any, Any], Protocol):
    """A hand in play, as the arena drives it: the turn loop's protocol plus the result."""

    def returns(self) -> Sequence[int]:
        """Each seat's net points or chips (zeros until the hand is over)."""
        ...


R = TypeVar("R")
S = TypeVar("S", bound=ArenaHand)
V = TypeVar("V")
A = TypeVar("A")


def _no_guard(state: ArenaHand) -> None:
    del state


@dataclass(frozen=True, slots=True)
class ArenaGame(Generic[R, S, V, A]):
    """What the arena needs to know of one game: how to deal, its bots, what to count."""

    name: str
    """The game's name (``doudizhu``, ``zhajinhua``, ``showhand``)."""
    unit: str
    """What the returns count: ``points`` or ``chips``."""
    seats: range
    """The table sizes the game allows; self-play defaults to the largest."""
    sides: tuple[str, str]
    """The two sides of :func:`compare`: Dou Dizhu's roles, or the seats of a heads-up table."""
    get_rules: Callable[[str | R], R]
    """A preset name or a rule set → the game's ``Rules`` (with a ``name``)."""
    start: Callable[[R, int, int, int, S | None], S]
    """``(rules, seed, players, hand number, previous hand or None)`` → a new hand."""
    bots: Mapping[str, Callable[[int], Chooser[V, A]]]
    """The game's policies by name, each made from a seed; the first is the default."""
    side: Callable[[V], int | None]
    """The side (0 or 1) of a view's seat, or ``None`` while unknown (the auction)."""
    figures: Callable[[S], dict[str, int]]
    """The game's own counts of one finished hand (bombs, folds, showdowns…)."""
    report: Callable[[ArenaSummary], list[str]]
    """The game's own report lines of a summary, from its figures."""
    guard: Callable[[S], None] = _no_guard
    """Called before every step; raises to stop a hand that would never end."""

    @property
    def default_bot(self) -> str:
        """The name of the game's default policy."""
        return next(iter(self.bots))


# --- Dou Dizhu ------------------------------------------------------------------------------


def _ddz_start(
    rules: ddz_rules.Rules, seed: int, players: int, number: int, previous: ddz.State | None
) -> ddz.State:
    del players, previous
    return ddz.State.new(rules, seed=seed, hand_number=number)


def _ddz_guard(state: ddz.State) -> None:
    if state.deal_number > MAX_DEALS:
        raise IllegalActionError("no_landlord", f"nobody bid in {MAX_DEALS} deals")


def _ddz_side(view: DdzView) -> int | None:
    return None if view.landlord is None else int(view.seat != view.landlord)


def _ddz_figures(state: ddz.State) -> dict[str, int]:
    return {
        "landlord_wins": int(state.winner == state.landlord),
        "redeals": state.deal_number - 1,
        "bombs": state.bombs + state.wild_bombs,
        "rockets": state.rockets,
        "springs": int(state.spring),
        "anti_springs": int(state.anti_spring),
        "multiplier_total": sum(p.multiplier for p in multiplier_breakdown(state.facts())),
    }


def _ddz_report(summary: ArenaSummary) -> list[str]:
    total = summary.total
    return [
        f"landlord win rate {summary.per_hand('landlord_wins'):.3f}",
        f"average multiplier {summary.per_hand('multiplier_total') / 2:.2f}",
        f"bombs {total('bombs')} ({summary.per_hand('bombs'):.3f}/hand), "
        f"rockets {total('rockets')}",
        f"springs {total('springs')}, anti-springs {total('anti_springs')}, "
        f"redeals {total('redeals')}",
    ]


DOUDIZHU: ArenaGame[ddz_rules.Rules, ddz.State, DdzView, DdzAction] = ArenaGame(
    name="doudizhu",
    unit="points",
    seats=range(ddz.SEATS, ddz.SEATS + 1),
    sides=("landlord", "farmers"),
    get_rules=ddz_rules.get_rules,
    start=_ddz_start,
    bots=ddz_bots.BOTS,
    side=_ddz_side,
    figures=_ddz_figures,
    report=_ddz_report,
    guard=_ddz_guard,
)
"""Dou Dizhu: three seats; hand ``i`` is the table's hand number ``i`` (zhengtu rotation).
Average multiplier: over the landlord–farmer pairs; bombs: four- and five-card ones."""


# --- Zha Jin Hua ----------------------------------------------------------------------------


def _zjh_start(
    rules: zjh_rules.Rules, seed: int, players: int, number: int, previous: zjh.State | None
) -> zjh.State:
    del number
    dealer = None if previous is None else previous.next_dealer
    return zjh.State.new(rules, seed=seed, players=players, dealer=dealer)


def _zjh_figures(state: zjh.State) -> dict[str, int]:
    return {
        "cap_showdowns": int(state.reason == "cap"),
        "compares": len(state.compares),
        "folds": sum(state.folded),
        "pot_total": sum(state.put),
    }


def _zjh_report(summary: ArenaSummary) -> list[str]:
    total = summary.total
    return [
        f"cap showdowns {total('cap_showdowns')}, compares {total('compares')}, "
        f"folds {total('folds')}",
        f"average pot {summary.per_hand('pot_total'):.1f}",
    ]


def _seat(view: ZjhView | ShView) -> int:
    return view.seat


ZHAJINHUA: ArenaGame[zjh_rules.Rules, zjh.State, ZjhView, ZjhAction] = ArenaGame(
    name="zhajinhua",
    unit="chips",
    seats=range(2, 7),
    sides=("seat 0", "seat 1"),
    get_rules=zjh_rules.get_rules,
    start=_zjh_start,
    bots={
        "simple": lambda seed: zjh_bots.SimplePolicy(),
        "strong": zjh_bots.StrongPolicy,
        "random": zjh_bots.RandomPolicy,
        "fold": lambda seed: zjh_bots.FoldPolicy(),
    },
    side=_seat,
    figures=_zjh_figures,
    report=_zjh_report,
)
"""Zha Jin Hua: 2-6 seats, each hand starting with every stack at the cap; the first
hand's dealer is drawn, later ones follow the rules' dealer rule.  Cap showdowns are the
hands the cap 封顶 ended."""


# --- Showhand -------------------------------------------------------------------------------


def _sh_start(
    rules: sh_rules.Rules, seed: int, players: int, number: int, previous: sh.State | None
) -> sh.State:
    del number, previous
    return sh.State.new(rules, seed=seed, players=players)


def _sh_figures(state: sh.State) -> dict[str, int]:
    return {
        "showdowns": int(state.reason == "showdown"),
        "opened": int(state.opened_by is not None),
        "show_hands": int(any(str(step.action) == "showhand" for step in state.history)),
        "extra_rounds": max(0, state.round - 4),
        "pot_total": sum(state.bets) + state.rules.ante * state.players,
    }


def _sh_report(summary: ArenaSummary) -> list[str]:
    total = summary.total
    return [
        f"showdowns {total('showdowns')} ({summary.per_hand('showdowns'):.3f}/hand), "
        f"opened {total('opened')}",
        f"show-hands {total('show_hands')}, extra rounds {total('extra_rounds')}",
        f"average pot {summary.per_hand('pot_total'):.1f}",
    ]


SHOWHAND: ArenaGame[sh_rules.Rules, sh.State, ShView, ShAction] = ArenaGame(
    name="showhand",
    unit="chips",
    seats=range(sh_rules.MIN_PLAYERS, sh_rules.MAX_PLAYERS + 1),
    sides=("seat 0", "seat 1"),
    get_rules=sh_rules.get_rules,
    start=_sh_start,
    bots={
        "simple": lambda seed: sh_bots.SimplePolicy(),
        "strong": sh_bots.StrongPolicy,
        "random": sh_bots.RandomPolicy,
        "trustee": lambda seed: sh_bots.TrusteePolicy(),
    },
    side=_seat,
    figures=_sh_figures,
    report=_sh_report,
)
"""Showhand: 2-4 seats, every stack at the minimum to sit.  Show-hands: hands in which
someone 梭'd; extra rounds: betting rounds after round 4."""


SomeArenaGame: TypeAlias = "ArenaGame[Any, Any, Any, Any]"
"""A game of the arena found by name: its types are the game's own, left open."""

GAMES: Mapping[str, SomeArenaGame] = MappingProxyType(
    {game.name: game for game in (DOUDIZHU, ZHAJINHUA, SHOWHAND)}
)
"""Every game of the arena by name."""
_BY_STATE: Mapping[type, SomeArenaGame] = {
    ddz.State: DOUDIZHU,
    zjh.State: ZHAJINHUA,
    sh.State: SHOWHAND,
}


def get_game(name: str) -> SomeArenaGame:
    """The arena's description of the game ``name``.

    :raises InvalidActionError: ``unknown_game``.
    """
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise InvalidActionError("unknown_game", f"unknown game {name!r}; known: {known}") from None


# --- one hand -------------------------------------------------------------------------------


def play_hand(
    state: S,
    policies: Sequence[Chooser[V, A]],
    observe: Callable[[int, V, A], None] | None = None,
) -> S:
    """Play ``state`` (a hand of any game) to its end and return it.

    The dealer's steps run by themselves; each seat's policy decides from its own view,
    and the engine validates every action before applying it.  ``observe``, if given, is
    told of each decision once applied (seat, view, action).

    :raises IllegalActionError: ``no_landlord`` after :data:`MAX_DEALS` all-pass Dou
        Dizhu deals (a table of 托管 seats never bids).
    """
    game = _BY_STATE.get(type(state))
    guard = _no_guard if game is None else game.guard
    play_out(state, policies, observe, lambda: guard(state))
    return state


# --- self-play ------------------------------------------------------------------------------


@dataclass(slots=True)
class ArenaSummary:
    """What many hands at one table came to, in any game."""

    game: str
    """The game's name."""
    rules: str
    """The rule set's name."""
    players: int
    """Seats at the table."""
    hands: int = 0
    """Hands played."""
    wins_by_seat: list[int] = field(default_factory=list)
    """Hands each seat ended ahead (net > 0): a Dou Dizhu win counts for both farmers."""
    net_by_seat: list[int] = field(default_factory=list)
    """Points (Dou Dizhu) or chips each seat won in total."""
    figures: dict[str, int] = field(default_factory=dict)
    """The game's own counts summed over the hands (:attr:`ArenaGame.figures`)."""

    def __post_init__(self) -> None:
        self.wins_by_seat = self.wins_by_seat or [0] * self.players
        self.net_by_seat = self.net_by_seat or [0] * self.players

    @property
    def balance(self) -> int:
        """The sum of every seat's net: 0 when the game's returns are zero-sum."""
        return sum(self.net_by_seat)

    @property
    def unit(self) -> str:
        """``points`` or ``chips``."""
        return get_game(self.game).unit

    def total(self, figure: str) -> int:
        """A figure summed over the hands (0 if never counted)."""
        return self.figures.get(figure, 0)

    def per_hand(self, figure: str) -> float:
        """A figure's average per hand (0 before any hand)."""
        return self.total(figure) / self.hands if self.hands else 0.0

    def add(self, state: ArenaHand) -> None:
        """Count one finished hand of this summary's game."""
        game = get_game(self.game)
        self.hands += 1
        for seat, value in enumerate(state.returns()):
            self.net_by_seat[seat] += value
            self.wins_by_seat[seat] += value > 0
        for name, value in game.figures(state).items():
            self.figures[name] = self.total(name) + value

    def lines(self) -> list[str]:
        """The summary as short report lines: the table, the game's own, then the seats."""
        unit = self.unit
        return [
            f"rules {self.rules}: {self.hands} hands, {self.players} players",
            *get_game(self.game).report(self),
            f"wins by seat {self.wins_by_seat}",
            f"{unit} by seat {self.net_by_seat}",
            f"{unit} balance {self.balance} (zero-sum check)",
        ]


def seat_policies(game: str, bot: str, players: int, seed: int = 0) -> list[Chooser[Any, Any]]:
    """One ``bot`` (a name of :attr:`ArenaGame.bots`) per seat; seat ``s`` gets its own seed,
    ``seed * SEAT_STRIDE + s`` (it matters for random bots only).

    :raises InvalidActionError: ``unknown_game``, ``unknown_bot``.
    """
    spec = get_game(game)
    if bot not in spec.bots:
        known = ", ".join(spec.bots)
        raise InvalidActionError("unknown_bot", f"no {game} bot {bot!r}; known: {known}")
    make = spec.bots[bot]
    return [make(seed * SEAT_STRIDE + seat) for seat in range(players)]


def selfplay(
    game: str,
    rules: object,
    *,
    hands: int,
    seed: int = 0,
    players: int | None = None,
    policies: Sequence[Chooser[V, A]] | None = None,
) -> ArenaSummary:
    """Play ``hands`` hands of ``game`` at one table and sum them up.

    Hand ``i`` is dealt from seed ``seed + i`` (and is the table's hand number ``i``).
    ``rules`` is a preset name or the game's ``Rules``.  ``players`` defaults to the number
    of ``policies``, else to the game's largest table; ``policies`` (one per seat, kept
    for the whole run) default to the game's default bot at every seat.

    :raises InvalidActionError: ``unknown_game``, ``unknown_rules``, ``bad_players``.
    """
    spec = get_game(game)
    size = _table_size(spec, players, policies)
    chosen = policies or seat_policies(game, spec.default_bot, size, seed)
    rule_set = spec.get_rules(rules)
    summary = ArenaSummary(spec.name, rule_set.name, size)
    state = None
    for number in range(hands):
        state = spec.start(rule_set, seed + number, size, number, state)
        summary.add(play_hand(state, chosen))
    return summary


def _table_size(
    game: ArenaGame[R, S, V, A], players: int | None, policies: Sequence[object] | None
) -> int:
    if players is None:
        players = len(policies) if policies else game.seats[-1]
    if players not in game.seats:
        raise InvalidActionError(
            "bad_players", f"{game.name}: {game.seats[0]}-{game.seats[-1]} players, not {players}"
        )
    if policies and len(policies) != players:
        raise InvalidActionError(
            "bad_players", f"one policy per seat: {players}, not {len(policies)}"
        )
    return players


# --- paired comparison ----------------------------------------------------------------------


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``(0, 1)`` without games.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    scale = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / scale
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / scale
    # The rate is inside in exact arithmetic; the clamps keep it so in floating point.
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))


@dataclass(frozen=True, slots=True)
class WinRate:
    """Wins out of games, with its 95% Wilson interval."""

    wins: int
    """Games won."""
    games: int
    """Games played."""

    @property
    def rate(self) -> float:
        """The share of games won (0 without games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate`."""
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.rate:.3f} [{low:.3f}, {high:.3f}] ({self.wins}/{self.games})"


@dataclass(frozen=True, slots=True)
class Comparison:
    """Policy A against policy B over paired deals: each deal played once from each side."""

    game: str
    """The game's name."""
    rules: str
    """The rule set's name."""
    names: tuple[str, str]
    """A's and B's class names."""
    sides: tuple[str, str]
    """The two sides (:attr:`ArenaGame.sides`)."""
    a: tuple[WinRate, WinRate]
    """A's win rate playing each side (indexed like :attr:`sides`)."""
    b: tuple[WinRate, WinRate]
    """B's win rate playing each side."""
    points: tuple[int, int]
    """A's and B's net points or chips over every hand."""

    @property
    def hands(self) -> int:
        """Hands played: two per deal."""
        return self.a[0].games + self.a[1].games

    @property
    def overall(self) -> WinRate:
        """A's win rate over both sides; about 0.5 when A and B are equally strong.

        Its interval treats the hands as independent: for paired deals it errs wide."""
        return WinRate(self.a[0].wins + self.a[1].wins, self.hands)

    def lines(self) -> list[str]:
        """The comparison as short report lines."""
        return [
            f"rules {self.rules}: {self.hands // 2} deals, each played from both sides",
            *(
                f"{label} {name} as {side} {rate}"
                for label, name, rates in zip("AB", self.names, (self.a, self.b), strict=True)
                for side, rate in zip(self.sides, rates, strict=True)
            ),
            f"A overall {self.overall}",
            f"net A {self.points[0]:+d}, B {self.points[1]:+d}",
        ]


class SidePolicy(Generic[V, A]):
    """Plays each seat with the policy of its side; before a seat's side is known (Dou
    Dizhu's auction) the ``bidder`` plays it."""

    def __init__(
        self,
        side: Callable[[V], int | None],
        players: tuple[Chooser[V, A], Chooser[V, A]],
        bidder: Chooser[V, A],
    ) -> None:
        self.side = side
        """The side of a view's seat (:attr:`ArenaGame.side`)."""
        self.players = players
        """The policies of side 0 and side 1."""
        self.bidder = bidder
        """The policy of seats whose side is not known yet."""

    def choose(self, view: V) -> A:
        """The action of the policy playing ``view``'s seat."""
        side = self.side(view)
        return (self.bidder if side is None else self.players[side]).choose(view)


def compare(
    game: str,
    rules: object,
    policy_a: Chooser[V, A],
    policy_b: Chooser[V, A],
    *,
    deals: int,
    seed: int = 0,
    bidder: Chooser[V, A] | None = None,
) -> Comparison:
    """Pit ``policy_a`` against ``policy_b`` on ``deals`` paired deals.

    Deal ``i`` (seed ``seed + i``) is played twice: A plays side 0 and B side 1, then the
    sides swapped.  In Dou Dizhu the sides are the landlord and the farmers; the auction
    is played by ``bidder`` (default: the game's default bot) at every seat in both hands,
    so both hands of a pair have the same landlord, and A and B play from there (加倍,
    明牌 and the cards).  Zha Jin Hua and Showhand are played heads-up, a side per seat.

    :raises InvalidActionError: ``unknown_game``, ``unknown_rules``.
    """
    spec = get_game(game)
    rule_set = spec.get_rules(rules)
    auction = bidder or spec.bots[spec.default_bot](seed)
    pairs = [
        play_pair(spec, rule_set, (policy_a, policy_b), auction, seed=seed + deal, number=deal)
        for deal in range(deals)
    ]
    return Comparison(
        spec.name,
        rule_set.name,
        (type(policy_a).__name__, type(policy_b).__name__),
        spec.sides,
        side_rates(pairs, 0),
        side_rates(pairs, 1),
        (sum(pair.net[0] for pair in pairs), sum(pair.net[1] for pair in pairs)),
    )


@dataclass(frozen=True, slots=True)
class PairedDeal:
    """One deal played twice: A on side 0 and B on side 1, then the sides swapped."""

    won: tuple[tuple[bool, bool], tuple[bool, bool]]
    """``won[who][side]``: whether A (``who`` 0) or B (1) won playing ``side``."""
    net: tuple[int, int]
    """A's and B's net points or chips over both hands."""


def play_pair(
    game: ArenaGame[R, S, V, A],
    rules: R,
    policies: tuple[Chooser[V, A], Chooser[V, A]],
    bidder: Chooser[V, A],
    *,
    seed: int,
    number: int,
) -> PairedDeal:
    """Play the deal ``seed`` (the table's hand ``number``) twice between ``policies``
    (A, B), the sides swapped the second time; ``bidder`` plays Dou Dizhu's auction.

    ``rules`` is the game's ``Rules`` (:attr:`ArenaGame.get_rules`).
    """
    players = game.seats[0]
    won, net = [[False, False], [False, False]], [0, 0]
    for swapped in (0, 1):
        order = policies[::-1] if swapped else policies
        state = game.start(rules, seed, players, number, None)
        play_hand(state, [SidePolicy(game.side, order, bidder)] * players)
        for side, (side_won, side_net) in enumerate(_side_results(game, state)):
            who = side ^ swapped  # 0: A, 1: B
            won[who][side] = side_won
            net[who] += side_net
    return PairedDeal(((won[0][0], won[0][1]), (won[1][0], won[1][1])), (net[0], net[1]))


def side_rates(pairs: Sequence[PairedDeal], who: int) -> tuple[WinRate, WinRate]:
    """A's (``who`` 0) or B's (1) win rate playing each side over ``pairs``."""
    wins = [sum(pair.won[who][side] for pair in pairs) for side in (0, 1)]
    return WinRate(wins[0], len(pairs)), WinRate(wins[1], len(pairs))


def _side_results(game: ArenaGame[R, S, V, A], state: S) -> list[tuple[bool, int]]:
    """Per side of a finished hand: whether it won (a seat of it ended ahead) and its net."""
    returns = state.returns()
    seats: list[list[int]] = [[], []]
    for seat, value in enumerate(returns):
        side = game.side(state.view(seat))
        if side is not None:
            seats[side].append(value)
    return [(any(value > 0 for value in values), sum(values)) for values in seats]
