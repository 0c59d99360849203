"""The hall under load: `qipai serve` on a fresh database, `qipai loadtest` against it.

Starts the hall as its own process (so the load tool's CPU is not the server's), on a new
SQLite file or a new PostgreSQL database, waits for /healthz, runs `qipai loadtest` with the
given clients, prints its JSON summary with the server's resident memory before the clients
connected and with all of them connected, then stops the hall and runs `qipai audit`.

    .venv/bin/python benchmarks/hall_load.py --db sqlite --clients 100 --duration 30
    .venv/bin/python benchmarks/hall_load.py --db postgresql --clients 1000 --duration 60 --think 1

The machine is shared and noisy: repeat a run and quote the median.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from databases import fresh_database

QIPAI = [sys.executable, "-c", "import sys; from qipai.cli import main; sys.exit(main())"]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(url: str) -> None:
    """Until /healthz answers 200."""
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the hall did not start")


def main() -> int:
    """Run one load and print its summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--game", default="doudizhu")
    parser.add_argument("--rules", default="yifa")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database(args.db, Path(folder), "hall")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        serve = [
            *QIPAI,
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-delay",
            str(args.bot_delay),
            "--no-limits",  # every load client signs up from this one address
        ]
        with subprocess.Popen(serve, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as hall:
            try:
                wait_ready(url)
                load = [
                    *QIPAI, "loadtest", "--url", url, "--clients", str(args.clients),
                    "--duration", str(args.duration), "--think", str(args.think),
                    "--game", args.game, "--rules", args.rules,
                ]  # fmt: skip
                done = subprocess.run(load, capture_output=True, text=True, check=False)
            finally:
                hall.terminate()
                hall.wait(60)
        summary = json.loads(done.stdout.strip().splitlines()[-1])
        audit = subprocess.run(
            [*QIPAI, "audit", "--db", db], capture_output=True, text=True, check=False
        )
        summary.update(db=args.db, audit=audit.stdout.strip(), audit_status=audit.returncode)
        print(json.dumps(summary, ensure_ascii=False))
    return 0 if audit.returncode == 0 and summary["coins_conserved"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
