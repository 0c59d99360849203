"""HAProxy running the shipped ``deploy/haproxy.cfg`` (its ports replaced) in front of real
``qipai serve`` nodes, for the tests of the proxy: a Redis database of the tests' own, the
proxy's view of its nodes, and which node answered a request."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import redis
from process_kit import free_port

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "haproxy.cfg"
"""The configuration under test, as shipped."""
REDIS = os.environ.get("QIPAI_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The test Redis (as ``tests/cluster``)."""
REDIS_DB = 11
"""The Redis database number the proxy's test uses, flushed before and after: the other
tests use their own (``0`` by default), so flushing this one disturbs none of them."""
SERVER = re.compile(r"^(\s*server\s+)(\S+)(\s+)127\.0\.0\.1:\d+(.*)$", re.MULTILINE)
"""A ``server NAME 127.0.0.1:PORT …`` line of the backend."""
FRONTEND = re.compile(r"^(\s*bind\s+):8000\b(.*)$", re.MULTILINE)
STATS = re.compile(r"^(\s*bind\s+)127\.0\.0\.1:8404\b(.*)$", re.MULTILINE)


def haproxy_binary() -> str:
    """Debian's ``haproxy`` (``.ci/run`` installs it); a clear failure without it."""
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        pytest.fail("this test needs HAProxy (apt-get install haproxy; .ci/run does)")
    return found


def proxy_config(text: str, port: int, stats: int, nodes: Mapping[str, int]) -> str:
    """The shipped configuration ``text`` with its players' port replaced by ``port`` (on
    127.0.0.1), its status page's by ``stats`` and its backend's servers by ``nodes``
    (server name: port; the shipped servers named there keep their line and options, the
    others are left out)."""
    text, found = FRONTEND.subn(rf"\g<1>127.0.0.1:{port}\g<2>", text)
    assert found == 1, "deploy/haproxy.cfg: no `bind :8000` line"
    text, found = STATS.subn(rf"\g<1>127.0.0.1:{stats}\g<2>", text)
    assert found == 1, "deploy/haproxy.cfg: no `bind 127.0.0.1:8404` line"
    shipped = SERVER.findall(text)
    assert set(nodes) <= {name for _, name, _, _ in shipped}, shipped

    def server(match: re.Match[str]) -> str:
        lead, name, space, rest = match.groups()
        if name not in nodes:
            return f"    # server {name}: left out by the test"
        return f"{lead}{name}{space}127.0.0.1:{nodes[name]}{rest}"

    return SERVER.sub(server, text)


@dataclass
class Proxy:
    """HAProxy serving players at ``url``, its status page at ``stats_url``."""

    url: str
    stats_url: str
    process: subprocess.Popen[bytes]
    log: Path

    def states(self) -> dict[str, str]:
        """Each server of the backend ``qipai`` and its state (``UP``, ``DOWN``, ``UP 1/2``
        while going down, ...), from the status page's CSV."""
        answer = httpx.get(f"{self.stats_url}/;csv", timeout=5)
        answer.raise_for_status()
        rows = csv.DictReader(io.StringIO(answer.text.removeprefix("# ")))
        return {
            row["svname"]: row["status"]
            for row in rows
            if row["pxname"] == "qipai" and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def wait_states(self, wanted: Mapping[str, str], *, within: float = 15.0) -> float:
        """Wait until the servers of ``wanted`` are in those states; the seconds it took."""
        start = time.monotonic()
        states: dict[str, str] = {}
        while time.monotonic() - start < within:
            if self.process.poll() is not None:
                pytest.fail(f"haproxy exited: {self.log.read_text(errors='replace')}")
            with contextlib.suppress(httpx.HTTPError):
                states = self.states()
                if all(states.get(name) == state for name, state in wanted.items()):
                    return time.monotonic() - start
            time.sleep(0.05)
        pytest.fail(f"the proxy's servers are {states}, not {dict(wanted)} after {within} s")


@contextlib.contextmanager
def haproxy(folder: Path, nodes: Mapping[str, int]) -> Iterator[Proxy]:
    """HAProxy on the shipped configuration, on free ports, in front of ``nodes`` (server
    name: port), in the foreground (``haproxy -db``) until the block ends, once its status
    page answers."""
    port, stats = free_port(), free_port()
    path, log = folder / "haproxy.cfg", folder / "haproxy.log"
    path.write_text(proxy_config(SHIPPED.read_text("utf-8"), port, stats, nodes), "utf-8")
    binary = haproxy_binary()
    command = [binary, "-c", "-f", str(path)]
    checked = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with log.open("wb") as output:
        process = subprocess.Popen(
            [binary, "-db", "-f", str(path)], stdout=output, stderr=subprocess.STDOUT
        )
        proxy = Proxy(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{stats}", process, log)
        try:
            give_up = time.monotonic() + 30
            while not _answers(proxy.stats_url):
                if process.poll() is not None or time.monotonic() > give_up:
                    pytest.fail(f"haproxy did not start: {log.read_text(errors='replace')}")
                time.sleep(0.05)
            yield proxy
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(30)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def node_of(answer: httpx.Response) -> str | None:
    """The node that answered, as the proxy names it (``X-Qipai-Node``; ``None``: the
    proxy answered itself, e.g. 503 with no node up)."""
    node: str | None = answer.headers.get("x-qipai-node")
    return node


def metrics_node(text: str) -> str:
    """The ``node`` label of a ``/metrics`` answer."""
    labels: set[str] = set(re.findall(r'\{node="([^"]*)"\}', text))
    assert len(labels) == 1, labels
    return labels.pop()


def metric(text: str, name: str) -> float:
    """The value of the metric ``name`` in a ``/metrics`` answer."""
    found = re.search(rf"^{name}\{{[^}}]*\}} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name} not in {text}"
    return float(found[1])


@contextlib.contextmanager
def redis_database() -> Iterator[str]:
    """The URL of :data:`REDIS_DB` on the test Redis, flushed before and after."""
    url = urlsplit(REDIS)._replace(path=f"/{REDIS_DB}").geturl()
    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        client.ping()
    except (OSError, redis.RedisError) as error:
        client.close()
        pytest.fail(f"this test needs Redis at {REDIS} (QIPAI_TEST_REDIS): {error}")
    try:
        client.flushdb()
        yield url
    finally:
        client.flushdb()
        client.close()
