"""A connection's link to the hall that holds its player: here, or on another node.

A :class:`~qipai.server.edge.connection.PlayerSocket` reads and writes one WebSocket; what
its messages do is the business of the hall that holds the player's state (his queue
entry, his table).  In a hall alone that is always this process: a :class:`LocalLink`.
On a node of a cluster it may be another node, which the connection reaches through
:class:`qipai.server.edge.remote.RemoteLink` (same interface, messages over Redis); the node
that holds the player serves that remote connection with a :class:`LocalLink` of its own,
whose frames it sends back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from qipai.errors import InvalidActionError
from qipai.hall import commands as c
from qipai.hall.frames import OutFrame
from qipai.server.api import protocol
from qipai.server.api.protocol import (
    Act,
    Chat,
    Entropy,
    EscapeCost,
    EscapeRequest,
    Join,
    Leave,
    PrivateClose,
    PrivateCreate,
    PrivateJoin,
    PrivateKick,
    PrivateStart,
    Ready,
    Resync,
    Spectate,
    StopSpectating,
    TrusteeSwitch,
    WatchByName,
)
from qipai.server.run.bus import Sink
from qipai.server.run.hall import HallService, Player

from .privates import create_private, join_private


class Link(Protocol):
    """Where a connection's messages go and its frames come from."""

    @property
    def node(self) -> str | None:
        """The node holding the player (``None``: this process)."""
        ...

    async def open(self, last: dict[str, int]) -> None:
        """Catch the connection up (what it missed since the event numbers ``last``) and
        send it the player's frames from now on."""
        ...

    async def handle(self, message: protocol.ClientMessage) -> OutFrame | None:
        """Do what ``message`` asks; the frame that answers it (``None``: an ``ack``).

        :raises GameError: the hall's refusal, with its code.
        """
        ...

    async def release(self) -> None:
        """Check that the player may move to another node's room.

        :raises IllegalActionError: ``already_in_room``.
        """
        ...

    async def close(self) -> None:
        """No more frames to this connection (its player is away if it was his last)."""
        ...


class LocalLink:
    """A player held by this process's hall; ``sink`` takes his frames."""

    node = None

    def __init__(self, hall: HallService, player: Player, sink: Sink) -> None:
        self.hall = hall
        self.player = player
        self._sink = sink
        self._unsubscribe: Callable[[], None] | None = None
        self._closed = False

    async def open(self, last: dict[str, int]) -> None:
        """Send what was kept for the player and what he missed, then subscribe (unless
        the link was closed meanwhile)."""
        missed = await self.hall.missed.take(self.player.user)
        missed += await self.hall.notices(self.player.user)
        if self._closed:
            self.hall.missed.keep(self.player.user, missed)  # for his next connection
            return
        # the hall may have let him go meanwhile (his other connection closed): his record now
        self.player = self.hall.player(self.player.user, self.player.name)
        for frame in self.hall.resume(self.player, last, missed):
            self._sink(frame)
        self._unsubscribe = self.hall.bus.subscribe(self.player.user, self._sink)
        self.hall.present(self.player)  # his table sees him back: he has its frames now

    async def handle(self, message: protocol.ClientMessage) -> OutFrame | None:
        """:func:`dispatch` for the player."""
        return await dispatch(self.hall, self.player, message)

    async def release(self) -> None:
        """Refused while the player is in a room, at a private table or in a match here;
        else his claim on this node is given back (:mod:`qipai.server.run.places`), for the
        node he moves to."""
        places, user = self.hall.places, self.player.user
        async with places.lock(user):
            self.hall.core.check_free(user)
            await places.release(user)

    async def close(self) -> None:
        """Unsubscribe; the hall is told when the player has no connection left."""
        self._closed = True
        if self._unsubscribe is None:
            return
        self._unsubscribe()
        self._unsubscribe = None
        if not self.hall.bus.is_connected(self.player.user):
            self.hall.disconnected(self.player)


async def dispatch(
    hall: HallService, player: Player, message: protocol.ClientMessage
) -> OutFrame | None:
    """Apply one client message to ``player`` in ``hall``; the answering frame, if any
    (``None``: an ``ack``).  A message that gives him a place (a room, a private table)
    takes it first (:meth:`~qipai.server.run.hall.HallService.take_place`, his coins read);
    every other one is its command (:func:`command_of`), run as it is.

    :raises GameError: the hall's refusal.
    """
    match message:
        case Join(room, once):
            await hall.join(player, room, once=once)
        case PrivateCreate():
            await create_private(hall, player, message)
        case PrivateJoin():
            return await join_private(hall, player, message)
        case _:
            replies = hall.executor.run(command_of(player.user, message))
            return replies[0] if replies else None
    return None


def command_of(user: int, message: protocol.ClientMessage) -> c.Command:
    """The hall's command for ``user``'s ``message`` (one that takes no place: those go
    through :func:`dispatch`); the rules are the core's, checked when it handles it.

    :raises InvalidActionError: ``bad_message``: a message that is not for a hall (``hello``
        and ``ping`` are the connection's), a ``spectate`` naming neither or both of a
        code and a player.
    """
    match message:
        case Act(_, action, table):
            return c.Act(user, action, table)
        case Entropy(table, hand, value):
            return c.Contribute(user, table, hand, value)
        case Leave():
            return c.Leave(user)
        case TrusteeSwitch(on):
            return c.Trustee(user, on)
        case EscapeRequest():
            return c.Escape(user)
        case EscapeCost():
            return c.EscapeCost(user)
        case Resync():
            return c.Resync(user)
        case Chat(phrase, message_id):
            return c.Chat(user, phrase, message_id)
        case Ready(_, ready):
            return c.Ready(user, ready)
        case PrivateStart():
            return c.StartPrivate(user)
        case PrivateKick(seat):
            return c.KickPrivate(user, seat)
        case PrivateClose():
            return c.ClosePrivate(user)
        case Spectate(_, code, name) if (code is None) != (name is None):
            return c.Spectate(user, code=code) if name is None else c.Spectate(user, player=name)
        case Spectate():
            raise InvalidActionError("bad_message", "spectate: name a code or a player")
        case StopSpectating():
            return c.StopSpectating(user)
        case WatchByName(allow):
            return c.WatchByName(user, allow)
        case _:
            raise InvalidActionError("bad_message", f"{type(message).__name__} is not for a hall")
