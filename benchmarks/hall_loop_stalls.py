"""Benchmark: what holds the hall's event loop, under the load of ``hall_bots_p99.py``.

    .venv/bin/python benchmarks/hall_loop_stalls.py [--workers 1] [--duration 45] [--warmup 15]

One run of ``hall_bots_p99.py``'s load (one ``qipai serve --redis --bot-workers N`` on
PostgreSQL, three Dou Dizhu rooms with bots, 60 clients thinking 0.5 s), with the hall's
process instrumented from inside: every event-loop callback is timed
(``asyncio.Handle._run``) and every garbage collection (``gc.callbacks``), over the same
steady window as the benchmark's (after ``--warmup`` seconds, until 10 s before the end).
Printed: the benchmark's figures, then the window's callbacks by duration (a histogram in
ms), the slowest ones, and the collections over 2 ms by generation.  The instrumentation
costs the loop about a microsecond per callback.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from threading import Timer
from typing import Any

from cluster_load import _measure, cluster, load_parser, rooms

PROBE = """
import asyncio.events, collections, gc, json, signal, sys, time
from qipai.cli import main
_on = [False]; _slow = []; _hist = collections.Counter(); _gc = []; _started = [0.0]
_run_handle = asyncio.events.Handle._run
def _timed(self, clock=time.perf_counter):
    if not _on[0]:
        return _run_handle(self)
    start = clock(); _run_handle(self); took = (clock() - start) * 1000
    _hist[min(int(took), 100)] += 1
    if took > 15: _slow.append([round(took, 1), repr(self)[:160]])
def _collected(phase, info):
    if phase == "start": _started[0] = time.perf_counter(); return
    took = (time.perf_counter() - _started[0]) * 1000
    if _on[0] and took > 2: _gc.append([info["generation"], round(took, 1)])
def _begin(*_): _on[0] = True
def _end(*_):
    _on[0] = False
    with open(_figures, "w") as out:
        json.dump({"hist": sorted(_hist.items()), "slow": sorted(_slow)[-12:], "gc": _gc}, out)
asyncio.events.Handle._run = _timed; gc.callbacks.append(_collected)
signal.signal(signal.SIGUSR1, _begin); signal.signal(signal.SIGUSR2, _end)
_figures = sys.argv.pop()
raise SystemExit(main())
"""
"""The hall's process: ``qipai serve`` (its arguments, then the file it writes the figures
to, last) behind the timers; SIGUSR1 starts them, SIGUSR2 writes their figures."""


def main() -> None:
    """Run the benchmark."""
    parser = load_parser(__doc__, duration=45.0, warmup=15.0)
    parser.add_argument("--workers", type=int, default=1, help="--bot-workers")
    args = parser.parse_args()
    # the test kit (on the path since cluster_load) starts ``python -c CLI serve …``
    sys.modules["process_kit"].CLI = PROBE
    with tempfile.TemporaryDirectory() as folder:
        found = Path(folder) / "loop.json"
        options = ("--bot-workers", str(args.workers), str(found))
        with cluster(["n1"], rooms(args.bot_wait), Path(folder), "stalls", *options) as hall:
            pid = hall.nodes["n1"].process.pid
            window = args.duration - args.warmup - 10
            Timer(args.warmup, os.kill, (pid, signal.SIGUSR1)).start()
            Timer(args.warmup + window, os.kill, (pid, signal.SIGUSR2)).start()
            print(json.dumps(_measure(hall, args)), flush=True)
            _wait_for(found)
            print(json.dumps(_loop_figures(found)), flush=True)


def _wait_for(path: Path) -> None:
    give_up = time.monotonic() + 10
    while not path.exists() and time.monotonic() < give_up:
        time.sleep(0.1)


def _loop_figures(path: Path) -> dict[str, Any]:
    figures: dict[str, Any] = json.loads(path.read_text())
    pauses = figures.pop("gc")
    figures["gc_over_2ms"] = {
        f"gen{generation}": sorted(took for gen, took in pauses if gen == generation)
        for generation in (0, 1, 2)
    }
    return figures


if __name__ == "__main__":
    main()
