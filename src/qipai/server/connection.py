"""One WebSocket connection: sign in, then messages in, frames out.

The connection parses every message at the edge (:mod:`.protocol`), answers each with an
``ack`` or an ``error`` carrying its stable code, and never lets one client slow anybody
else:

- frames that wait together are sent as one message, a JSON array of frames;
- frames to the client wait in a bounded queue (:data:`SEND_QUEUE` frames); a client that
  does not read until it fills is cut off (close code 4008) and may come back and resync;
- each connection may send :data:`RATE` messages a second on average, :data:`BURST` at
  once (a token bucket); past that a message is refused with ``rate_limited``;
- the first message must be ``hello`` with a valid session token, within
  :data:`HELLO_SECONDS` (else close code 4001).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from qipai.errors import GameError, InvalidActionError

from . import protocol
from .bus import Frame
from .hall import HallService, Player
from .protocol import Act, Escape, Hello, Join, Leave, Ping, Resync, Trustee

log = logging.getLogger(__name__)

SEND_QUEUE = 1024
"""Frames that may wait for a slow client before it is cut off."""
BATCH = 64
"""Most frames sent together in one message (a JSON array)."""
RATE = 50.0
"""Messages a second a client may send on average (a fast bot's pace; a person's is a
few)."""
BURST = 100.0
"""Messages a client may send at once."""
HELLO_SECONDS = 10.0
"""Time a new connection has to sign in."""
CLOSE_UNAUTHORISED = 4001
"""Close code: no valid ``hello``."""
CLOSE_TOO_SLOW = 4008
"""Close code: the client did not read its frames."""
CLOSE_WAIT_SECONDS = 30.0
"""How long a cut-off client's close frame may wait behind his unread frames."""


class RateLimit:
    """A token bucket: ``allow()`` spends one token if there is one."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self._tokens, self._when = burst, time.monotonic()

    def allow(self) -> bool:
        """Whether one more message may pass now."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._when) * self.rate)
        self._when = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Connection:
    """Serves one WebSocket for the hall."""

    def __init__(self, socket: WebSocket, hall: HallService, sessions: Any) -> None:
        self.socket = socket
        self.hall = hall
        self._sessions = sessions
        self._out: asyncio.Queue[Frame] = asyncio.Queue(SEND_QUEUE)
        self._limit = RateLimit()
        self._too_slow = asyncio.Event()
        self._last: dict[str, int] = {}

    async def serve(self) -> None:
        """Run the connection to its end."""
        await self.socket.accept()
        player = await self._sign_in()
        if player is None:
            return
        loop = asyncio.get_running_loop()
        unsubscribe = self._subscribe(player)
        self.hall.connections += 1
        tasks = [
            loop.create_task(self._write()),
            loop.create_task(self._read(player)),
            loop.create_task(self._too_slow.wait()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.hall.connections -= 1
            unsubscribe()
            if not self.hall.bus.is_connected(player.user):
                self.hall.disconnected(player)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._too_slow.is_set():
            # the close frame waits behind what the client has not read: it may never go
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CLOSE_WAIT_SECONDS):
                    await self.socket.close(CLOSE_TOO_SLOW)

    async def _sign_in(self) -> Player | None:
        try:
            async with asyncio.timeout(HELLO_SECONDS):
                raw = await self.socket.receive_text()
            message = protocol.parse(raw)
            if not isinstance(message, Hello):
                raise InvalidActionError("hello_first", "the first message must be hello")
            user = await self._sessions.user_for_token(message.token)
        except (TimeoutError, WebSocketDisconnect):
            return None
        except GameError as error:
            await self._close(protocol.error(error.code, error.message))
            return None
        if user is None:
            await self._close(protocol.error("bad_token", "unknown or expired session"))
            return None
        player = self.hall.player(user.id, user.name)
        self._last = message.last
        self._send(protocol.welcome(user.id, user.name, user.coins))
        return player

    async def _close(self, frame: Frame) -> None:
        with contextlib.suppress(Exception):
            await self.socket.send_text(protocol.encode(frame))
            await self.socket.close(CLOSE_UNAUTHORISED)

    def _subscribe(self, player: Player) -> Any:
        for frame in self.hall.resume(player, self._last):
            self._send(frame)
        return self.hall.bus.subscribe(player.user, self._send)

    def _send(self, frame: Frame) -> None:
        if self._too_slow.is_set():
            return
        try:
            self._out.put_nowait(frame)
        except asyncio.QueueFull:
            self._too_slow.set()  # cut off: his table is told he is away, and goes on

    async def _write(self) -> None:
        """Send the queued frames: one message each, or an array of those waiting together
        (one system call instead of several when a change produced many frames)."""
        while True:
            frames = [await self._out.get()]
            while not self._out.empty() and len(frames) < BATCH:
                frames.append(self._out.get_nowait())
            await self.socket.send_text(protocol.encode(frames[0] if len(frames) == 1 else frames))

    async def _read(self, player: Player) -> None:
        while True:
            raw = await self.socket.receive_text()
            allowed = self._limit.allow()  # every message counts, malformed ones too
            try:
                message = protocol.parse(raw)
            except GameError as error:
                code, text = ("rate_limited", "too many messages") if not allowed else (
                    error.code, error.message)  # fmt: skip
                self._send(protocol.error(code, text))
                continue
            if not allowed:
                message_id = getattr(message, "id", None)
                self._send(protocol.error("rate_limited", "too many messages", message_id))
                continue
            await self._handle(player, message)

    async def _handle(self, player: Player, message: protocol.ClientMessage) -> None:
        message_id = getattr(message, "id", None)
        try:
            reply = await self._dispatch(player, message)
        except GameError as error:
            self._send(protocol.error(error.code, error.message, message_id))
            return
        if reply is not None:
            self._send(reply)
        elif message_id is not None:
            self._send(protocol.ack(message_id))

    async def _dispatch(self, player: Player, message: protocol.ClientMessage) -> Frame | None:
        hall = self.hall
        match message:
            case Act(_, action, table):
                await hall.act(player, action, table)
            case Join(room):
                await hall.join(player, room)
            case Leave():
                hall.leave(player)
            case Trustee(on):
                await hall.trustee(player, on)
            case Escape():
                await hall.escape(player)
            case Resync():
                return hall.resync(player)
            case Ping(t):
                return protocol.pong(t)
            case Hello():
                raise InvalidActionError("already_signed_in", "hello only once")
        return None
