"""Benchmark: bots on the event loop (``--bot-workers 0``) and in worker processes, side by
side, at the load of ``cluster_load.py`` on one node.

    .venv/bin/python benchmarks/hall_bots_p99.py [--workers 0,1] [--runs 1] [--duration 75]

For each ``--workers`` value in turn (``--runs`` times over): one ``qipai serve --redis
--bot-workers N`` process on a fresh PostgreSQL database and Redis prefix, three Dou
Dizhu rooms whose bots fill a table after half a second, and one ``qipai loadtest`` per
room (20 clients each, thinking 0.5 s), exactly as ``cluster_load.py --nodes 1``.
Printed per run: the latency clients see (an action sent → its broadcast received: p50 /
p99 / max, the worst of the three loadtests), hands settled per second and the costs per
hand over the steady window (the node's CPU is its main process's: not its workers'),
and with workers the decisions they answered and the bots' moves the basic 托管 played
for want of an answer in time (tables ended before the run's end); at the end, the
median p99 of each ``--workers`` value and their ratio.  The machine is shared: quote the
medians and the ratio, not one run.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from pathlib import Path

from cluster_load import _measure, _node_figures, cluster, load_parser, rooms


def main() -> None:
    """Run the benchmark."""
    parser = load_parser(__doc__)
    parser.add_argument("--workers", default="0,1", help="the --bot-workers values, in turn")
    parser.add_argument("--runs", type=int, default=1, help="rounds over the values")
    args = parser.parse_args()
    p99: dict[int, list[float]] = {}
    for _ in range(args.runs):
        for workers in map(int, args.workers.split(",")):
            with tempfile.TemporaryDirectory() as folder:
                options = ("--bot-workers", str(workers))
                with cluster(["n1"], rooms(args.bot_wait), Path(folder), "bots", *options) as hall:
                    figures = _measure(hall, args)
                    counts = _node_figures(hall)
                    for name in ("bot_decisions", "bot_fallbacks"):
                        figures[name] = counts.get(f"qipai_{name}_total")
            print(json.dumps({"bot_workers": workers, **figures}), flush=True)
            p99.setdefault(workers, []).append(figures["latency_ms"]["p99"])
    medians = {workers: statistics.median(values) for workers, values in p99.items()}
    summary: dict[str, object] = {"p99_ms_median": medians}
    if 0 in medians and len(medians) > 1:
        pooled = min(value for workers, value in medians.items() if workers)
        summary["inline_over_pool"] = round(medians[0] / pooled, 2)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
