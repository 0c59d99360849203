"""A connection of this node to a player another node holds (:class:`RemoteLink`): the
same interface as a :class:`~.links.LocalLink`, its messages carried by the
:class:`~.gateway.Gateway` over Redis to the holder, which answers them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

import msgspec

from qipai.cluster.mailbox import Message
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.frames import Left, OutFrame, Queued, from_json
from qipai.jsontypes import Json
from qipai.server.api import protocol
from qipai.server.run.bus import Sink

from .links import Link

LostHandler = Callable[["Link", str | None], None]
"""Told that the node holding a connection's player stopped and was taken over: the link
lost, and the room the player was in there."""

NOT_ATTACHED = "not_attached"
"""Between nodes only: the holder does not serve this link (it dropped it while this node
seemed gone, or it restarted); the gateway links the connection again."""


class Carrier(Protocol):
    """What a :class:`RemoteLink` needs of this node's gateway."""

    numbers: Iterator[int]
    """Numbers of this node's calls and links (each used once)."""
    links: dict[int, RemoteLink]
    """This node's links to players held elsewhere, by number."""

    def send(self, node: str, message: Message) -> None:
        """Send ``message`` to ``node``."""
        ...

    async def call(self, node: str, message: Message) -> Json:
        """Send ``message`` to ``node`` and wait for its answer."""
        ...


class RemoteLink:
    """A connection of this node to a player held by ``node``."""

    def __init__(self, gateway: Carrier, node: str, user: int, name: str, sink: Sink) -> None:
        self.gateway = gateway
        self.node = node
        self.user = user
        self.name = name
        self.sink = sink
        """Where the player's frames go (the connection)."""
        self.number = next(gateway.numbers)
        self.room: str | None = None
        """The room the player is in (from the frames that say so)."""
        self.on_lost: LostHandler | None = None
        """Called when the holder stopped and was taken over, with the room the player was
        in there."""
        self.on_forgotten: Callable[[Link], None] | None = None
        """Called when the holder, alive, no longer serves this link."""

    def deliver(self, frame: OutFrame) -> None:
        """A frame from the holder, to the connection (noting the player's room)."""
        if isinstance(frame, Queued):
            self.room = frame.room
        elif isinstance(frame, Left):
            self.room = None
        self.sink(frame)

    async def open(self, last: dict[str, int]) -> None:
        """Attach to the holder: it sends what was missed, then every frame."""
        self.gateway.links[self.number] = self
        seen: dict[str, Json] = {**last}
        attach: Message = {
            "k": "attach",
            "c": self.number,
            "u": self.user,
            "n": self.name,
            "last": seen,
        }
        await self.gateway.call(self.node, attach)

    async def handle(self, message: protocol.ClientMessage) -> OutFrame | None:
        """The message, done by the holder.

        :raises GameError: the holder's refusal; ``cluster_unavailable`` when it does not
            answer, or no longer serves this link (the connection links again).
        """
        text = msgspec.json.encode(message).decode()
        answer = await self._call({"k": "call", "c": self.number, "m": text})
        return None if answer is None else from_json(answer)

    async def release(self) -> None:
        """Asked of the holder."""
        await self._call({"k": "release", "c": self.number})

    async def _call(self, message: Message) -> Json:
        try:
            return await self.gateway.call(self.node, message)
        except IllegalActionError as error:
            if error.code != NOT_ATTACHED:
                raise
            self._forgotten()
            raise IllegalActionError("cluster_unavailable", "linking again: try again") from None

    async def close(self) -> None:
        """Detach from the holder."""
        if self.gateway.links.pop(self.number, None) is not None:
            self.gateway.send(self.node, {"k": "detach", "c": self.number})

    def _forgotten(self) -> None:
        """The holder, alive, forgot this link: drop it, and tell the connection, which
        attaches to the holder again."""
        self.gateway.links.pop(self.number, None)
        if self.on_forgotten is not None:
            self.on_forgotten(self)

    def lost(self) -> None:
        """The holder stopped and was taken over, or forgot this link: detach (read if it
        ever comes back) and tell the connection, which links again."""
        self.gateway.links.pop(self.number, None)
        self.gateway.send(self.node, {"k": "detach", "c": self.number})
        if self.on_lost is not None:
            self.on_lost(self, self.room)


def answer_of(reply: Message) -> Json:
    """The answer of a ``reply`` (a frame, the match API's JSON), or its error raised."""
    code = reply.get("e")
    if code is None:
        answer: Json = reply.get("f")
        return answer
    error = InvalidActionError if reply.get("x") == "invalid" else IllegalActionError
    raise error(str(code), str(reply.get("t", "")))
