"""Helpers of the load tool's tests: a real hall (``tests/server/server_kit.py``) and a TCP
relay in front of it that a test can cut, so that the clients see their sockets die as
when a node of the hall stops."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

_SERVER_TESTS = Path(__file__).resolve().parent.parent / "server"
if str(_SERVER_TESTS) not in sys.path:
    sys.path.insert(0, str(_SERVER_TESTS))

from server_kit import (  # noqa: E402
    CROWDED_ENTROPY_WINDOW,
    RunningHall,
    fast_config,
    running_hall,
)

__all__ = ["Relay", "RunningHall", "crowded_hall", "fast_config", "running_hall"]


@contextlib.contextmanager
def crowded_hall(folder: Path) -> Iterator[RunningHall]:
    """A hall on SQLite in ``folder`` for many load-test clients in the test's process (its
    entropy window :data:`~server_kit.CROWDED_ENTROPY_WINDOW`)."""
    url = f"sqlite:///{folder / 'hall.db'}"
    with running_hall(fast_config(url, entropy_window=CROWDED_ENTROPY_WINDOW)) as running:
        yield running


@dataclass(eq=False)
class Link:
    """One connection through the relay: the client's side and the hall's."""

    client: asyncio.StreamWriter
    hall: asyncio.StreamWriter
    head: bytes = b""
    """The first bytes the client sent (``GET /ws`` for a WebSocket)."""
    down: int = 0
    """Bytes relayed from the hall to the client."""
    open: bool = True

    @property
    def websocket(self) -> bool:
        """Whether the client opened a WebSocket (not an HTTP request)."""
        return self.head.startswith(b"GET /ws")


@dataclass(eq=False)
class Relay:
    """Relays a loopback port to the hall at ``target`` (an ``http://host:port`` URL), in
    the running event loop; :meth:`cut` stops it: no new connection, and every open one
    reset on both sides."""

    target: str
    links: list[Link] = field(default_factory=list)
    storm: bool = False
    """While true, every WebSocket is reset right after the hall's ``welcome`` has been
    relayed (the hall welcomes, then the connection dies: what a client sees when the
    hall cannot serve it after signing it in)."""
    _server: asyncio.Server | None = None

    async def start(self) -> Relay:
        """Listen on a free port."""
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self

    @property
    def url(self) -> str:
        """The relay's address, as the hall's."""
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def websockets(self) -> list[Link]:
        """The WebSocket connections through the relay, open or not, oldest first."""
        return [link for link in self.links if link.websocket]

    def start_storm(self) -> None:
        """From now on every WebSocket dies right after its ``welcome`` (:attr:`storm`); the
        open ones die now."""
        self.storm = True
        for link in self.websockets():
            link.open = False
            for writer in (link.client, link.hall):
                writer.transport.abort()

    def cut(self) -> None:
        """Stop listening (a new connection is refused) and reset every open connection."""
        assert self._server is not None
        self._server.close()
        for link in self.links:
            link.open = False
            for writer in (link.client, link.hall):
                writer.transport.abort()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = urlsplit(self.target)
        try:
            hall_reader, hall_writer = await asyncio.open_connection(address.hostname, address.port)
        except OSError:
            writer.transport.abort()
            return
        link = Link(writer, hall_writer)
        self.links.append(link)
        await asyncio.gather(
            self._pipe(reader, link, up=True),
            self._pipe(hall_reader, link, up=False),
            return_exceptions=True,
        )

    async def _pipe(self, source: asyncio.StreamReader, link: Link, *, up: bool) -> None:
        sink = link.hall if up else link.client
        try:
            while data := await source.read(65536):
                if up and not link.head:
                    link.head = data[:16]
                if not up:
                    link.down += len(data)
                sink.write(data)
                await sink.drain()
                if not up and self.storm and link.websocket and b'"welcome"' in data:
                    link.open = False
                    link.client.transport.abort()
                    link.hall.transport.abort()
        finally:
            link.open = False
            for writer in (link.client, link.hall):  # one side gone: the other closes
                with contextlib.suppress(Exception):
                    writer.close()
