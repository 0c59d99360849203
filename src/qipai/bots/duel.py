"""The duel: two named bots of a game over many paired deals, in parallel, timed.

:func:`duel` plays deal ``i`` (seed ``seed + i``) twice with :func:`qipai.bots.arena.play_pair`:
bot A on side 0 and bot B on side 1, then the sides swapped, so the luck of the cards
cancels out.  The deals are split into contiguous chunks played by ``jobs`` worker
processes (started with ``spawn``: a script that runs a duel with ``jobs`` above 1 needs
the ``if __name__ == "__main__":`` guard); each deal gets fresh bots seeded from the deal,
so the figures are the same whatever ``jobs`` is.  Every decision of A and B is timed,
after one untimed warm-up deal per process (:func:`warm_up`).

The result (:class:`DuelResult`) holds each bot's win rate per side with its 95% Wilson
interval, A's mean points (or chips) per deal with a 95% interval, and each bot's
decision-time percentiles; ``lines()`` prints it, ``to_json()`` serialises it.
:mod:`qipai.bots.reference` fills the same result from RLCard's Dou Dizhu.

>>> result = duel("doudizhu", "greedy", "random", rules="yifa", deals=4, seed=1)
>>> result.a[0], result.names
(WinRate(wins=4, games=4), ('greedy', 'random'))
>>> DuelResult.from_json(result.to_json()) == result
True
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

import msgspec

from qipai.bots.arena import (
    SEAT_STRIDE,
    Z95,
    PairedDeal,
    WinRate,
    get_game,
    play_pair,
    seat_policies,
    side_rates,
)
from qipai.bots.turns import Chooser
from qipai.errors import InvalidActionError
from qipai.jsontypes import Json

V = TypeVar("V")
A = TypeVar("A")
T = TypeVar("T")
R = TypeVar("R")

CHUNKS_PER_JOB = 4
"""Chunks of deals per worker process: a few each, so that a slow chunk delays little."""
QIPAI = "qipai"
"""The arena of :func:`duel`: hands played by qipai's engines."""


# --- timing ---------------------------------------------------------------------------------


class Timed(Generic[V, A]):
    """A policy that times every decision of the policy it wraps (wall clock, seconds)."""

    def __init__(self, policy: Chooser[V, A], seconds: list[float]) -> None:
        self.policy = policy
        """The policy that decides."""
        self.seconds = seconds
        """Where each decision's time is appended."""

    def choose(self, view: V) -> A:
        """The wrapped policy's action, timed."""
        start = time.perf_counter()
        action = self.policy.choose(view)
        self.seconds.append(time.perf_counter() - start)
        return action


def percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile ``share`` (0-1) of sorted values (0 without any).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """How long one bot took to decide: percentiles in milliseconds."""

    count: int
    """Decisions timed."""
    p50_ms: float
    """The median."""
    p90_ms: float
    """The 90th percentile."""
    p99_ms: float
    """The 99th percentile."""
    max_ms: float
    """The slowest decision."""

    @classmethod
    def of(cls, seconds: Sequence[float]) -> DecisionTimes:
        """The percentiles of decision times given in seconds."""
        ordered = sorted(seconds)
        p50, p90, p99, top = (1000 * percentile(ordered, q) for q in (0.5, 0.9, 0.99, 1.0))
        return cls(len(ordered), p50, p90, p99, top)

    def __str__(self) -> str:
        return (
            f"{self.count} decisions: p50 {self.p50_ms:.3f} ms, p90 {self.p90_ms:.3f} ms, "
            f"p99 {self.p99_ms:.3f} ms, max {self.max_ms:.3f} ms"
        )


# --- points ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairPoints:
    """A's net over each deal pair, summed up: the mean and its 95% interval.

    The unit of sampling is the pair (both hands of a deal), whose sum is what pairing
    frees of the cards' luck; the interval is the normal approximation over the pairs.
    """

    pairs: int
    """Deal pairs counted."""
    total: int
    """A's net over every pair."""
    squares: int
    """The sum of the squares of A's net per pair."""

    @classmethod
    def of(cls, nets: Sequence[int]) -> PairPoints:
        """The summary of A's net per pair."""
        return cls(len(nets), sum(nets), sum(net * net for net in nets))

    @property
    def mean(self) -> float:
        """A's mean net per deal pair (0 without pairs)."""
        return self.total / self.pairs if self.pairs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`mean`; unbounded with fewer than two pairs."""
        if self.pairs < 2:
            return -math.inf, math.inf
        variance = max(0.0, (self.squares - self.total * self.mean) / (self.pairs - 1))
        half = Z95 * math.sqrt(variance / self.pairs)
        return self.mean - half, self.mean + half

    @property
    def per_hand(self) -> float:
        """A's mean net per hand: half the mean per pair."""
        return self.mean / 2


# --- the result -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuelResult:
    """Bot A against bot B over paired deals: win rates, A's net and decision times."""

    game: str
    """The game's name."""
    rules: str
    """The rule set's name (against RLCard: the rules the qipai bot thinks in)."""
    names: tuple[str, str]
    """A's and B's names."""
    sides: tuple[str, str]
    """The two sides (:attr:`qipai.bots.arena.ArenaGame.sides`)."""
    seed: int
    """Deal ``i`` was dealt from ``seed + i``."""
    a: tuple[WinRate, WinRate]
    """A's win rate playing each side (indexed like :attr:`sides`)."""
    b: tuple[WinRate, WinRate]
    """B's win rate playing each side."""
    points: PairPoints | None
    """A's net per deal pair, or ``None`` where the game keeps no score (RLCard)."""
    times: tuple[DecisionTimes, DecisionTimes]
    """A's and B's decision times."""
    unit: str = "points"
    """What :attr:`points` counts: ``points`` or ``chips``."""
    arena: str = QIPAI
    """Where the hands were played: ``qipai`` or ``rlcard`` (:mod:`qipai.bots.reference`)."""

    @property
    def deals(self) -> int:
        """Deals played, each twice."""
        return self.a[0].games

    @property
    def hands(self) -> int:
        """Hands played: two per deal."""
        return 2 * self.deals

    @property
    def overall(self) -> WinRate:
        """A's win rate over both sides (its interval errs wide: the hands of a pair tend
        to go opposite ways)."""
        return WinRate(self.a[0].wins + self.a[1].wins, self.a[0].games + self.a[1].games)

    def lines(self) -> list[str]:
        """The result as short report lines."""
        where = f"{self.game} {self.rules}"
        if self.arena != QIPAI:
            where = f"{self.game} on {self.arena}'s game ({self.names[0]} thinks in {self.rules})"
        return [
            f"{where}: {self.deals} deals from seed {self.seed}, each played from both sides",
            *(
                f"{label} {name} as {side} {rate}"
                for label, name, rates in zip("AB", self.names, (self.a, self.b), strict=True)
                for side, rate in zip(self.sides, rates, strict=True)
            ),
            f"A overall {self.overall}",
            *self._points_lines(),
            *(
                f"{label} {name} {times}"
                for label, name, times in zip("AB", self.names, self.times, strict=True)
            ),
        ]

    def _points_lines(self) -> list[str]:
        if self.points is None:
            return []
        low, high = self.points.interval
        return [
            f"A {self.unit} per deal {self.points.mean:+.3f} [{low:+.3f}, {high:+.3f}] "
            f"({self.points.per_hand:+.3f} per hand)"
        ]

    def to_dict(self) -> dict[str, Json]:
        """The result as plain JSON values, derived figures (rates, intervals) included."""
        points: Json = None
        if self.points is not None:
            points = {
                "pairs": self.points.pairs,
                "total": self.points.total,
                "squares": self.points.squares,
                "mean": self.points.mean,
                "interval": _finite(self.points.interval),
                "per_hand": self.points.per_hand,
            }
        return {
            "game": self.game,
            "rules": self.rules,
            "arena": self.arena,
            "names": list(self.names),
            "sides": list(self.sides),
            "seed": self.seed,
            "unit": self.unit,
            "a": [_rate_dict(rate) for rate in self.a],
            "b": [_rate_dict(rate) for rate in self.b],
            "points": points,
            "times": [_times_dict(times) for times in self.times],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Json]) -> DuelResult:
        """The result back from :meth:`to_dict` (derived figures are ignored).

        :raises msgspec.ValidationError: a field is missing, or not of its type.
        """
        kept = msgspec.convert(data, _Kept)
        points = kept.points
        return cls(
            game=kept.game,
            rules=kept.rules,
            names=kept.names,
            sides=kept.sides,
            seed=kept.seed,
            a=_pair([WinRate(rate.wins, rate.games) for rate in kept.a]),
            b=_pair([WinRate(rate.wins, rate.games) for rate in kept.b]),
            points=None
            if points is None
            else PairPoints(points.pairs, points.total, points.squares),
            times=kept.times,
            unit=kept.unit,
            arena=kept.arena,
        )

    @classmethod
    def from_json(cls, text: str) -> DuelResult:
        """The result back from :meth:`to_json`.

        :raises ValueError: not JSON; :raises msgspec.ValidationError: a field is missing.
        """
        return cls.from_dict(json.loads(text))


class _KeptRate(msgspec.Struct):
    wins: int
    games: int


class _KeptPoints(msgspec.Struct):
    pairs: int
    total: int
    squares: int


class _Kept(msgspec.Struct):
    """What :meth:`DuelResult.from_dict` reads of :meth:`DuelResult.to_dict`."""

    game: str
    rules: str
    names: tuple[str, str]
    sides: tuple[str, str]
    seed: int
    a: tuple[_KeptRate, _KeptRate]
    b: tuple[_KeptRate, _KeptRate]
    points: _KeptPoints | None
    times: tuple[DecisionTimes, DecisionTimes]
    unit: str
    arena: str


def _pair(values: Sequence[T]) -> tuple[T, T]:
    first, second = values
    return first, second


def _finite(values: tuple[float, float]) -> list[Json]:
    return [value if math.isfinite(value) else None for value in values]


def _rate_dict(rate: WinRate) -> dict[str, Json]:
    return {
        "wins": rate.wins,
        "games": rate.games,
        "rate": rate.rate,
        "interval": list(rate.interval),
    }


def _times_dict(times: DecisionTimes) -> dict[str, Json]:
    return {
        "count": times.count,
        "p50_ms": times.p50_ms,
        "p90_ms": times.p90_ms,
        "p99_ms": times.p99_ms,
        "max_ms": times.max_ms,
    }


# --- running in parallel --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chunk:
    """A contiguous run of deals for one worker: everything it needs, by name (picklable)."""

    game: str
    """The game's name."""
    rules: str
    """The preset's name."""
    names: tuple[str, str]
    """A's and B's bot names."""
    seed: int
    """Deal ``i`` is dealt from ``seed + i``."""
    deals: range
    """The deal numbers to play."""


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """What a worker played: one :class:`~qipai.bots.arena.PairedDeal` per deal, in order,
    and A's and B's decision times in seconds."""

    pairs: list[PairedDeal]
    """Per deal, in order."""
    seconds: tuple[list[float], list[float]]
    """A's and B's decision times."""


def split(deals: int, parts: int) -> list[range]:
    """``range(deals)`` in at most ``parts`` contiguous chunks of nearly equal size.

    >>> split(10, 3)
    [range(0, 4), range(4, 7), range(7, 10)]
    """
    parts = max(1, min(parts, deals))
    size, extra = divmod(deals, parts)
    bounds = [index * size + min(index, extra) for index in range(parts + 1)]
    return [range(low, high) for low, high in itertools.pairwise(bounds) if high > low]


def run_chunks(work: Callable[[T], R], tasks: Sequence[T], jobs: int) -> list[R]:
    """``work`` of every task, in order: here when ``jobs`` is 1, else over ``jobs`` worker
    processes (started with ``spawn``: ``work`` must be a module-level function)."""
    if jobs <= 1 or len(tasks) <= 1:
        return [work(task) for task in tasks]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=context) as pool:
        return list(pool.map(work, tasks))


def chunks_of(
    game: str, rules: str, names: tuple[str, str], *, deals: int, seed: int, jobs: int
) -> list[Chunk]:
    """The chunks of a run of ``deals`` deals for ``jobs`` workers.

    :raises InvalidActionError: ``bad_deals`` (fewer than 1), ``bad_jobs`` (fewer than 1).
    """
    if deals < 1:
        raise InvalidActionError("bad_deals", f"at least 1 deal, not {deals}")
    if jobs < 1:
        raise InvalidActionError("bad_jobs", f"at least 1 job, not {jobs}")
    parts = 1 if jobs == 1 else jobs * CHUNKS_PER_JOB
    return [Chunk(game, rules, names, seed, part) for part in split(deals, parts)]


def summarise(
    tasks: Sequence[Chunk],
    results: Sequence[ChunkResult],
    sides: tuple[str, str],
    *,
    unit: str | None,
    arena: str = QIPAI,
) -> DuelResult:
    """The result of a run: its chunks' deals and decision times joined in deal order.

    ``unit`` is what the nets count, ``None`` where the game keeps no score.
    """
    first = tasks[0]
    pairs = [pair for result in results for pair in result.pairs]
    a_times, b_times = (
        DecisionTimes.of([t for result in results for t in result.seconds[who]]) for who in (0, 1)
    )
    return DuelResult(
        game=first.game,
        rules=first.rules,
        names=first.names,
        sides=sides,
        seed=first.seed,
        a=side_rates(pairs, 0),
        b=side_rates(pairs, 1),
        points=None if unit is None else PairPoints.of([pair.net[0] for pair in pairs]),
        times=(a_times, b_times),
        unit=unit or "points",
        arena=arena,
    )


# --- the duel -------------------------------------------------------------------------------


def duel(
    game: str,
    bot_a: str,
    bot_b: str,
    *,
    rules: str = "yifa",
    deals: int,
    seed: int = 0,
    jobs: int = 1,
) -> DuelResult:
    """Pit the bot named ``bot_a`` against ``bot_b`` (names of the game's
    :attr:`~qipai.bots.arena.ArenaGame.bots`) on ``deals`` paired deals.

    Deal ``i`` (seed ``seed + i``, the table's hand ``i``) is played twice, as
    :func:`qipai.bots.arena.compare` plays it, by fresh bots: A seeded
    ``(seed + i) * 7``, B ``(seed + i) * 7 + 1``, and the game's default bot (seeded
    ``seed + i``) for Dou Dizhu's auction.  ``jobs`` worker processes play contiguous
    chunks of deals; the figures do not depend on ``jobs`` (the times do).

    :raises InvalidActionError: ``unknown_game``, ``unknown_rules``, ``unknown_bot``,
        ``bad_deals``, ``bad_jobs``.
    """
    spec = get_game(game)
    rule_set = spec.get_rules(rules)
    for name in (bot_a, bot_b):
        seat_policies(game, name, 1)  # raises unknown_bot
    tasks = chunks_of(spec.name, rule_set.name, (bot_a, bot_b), deals=deals, seed=seed, jobs=jobs)
    return summarise(tasks, run_chunks(play_chunk, tasks, jobs), spec.sides, unit=spec.unit)


def warm_up(play: Callable[[Chunk], ChunkResult], chunk: Chunk) -> None:
    """Once per process and per game, rules and bots: ``play`` deal 0 of ``chunk``'s run,
    untimed, so that the tables a bot builds at its first decision are not counted."""
    _warm_up(play, replace(chunk, seed=0, deals=range(1)))


@functools.cache
def _warm_up(play: Callable[[Chunk], ChunkResult], chunk: Chunk) -> None:
    play(chunk)


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play a chunk's deals (a worker's job), after :func:`warm_up`."""
    warm_up(play_deals, chunk)
    return play_deals(chunk)


def play_deals(chunk: Chunk) -> ChunkResult:
    """Play a chunk's deals, timing A's and B's decisions."""
    spec = get_game(chunk.game)
    rules = spec.get_rules(chunk.rules)
    seconds: tuple[list[float], list[float]] = ([], [])
    pairs = []
    for deal in chunk.deals:
        deal_seed = chunk.seed + deal
        a, b = (
            Timed(spec.bots[name](deal_seed * SEAT_STRIDE + who), seconds[who])
            for who, name in enumerate(chunk.names)
        )
        bidder = spec.bots[spec.default_bot](deal_seed)
        pairs.append(play_pair(spec, rules, (a, b), bidder, seed=deal_seed, number=deal))
    return ChunkResult(pairs, seconds)
