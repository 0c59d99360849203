"""Benchmark: what saving a running 3,000-player match costs (the hall saves a running run
after every finished hand, to carry it on after a crash or a lost node).

    .venv/bin/python benchmarks/match_snapshot.py [--players 3000] [--every 500]

Plays the shipped ``zhengdian`` match (打立出局 then a 瑞士 final) with random results and,
every ``--every`` hands, times :meth:`MatchRun.snapshot` (built on the hall's event loop)
and its JSON encoding (done in a thread by the hall), and prints the encoded size.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from qipai.hall.match.config import default_matches
from qipai.hall.match.match import MatchRun
from qipai.hall.match.parts import Seating


def _points(seating: Seating) -> tuple[int, ...]:
    draw = random.Random(seating.hand)
    winner, stake = draw.randrange(3), draw.choice((1, 2, 4))
    return tuple(2 * stake if seat == winner else -stake for seat in range(3))


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--every", type=int, default=500)
    args = parser.parse_args()
    [match] = [m for m in default_matches() if m.id == "zhengdian"]
    run = MatchRun(match, "zhengdian#1", random.Random(1))
    for number in range(args.players):
        run.register(f"user:{number}")
    run.start()
    built, encoded, sizes = [], [], []
    print("hand  players_left  build_ms  encode_ms  KiB")
    while not run.is_over:
        for seating in run.seat():
            run.finish_hand(seating.hand, _points(seating))
            if run.is_over or seating.hand % args.every:
                continue
            started = time.perf_counter()
            data = run.snapshot()
            middle = time.perf_counter()
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            ended = time.perf_counter()
            built.append((middle - started) * 1000)
            encoded.append((ended - middle) * 1000)
            sizes.append(len(text.encode()) / 1024)
            print(f"{seating.hand:5} {run.players_left():12} {built[-1]:9.1f} "
                  f"{encoded[-1]:10.1f} {sizes[-1]:5.0f}")  # fmt: skip
    print(f"median build {statistics.median(built):.1f} ms (max {max(built):.1f}), "
          f"encode {statistics.median(encoded):.1f} ms, size {statistics.median(sizes):.0f} KiB "
          f"(max {max(sizes):.0f}) over {len(sizes)} snapshots of {run.hands} hands")  # fmt: skip


if __name__ == "__main__":
    main()
