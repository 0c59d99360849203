"""Benchmark: the same load on a hall of 1, 2 and 3 processes (nodes), side by side.

    .venv/bin/python benchmarks/cluster_load.py [--clients 60] [--duration 75] [--think 0.5]

For each node count: ``qipai serve --redis`` processes on a fresh PostgreSQL database and
Redis prefix, three Dou Dizhu rooms (shared out over the nodes), and one ``qipai
loadtest`` per room, run together, each spreading its clients over every node's URL (so
most players' sockets are on another node than their table: their messages cross
Redis).  Printed per node count: the latency clients see (from an action sent to its
broadcast received: p50 / p99 / max over the three loadtests), and, over a steady window
(after ``--warmup`` seconds, until 10 s before the end: sign-ups and the closing history
checks left out), hands settled per second and what each hand costs: Redis commands
(``INFO`` ``total_commands_processed``) and Redis CPU, PostgreSQL transactions
(``pg_stat_database.xact_commit``, reads included), the nodes' CPU (``/proc``), client
messages handled (``qipai_message_seconds_count``) and messages between nodes
(``qipai_node_messages_sent_total``).  The machine is shared: quote the medians and the
ratios between node counts, not one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from nodes_kit import Cluster, cluster
from process_kit import CLI


def rooms(bot_wait: float) -> str:
    """Three Dou Dizhu rooms whose bots fill a table after ``bot_wait`` seconds."""
    return "".join(
        f'[[room]]\nid = "r{n}"\nname = "斗地主 {n}"\ngame = "doudizhu"\nrules = "yifa"\n'
        f"bot_wait = {bot_wait}\n\n"
        for n in (1, 2, 3)
    )


def load_parser(doc: str, duration: float = 75.0, warmup: float = 25.0) -> argparse.ArgumentParser:
    """The options of this load, shared by the benchmarks that run it (``doc``: the
    benchmark's docstring, its first line the description)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--clients", type=int, default=60, help="in all (a third per room)")
    parser.add_argument("--duration", type=float, default=duration)
    parser.add_argument("--warmup", type=float, default=warmup, help="seconds before the window")
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument(
        "--bot-wait", type=float, default=0.5, help="seconds before bots fill a table"
    )
    return parser


def main() -> None:
    """Run the benchmark."""
    parser = load_parser(__doc__)
    parser.add_argument("--nodes", default="1,2,3", help="the node counts, in turn")
    args = parser.parse_args()
    for count in map(int, args.nodes.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            names = [f"n{i + 1}" for i in range(count)]
            config = rooms(args.bot_wait)
            with cluster(names, config, Path(folder), f"load{count}") as hall:
                print(json.dumps({"nodes": count, **_measure(hall, args)}), flush=True)


def _measure(hall: Cluster, args: argparse.Namespace) -> dict[str, Any]:
    owners = {room: hall.owner(room) for room in ("r1", "r2", "r3")}
    runs = [_loadtest(hall, room, args) for room in owners]
    time.sleep(args.warmup)
    before = _costs(hall)
    window = args.duration - args.warmup - 10
    time.sleep(window)
    after = _costs(hall)
    summaries = [_summary(run) for run in runs]
    hands = after["hands"] - before["hands"]
    latencies = [summary["latency_ms"] for summary in summaries]
    per_hand = {
        f"{name}_per_hand": round((after[name] - before[name]) / max(hands, 1), 2)
        for name in before
        if name != "hands"
    }
    return {
        "rooms": owners,
        "latency_ms": {key: _worst(e[key] for e in latencies) for key in ("p50", "p99", "max")},
        "errors": sum(summary["errors"] for summary in summaries),
        "coins_conserved": all(summary["coins_conserved"] for summary in summaries),
        "hands_per_s": round(hands / window, 2),
        **per_hand,
    }


def _worst(values: Iterable[float | None]) -> float | None:
    """The largest of the loadtests' figures (``None`` where a loadtest measured none)."""
    measured = [value for value in values if value is not None]
    return max(measured) if measured else None


def _costs(hall: Cluster) -> dict[str, float]:
    """The counters a hand moves, now: hands settled, Redis commands and CPU ms,
    PostgreSQL transactions, the nodes' CPU ms, client messages, node messages."""
    redis = hall.redis.info()
    figures = _node_figures(hall)
    return {
        "hands": figures["qipai_hands_settled_total"],
        "redis_commands": float(redis["total_commands_processed"]),
        "redis_cpu_ms": 1000 * (float(redis["used_cpu_sys"]) + float(redis["used_cpu_user"])),
        "postgres_commits": float(_commits(hall)),
        "node_cpu_ms": sum(_cpu_ms(node.process.pid) for node in hall.nodes.values()),
        "client_messages": figures["qipai_message_seconds_count"],
        "node_messages": figures["qipai_node_messages_sent_total"],
    }


def _loadtest(hall: Cluster, room: str, args: argparse.Namespace) -> subprocess.Popen[str]:
    urls = [arg for url in hall.urls for arg in ("--url", url)]
    command = [sys.executable, "-c", CLI, "loadtest", *urls, "--room", room]
    command += ["--clients", str(args.clients // 3), "--duration", str(args.duration)]
    command += ["--think", str(args.think)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _summary(run: subprocess.Popen[str]) -> dict[str, Any]:
    output, _ = run.communicate(timeout=600)
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return summary


def _redis_commands(hall: Cluster) -> int:
    return int(hall.redis.info("stats")["total_commands_processed"])


def _commits(hall: Cluster) -> int:
    url = make_url(hall.db_url)
    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as connection:
        query = "SELECT xact_commit FROM pg_stat_database WHERE datname = %s"
        row = connection.execute(query, (url.database,)).fetchone()
    return int(row[0]) if row else 0


def _node_figures(hall: Cluster) -> dict[str, float]:
    """Every node's ``/metrics`` lines without labels, summed over the nodes."""
    totals: dict[str, float] = defaultdict(float)
    for url in hall.urls:
        for line in httpx.get(f"{url}/metrics").text.splitlines():
            if not line.startswith("#") and "{" in line:
                name, value = line.split("{", 1)[0], line.rsplit(" ", 1)[1]
                if "_bucket" not in name:
                    totals[name] += float(value)
    return totals


def _cpu_ms(pid: int) -> float:
    """A process's CPU time (user + system) so far, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
