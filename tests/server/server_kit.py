"""A real hall on a loopback port, in a thread of the test process, for socket-level tests."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import uvicorn

from qipai.client.autoplay import AutoPlayer
from qipai.hall.rooms import default_rooms
from qipai.server.edge.app import ServerConfig, create_app
from qipai.server.edge.auth import Passwords
from qipai.server.edge.limits import Limits
from qipai.server.serve import WS_MAX_SIZE

ENTROPY_WINDOW = 0.25
"""Seconds a test hall's hand waits, at most, for its players' entropy."""
CROWDED_ENTROPY_WINDOW = 3.0
"""The entropy window of a test whose many clients share one process with the hall: on a
loaded machine a client's contribution can take longer than :data:`ENTROPY_WINDOW` and is
refused ``entropy_closed``; the hand still deals as soon as every contribution is in."""


@dataclass
class RunningHall:
    """A hall serving at ``url`` (``app`` reaches its state: ``app.state.hall``)."""

    url: str
    app: Any
    server: uvicorn.Server
    db_url: str | None

    @property
    def hall(self) -> Any:
        """The live :class:`~qipai.server.run.hall.HallService`."""
        return self.app.state.hall


def fast_config(db_url: str, **changes: Any) -> ServerConfig:
    """Fast settings: cheap password hashing, no limit on sign-ins and new accounts (the
    tests make many from one address), bots acting at once and seated after 0.2 s, paced
    deals in 0.02 s steps, 0.2 s between the hands of a table that plays on, and hands
    waiting at most 0.25 s for the players' entropy (dealt as soon as every connected
    player's has come: at once for clients that send it, as ``AutoPlayer`` and the browser
    do)."""
    rooms = tuple(replace(room, bot_wait=0.2) for room in default_rooms())
    config = ServerConfig(
        db_url=db_url,
        rooms=rooms,
        bot_delay=0.0,
        deal_step=0.02,
        hand_pause=0.2,
        entropy_window=ENTROPY_WINDOW,
        passwords=Passwords.cheap(),
        limits=Limits.off(),
    )
    return replace(config, **changes)


@contextlib.contextmanager
def running_hall(config: ServerConfig) -> Iterator[RunningHall]:
    """Serve ``config`` on 127.0.0.1 (a free port) until the block ends."""
    app = create_app(config)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP: no Nagle
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            ws="websockets-sansio",
            ws_per_message_deflate=False,
            ws_max_size=WS_MAX_SIZE,
            log_level="warning",
            lifespan="on",
        )
    )
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    give_up = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > give_up or not thread.is_alive():
            raise RuntimeError("the hall did not start")
        time.sleep(0.02)
    try:
        yield RunningHall(f"http://127.0.0.1:{port}", app, server, config.db_url)
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


async def play_hand(
    conn: Any, room: str, *, choose: Any = None, limit: float = 60.0
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Join ``room`` and play one hand to its ``hand_over`` (the first legal action on each
    decision, or ``choose(legal)``); every frame received, and the ``hand_over``.

    The player asks to leave at his first decision (the hand has begun: he goes once it is
    over, which is no escape), so that ``left`` follows the hand for sure: asked after
    ``hand_over`` he could already sit at a new table, the room's bots having filled it."""
    player = AutoPlayer(choose or (lambda legal: legal[0]))
    await conn.send({"type": "join", "room": room})
    frames: list[dict[str, Any]] = []
    leaving = False
    async with asyncio.timeout(limit):
        async for frame in conn:
            frames.append(frame)
            if not leaving and (frame["type"] == "hand_over" or _decides(frame)):
                await conn.send({"type": "leave"})
                leaving = True
            reply = player.on_frame(frame)
            if reply is not None and reply["type"] == "act":
                await conn.act(reply["action"], reply.get("table"))
            elif reply is not None:
                await conn.send(reply)
            if frame["type"] == "hand_over":
                return frames, frame
    raise AssertionError("unreachable")


def _decides(frame: dict[str, Any]) -> bool:
    """Whether ``frame`` asks the player for a decision."""
    return frame["type"] == "turn" and bool(frame.get("legal"))
