"""Benchmark: the research interface answers a legal move in random positions.

    .venv/bin/python benchmarks/research_positions.py [--positions 10000] [--bot strong]
        [--seed 0]

Samples ``--positions`` positions of the card play, spread evenly over the five presets
(:func:`qipai.bots.doudizhu.research.sample_positions`: hands of random players, a
quarter of their decisions kept), and asks :func:`qipai.bots.doudizhu.choose_play` for a
play in each, half of them with the legal moves given (a random part of them, the pass
included where it is legal), half without.  Prints how many answers were legal (the
answer must be one of the moves allowed; every one must be) and the decision time's
median, 99th percentile and maximum.  The first answer of the process (the move tables
it builds) is made before the clock starts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from qipai.bots.doudizhu import choose_play
from qipai.bots.doudizhu.research import Position, sample_positions
from qipai.games.doudizhu import RULES


def ask(position: Position, rng: random.Random, bot: str) -> tuple[bool, float]:
    """Whether ``bot``'s answer in ``position`` is legal, and the seconds it took."""
    legal = list(position.legal)
    offered = None
    if rng.random() < 0.5:
        offered = sorted(rng.sample(legal, rng.randint(1, len(legal))))
    start = time.perf_counter()
    answer = choose_play(
        position.hand,
        position.seat,
        position.landlord,
        position.history,
        position.bottom,
        offered,
        position.rules,
        bot,
    )
    elapsed = time.perf_counter() - start
    return answer in (offered if offered is not None else legal), elapsed


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    presets = sorted(RULES)
    each = -(-args.positions // len(presets))
    positions = [p for rules in presets for p in sample_positions(rules, args.seed, each)]
    positions = positions[: args.positions]
    rng = random.Random(args.seed)
    ask(positions[0], random.Random(0), args.bot)  # warm: the move tables
    results = [ask(position, rng, args.bot) for position in positions]
    legal = sum(ok for ok, _ in results)
    times = sorted(seconds * 1000 for _, seconds in results)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"{args.bot}: {legal}/{len(results)} answers legal over {', '.join(presets)}")
    print(f"decision ms: median {statistics.median(times):.2f}, p99 {p99:.1f}, max {times[-1]:.1f}")


if __name__ == "__main__":
    main()
