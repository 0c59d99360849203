"""The shipped ``deploy/haproxy.cfg`` in front of two real hall processes (nodes ``a`` and
``b``: ``qipai serve --redis … --node-id …``, one PostgreSQL database, one Redis).

Through the proxy's one address: both nodes answer (least connections, no stickiness), a
guest plays a hand over a WebSocket; the node holding his WebSocket is killed (SIGKILL):
the requests of the next instants are retried on the other node (``retries`` and
``redispatch``), the player's WebSocket is closed, HAProxy marks the node down within a few
seconds (``/readyz`` checked every second, down after two failures), and from then on the
other node serves everything: a new guest, the player reconnecting with his token (tried
again while the hall answers ``cluster_unavailable``, until the dead node is taken over)
and playing on.  The nodes see the client's own address through ``X-Forwarded-For`` (their
limit on new guests per address counts it, not the proxy's, nor an address the client
forged).  Last, the other node freezes (SIGSTOP: its sockets stay open, its health check
times out): once marked down, the proxy cuts the WebSockets through it at once
(``on-marked-down shutdown-sessions``) instead of leaving them hanging on a silent node.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from process_kit import kill, serving
from proxy_kit import (
    SHIPPED,
    Proxy,
    haproxy,
    haproxy_binary,
    metric,
    metrics_node,
    node_of,
    redis_database,
)
from server_kit import play_hand
from websockets.exceptions import ConnectionClosed
from wire_kit import fresh_postgres

from qipai.client.connection import Connection, HallClient, HallError
from qipai.server.edge.limits import Limits

pytestmark = pytest.mark.postgres

ROOMS = """
[[room]]
id = "px-ddz"
name = "斗地主"
game = "doudizhu"
rules = "yifa"
bot_wait = 0.2
"""
ROOM = "px-ddz"
CUT = 10.0
"""Seconds within which a WebSocket through a dead node must be closed."""
FROZEN = 15.0
"""Seconds within which HAProxy must mark a frozen node down (its checks time out after
2 s: about 5 s for two of them)."""


@dataclass
class Node:
    """A hall process: its id (``--node-id``, also its server's name in the proxy)."""

    name: str
    process: subprocess.Popen[bytes]
    url: str

    @property
    def port(self) -> int:
        port = urlsplit(self.url).port
        assert port is not None
        return port

    def metrics(self) -> str:
        """Its ``/metrics``, asked directly (not through the proxy)."""
        answer = httpx.get(f"{self.url}/metrics", timeout=5)
        assert answer.status_code == 200
        return answer.text


def test_the_shipped_config_is_valid_and_says_what_the_nodes_rely_on() -> None:
    checked = subprocess.run(
        [haproxy_binary(), "-c", "-f", str(SHIPPED)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = {line.split("#")[0].strip() for line in SHIPPED.read_text("utf-8").splitlines()}
    for setting in (
        "balance leastconn",
        "option httpchk GET /readyz",
        "http-check expect status 200",
        "option forwardfor",
        "timeout tunnel 1h",
        "option redispatch 1",
        "retries 3",
        "default-server check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions",
        "server a 127.0.0.1:8001",
        "server b 127.0.0.1:8002",
        "server c 127.0.0.1:8003",
    ):
        assert setting in lines, setting
    assert not any(line.startswith(("cookie", "stick", "hash-type")) for line in lines)


def test_two_nodes_behind_the_proxy_one_killed_then_one_frozen(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms.toml"
    rooms.write_text(ROOMS, encoding="utf-8")
    with contextlib.ExitStack() as stack:
        db_url = stack.enter_context(fresh_postgres("proxy"))
        redis_url = stack.enter_context(redis_database())
        nodes: list[Node] = []
        for name in ("a", "b"):  # one after the other: the first migrates the database
            extra = ("--redis", redis_url, "--node-id", name, "--forwarded-allow-ips", "127.0.0.1")
            output = tmp_path / f"{name}.log"
            process, url = stack.enter_context(serving(db_url, rooms, output, *extra))
            nodes.append(Node(name, process, url))
        proxy = stack.enter_context(haproxy(tmp_path, {node.name: node.port for node in nodes}))
        proxy.wait_states({"a": "UP", "b": "UP"})
        try:
            asyncio.run(_scenario(proxy, nodes))
        except BaseException:
            for log in ("a.log", "b.log", "haproxy.log"):
                print(f"== {log}\n{(tmp_path / log).read_text(errors='replace')[-6000:]}")
            raise


async def _scenario(proxy: Proxy, nodes: list[Node]) -> None:
    close = {"connection": "close"}  # a new connection each: a new choice of node
    async with httpx.AsyncClient(base_url=proxy.url, headers=close, timeout=10) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"ok": True, "database": True, "redis": True}
        assert await _nodes_answering(http) == {"a", "b"}

        async with HallClient(proxy.url) as client:
            session = await client.guest()
            async with client.connect(session.token) as conn:
                _, over = await play_hand(conn, ROOM)
                assert over["type"] == "hand_over"
                holder = await _holding_the_websocket(nodes)
                other = next(node for node in nodes if node is not holder)

                await asyncio.to_thread(kill, holder.process)
                killed = time.monotonic()
                for _ in range(3):  # not marked down yet: retried on the other node
                    answer = await http.get("/readyz")
                    assert (answer.status_code, node_of(answer)) == (200, other.name)
                await _closed(conn)
            cut = time.monotonic() - killed
            await asyncio.to_thread(proxy.wait_states, {holder.name: "DOWN", other.name: "UP"})
            down = time.monotonic() - killed
            print(
                f"node {holder.name} killed: WebSocket closed in {cut:.2f} s, down in {down:.2f} s"
            )

            assert await _nodes_answering(http, tries=5) == {other.name}
            answer = await http.post("/api/guest")  # a new player
            assert (answer.status_code, node_of(answer)) == (200, other.name)
            async with contextlib.AsyncExitStack() as stack:
                again = await stack.enter_async_context(_reconnected(client, session.token))
                fresh = await stack.enter_async_context(client.connect(answer.json()["token"]))
                assert fresh.welcome["type"] == "welcome"
                _, over = await play_hand(again, ROOM)  # the same player plays on
                assert over["type"] == "hand_over"
                assert metric(other.metrics(), "qipai_connections") == 2
                await _forwarded_for_counts_the_client(proxy.url)
                await _frozen_node_cuts_its_websockets(proxy, other, again, fresh)


@contextlib.asynccontextmanager
async def _reconnected(client: HallClient, token: str) -> AsyncIterator[Connection]:
    """A connection of ``token`` through the proxy, as a client that lost its node
    reconnects: again while the hall answers ``cluster_unavailable`` (his node is gone but
    not taken over yet: within about the beat's time to live), for at most 20 s."""
    give_up, refused = time.monotonic() + 20, 0
    while True:
        conn = client.connect(token)
        try:
            await conn.__aenter__()
            break
        except HallError as error:
            await conn.__aexit__(None, None, None)
            if error.code != "cluster_unavailable" or time.monotonic() > give_up:
                raise
            refused += 1
        await asyncio.sleep(0.25)
    print(f"reconnected after {refused} cluster_unavailable")
    try:
        yield conn
    finally:
        await conn.__aexit__(None, None, None)


async def _nodes_answering(http: httpx.AsyncClient, tries: int = 20) -> set[str | None]:
    """The nodes that answer ``tries`` requests to ``/metrics`` through the proxy (stops
    early once both answered); each answer's header and label must name the same node."""
    seen: set[str | None] = set()
    for _ in range(tries):
        answer = await http.get("/metrics")
        assert answer.status_code == 200, answer.text
        assert node_of(answer) == metrics_node(answer.text)
        seen.add(node_of(answer))
        if seen == {"a", "b"}:
            break
    return seen


async def _holding_the_websocket(nodes: list[Node]) -> Node:
    """The node whose ``qipai_connections`` counts the one WebSocket open."""
    counts = {node.name: metric(node.metrics(), "qipai_connections") for node in nodes}
    assert sorted(counts.values()) == [0, 1], counts
    return next(node for node in nodes if counts[node.name] == 1)


async def _closed(conn: Connection) -> None:
    """Read until the connection closes, within :data:`CUT` seconds."""
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(CUT):
            while True:
                await conn.recv()


async def _forwarded_for_counts_the_client(url: str) -> None:
    """The limit on new guests per address (5 a minute) counts the address the proxy saw:
    a client at 127.0.0.2 has its five, whatever address it claims in its own
    ``X-Forwarded-For``, and then is refused; one at 127.0.0.3 still has its own.  (Had
    the node counted the proxy's 127.0.0.1, the client at 127.0.0.3 would be refused; had
    it believed the forged addresses, the sixth would pass.)"""
    rate = Limits().guest_per_address
    assert rate is not None

    async def guest(source: str, forged: str) -> int:
        transport = httpx.AsyncHTTPTransport(local_address=source)
        async with httpx.AsyncClient(transport=transport, timeout=10) as http:
            answer = await http.post(f"{url}/api/guest", headers={"x-forwarded-for": forged})
            return answer.status_code

    statuses = [await guest("127.0.0.2", f"203.0.113.{n}") for n in range(rate.count + 1)]
    assert statuses == [200] * rate.count + [429]
    assert await guest("127.0.0.3", "203.0.113.0") == 200


async def _frozen_node_cuts_its_websockets(proxy: Proxy, node: Node, *conns: Connection) -> None:
    """``node`` stops (SIGSTOP): its sockets stay open but its health check times out;
    once HAProxy marks it down, the WebSockets through it are closed."""
    node.process.send_signal(signal.SIGSTOP)
    try:
        frozen = time.monotonic()
        await asyncio.to_thread(proxy.wait_states, {node.name: "DOWN"}, within=FROZEN)
        for conn in conns:
            await _closed(conn)
        cut = time.monotonic() - frozen
        print(f"node {node.name} frozen: down and its WebSockets cut in {cut:.2f} s")
    finally:
        node.process.send_signal(signal.SIGKILL)
