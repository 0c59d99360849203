"""Helpers of the socket-level tests: rooms made to measure, frames awaited, players seated
together, views compared.

Every wait here waits on frames (with a generous timeout that fails the test), never on a
sleep: a table with bots acting at once is only ever still when it waits on a human.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from psycopg import sql
from server_kit import fast_config
from sqlalchemy import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import ClientSession, Connection, HallClient
from qipai.hall.rooms import Room, default_rooms
from qipai.server.edge.app import ServerConfig

Frame = dict[str, Any]
"""One frame, as the client decodes it."""
POSTGRES = os.environ.get("QIPAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
"""The PostgreSQL server the tests create their databases on (as ``tests/store``)."""
WAIT = 20.0
"""Seconds any one awaited frame may take before the test fails (never reached when the
hall works: frames come in milliseconds)."""


TOGETHER = 1.0
"""The bot wait of a room where players must meet at one table (:func:`seat_together`):
they all join at once and bots fill the rest after it, so a join the hall is slow to
handle (a loaded machine) still finds the first player waiting, not at a table of bots."""


def room_like(base: str, new_id: str, **changes: Any) -> Room:
    """A copy of the shipped room ``base`` called ``new_id``, bots after 0.2 s, with
    ``changes`` (a room of its own keeps a test's players away from every other test's)."""
    room = {room.id: room for room in default_rooms()}[base]
    return dataclasses.replace(room, **{"bot_wait": 0.2, **changes, "id": new_id})


def config_with(db_url: str, *rooms: Room, **changes: Any) -> ServerConfig:
    """:func:`fast_config` with ``rooms`` added to the shipped ones."""
    config = fast_config(db_url, **changes)
    return dataclasses.replace(config, rooms=(*config.rooms, *rooms))


async def next_frame(conn: Connection, *, timeout: float = WAIT) -> Frame:
    """The next frame, whatever it is."""
    async with asyncio.timeout(timeout):
        return await conn.recv()


async def until(
    conn: Connection,
    accept: Callable[[Frame], bool],
    *,
    into: list[Frame] | None = None,
    timeout: float = WAIT,
) -> Frame:
    """Read frames until one is accepted; every frame read is appended to ``into``."""
    async with asyncio.timeout(timeout):
        while True:
            frame = await conn.recv()
            if into is not None:
                into.append(frame)
            if accept(frame):
                return frame


def of_type(kind: str) -> Callable[[Frame], bool]:
    """Accepts the frames of one ``type``."""
    return lambda frame: frame.get("type") == kind


def my_turn(frame: Frame) -> bool:
    """A ``turn`` frame that offers this seat its actions."""
    return frame.get("type") == "turn" and bool(frame.get("legal"))


def without_deadline(snapshot: Frame) -> Frame:
    """A snapshot with its deadline left out (the one field that may move while nothing
    happens)."""
    return {key: value for key, value in snapshot.items() if key != "deadline"}


async def view_now(conn: Connection) -> Frame:
    """``resync``; the snapshot (deadline left out), which must be the very next frame:
    call it only while the table waits on a human."""
    await conn.send({"type": "resync"})
    frame = await next_frame(conn)
    assert frame["type"] == "snapshot", frame
    return without_deadline(frame)


def event_numbers(frames: Sequence[Frame]) -> list[int]:
    """The numbers of the ``event`` frames, in order."""
    return [frame["n"] for frame in frames if frame["type"] == "event"]


@dataclass
class Player:
    """A guest with a connection open, and what his connection received."""

    session: ClientSession
    conn: Connection
    frames: list[Frame] = field(default_factory=list)

    @property
    def seat(self) -> int:
        """His seat (from the first snapshot)."""
        seat: int = next(f["seat"] for f in self.frames if f["type"] == "snapshot")
        return seat

    @property
    def table(self) -> int:
        """His table number (from the first snapshot)."""
        table: int = next(f["table"] for f in self.frames if f["type"] == "snapshot")
        return table

    async def until(self, accept: Callable[[Frame], bool], *, timeout: float = WAIT) -> Frame:
        """:func:`until`, keeping the frames."""
        return await until(self.conn, accept, into=self.frames, timeout=timeout)

    async def answer(self, pending: asyncio.Future[Frame]) -> Frame:
        """The ``ack`` or ``error`` of a request, reading (and keeping) frames until it
        comes."""
        if not pending.done():
            await self.until(lambda frame: pending.done())
        return pending.result()

    async def play_out(
        self,
        choose: Callable[[Sequence[str]], str] | None = None,
        *,
        watch: Callable[[Frame], object] | None = None,
        until: Callable[[Frame], bool] = lambda frame: frame["type"] == "hand_over",
        timeout: float = WAIT * 3,
        leave: bool = False,
    ) -> Frame:
        """Play (the first legal action, or ``choose``) until a frame ``until`` accepts
        (default ``hand_over``); that frame.  ``watch`` sees each frame as it arrives.

        ``leave``: ask to leave at the hand's first ``turn`` (the game has begun: he goes
        once it is over, which is no escape), so that ``left`` follows this hand for sure;
        asked after ``hand_over``, he could already be playing the table's next one."""
        auto = AutoPlayer(choose or (lambda legal: legal[0]))
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.conn.recv()
                self.frames.append(frame)
                if watch is not None:
                    watch(frame)
                if leave and frame["type"] == "turn":
                    await self.conn.send({"type": "leave"})
                    leave = False
                if until(frame):
                    return frame
                reply = auto.on_frame(frame)
                if reply is not None and reply["type"] == "act":
                    await self.conn.act(reply["action"])
                elif reply is not None:
                    await self.conn.send(reply)


@contextlib.asynccontextmanager
async def guests(client: HallClient, count: int) -> AsyncIterator[list[Player]]:
    """``count`` new guests, each with a connection open for the block."""
    async with contextlib.AsyncExitStack() as stack:
        players = []
        for _ in range(count):
            session = await client.guest()
            conn = await stack.enter_async_context(client.connect(session.token))
            players.append(Player(session, conn))
        yield players


async def seat_together(players: Sequence[Player], room: str) -> int:
    """Every player joins ``room`` at once; they must land at one table (bots fill the
    rest after the room's wait); its number."""
    for player in players:
        await player.conn.send({"type": "join", "room": room})
    snapshots = await asyncio.gather(*(p.until(of_type("snapshot")) for p in players))
    tables: set[int] = {frame["table"] for frame in snapshots}
    assert len(tables) == 1, f"the players were not seated together: {snapshots}"
    return tables.pop()


async def play_all(players: Sequence[Player], *, leave: bool = False) -> list[Frame]:
    """Every player plays until the hand is over (asking to leave at its first turn where
    ``leave``: see :meth:`Player.play_out`); their ``hand_over`` frames."""
    return list(await asyncio.gather(*(p.play_out(leave=leave) for p in players)))


def ws_url(url: str) -> str:
    """The WebSocket address of a hall at ``url``."""
    return "ws" + url.removeprefix("http") + "/ws"


async def signed_in_refused(url: str, token: str) -> tuple[str, int | None]:
    """Say ``hello`` with ``token`` on a raw WebSocket: the error code answered and the
    code the hall then closes with."""
    async with connect(ws_url(url), compression=None) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        async with asyncio.timeout(WAIT):
            frame = json.loads(await socket.recv())
            with contextlib.suppress(ConnectionClosed):
                await socket.recv()
        assert frame["type"] == "error", frame
        return frame["code"], socket.close_code


@contextlib.contextmanager
def fresh_postgres(purpose: str) -> Iterator[str]:
    """A new, empty database on the test PostgreSQL server, dropped afterwards; its URL.

    A server that cannot be reached fails the test: the hall must be proven on PostgreSQL.
    """
    server = make_url(POSTGRES)
    conninfo = server.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        admin = psycopg.connect(conninfo, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        pytest.fail(f"this test needs PostgreSQL at {POSTGRES}: {error}", pytrace=False)
    name = f"qipai_{purpose}_{os.getpid()}"
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    with admin:
        admin.execute(drop)  # left over by a killed run with the same process id
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            admin.execute(drop)
