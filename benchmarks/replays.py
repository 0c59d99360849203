"""What a replay and a finished table cost: time, bytes and memory, per shipped room.

For each room, hands are played at a pure :class:`qipai.hall.table.table.Table` (seat 0 a
player in 托管, the others bots, acting at once), then

- the replay of each hand (:func:`qipai.hall.watch.replays.replay_json`, what
  ``GET /api/hands/{id}/replay`` serves) is built and timed, and its JSON measured as sent
  and gzipped (the hall gzips answers over 1 KiB);
- the memory of a finished table and of its ending for an absent player
  (:meth:`Table.ending`, what the hall keeps for his return) is measured with
  :mod:`tracemalloc`, each made once before unkept (the caches that fills are shared by
  every table, not part of one).

    .venv/bin/python benchmarks/replays.py [--hands 20]
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import SeatInfo, Table
from qipai.hall.watch.replays import replay_json


def finished_table(room: Room, seed: int) -> Table:
    """A hand of ``room`` played to its end: seat 0 in 托管, the others bots."""
    seats = [SeatInfo("p0" if s == 0 else None, f"s{s}", 10**6) for s in range(room.seats)]
    table = Table(room, 1, seats, now=0.0, bot_delay=0.0, deal_step=0.0, rng=random.Random(seed))
    table.start_hand(f"h{seed}", seed, 0.0)
    table.set_trustee(0, True, 0.0)
    while table.in_hand:
        deadline = table.deadline()
        assert deadline is not None
        table.tick(deadline)
    table.drain()
    return table


def kib_each(make: Callable[[int], Any], count: int) -> float:
    """KiB that each of ``count`` objects made by ``make(i)`` keeps allocated (each made once
    before, unkept, so that the caches the making fills are not counted)."""
    for i in range(count):
        make(i)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [make(i) for i in range(count)]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del kept
    return grown / count / 1024


def measure(room: Room, hands: int) -> dict[str, float]:
    """The room's medians: replay build time, JSON size, gzipped size; memory each."""
    finished_table(room, 0).ending(0)  # warm-up: lookup tables, move tables
    tables = [finished_table(room, 1000 + i) for i in range(hands)]
    times, sizes, packed = [], [], []
    for table in tables:
        assert table.outcome is not None and table.outcome.record is not None
        began = time.perf_counter()
        body = json.dumps(
            replay_json(table.outcome.record, 0), ensure_ascii=False, separators=(",", ":")
        ).encode()
        times.append((time.perf_counter() - began) * 1000)
        sizes.append(len(body) / 1024)
        packed.append(len(gzip.compress(body)) / 1024)
    return {
        "ms": statistics.median(times),
        "kib": statistics.median(sizes),
        "gz": statistics.median(packed),
        "table": kib_each(lambda i: finished_table(room, 2000 + i), hands),
        "ending": kib_each(lambda i: tables[i].ending(0), hands),
    }


def main() -> None:
    """Print the table in Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.hands} hands per room; medians; memory per object (tracemalloc)\n")
    columns = ("replay built (ms)", "replay JSON (KiB)", "gzipped (KiB)", "finished table (KiB)")
    print(f"| room | {' | '.join(columns)} | ending kept (KiB) |")
    print("|---|---|---|---|---|---|")
    for room in default_rooms():
        m = measure(room, args.hands)
        print(
            f"| {room.id} | {m['ms']:.1f} | {m['kib']:.0f} | {m['gz']:.1f} "
            f"| {m['table']:.0f} | {m['ending']:.1f} |"
        )


if __name__ == "__main__":
    main()
