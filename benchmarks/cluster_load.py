"""Benchmark: the same load on a hall of 1, 2 and 3 processes (nodes), side by side.

    .venv/bin/python benchmarks/cluster_load.py [--clients 60] [--duration 20] [--think 0.5]

For each node count: ``qipai serve --redis`` processes on a fresh PostgreSQL database and
Redis prefix, three Dou Dizhu rooms (shared out over the nodes), and one ``qipai
loadtest`` per room, run together, each spreading its clients over every node's URL (so
most players' sockets are on another node than their table: every message crosses
Redis).  Printed per node count: the latency clients see (from an action sent to its
broadcast received: p50 / p99 / max over the three loadtests), hands per second, and
what each hand costs the shared services: Redis commands (``INFO`` ``total_commands_
processed``), PostgreSQL transactions (``pg_stat_database.xact_commit``) and messages
between nodes (``qipai_node_messages_sent_total``), per hand.  The machine is shared:
quote the medians and the ratios between node counts, not one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from nodes_kit import Cluster, cluster
from process_kit import CLI

ROOMS = "".join(
    f'[[room]]\nid = "r{n}"\nname = "斗地主 {n}"\ngame = "doudizhu"\nrules = "yifa"\n'
    "bot_wait = 0.5\n\n"
    for n in (1, 2, 3)
)


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=60, help="in all (a third per room)")
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5)
    args = parser.parse_args()
    for count in (1, 2, 3):
        with tempfile.TemporaryDirectory() as folder:
            names = [f"n{i + 1}" for i in range(count)]
            with cluster(names, ROOMS, Path(folder), f"load{count}") as hall:
                print(json.dumps({"nodes": count, **_measure(hall, args)}), flush=True)


def _measure(hall: Cluster, args: argparse.Namespace) -> dict[str, Any]:
    owners = {room: hall.owner(room) for room in ("r1", "r2", "r3")}
    redis_before, commits_before = _redis_commands(hall), _commits(hall)
    sent_before = _node_messages(hall)
    runs = [_loadtest(hall, room, args) for room in owners]
    summaries = [_summary(run) for run in runs]
    hands = sum(summary["hands_total"] for summary in summaries) or 1
    latencies = [summary["latency_ms"] for summary in summaries]
    return {
        "rooms": owners,
        "latency_ms": {
            "p50": max(each["p50"] for each in latencies),
            "p99": max(each["p99"] for each in latencies),
            "max": max(each["max"] for each in latencies),
        },
        "hands_per_s": round(sum(summary["hands_per_s"] for summary in summaries), 2),
        "errors": sum(summary["errors"] for summary in summaries),
        "coins_conserved": all(summary["coins_conserved"] for summary in summaries),
        "redis_commands_per_hand": round((_redis_commands(hall) - redis_before) / hands, 1),
        "postgres_commits_per_hand": round((_commits(hall) - commits_before) / hands, 1),
        "node_messages_per_hand": round((_node_messages(hall) - sent_before) / hands, 1),
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


def _node_messages(hall: Cluster) -> int:
    total = 0
    for url in hall.urls:
        for line in httpx.get(f"{url}/metrics").text.splitlines():
            if line.startswith("qipai_node_messages_sent_total{"):
                total += int(float(line.rsplit(" ", 1)[1]))
    return total


if __name__ == "__main__":
    main()
