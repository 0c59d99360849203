"""Chaos drill: a three-node hall under load loses a node, has one paused, and loses its
database for half a minute; it must end with its ledger clean and the load test ending by
itself.

    .venv/bin/python benchmarks/chaos_drill.py [--clients 60] [--pg-seconds 30]

Three ``qipai serve --redis`` nodes (``a``, ``b``, ``c``: the names of
``deploy/haproxy.cfg``) on a PostgreSQL server of the drill's own (``initdb`` in a
temporary folder, a free port: the machine's other servers are never touched; stopped
and removed at the end, its log copied to the drill's folder) and a Redis prefix of its
own, behind HAProxy on the shipped configuration (free ports); ``qipai loadtest
--clients N`` through the proxy.
Once hands are being settled (play time 0):

1. at +5 s the node owning the room is killed (SIGKILL), and started again at +15 s;
2. at +25 s the node owning the room then is paused (SIGSTOP) for 10 s (SIGCONT): it is
   taken over meanwhile, and drops its work when it comes back;
3. at +50 s the drill's PostgreSQL is stopped (``pg_ctl stop -m fast``) for
   ``--pg-seconds`` and started again, whatever happens (also on Ctrl-C).

The load test plays for ``--duration`` seconds (past the last event), then its clients
leave.  Then the drill checks: the load test ended by itself (within its own limits), no
hand is left ``playing`` once the clients are gone, the nodes stop cleanly, and ``qipai
audit`` (no ``--allow-playing``) is clean.  It prints one JSON line per event, the load
test's summary (reconnects, ``reconnect_attempts``, ``gave_up``, resume times, hands
voided, coins conserved…) and a verdict; the exit status is 1 if a check failed.  The
nodes', HAProxy's and PostgreSQL's logs stay in the printed folder.  Needs PostgreSQL's
server binaries (``initdb``, ``pg_ctl``; run by the user ``postgres`` when the drill runs
as root), Redis and HAProxy (``docs/operations.md``, "The chaos drill").
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from nodes_kit import REDIS, redis_keys
from outage_kit import OwnPostgres, own_postgres
from process_kit import CLI, audit_cli, free_port
from proxy_kit import Proxy, haproxy

ROOM = "chaos-ddz"
ROOMS = f"""
[[room]]
id = "{ROOM}"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
bot_wait = 2
"""
NODES = ("a", "b", "c")
"""The nodes, named as the servers of ``deploy/haproxy.cfg``."""
SETTLED_FIRST = 10
"""Hands settled before play time 0."""


@dataclass
class Hall:
    """The drill's nodes, database, Redis keys and proxy."""

    postgres: OwnPostgres
    db_url: str
    prefix: str
    redis: redis.Redis
    folder: Path
    ports: dict[str, int]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str) -> None:
        """Start node ``name`` on its port (again, after a kill) and wait until it
        answers."""
        command = [sys.executable, "-c", CLI, "serve", "--port", str(self.ports[name])]
        command += ["--db", self.db_url, "--config", str(self.folder / "rooms.toml")]
        command += ["--bot-delay", "0", "--no-limits", "--redis", REDIS, "--node-id", name]
        command += ["--redis-prefix", self.prefix]
        log = (self.folder / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        _until(f"node {name} up", lambda: _healthy(self.ports[name]), 60)

    def owner(self) -> str:
        """The node owning the room now (waits while it moves)."""
        key = f"{self.prefix}:lease:room:{ROOM}"
        held: list[str] = []

        def owned() -> bool:
            value = self.redis.get(key)
            held[:] = [] if value is None else [value.decode().rpartition("|")[0]]
            return bool(held)

        _until("an owner of the room", owned, 60)
        return held[0]

    def stop_all(self) -> dict[str, int | None]:
        """Stop every node (SIGTERM: it voids its hands in play and leaves); the exit
        statuses."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)  # (in case it is still paused)
                process.terminate()
        statuses: dict[str, int | None] = {}
        for name, process in self.processes.items():
            try:
                statuses[name] = process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                statuses[name] = None
        return statuses


def main() -> int:
    """Run the drill; 0 if every check held."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--duration", type=float, default=120.0, help="the load test's play")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--pg-seconds", type=float, default=30.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="qipai-chaos-"))
    (folder / "rooms.toml").write_text(ROOMS, encoding="utf-8")
    _say("folder", logs=str(folder))
    with own_postgres() as postgres, redis_keys() as (prefix, client):
        db_url = postgres.create_database("qipai_chaos")
        _say("postgresql", port=postgres.port, folder=str(postgres.folder))
        ports = {name: free_port() for name in NODES}
        hall = Hall(postgres, db_url, prefix, client, folder, ports)
        try:
            for name in NODES:
                hall.start(name)
            with haproxy(folder, ports) as proxy:
                proxy.wait_states(dict.fromkeys(NODES, "UP"), within=30)
                checks = drill(hall, proxy, args)
        finally:
            statuses = hall.stop_all()
        # (uvicorn stops gracefully on SIGTERM, then re-raises it: -15 is a clean stop)
        clean = (0, -signal.SIGTERM)
        checks["nodes stopped cleanly"] = all(status in clean for status in statuses.values())
        _say("nodes stopped", statuses=statuses)
        audit = audit_cli(db_url)
        checks["audit clean"] = audit.returncode == 0
        _say("audit", status=audit.returncode, output=audit.stdout.strip()[-2000:])
        shutil.copy(postgres.folder / "postgres.log", folder / "postgres.log")
    held = all(checks.values())
    _say("verdict", held=held, checks=checks)
    return 0 if held else 1


def drill(hall: Hall, proxy: Proxy, args: argparse.Namespace) -> dict[str, bool]:
    """The load test and the events; what the checks found."""
    command = [sys.executable, "-c", CLI, "loadtest", "--url", proxy.url, "--room", ROOM]
    command += ["--clients", str(args.clients), "--duration", str(args.duration)]
    command += ["--think", str(args.think), "--seed", "1"]
    began = time.monotonic()
    load = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _until("hands settled", lambda: _count(hall.db_url, "settled") >= SETTLED_FIRST, 180)
        zero = time.monotonic()
        _say("play", seconds_to_start=round(zero - began, 1))
        events(hall, args.pg_seconds, zero)
        limit = args.duration + 90 + 60 + 300  # play, finishing, history, the outage
        output, errors = load.communicate(timeout=limit)
    finally:
        if load.poll() is None:
            load.kill()
            load.wait()
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    _say("loadtest", status=load.returncode, stderr=errors.strip()[-500:], **summary)
    _until("no hand in play", lambda: _count(hall.db_url, "playing") == 0, 60, fail=False)
    playing = _count(hall.db_url, "playing")
    _say("hands", **{s: _count(hall.db_url, s) for s in ("settled", "voided", "playing")})
    return {
        "load test ended by itself": True,  # (it did: communicate() returned)
        "no client gave up": summary["gave_up"] == 0,
        "coins conserved": bool(summary["coins_conserved"]),
        "no hand left playing": playing == 0,
    }


def events(hall: Hall, pg_seconds: float, zero: float) -> None:
    """Kill, restart, pause and cut the database off, at their times after ``zero``."""
    _at(zero + 5)
    killed = hall.owner()
    hall.processes[killed].send_signal(signal.SIGKILL)
    hall.processes[killed].wait(30)
    _say("killed", node=killed)
    _at(zero + 15)
    hall.start(killed)
    _say("started again", node=killed)
    _at(zero + 25)
    paused = hall.owner()
    hall.processes[paused].send_signal(signal.SIGSTOP)
    _say("paused", node=paused)
    time.sleep(10)
    hall.processes[paused].send_signal(signal.SIGCONT)
    _say("resumed", node=paused)
    _at(zero + 50)
    with hall.postgres.stopped():  # (started again whatever happens: also on Ctrl-C)
        stopped = time.monotonic()
        _say("postgresql stopped", seconds=pg_seconds)
        time.sleep(pg_seconds)  # the outage
    _say("postgresql started", outage=round(time.monotonic() - stopped, 1))


def _count(db_url: str, status: str) -> int:
    """Hands of that status (-1 while the database does not answer)."""
    try:
        with psycopg.connect(db_url, connect_timeout=3) as connection:
            query = "SELECT count(*) FROM hands WHERE status = %s"
            row = connection.execute(query, (status,)).fetchone()
    except psycopg.OperationalError:
        return -1
    return 0 if row is None else int(row[0])


def _healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _until(what: str, check: Callable[[], bool], seconds: float, *, fail: bool = True) -> None:
    give_up = time.monotonic() + seconds
    while not check():
        if time.monotonic() > give_up:
            if fail:
                raise SystemExit(f"timed out waiting for {what}")
            return
        time.sleep(0.2)


def _at(when: float) -> None:
    time.sleep(max(0.0, when - time.monotonic()))


def _say(event: str, **facts: Any) -> None:
    print(json.dumps({"event": event, "at": time.strftime("%H:%M:%S"), **facts}), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
