"""A whole match played by bots in-process (``qipai match simulate``), timed.

    .venv/bin/python benchmarks/match_simulate.py --match zhengdian --players 3000 --runs 3

Prints, per run, the hands played, the seconds and the hands per second, then the median.
The goal (docs/performance.md): a 3,000-player 打立出局 → 瑞士 match in under a minute on one
core.  There is no reference implementation to compare with: no open-source hall runs
matches.  The machine is shared and noisy: quote the median.
"""

from __future__ import annotations

import argparse
import statistics
import time

from qipai.hall.matchconfig import default_matches, match_by_id
from qipai.hall.matchsim import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", default="zhengdian")
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    match = match_by_id(default_matches(), arguments.match)
    simulate(match_by_id(default_matches(), "tiyan-9"), players=9, seed=0)  # warm the tables
    seconds = []
    for seed in range(arguments.runs):
        start = time.perf_counter()
        result = simulate(match, players=arguments.players, seed=seed)
        elapsed = time.perf_counter() - start
        seconds.append(elapsed)
        print(f"seed {seed}: {result.hands} hands in {elapsed:.1f} s "
              f"({result.hands / elapsed:.0f} hands/s)")  # fmt: skip
    print(f"median {statistics.median(seconds):.1f} s over {arguments.runs} runs "
          f"of {arguments.players} players ({arguments.match})")  # fmt: skip


if __name__ == "__main__":
    main()
