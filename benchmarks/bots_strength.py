"""Benchmark: the strength of the ``strong`` Dou Dizhu bot, the issue's table.

    .venv/bin/python benchmarks/bots_strength.py [--deals 2000] [--jobs J] [--seed 0]
        [--rules jj] [--quick]

Three matches of ``--deals`` paired deals each (deal ``i`` from seed ``--seed + i``, played
once from each side, so the luck of the cards cancels out), over ``--jobs`` processes
(default: every core):

* ``strong`` against RLCard 1.2.0's rule agent (``doudizhu-rule-v1``) on RLCard's own game
  (:func:`qipai.bots.reference.rlcard_match`; the bot thinks in ``--rules``).  Goal: a win
  rate of at least 0.70 as the landlord and as the farmers.
* ``strong`` against ``greedy`` in the qipai arena (:func:`qipai.bots.duel.duel`,
  ``--rules`` rules; the greedy bot plays the auction).  Goal: at least 0.55 in both roles.
* ``greedy`` against the rule agent, for reference (no goal).

Each row is a win rate with its 95% Wilson interval and the goal: ``met`` when the rate
reaches it, ``met beyond doubt`` when the whole interval does.  Then the strong bot's
decision times (p50, p90, p99, max; each worker first plays one untimed deal) and each
match's wall time.  ``--quick`` plays 20 deals: a smoke run, not a measurement.  The
RLCard matches need the ``test`` extra (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from qipai.bots.arena import WinRate
from qipai.bots.duel import DuelResult, duel
from qipai.bots.reference import rlcard_match

QUICK_DEALS = 20
"""Deals per match with ``--quick``."""
GOALS = {"rlcard": 0.70, "greedy": 0.55}
"""The issue's goal for ``strong`` against each opponent, in both roles."""
HEADER = f"{'match':<28} {'role':<9} {'win rate':>8}  {'95% CI':<16} goal"


def row(match: str, role: str, rate: WinRate, goal: float | None) -> str:
    """One line of the table: a win rate, its interval and how it stands to the goal."""
    low, high = rate.interval
    verdict = "(reference)"
    if goal is not None:
        verdict = f">= {goal:.2f} " + (
            "met beyond doubt" if low >= goal else "met" if rate.rate >= goal else "NOT met"
        )
    return (
        f"{match:<28} {role:<9} {rate.rate:>8.3f}  [{low:.3f}, {high:.3f}]   {verdict}"
        f"  ({rate.wins}/{rate.games})"
    )


def rows(match: str, result: DuelResult, goal: float | None) -> list[str]:
    """A's two rows (landlord, farmers) of a match."""
    return [row(match, side, rate, goal) for side, rate in zip(result.sides, result.a, strict=True)]


def timed(run: Callable[[], DuelResult]) -> tuple[DuelResult, float]:
    """A match's result and its wall time in seconds."""
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def benchmark(deals: int, jobs: int, seed: int, rules: str) -> list[str]:
    """Play the three matches and return the report lines."""
    matches: list[tuple[str, float | None, Callable[[], DuelResult]]] = [
        (
            "strong vs rlcard (rlcard)",
            GOALS["rlcard"],
            lambda: rlcard_match("strong", rules=rules, deals=deals, seed=seed, jobs=jobs),
        ),
        (
            f"strong vs greedy (qipai {rules})",
            GOALS["greedy"],
            lambda: duel(
                "doudizhu", "strong", "greedy", rules=rules, deals=deals, seed=seed, jobs=jobs
            ),
        ),
        (
            "greedy vs rlcard (rlcard)",
            None,
            lambda: rlcard_match("greedy", rules=rules, deals=deals, seed=seed, jobs=jobs),
        ),
    ]
    table, notes = [HEADER], []
    for name, goal, run in matches:
        result, seconds = timed(run)
        table += rows(name, result, goal)
        notes.append(f"{name}: {result.names[0]} {result.times[0]}; {seconds:.0f} s")
    title = f"strength of strong: {deals} paired deals per match from seed {seed}, {jobs} jobs"
    return [title, *table, "", *notes]


def main() -> None:
    """Parse the options, play the matches and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="paired deals per match")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--rules", default="jj", help="the Dou Dizhu preset (default jj)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DEALS} deals: a smoke run")
    arguments = parser.parse_args()
    deals = QUICK_DEALS if arguments.quick else arguments.deals
    print("\n".join(benchmark(deals, arguments.jobs, arguments.seed, arguments.rules)))


if __name__ == "__main__":
    main()
