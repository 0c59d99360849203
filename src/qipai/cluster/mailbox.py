"""Messages between nodes: one Redis stream per node, its inbox.

A node sends with :meth:`Mailbox.send`: the message waits in memory until the event loop
is free, and everything queued for one node meanwhile goes as one stream entry (one
``XADD`` per destination per flush, all destinations in one pipeline), in the order sent.
A node reads its own inbox with a blocking ``XREAD`` from the last entry it has read:
when the Redis connection is lost and found again it carries on from there, losing
nothing Redis kept (a pub/sub subscriber would have to notice and subscribe again, and
lose what was published meanwhile; redis-py does neither by itself).  It starts from the
inbox's end: what was sent to an earlier process of the same id is not for it.

Keys: ``<prefix>:inbox:<node>``, a stream capped near :data:`INBOX_LENGTH` entries and
living :data:`INBOX_TTL_MS` after its last message (a node that stopped leaves nothing
behind for long).  Messages are JSON objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from redis.exceptions import RedisError

from qipai.cluster.keyspace import Keyspace, text_of
from qipai.jsontypes import Json

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

Message = dict[str, Json]
"""One message between nodes, JSON-able."""
Entry: TypeAlias = "tuple[bytes | str, dict[bytes | str, bytes | str]]"
"""An entry of an inbox as Redis gives it: its id and its fields (bytes, or text for a
client that decodes responses)."""
T = TypeVar("T", int, str)


def field(message: Message, key: str, kind: type[T]) -> T:
    """The ``kind`` value of ``message[key]``.

    >>> field({"k": "moved", "u": 7}, "u", int)
    7

    :raises KeyError: the message has no ``key``; :raises TypeError: it is no ``kind``.
    """
    value = message[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"the message's {key!r} is no {kind.__name__}: {value!r}")
    return value


Handler = Callable[[Message], None]
"""What a node does with each message it receives (must not block)."""

INBOX_LENGTH = 10_000
"""Entries an inbox keeps at least (``XADD MAXLEN ~``): far more than a reader that is
up ever lets wait."""
INBOX_TTL_MS = 3_600_000
"""How long an inbox lives after its last message."""
BLOCK_MS = 1_000
"""The longest one read waits for a message."""
READ_COUNT = 512
"""Most entries taken by one read."""
RETRY_SECONDS = 0.2
"""Pause before reading or sending again after Redis failed to answer."""


class Mailbox(Keyspace):
    """``node``'s inbox, and its way to the others' (key prefix ``prefix``).

    ``handler`` gets every message of the inbox, one by one, in the order sent by each
    sender.
    """

    def __init__(self, redis: Redis, node: str, handler: Handler, *, prefix: str) -> None:
        super().__init__(redis, prefix=prefix, ttl_ms=INBOX_TTL_MS)
        self.node = node
        self._handler = handler
        self._outgoing: dict[str, list[Message]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.sent = 0
        """Messages sent (for the metrics)."""
        self.received = 0
        """Messages received."""

    def key(self, node: str) -> str:
        """The Redis key of ``node``'s inbox."""
        return f"{self.prefix}:inbox:{node}"

    async def start(self) -> None:
        """Start reading the inbox (from its end now) and sending."""
        last = await self._end()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read(last)), loop.create_task(self._write())]

    async def stop(self) -> None:
        """Send what is queued, then stop reading and sending."""
        await self._flush()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    def send(self, node: str, message: Message) -> None:
        """Queue ``message`` for ``node``'s inbox (sent as soon as the loop is free)."""
        self._outgoing.setdefault(node, []).append(message)
        self._wake.set()

    async def _end(self) -> str:
        """The id of the inbox's last entry now (``0-0``: empty)."""
        last = cast("list[Entry]", await self.redis.xrevrange(self.key(self.node), count=1))
        return text_of(last[0][0]) if last else "0-0"

    async def _read(self, last: str) -> None:
        key = self.key(self.node)
        while True:
            try:
                found = await self.redis.xread({key: last}, count=READ_COUNT, block=BLOCK_MS)
                reply = cast("list[tuple[bytes | str, list[Entry]]] | None", found)
            except (OSError, RedisError) as error:
                log.warning("mailbox %s: Redis did not answer: %s", self.node, error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            for _stream, entries in reply or ():
                for entry_id, fields in entries:
                    last = text_of(entry_id)
                    try:
                        messages = json.loads(text_of(fields.get(b"m") or fields["m"]))
                    except (KeyError, ValueError):  # not ours: skipped, the inbox goes on
                        log.error("mailbox %s: entry %s unreadable", self.node, last)
                        continue
                    self._deliver(messages)

    def _deliver(self, messages: list[Message]) -> None:
        for message in messages:
            self.received += 1
            try:
                self._handler(message)
            except Exception:  # one bad message must not stop the inbox
                log.exception("mailbox %s: message %r failed", self.node, message.get("k"))

    async def _write(self) -> None:
        while True:
            await self._wake.wait()
            await self._flush()

    async def _flush(self) -> None:
        """Send everything queued: one entry per destination, in one pipeline (tried
        twice; then dropped and logged: the calls waiting for an answer time out)."""
        self._wake.clear()
        outgoing, self._outgoing = self._outgoing, {}
        if not outgoing:
            return
        for attempt in range(2):
            try:
                await self._send_all(outgoing)
                self.sent += sum(len(messages) for messages in outgoing.values())
                return
            except (TypeError, ValueError):  # a message JSON cannot carry: a bug, logged
                log.exception("mailbox %s: messages dropped", self.node)
                return
            except (OSError, RedisError) as error:
                log.warning("mailbox %s: send failed (%d): %s", self.node, attempt + 1, error)
                await asyncio.sleep(RETRY_SECONDS)

    async def _send_all(self, outgoing: dict[str, list[Message]]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for node, messages in outgoing.items():
                key = self.key(node)
                text = json.dumps(messages, ensure_ascii=False, separators=(",", ":"))
                pipe.xadd(key, {"m": text}, maxlen=INBOX_LENGTH, approximate=True)
                pipe.pexpire(key, self.ttl_ms)
            await pipe.execute()
