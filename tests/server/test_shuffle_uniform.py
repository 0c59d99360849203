"""The deals are uniform: seeds from :mod:`secrets`, and chi-square tests that never raise
a false alarm yet catch a biased shuffle.

The hall draws each hand's seed with ``secrets.randbits(SEED_BITS)`` (checked on a real
hall below) and the engines deal from ``random.Random(seed)``.  Here 20,000 Dou Dizhu and
20,000 Zha Jin Hua hands are dealt from seeds drawn the same way, and Pearson's chi-square
statistic is computed for:

- four fixed Dou Dizhu cards: which of the three hands, or the bottom, each lands in
  (cells 17/54, 17/54, 17/54, 3/54: 3 degrees of freedom);
- the Dou Dizhu bottom: how often each of the 54 cards is in it (53 degrees of freedom;
  three distinct cards a deal make the statistic about 51/53 of a chi-square's, so the
  test errs on the safe side);
- the first card dealt in Zha Jin Hua (52 cells, 51 degrees of freedom).

**The threshold.**  A uniform deal must pass every run: the whole module may raise a false
alarm with probability at most 10^-9.  The six tests share that by Bonferroni, and a
further factor of 10 covers the chi-square approximation of Pearson's statistic in its far
tail (every cell expects 385 or more), so each test rejects at ``ALPHA = 10^-9 / 6 / 10``.
Its critical value is computed exactly, by bisection on the chi-square survival function,
which for an integer number of degrees of freedom ``k`` has a closed form (even ``k``: a
Poisson sum; odd ``k``: ``erfc`` plus a finite sum).  The Wilson–Hilferty approximation
``k (1 - 2/(9k) + z sqrt(2/(9k)))^3`` (``z`` the normal quantile) agrees with it to within
1 % at 51 and 53 degrees of freedom but is 15 % high at 3 (checked below), hence the exact
values: about 53.2 (3 degrees of freedom), 148.8 (51) and 152.1 (53).

**It can fail.**  The same statistics reject a shuffle seeded from only 1,000 seeds
(``seed % 1000``: each deal repeated about 20 times) and a fixed deck.
"""

from __future__ import annotations

import asyncio
import math
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from statistics import NormalDist
from typing import Any

import pytest
from server_kit import RunningHall, fast_config, play_hand, running_hall

from qipai.client.connection import HallClient
from qipai.games import doudizhu, zhajinhua
from qipai.hall.seeds import SEED_BITS, commitment
from qipai.server.run import executor as executor_module

DEALS = 20_000
"""Hands dealt for each game."""
FALSE_ALARM = 1e-9
"""The most the whole module may reject uniform deals with."""
TESTS = 6
"""Chi-square tests made on uniform deals (four cards, the bottom, the first card)."""
ALPHA = FALSE_ALARM / TESTS / 10
"""Each test's false-alarm probability (Bonferroni, and a factor 10 for the approximation)."""
CARDS = ("3s", "Ah", "2c", "RJ")
"""The Dou Dizhu cards whose place is tested."""
DDZ_DECK = 54
ZJH_DECK = 52


# --- the chi-square distribution -----------------------------------------------------------------


def chi2_survival(x: float, k: int) -> float:
    """P(X > x) for X chi-square with ``k`` (integer) degrees of freedom, exactly."""
    if x <= 0:
        return 1.0
    half = x / 2
    if k % 2 == 0:
        terms = range(k // 2)
        return math.exp(-half) * sum(half**i / math.factorial(i) for i in terms)
    tail = math.erfc(math.sqrt(half))
    for i in range(1, (k - 1) // 2 + 1):
        tail += math.exp(-half + (i - 0.5) * math.log(half) - math.lgamma(i + 0.5))
    return tail


def critical_value(k: int, alpha: float) -> float:
    """The ``x`` with ``chi2_survival(x, k) == alpha`` (bisection)."""
    low, high = 0.0, 10.0 * k + 1_000.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if chi2_survival(middle, k) > alpha else (low, middle)
    return high


def wilson_hilferty(k: int, alpha: float) -> float:
    """The Wilson–Hilferty approximation of the critical value."""
    z = -NormalDist().inv_cdf(alpha)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


@pytest.mark.parametrize(
    ("k", "alpha", "expected"),
    [
        (1, 0.05, 3.841),
        (2, 0.01, 9.210),
        (3, 0.001, 16.266),
        (51, 0.05, 68.669),
        (53, 0.01, 79.843),
    ],
)
def test_the_critical_values_match_the_tables(k: int, alpha: float, expected: float) -> None:
    assert critical_value(k, alpha) == pytest.approx(expected, abs=0.002)


@pytest.mark.parametrize(("k", "off"), [(3, 0.15), (51, 0.01), (53, 0.01)])
def test_wilson_hilferty_in_the_far_tail(k: int, off: float) -> None:
    exact = critical_value(k, ALPHA)
    assert chi2_survival(exact, k) == pytest.approx(ALPHA, rel=1e-6)
    assert exact < wilson_hilferty(k, ALPHA) < exact * (1 + off)  # too high, never too low


# --- the statistics ------------------------------------------------------------------------------


def pearson(counts: Sequence[int], probabilities: Sequence[float], total: int) -> float:
    """Pearson's statistic of ``counts`` against ``total`` × ``probabilities``."""
    return sum(
        (count - total * p) ** 2 / (total * p)
        for count, p in zip(counts, probabilities, strict=True)
    )


def doudizhu_statistics(seeds: Iterable[int]) -> dict[str, tuple[float, int]]:
    """Per test, Pearson's statistic and its degrees of freedom, over the deals of
    ``seeds`` (the yifa preset, the whole hand dealt at once)."""
    places = {card: [0, 0, 0, 0] for card in CARDS}
    bottom: dict[str, int] = {}
    deals = 0
    for seed in seeds:
        state = doudizhu.State.new("yifa", seed=seed)
        where = {str(card): seat for seat, hand in enumerate(state.hands) for card in hand}
        for name in map(str, state.bottom):
            where[name] = 3
            bottom[name] = bottom.get(name, 0) + 1
        for name, counts in places.items():
            counts[where[name]] += 1
        deals += 1
    hand, low = 17 / DDZ_DECK, 3 / DDZ_DECK
    result = {
        f"place of {card}": (pearson(counts, (hand, hand, hand, low), deals), 3)
        for card, counts in places.items()
    }
    in_bottom = [bottom.get(card, 0) for card in _deck_names(doudizhu.State.new("yifa", seed=0))]
    result["bottom"] = (pearson(in_bottom, [1 / DDZ_DECK] * DDZ_DECK, 3 * deals), DDZ_DECK - 1)
    return result


def _deck_names(state: Any) -> list[str]:
    names = [str(card) for hand in state.hands for card in hand]
    names += [str(card) for card in state.bottom]
    assert len(set(names)) == DDZ_DECK
    return sorted(names)


def zhajinhua_statistics(seeds: Iterable[int]) -> dict[str, tuple[float, int]]:
    """Pearson's statistic of the first card dealt (to the dealer), over ``seeds``."""
    first: dict[str, int] = {}
    deals = 0
    for seed in seeds:
        state = zhajinhua.State.new("yifa", seed=seed, players=5)
        card = str(state.hands[state.dealer][0])
        first[card] = first.get(card, 0) + 1
        deals += 1
    counts = list(first.values()) + [0] * (ZJH_DECK - len(first))
    return {"first card": (pearson(counts, [1 / ZJH_DECK] * ZJH_DECK, deals), ZJH_DECK - 1)}


def rejected(statistics: dict[str, tuple[float, int]]) -> list[str]:
    """The tests whose statistic is above its critical value at :data:`ALPHA`."""
    return [
        f"{name}: {value:.1f} > {critical_value(k, ALPHA):.1f}"
        for name, (value, k) in statistics.items()
        if value > critical_value(k, ALPHA)
    ]


def secret_seeds(count: int) -> Iterator[int]:
    """Seeds drawn as the hall draws them."""
    return (secrets.randbits(SEED_BITS) for _ in range(count))


Seeds = Callable[[int], Iterable[int]]
BIASED: dict[str, Seeds] = {
    "1,000 seeds": lambda count: (seed % 1000 for seed in range(count)),
    "a fixed deck": lambda count: (7 for _ in range(count)),
}
"""Broken shuffles the tests must catch."""


def test_doudizhu_deals_from_secret_seeds_are_uniform() -> None:
    statistics = doudizhu_statistics(secret_seeds(DEALS))
    assert len(statistics) == len(CARDS) + 1
    assert rejected(statistics) == []


def test_zhajinhua_deals_from_secret_seeds_are_uniform() -> None:
    assert rejected(zhajinhua_statistics(secret_seeds(DEALS))) == []


@pytest.mark.parametrize("broken", list(BIASED))
def test_a_biased_shuffle_is_caught(broken: str) -> None:
    deals = DEALS // 4  # a broken shuffle shows at once
    assert rejected(doudizhu_statistics(BIASED[broken](deals)))
    assert rejected(zhajinhua_statistics(BIASED[broken](deals)))


# --- the hall draws its seeds from secrets -------------------------------------------------------


class _Recording:
    """Stands for the ``secrets`` module in :mod:`qipai.server.run.executor` (the hall core's
    ``fresh`` bits): draws what it draws,
    and remembers the seeds (the 128-bit draws)."""

    def __init__(self) -> None:
        self.seeds: list[int] = []

    def randbits(self, bits: int) -> int:
        value = secrets.randbits(bits)
        if bits == SEED_BITS:
            self.seeds.append(value)
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


def test_the_hall_deals_from_seeds_drawn_from_secrets(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    recording = _Recording()
    monkeypatch.setattr(executor_module, "secrets", recording)
    with running_hall(fast_config(f"sqlite:///{tmp_path / 'hall.db'}")) as hall:
        frames, over = asyncio.run(_one_hand(hall))
    start = next(frame for frame in frames if frame["type"] == "hand_start")
    seed = int(over["seed"])
    assert seed in recording.seeds  # the revealed seed is a secrets.randbits(128) draw
    assert commitment(seed) == start["commitment"]


async def _one_hand(hall: RunningHall) -> Any:
    async with HallClient(hall.url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            return await play_hand(conn, "zhajinhua-yifa")
