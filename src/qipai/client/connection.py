"""An async Python client of the hall: the HTTP API and a WebSocket session.

Used by the tests, by ``qipai loadtest`` and by bot authors::

    async with HallClient("http://127.0.0.1:8000") as hall:
        session = await hall.guest()
        async with hall.connect(session.token) as conn:
            await conn.send({"type": "join", "room": "doudizhu-yifa"})
            async for frame in conn:
                if frame["type"] == "turn" and "legal" in frame:
                    await conn.act(frame["legal"][0])

:class:`Connection` keeps, per table, the number of the last event received, so that
:meth:`HallClient.connect` with ``last=conn.last`` resumes after a drop.  It also keeps
under the hall's rate limit (announced in ``welcome``; :class:`Pace`): a message that
would overrun it waits instead of being refused (``rate_limited``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from types import TracebackType

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from qipai.jsontypes import Json, entry, json_array, json_int, json_object, json_str

JsonFrame = dict[str, Json]
"""A frame as a client reads it (a JSON object: the server's frames are the typed union
:data:`qipai.hall.frames.OutFrame`), or a message it sends."""


class HallError(Exception):
    """The hall refused a request: its stable ``code`` and message, and when it says so
    the seconds to wait before trying again (``retry_after``: a refused connection, a
    ``429``)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after


RATE = 50.0
"""The hall's rate limit, messages a second on average, until its ``welcome`` says."""
BURST = 100.0
"""The hall's burst, messages at once, until its ``welcome`` says."""
MARGIN = 0.8
"""The share of the hall's rate a client uses (and half its burst): messages bunched on
the way must not overrun the hall's bucket."""


class Pace:
    """A token bucket that keeps a client under the hall's rate: :meth:`delay` reserves a
    place for one more message and says how long to wait before sending it.

    >>> now = [0.0]
    >>> pace = Pace(rate=10, burst=2, clock=lambda: now[0])
    >>> [pace.delay() for _ in range(4)]
    [0.0, 0.0, 0.1, 0.2]
    >>> now[0] = 1.0; pace.delay()
    0.0
    """

    def __init__(
        self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst = rate, max(1.0, burst)
        self._clock = clock
        self._tokens, self._when = self.burst, clock()

    @classmethod
    def under(cls, rate: float, burst: float) -> Pace:
        """The pace for a hall that allows ``rate`` messages a second, ``burst`` at once
        (with :data:`MARGIN`)."""
        return cls(rate * MARGIN, burst / 2)

    def delay(self) -> float:
        """Seconds to wait before sending one more message (its place is taken now)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._when) * self.rate)
        self._when = now
        self._tokens -= 1
        return round(max(0.0, -self._tokens / self.rate), 6)


@dataclass(frozen=True)
class ClientSession:
    """A signed-in session."""

    token: str
    user: int
    name: str
    coins: int


KEEPALIVE_SECONDS = 2.0
"""How long the client keeps an idle HTTP connection for its next request."""


class HallClient:
    """The hall's HTTP API (an :class:`httpx.AsyncClient`) and WebSocket connections."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        # an idle connection is dropped well before the server's keep-alive (uvicorn: 5 s),
        # so that a request never goes out on one the server is closing at that moment
        limits = httpx.Limits(
            max_connections=64, max_keepalive_connections=64, keepalive_expiry=KEEPALIVE_SECONDS
        )
        self._http = httpx.AsyncClient(base_url=self.url, timeout=timeout, limits=limits)

    async def __aenter__(self) -> HallClient:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the HTTP client."""
        await self._http.aclose()

    async def request(
        self, method: str, path: str, token: str | None = None, *, json: Json = None
    ) -> Json:
        """Call the JSON API (with ``json`` as the request's body, if given); the decoded
        answer.

        :raises HallError: the hall's error, with its code.
        """
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            response = await self._http.request(method, path, headers=headers, json=json)
        except (httpx.RemoteProtocolError, httpx.ReadError):
            if method != "GET":
                raise
            # a kept-alive connection the server closed as we reused it (seen as a protocol
            # error or as a reset while reading): once more, anew
            response = await self._http.request(method, path, headers=headers, json=json)
        body: Json = response.json()
        if response.is_error:
            raise _refusal(body, "http_error", response.text)
        return body

    async def register(self, name: str, password: str) -> ClientSession:
        """Create an account; its first session."""
        return _session(
            await self.request("POST", "/api/register", json={"name": name, "password": password})
        )

    async def login(self, name: str, password: str) -> ClientSession:
        """Sign in."""
        return _session(
            await self.request("POST", "/api/login", json={"name": name, "password": password})
        )

    async def guest(self) -> ClientSession:
        """A new guest account and its session."""
        return _session(await self.request("POST", "/api/guest"))

    async def me(self, token: str) -> dict[str, Json]:
        """The signed-in player's profile: coins, wins, level."""
        return json_object(await self.request("GET", "/api/me", token))

    async def rows(self, path: str, token: str | None = None) -> list[dict[str, Json]]:
        """``GET`` a list of the JSON API (the rooms, the matches, a history): its rows."""
        return [json_object(row) for row in json_array(await self.request("GET", path, token))]

    def connect(self, token: str, *, last: dict[str, int] | None = None) -> Connection:
        """A WebSocket session (use with ``async with``)."""
        ws_url = "ws" + self.url.removeprefix("http") + "/ws"
        return Connection(ws_url, token, last or {})


class Connection:
    """One WebSocket session: ``hello`` sent on entry; frames out by iteration."""

    def __init__(self, url: str, token: str, last: dict[str, int]) -> None:
        self.url = url
        self.token = token
        self.last: dict[str, int] = dict(last)
        """Per table number (text), the last event number received."""
        self.welcome: JsonFrame = {}
        self._socket: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._answers: dict[int, asyncio.Future[JsonFrame]] = {}
        self._pending: deque[JsonFrame] = deque()
        self.pace = Pace.under(RATE, BURST)
        """Keeps the messages sent under the hall's rate limit."""

    async def __aenter__(self) -> Connection:
        self._socket = await connect(self.url, compression=None, max_size=2**22, open_timeout=30)
        with contextlib.suppress(ConnectionClosed):  # refused at once: its error is read next
            await self.send({"type": "hello", "token": self.token, "last": dict(self.last)})
        self.welcome = await self.recv()
        if self.welcome.get("type") != "welcome":  # refused (too many connections, …)
            raise _refusal(self.welcome, "no_welcome", "", code_key="code")
        limits = self.welcome.get("limits")
        if isinstance(limits, dict):
            self.pace = Pace.under(_number(limits, "rate", RATE), _number(limits, "burst", BURST))
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()

    @property
    def buffered(self) -> tuple[JsonFrame, ...]:
        """The frames received but not handed out yet: the rest of the last message read
        (right after entry, what came with the ``welcome``: the resume of a returning
        player)."""
        return tuple(self._pending)

    @property
    def socket(self) -> ClientConnection:
        """The open WebSocket."""
        if self._socket is None:
            raise RuntimeError("not connected: use 'async with'")
        return self._socket

    async def send(self, message: JsonFrame) -> None:
        """Send one message as JSON (after a wait, if it would overrun the hall's rate)."""
        delay = self.pace.delay()
        if delay > 0:
            await asyncio.sleep(delay)
        await self.socket.send(json.dumps(message, ensure_ascii=False))

    async def recv(self) -> JsonFrame:
        """The next frame (event numbers are tracked; answers resolve :meth:`request`).

        A message holding an array of frames is handed out one frame at a time.
        """
        if not self._pending:
            message = json.loads(await self.socket.recv())
            self._pending.extend(message if isinstance(message, list) else [message])
        frame: JsonFrame = self._pending.popleft()
        self._track(frame)
        return frame

    def _track(self, frame: JsonFrame) -> None:
        kind = frame.get("type")
        if kind in ("event", "snapshot", "turn", "hand_over", "hand_start") and "n" in frame:
            key = str(frame["table"])
            self.last[key] = max(self.last.get(key, 0), json_int(frame["n"]))
        if kind in ("ack", "error"):
            answer = self._answers.pop(entry(frame, "id", int, -1), None)
            if answer is not None and not answer.done():
                answer.set_result(frame)

    def __aiter__(self) -> AsyncIterator[JsonFrame]:
        return self._frames()

    async def _frames(self) -> AsyncIterator[JsonFrame]:
        while True:
            yield await self.recv()

    async def request(self, message: JsonFrame) -> asyncio.Future[JsonFrame]:
        """Send a message with a fresh ``id``; the future of its ``ack`` or ``error``.

        The future resolves while frames are being read (:meth:`recv`).
        """
        message_id = next(self._ids)
        future: asyncio.Future[JsonFrame] = asyncio.get_running_loop().create_future()
        self._answers[message_id] = future
        await self.send({**message, "id": message_id})
        return future

    async def act(self, action: str, table: int | None = None) -> asyncio.Future[JsonFrame]:
        """Send an action in text form (for ``table``, if given: a late action is then
        refused rather than applied to the next hand); the future of its answer."""
        message: JsonFrame = {"type": "act", "action": action}
        if table is not None:
            message["table"] = table
        return await self.request(message)


def _seconds(value: object) -> float | None:
    """A ``retry_after`` as seconds (``None``: not given, or not a number)."""
    return float(value) if isinstance(value, int | float) else None


def _number(document: dict[str, Json], key: str, default: float) -> float:
    """``document[key]`` as a number, ``default`` where it is none."""
    value = document.get(key)
    return value if isinstance(value, int | float) else default


def _refusal(body: Json, code: str, text: str, *, code_key: str = "error") -> HallError:
    """The hall's error in ``body`` (its ``code_key`` and ``message``, ``code`` and
    ``text`` where it gives none)."""
    fields = body if isinstance(body, dict) else {}
    return HallError(
        str(fields.get(code_key, code)),
        str(fields.get("message", text)),
        _seconds(fields.get("retry_after")),
    )


def _session(body: Json) -> ClientSession:
    """The session a sign-in answered (:class:`qipai.server.api.answers.SessionAnswer`)."""
    fields = json_object(body)
    user = json_object(fields["user"])
    return ClientSession(
        json_str(fields["token"]),
        json_int(user["id"]),
        json_str(user["name"]),
        json_int(user["coins"]),
    )
