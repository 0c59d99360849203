"""Chaos drill: a three-node hall under load loses a node, has one paused, and loses its
database for half a minute; it must end with its ledger clean and the load test ending by
itself.

    .venv/bin/python benchmarks/chaos_drill.py [--clients 60] [--pg-seconds 30]

Three ``qipai serve --redis`` nodes (``a``, ``b``, ``c``: the names of
``deploy/haproxy.cfg``) on a PostgreSQL database of the drill's own (``qipai_chaos_<pid>``,
dropped at the end unless ``--keep``) and a Redis prefix of its own, behind HAProxy on
the shipped configuration (free ports); ``qipai loadtest --clients N`` through the proxy.
Once hands are being settled (play time 0):

1. at +5 s the node owning the room is killed (SIGKILL), and started again at +15 s;
2. at +25 s the node owning the room then is paused (SIGSTOP) for 10 s (SIGCONT): it is
   taken over meanwhile, and drops its work when it comes back;
3. at +50 s PostgreSQL is stopped (``pg_ctlcluster --skip-systemctl-redirect VERSION main
   stop``) for ``--pg-seconds`` and started again, whatever happens (also on Ctrl-C).

The load test plays for ``--duration`` seconds (past the last event), then its clients
leave.  Then the drill checks: the load test ended by itself (within its own limits), no
hand is left ``playing`` once the clients are gone, the nodes stop cleanly, and ``qipai
audit`` (no ``--allow-playing``) is clean.  It prints one JSON line per event, the load
test's summary (reconnects, ``reconnect_attempts``, ``gave_up``, resume times, hands
voided, coins conserved…) and a verdict; the exit status is 1 if a check failed.  The
nodes' and HAProxy's logs stay in the printed folder.  Needs PostgreSQL (run as its
superuser: the drill stops and starts the server), Redis and HAProxy
(``docs/operations.md``, "The chaos drill").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis
from psycopg import sql
from sqlalchemy import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from nodes_kit import REDIS, redis_keys
from process_kit import CLI, audit_cli, free_port
from proxy_kit import Proxy, haproxy

POSTGRES = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
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
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="qipai-chaos-"))
    (folder / "rooms.toml").write_text(ROOMS, encoding="utf-8")
    _say("folder", logs=str(folder))
    with own_database(keep=args.keep) as db_url, redis_keys() as (prefix, client):
        ports = {name: free_port() for name in NODES}
        hall = Hall(db_url, prefix, client, folder, ports)
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
    with postgres_stopped():
        stopped = time.monotonic()
        _say("postgresql stopped", seconds=pg_seconds)
        _until("the outage's end", _postgres_answers, pg_seconds, fail=False)
        if _postgres_answers():  # somebody else on the machine started it again
            _say("postgresql started early", after=round(time.monotonic() - stopped, 1))
    _say("postgresql started", outage=round(time.monotonic() - stopped, 1))


@contextlib.contextmanager
def postgres_stopped() -> Iterator[None]:
    """PostgreSQL stopped for the block, started again whatever happens."""
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    control = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main"]
    subprocess.run([*control, "stop"], check=True, timeout=60)
    try:
        yield
    finally:  # (started already by somebody else: it says so, and answers)
        subprocess.run([*control, "start"], check=False, timeout=120)
        _until("PostgreSQL up", _postgres_answers, 60)


@contextlib.contextmanager
def own_database(*, keep: bool) -> Iterator[str]:
    """A new database ``qipai_chaos_<pid>`` on the PostgreSQL server; its URL."""
    server = make_url(POSTGRES)
    conninfo = server.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"qipai_chaos_{os.getpid()}"
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        if not keep:
            with psycopg.connect(conninfo, autocommit=True) as admin:
                drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                admin.execute(drop.format(sql.Identifier(name)))


def _count(db_url: str, status: str) -> int:
    """Hands of that status (-1 while the database does not answer)."""
    url = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(url, connect_timeout=3) as connection:
            query = "SELECT count(*) FROM hands WHERE status = %s"
            row = connection.execute(query, (status,)).fetchone()
    except psycopg.OperationalError:
        return -1
    return 0 if row is None else int(row[0])


def _postgres_answers() -> bool:
    url = make_url(POSTGRES).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


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
