"""A whole match played by bots in-process (``qipai match simulate``), timed.

    .venv/bin/python benchmarks/match_simulate.py --match zhengdian --players 3000 --runs 3

Prints, per run, the hands played, the seconds (wall clock, and the process's CPU time:
on a shared machine the CPU time is the one-core figure) and the hands per second, and each
stage (entrants → advanced, hands per player fewest / median / most, why it ended), then
the medians.  The goal (docs/performance.md): a 3,000-player 打立出局 → 瑞士 match in under a
minute on one core, its preliminary ending with exactly its advance count.  There is no
reference implementation to compare with: no open-source hall runs matches.  The machine
is shared and noisy: quote the median.
"""

from __future__ import annotations

import argparse
import statistics
import time

from qipai.hall.match.config import default_matches, match_by_id
from qipai.hall.match.sim import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", default="zhengdian")
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    match = match_by_id(default_matches(), arguments.match)
    simulate(match_by_id(default_matches(), "tiyan-9"), players=9, seed=0)  # warm the tables
    seconds, cpu = [], []
    for seed in range(arguments.runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = simulate(match, players=arguments.players, seed=seed)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        print(f"seed {seed}: {result.hands} hands in {seconds[-1]:.1f} s, {cpu[-1]:.1f} s of "
              f"CPU ({result.hands / cpu[-1]:.0f} hands per CPU second)", flush=True)  # fmt: skip
        for report in result.stages:
            print(f"  {report}", flush=True)
    print(f"median {statistics.median(seconds):.1f} s, {statistics.median(cpu):.1f} s of CPU, "
          f"over {arguments.runs} runs of {arguments.players} players "
          f"({arguments.match})")  # fmt: skip


if __name__ == "__main__":
    main()
