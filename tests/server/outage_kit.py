"""A database that stops answering: one call of a hall's store failing for a block
(:func:`failing`, in-process tests), or a PostgreSQL server of one's own, stopped and
started again for real (:func:`own_postgres`: the chaos drill), so that nothing else on
the machine (the shared test server) is touched; and a Redis server of one's own to kill
(:class:`OwnRedis`)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import redis
from process_kit import free_port

from qipai.store import Store

SERVICE_USER = "postgres"
"""Who runs a server of one's own when this process is root (PostgreSQL refuses root)."""


@contextlib.contextmanager
def failing(store: Store, name: str, *, after: int = 0) -> Iterator[None]:
    """The store's call ``name`` fails for the block (the database down), after the first
    ``after`` calls."""
    working = getattr(store, name)
    calls = [0]

    def down(*args: object, **kwargs: object) -> Any:
        calls[0] += 1
        if calls[0] <= after:
            return working(*args, **kwargs)
        raise ConnectionError("the database does not answer")

    setattr(store, name, down)
    try:
        yield
    finally:
        store.__dict__.pop(name, None)


@dataclass(frozen=True)
class OwnPostgres:
    """A PostgreSQL server in a folder of its own, on a port of its own (127.0.0.1 only,
    its socket in the folder, no password: ``trust``)."""

    folder: Path
    """Its data (``data/``), socket and log (``postgres.log``)."""
    port: int
    bin: Path
    """Where ``initdb`` and ``pg_ctl`` are."""

    @property
    def url(self) -> str:
        """The URL of its database ``postgres`` (``database_url`` names another)."""
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def create_database(self, name: str) -> str:
        """Create database ``name``; its URL."""
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        log = self.folder / "postgres.log"
        self._pg_ctl("start", "-o", options, "-l", str(log))

    def stop(self) -> None:
        """Stop the server (fast: open connections are cut) and wait until it is down."""
        self._pg_ctl("stop", "-m", "fast")

    def answers(self) -> bool:
        """Whether the server accepts a connection now."""
        try:
            with psycopg.connect(self.url, connect_timeout=3):
                return True
        except psycopg.OperationalError:
            return False

    @contextlib.contextmanager
    def stopped(self) -> Iterator[None]:
        """The server stopped for the block, started again whatever happens."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    def _pg_ctl(self, action: str, *options: str) -> None:
        command = [str(self.bin / "pg_ctl"), action, "-D", str(self.folder / "data"), "-w"]
        _run_as_service_user([*command, "-t", "60", *options])


@contextlib.contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """A new PostgreSQL server (``initdb`` in a temporary folder, a free port), started;
    stopped and its folder removed at the end.  Needs PostgreSQL's server binaries
    (``initdb`` on the PATH, or Debian's ``/usr/lib/postgresql/VERSION/bin``); as root,
    the user ``postgres`` runs them."""
    folder = Path(tempfile.mkdtemp(prefix="qipai-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, SERVICE_USER, SERVICE_USER)
        server = OwnPostgres(folder, free_port(), _server_binaries())
        initdb = [str(server.bin / "initdb"), "-D", str(folder / "data"), "-U", "postgres"]
        _run_as_service_user([*initdb, "--auth=trust", "--encoding=UTF8", "--no-sync"])
        server.start()
        try:
            yield server
        finally:
            with contextlib.suppress(RuntimeError):
                server.stop()  # (stopped already: pg_ctl says so and fails)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _server_binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: the PATH's, else Debian's newest."""
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version)
    if not versions:
        raise RuntimeError("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    return Path(versions[-1])


def _version(folder: str) -> int:
    version = Path(folder).parent.name
    return int(version) if version.isdigit() else 0


def _run_as_service_user(command: list[str]) -> None:
    """Run ``command`` (as :data:`SERVICE_USER` when this process is root).

    :raises RuntimeError: it failed (with what it said).
    """
    if os.geteuid() == 0:
        command = ["runuser", "-u", SERVICE_USER, "--", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip()
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {said}")


class OwnRedis:
    """A Redis server of a test's own, without persistence, to stop and start again."""

    def __init__(self, folder: Path) -> None:
        server = shutil.which("redis-server")
        assert server is not None, "this test needs redis-server (apt-get install redis-server)"
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._command = [server, "--port", str(self.port), "--save", "", "--appendonly", "no",
                         "--dir", str(folder)]  # fmt: skip
        self.process = self.start()

    def start(self) -> subprocess.Popen[bytes]:
        """Start it (empty), once it answers."""
        self.process = subprocess.Popen(self._command, stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port)
        give_up = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < give_up, "redis-server did not start"
                time.sleep(0.05)
        client.close()
        return self.process

    def stop(self) -> None:
        """Kill it: everything it held is gone."""
        self.process.kill()
        self.process.wait(10)
