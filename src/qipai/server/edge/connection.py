"""One WebSocket connection: sign in, then messages in, frames out.

The connection parses every message at the edge (:mod:`qipai.server.api.protocol`),
answers each with an ``ack`` or an ``error`` carrying its stable code, and never lets one
client slow anybody else:

- frames that wait together are sent as one message, a JSON array of frames;
- frames to the client wait in a bounded queue (:data:`SEND_QUEUE` frames); a client that
  does not read until it fills is cut off (close code 4008) and may come back and resync;
- each connection may send :data:`RATE` messages a second on average, :data:`BURST` at
  once (a token bucket, :class:`RateLimit`); past that one message is refused with
  ``rate_limited`` and ``retry_after`` (:data:`WINDOW` seconds), and the connection is not
  read until the window ends (what comes meanwhile waits in the network, then counts
  against the bucket; a message read inside a window is dropped unanswered); a client
  refused in :data:`FLOOD_WINDOWS` windows in a row is cut off (close code 1008), his seat
  left as after any disconnect;
- every WebSocket message is read, whatever it holds: a binary one is refused
  (``binary_not_supported``), text goes to :func:`qipai.server.api.protocol.parse` (``bad_json``,
  ``bad_message``, ``too_large``); no client input raises past this module;
- the first message must be ``hello`` with a valid session token, within
  :data:`HELLO_SECONDS` (else close code 4001);
- new connections are limited per address (before ``hello``) and per account (before
  ``welcome``: :class:`~qipai.server.edge.limits.Gate`): one over the rate gets an ``error``
  ``too_many_connections`` with ``retry_after`` and is closed (4029); a ``hello`` the hall
  cannot check (its database does not answer) gets ``database_unavailable`` with
  ``retry_after`` and a close 1013 (try again later); a message whose handling fails for
  any other reason than a refusal is answered ``server_error``, and the connection stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import math
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall.frames import Error, OutFrame
from qipai.server.api import protocol
from qipai.server.api.protocol import Chat, Hello, Join, Ping, PrivateJoin, Spectate, WatchByName
from qipai.server.run.hall import HallService
from qipai.store.console import Console

from .accounts import Accounts, SignedIn
from .auth import token_hash
from .gateway import Client, Gateway
from .limits import Gate, RateLimitedError
from .links import Link, LocalLink
from .logs import log_failure

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
WINDOW = 1.0
"""Seconds a refused client is told to wait (``retry_after``): what he sends meanwhile is
dropped unanswered."""
FLOOD_WINDOWS = 5
"""Windows in a row with a refusal after which the client is cut off (a refusal within a
window of the previous window's end continues the row)."""
CLOSE_FLOODING = 1008
"""Close code: the client kept flooding (policy violation)."""
HELLO_SECONDS = 10.0
"""Time a new connection has to sign in."""
CLOSE_UNAUTHORISED = 4001
"""Close code: no valid ``hello``."""
CLOSE_TOO_SLOW = 4008
"""Close code: the client did not read its frames."""
CLOSE_RESTART = 1012
"""Close code: the node was taken over while away; connect again (service restart)."""
CLOSE_TOO_MANY = 4029
"""Close code: too many new connections from this address or for this account."""
CLOSE_SESSION_ENDED = 4003
"""Close code: an operator ended the player's sessions (a ban); do not connect again."""
CLOSE_TRY_LATER = 1013
"""Close code: the hall cannot serve the connection now (its database does not answer)."""
UNAVAILABLE_RETRY = 5.0
"""Seconds a client refused ``database_unavailable`` at ``hello`` is told to wait."""
CLOSE_WAIT_SECONDS = 30.0
"""How long a cut-off client's close frame may wait behind his unread frames."""


class Verdict(enum.Enum):
    """What :class:`RateLimit` makes of one more message."""

    PASS = "pass"
    """Within the rate: handle it."""
    REFUSE = "refuse"
    """Over the rate: answer ``rate_limited`` with ``retry_after``, handle nothing."""
    DROP = "drop"
    """In the window after a refusal: drop it unread and unanswered."""
    CUT_OFF = "cut_off"
    """Over the rate, window after window: close the connection."""


class RateLimit:
    """A token bucket, and what to do with a client that overruns it.

    Past the bucket a message is refused and a window of ``window`` seconds opens, in which
    every message is dropped (the client was told to wait); a refusal within a window of
    the last window's end makes a row, and the ``windows``-th refusal in a row cuts the
    client off.  ``clock`` (seconds) is injectable for tests:

    >>> now = [0.0]
    >>> limit = RateLimit(rate=1, burst=2, window=1, windows=3, clock=lambda: now[0])
    >>> [limit.check().value for _ in range(4)], limit.retry_after()
    (['pass', 'pass', 'refuse', 'drop'], 1.0)
    >>> now[0] = 1.5; [limit.check().value for _ in range(3)]
    ['pass', 'refuse', 'drop']
    >>> now[0] = 2.6; [limit.check().value for _ in range(2)]
    ['pass', 'cut_off']
    """

    def __init__(
        self,
        rate: float = RATE,
        burst: float = BURST,
        *,
        window: float = WINDOW,
        windows: int = FLOOD_WINDOWS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.window, self.windows = rate, burst, window, windows
        self._clock = clock
        self._tokens, self._when = burst, clock()
        self._quiet_until = -math.inf
        self._row = 0

    def check(self) -> Verdict:
        """What to do with one more message now (a passed one spends a token)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._when) * self.rate)
        self._when = now
        if now < self._quiet_until:
            return Verdict.DROP
        if self._tokens >= 1:
            self._tokens -= 1
            return Verdict.PASS
        self._row = self._row + 1 if now < self._quiet_until + self.window else 1
        self._quiet_until = now + self.window
        return Verdict.CUT_OFF if self._row >= self.windows else Verdict.REFUSE

    def retry_after(self) -> float:
        """Seconds until the window of the last refusal ends (0: none open)."""
        return round(max(0.0, self._quiet_until - self._clock()), 3)


class PlayerSocket:
    """Serves one WebSocket for the hall."""

    def __init__(
        self,
        socket: WebSocket,
        hall: HallService,
        sessions: Accounts,
        gateway: Gateway | None = None,
        gate: Gate | None = None,
    ) -> None:
        self.socket = socket
        self.hall = hall
        self._sessions = sessions
        self._gate = gate or Gate()
        """The limits on new connections (:class:`~qipai.server.edge.limits.Gate`)."""
        self._gateway = gateway
        """This node's way to players held by other nodes (a node of a cluster)."""
        self._link: Link | None = None
        self._forget_client: Callable[[], None] = lambda: None
        self._ended = False
        self._linking = asyncio.Lock()
        """Held while the connection's link changes (a join, a relink, a move)."""
        self._out: asyncio.Queue[OutFrame] = asyncio.Queue(SEND_QUEUE)
        self._limit = RateLimit()
        self._too_slow = asyncio.Event()
        self._cut = asyncio.Event()
        self._flooding = False
        self._last: dict[str, int] = {}
        self._host: str | None = None
        self._session_ended: tuple[str, str] | None = None
        """Why an operator ended the player's sessions (the connection closes)."""
        self.session: tuple[int, str] | None = None
        """The signed-in user's id and his session token's hash (a new password cuts the
        account's other connections: :mod:`.social`)."""
        self._watch_choice: WatchByName | None = None
        """The player's last ``watch_by_name`` on this connection: told again to each
        hall it links to later (a room on another node holds him then)."""

    async def serve(self) -> None:
        """Run the connection to its end."""
        await self.socket.accept()
        host = self.socket.client.host if self.socket.client is not None else None
        self._host = host
        if await self._refused(self._gate.connection(host)):
            return
        user = await self._sign_in()
        if user is None:
            return
        try:
            await self._open_link(user)
        except GameError as error:  # the cluster does not answer: come back later
            await self._close(protocol.error(error.code, error.message), CLOSE_RESTART)
            return
        loop = asyncio.get_running_loop()
        self.hall.connections += 1
        self.hall.sockets.add(self)
        tasks = [
            loop.create_task(self._write()),
            loop.create_task(self._read(user)),
            loop.create_task(self._too_slow.wait()),
            loop.create_task(self._cut.wait()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.hall.connections -= 1
            self.hall.sockets.discard(self)
            self._ended = True
            self._forget_client()
            for task in tasks:  # first: a join under way must not link it anew meanwhile
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            async with self._linking:  # (a relink or a move under way finishes first)
                if self._link is not None:
                    await self._link.close()
        if self._session_ended is not None:
            cause, why = self._session_ended
            ended = Error(code="session_ended", message=why, cause=cause)
            await self._close(ended, CLOSE_SESSION_ENDED)
        elif self._too_slow.is_set() or self._flooding or self._cut.is_set():
            # the close frame waits behind what the client has not read: it may never go
            code, reason = (
                (CLOSE_TOO_SLOW, "too slow to read") if self._too_slow.is_set()
                else (CLOSE_FLOODING, "too many messages") if self._flooding
                else (CLOSE_RESTART, "the hall restarted: connect again")
            )  # fmt: skip
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CLOSE_WAIT_SECONDS):
                    await self.socket.close(code, reason)

    def cut(self) -> None:
        """Close the connection (code 1012): the client connects again, to a hall that
        knows where its player is (this node was taken over while away)."""
        self._cut.set()

    @property
    def user_id(self) -> int | None:
        """The signed-in player's id (once ``hello`` is accepted)."""
        return None if self.session is None else self.session[0]

    def end_session(self, cause: str, why: str) -> None:
        """Close the connection for good (code 4003) after an ``error`` ``session_ended``
        with its ``cause`` (``ban``, ``password``, ``deleted``) and ``why`` as its message:
        an operator ended the player's sessions."""
        self._session_ended = (cause, why)
        self._cut.set()

    async def _receive(self) -> str | bytes:
        """The next WebSocket message: its text, or its bytes for a binary one.

        :raises WebSocketDisconnect: the client is gone.
        """
        message = await self.socket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        text = message.get("text")
        if isinstance(text, str):
            return text
        data = message.get("bytes")
        return data if isinstance(data, bytes) else b""

    @staticmethod
    def _parse(raw: str | bytes) -> protocol.ClientMessage:
        """:func:`qipai.server.api.protocol.parse` for a text message; a binary one is refused.

        :raises InvalidActionError: ``binary_not_supported``, or
            :func:`qipai.server.api.protocol.parse`'s.
        """
        if isinstance(raw, bytes):
            raise InvalidActionError(
                "binary_not_supported", "binary messages are not read: send JSON text"
            )
        return protocol.parse(raw)

    async def _sign_in(self) -> SignedIn | None:
        try:
            async with asyncio.timeout(HELLO_SECONDS):
                raw = await self._receive()
            message = self._parse(raw)
            if not isinstance(message, Hello):
                raise InvalidActionError("hello_first", "the first message must be hello")
            user: SignedIn | None = await self._sessions.user_for_token(message.token)
        except WebSocketDisconnect:
            return None
        except TimeoutError:  # told, and closed with 4001 (not dropped: 1006)
            text = f"the first message must be hello, within {HELLO_SECONDS:g} s"
            await self._close(protocol.error("hello_first", text), reason="no hello in time")
            return None
        except GameError as error:
            await self._close(protocol.error(error.code, error.message))
            return None
        except Exception as error:  # the database does not answer: come back later
            log.warning("could not check a session: %r", error)
            text = "the hall cannot sign you in now: try again later"
            refusal = protocol.retry_later("database_unavailable", text, UNAVAILABLE_RETRY)
            await self._close(refusal, CLOSE_TRY_LATER)
            return None
        if user is None:
            await self._close(protocol.error("bad_token", "unknown or expired session"))
            return None
        if await self._refused(self._gate.connection_of(user.id)):
            return None
        self._last = message.last
        self.session = (user.id, token_hash(message.token))
        limit = self._limit
        self._send(
            protocol.welcome(user.id, user.name, user.coins, rate=limit.rate, burst=limit.burst)
        )
        return user

    async def _refused(self, admit: Awaitable[None]) -> bool:
        """Whether the new connection is refused by ``admit`` (a limit of the
        :class:`Gate`): then it was told (``too_many_connections``, ``retry_after``) and
        closed (4029)."""
        try:
            await admit
        except RateLimitedError as error:
            refusal = protocol.retry_later(error.code, error.message, error.retry_after)
            await self._close(refusal, CLOSE_TOO_MANY)
            return True
        return False

    async def _close(
        self, frame: OutFrame, code: int = CLOSE_UNAUTHORISED, reason: str = ""
    ) -> None:
        with contextlib.suppress(Exception):
            await self.socket.send_text(protocol.encode(frame))
            await self.socket.close(code, reason)

    async def _open_link(self, user: SignedIn) -> None:
        """Link the connection to the hall holding the player, and catch it up."""
        if self._gateway is None:
            link = LocalLink(self.hall, self.hall.player(user.id, user.name), self._send)
            await self._use(link, self._last)
            return
        client = self._client(user)
        self._link = await self._gateway.open_link(client, self._last)
        self._forget_client = self._gateway.connected(client)

    def _client(self, user: SignedIn) -> Client:
        relink, move = partial(self._relink, user), partial(self._move, user)
        reattach = partial(self._reattach, user)
        return Client(
            user.id, user.name, self._send, relink, move, self._set_link, self._linked, reattach
        )

    def _set_link(self, link: Link) -> None:
        """``link`` is the connection's now; the one before it is closed (a relink and a
        join may race: only the last link stays open)."""
        old, self._link = self._link, link
        closing = [old] if old is not None and old is not link else []
        if self._watch_choice is not None and old is not link:
            told = asyncio.get_running_loop().create_task(self._tell_choice(link))
            told.add_done_callback(_log_failure)
        if self._ended:  # too late: the connection is gone
            closing.append(link)
        for stale in closing:
            task = asyncio.get_running_loop().create_task(stale.close())
            task.add_done_callback(_log_failure)

    async def _tell_choice(self, link: Link) -> None:
        """Tell ``link``'s hall the player's ``watch_by_name``, once the change of link
        under way is done (``link`` open), if it is still the connection's."""
        async with self._linking:
            choice = self._watch_choice
            if self._ended or self._link is not link or choice is None:
                return
            with contextlib.suppress(GameError):  # (its hall let him go meanwhile)
                await link.handle(msgspec.structs.replace(choice, id=None))

    def _move(self, user: SignedIn, node: str | None) -> None:
        """The player is held by ``node`` from now on (he registered in a match it runs):
        link the connection there."""
        assert self._gateway is not None
        gateway = self._gateway

        def elsewhere(link: Link) -> bool:
            return link.node != node

        self._switch(elsewhere, lambda: gateway.link_to(node, self._client(user)))

    def _relink(self, user: SignedIn, lost: Link, room: str | None) -> None:
        """The node holding the player stopped and was taken over: he is held where the
        node that took it over holds him now (his private table, opened again there),
        else here; he finds what was kept for him (his hand voided), and is out of
        ``room``."""
        assert self._gateway is not None
        gateway = self._gateway
        left = None if room is None else protocol.left(room, "restart")

        async def relink() -> None:
            async with self._linking:
                if self._ended or self._link is not lost:
                    return
                try:
                    link = await gateway.open_link(self._client(user), {})
                except GameError:  # Redis does not answer: here, as a player of nowhere
                    await self._use(
                        LocalLink(self.hall, self.hall.player(user.id, user.name), self._send), {}
                    )
                else:
                    self._set_link(link)
                    if self._ended:
                        await link.close()
            if left is not None:
                self._send(left)

        task = asyncio.get_running_loop().create_task(relink())
        task.add_done_callback(_log_failure)

    def _reattach(self, user: SignedIn, forgotten: Link) -> None:
        """The holder, alive, forgot the connection's link (it took this node for gone a
        moment): attach to him again, in a task; he sends the player's table afresh."""
        assert self._gateway is not None
        gateway = self._gateway

        async def reattach() -> None:
            async with self._linking:
                if self._ended or self._link is not forgotten:
                    return
                self._set_link(await gateway.open_link(self._client(user), {}))

        task = asyncio.get_running_loop().create_task(reattach())
        task.add_done_callback(_log_failure)

    def _switch(
        self, wanted: Callable[[Link], bool], make: Callable[[], Link], then: OutFrame | None = None
    ) -> None:
        """In a task, after any other change of link: if the connection's link is still
        one that ``wanted`` picks, replace it with ``make()`` and send ``then``."""

        async def switch() -> None:
            async with self._linking:
                if self._ended or self._link is None or not wanted(self._link):
                    return
                await self._use(make(), {})
            if then is not None:
                self._send(then)

        task = asyncio.get_running_loop().create_task(switch())
        task.add_done_callback(_log_failure)

    async def _use(self, link: Link, last: dict[str, int]) -> None:
        """Make ``link`` the connection's (not once the connection ended: a relink or a
        move that comes late)."""
        if self._ended:
            return
        self._set_link(link)
        await link.open(last)
        if self._ended:  # ended while it opened
            await link.close()

    def _send(self, frame: OutFrame) -> None:
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

    async def _read(self, user: SignedIn) -> None:
        while True:
            raw = await self._receive()
            verdict = self._limit.check()  # every message counts, malformed ones too
            if verdict is Verdict.DROP:
                continue  # he was told to wait: unread, unanswered
            if verdict is Verdict.CUT_OFF:
                self._flooding = True  # closed (1008) once the connection is torn down
                return
            try:
                message = self._parse(raw)
            except GameError as error:
                if verdict is Verdict.REFUSE:
                    await self._refuse(None)
                else:
                    self._send(protocol.error(error.code, error.message))
                continue
            if verdict is Verdict.REFUSE:
                await self._refuse(getattr(message, "id", None))
                continue
            await self._handle(user, message)

    async def _refuse(self, message_id: int | None) -> None:
        """Answer ``rate_limited``, then read nothing until the window ends: what the
        client sends meanwhile waits in the network (a flooder's own buffers fill and hold
        him up, and the hall spends nothing on him), then counts against the bucket."""
        retry_after = self._limit.retry_after()
        self._send(protocol.rate_limited(retry_after, message_id))
        await asyncio.sleep(retry_after)

    async def _handle(self, user: SignedIn, message: protocol.ClientMessage) -> None:
        message_id = getattr(message, "id", None)
        started = time.perf_counter()
        try:
            reply = await self._dispatch(user, message)
        except GameError as error:
            reply = protocol.error(error.code, error.message, message_id)
        except Exception as error:  # the database down…: answered, and the connection stays
            log_failure(log, f"{type(message).__name__} of user {user.id}", error)
            reply = protocol.error("server_error", protocol.COULD_NOT, message_id)
        if reply is not None:
            self._send(reply)
        elif message_id is not None:
            self._send(protocol.ack(message_id))
        self.hall.message_seconds.observe(time.perf_counter() - started)

    async def _dispatch(self, user: SignedIn, message: protocol.ClientMessage) -> OutFrame | None:
        match message:
            case Ping(t):
                return protocol.pong(t)
            case Hello():
                raise InvalidActionError("already_signed_in", "hello only once")
            # a code tried (to sit or to watch), a name looked up to watch: limited (then
            # it goes on below: a code to the node of its table)
            case PrivateJoin(message_id) | Spectate(message_id):
                try:
                    if isinstance(message, Spectate) and message.code is None:
                        await self._gate.name_try(self._host, user.id)
                    else:
                        await self._gate.code_try(self._host, user.id)
                except RateLimitedError as error:
                    return protocol.retry_later(
                        error.code, error.message, error.retry_after, message_id
                    )
                if message.code is not None and self._gateway is not None:
                    async with self._linking:  # the table may be on another node
                        link = self._linked()
                        return await self._gateway.at_private(
                            link, message, message.code, self._client(user)
                        )
            case WatchByName():  # kept for the halls it links to later
                self._watch_choice = message
            case Chat():  # an operator's mute is the store's (any node may have set it)
                await self._check_not_muted(user)
            case Join() if self._gateway is not None:  # the room may be on another node
                async with self._linking:  # no relink meanwhile
                    link = self._linked()
                    return await self._gateway.join(link, message, self._client(user))
        return await self._linked().handle(message)

    async def _check_not_muted(self, user: SignedIn) -> None:
        """:raises IllegalActionError: ``muted`` (until when), while an operator's mute
        holds."""
        db = self.hall.db
        mute = await db.run(Console(db.store).in_force, user.id, "mute", datetime.now(UTC))
        if mute is not None:
            until = "for good" if mute.until is None else f"until {mute.until.isoformat()}"
            raise IllegalActionError("muted", f"you may not chat {until}: {mute.reason}")

    def _linked(self) -> Link:
        assert self._link is not None  # linked before reading
        return self._link


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("relinking a connection failed", exc_info=task.exception())
