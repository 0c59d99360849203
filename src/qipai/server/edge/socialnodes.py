"""Friends on a hall of several nodes: what one node knows of a player (connected here,
his place here), asked of the others and told to them, in the nodes' inboxes
(:class:`~qipai.server.edge.gateway.Gateway`, kind ``social``).

- ``presence`` (answered): of the users listed, those connected or placed on the node,
  each with where he is and whether he may be watched by his name;
- ``place`` (answered): the private table the user sits at on the node, if any;
- ``invite`` (told): an ``invite`` frame for the user, sent on the node's bus (dropped
  where he has no connection);
- ``cut`` (told): the node's connections of the user's ended sessions are closed.

A hall alone asks and tells nobody: the same functions look at this process only.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import partial

import msgspec

from qipai.cluster.mailbox import Message, field
from qipai.errors import GameError
from qipai.hall.frames import Invite, from_json, to_json
from qipai.hall.place import PlaceKind
from qipai.jsontypes import Json
from qipai.registry import game_type
from qipai.server.run.hall import HallService

from .connection import PlayerSocket
from .gateway import Gateway, NodeHandler

KIND = "social"
"""The kind of these messages between nodes."""
CONNECTION = -1
"""The connection number these messages carry (none: no link is theirs)."""


@dataclass(frozen=True)
class Presence:
    """Where a connected player is, as the node that knows it says: ``kind`` (``lobby``,
    ``room``, ``private``, ``match``, ``watching``), a cash room's id, and whether he may be
    watched by his name now."""

    kind: str
    room: str | None
    watchable: bool


def presence_here(hall: HallService, user: int) -> Presence | None:
    """Where ``user`` is, if he is connected to this process or holds a place here."""
    player = hall.players.get(user)
    if not hall.bus.is_connected(user) and (player is None or not player.connected):
        return None
    place = hall.core.place_of(user)
    room = place.name if place is not None and place.kind is PlaceKind.ROOM else None
    seated = player is not None and (player.table is not None or player.private is not None)
    watchable = seated and player is not None and player.watchable_by_name
    return Presence("lobby" if place is None else str(place.kind), room, watchable)


def invite_here(hall: HallService, user: int, name: str) -> Invite | None:
    """The ``invite`` frame for the private table ``user`` (called ``name``) sits at in
    this process, if he sits at one."""
    place = hall.core.place_of(user)
    table = None if place is None else hall.core.private.tables.get(place.name)
    if place is None or place.kind is not PlaceKind.PRIVATE or table is None:
        return None
    game = table.options.game
    return Invite(name=name, code=table.code, game=game, title=game_type(game).title)


def cut_here(hall: HallService, user: int, keep: str | None) -> None:
    """Close this process's connections of ``user`` but the one of the session ``keep``."""
    for socket in list(hall.sockets):
        if isinstance(socket, PlayerSocket) and socket.session is not None:
            owner, session = socket.session
            if owner == user and session != keep:
                socket.cut()


async def presence(
    hall: HallService, gateway: Gateway | None, users: list[int]
) -> dict[int, Presence]:
    """Where each of ``users`` is, for those connected to some node (a node that does not
    answer in time is left out)."""
    found = {user: seen for user in users if (seen := presence_here(hall, user)) is not None}
    rest = [user for user in users if user not in found]
    if gateway is None or not rest:
        return found
    ids: list[Json] = list(rest)
    asked: Message = {"k": KIND, "c": CONNECTION, "op": "presence", "ids": ids}
    answers = await asyncio.gather(
        *(gateway.call(node, dict(asked)) for node in _others(gateway)), return_exceptions=True
    )
    for answer in answers:
        if isinstance(answer, BaseException):
            if not isinstance(answer, GameError):
                raise answer
            continue  # that node did not answer: its players unknown this time
        told = msgspec.convert(answer, dict[str, tuple[str, str | None, bool]])
        for user, (kind, room, watchable) in told.items():
            found.setdefault(int(user), Presence(kind, room, watchable))
    return found


async def invite_of(
    hall: HallService, gateway: Gateway | None, user: int, name: str
) -> Invite | None:
    """The invitation to the private table ``user`` sits at, on this node or the node that
    holds him."""
    frame = invite_here(hall, user, name)
    if frame is not None or gateway is None:
        return frame
    cluster = gateway.cluster
    node = await cluster.guarded(cluster.players.where(user))
    if node is None or node == gateway.node:
        return None
    asked: Message = {"k": KIND, "c": CONNECTION, "op": "place", "u": user, "n": name}
    answer = await gateway.call(node, asked)
    return None if answer is None else msgspec.convert(answer, Invite)


def send_invite(hall: HallService, gateway: Gateway | None, user: int, frame: Invite) -> None:
    """Send ``frame`` to ``user``'s connections, on every node."""
    hall.bus.publish(user, frame)
    _tell(gateway, {"op": "invite", "u": user, "f": to_json(frame)})


def cut(hall: HallService, gateway: Gateway | None, user: int, keep: str | None) -> None:
    """Close ``user``'s connections but the session ``keep``'s, on every node."""
    cut_here(hall, user, keep)
    _tell(gateway, {"op": "cut", "u": user, "keep": keep})


def node_handlers(hall: HallService) -> dict[str, NodeHandler]:
    """What answers the other nodes' ``social`` messages (a :class:`~.gateway.Gateway`'s
    ``handlers``)."""
    return {KIND: partial(_serve, hall)}


async def _serve(hall: HallService, message: Message) -> Json:
    """One ``social`` message of another node."""
    op = field(message, "op", str)
    if op == "presence":
        users = msgspec.convert(message["ids"], list[int])
        here = {user: presence_here(hall, user) for user in users}
        return {str(u): [p.kind, p.room, p.watchable] for u, p in here.items() if p is not None}
    user = field(message, "u", int)
    if op == "place":
        frame = invite_here(hall, user, field(message, "n", str))
        return None if frame is None else to_json(frame)
    if op == "invite":
        hall.bus.publish(user, from_json(message["f"]))
    elif op == "cut":
        keep = message.get("keep")
        cut_here(hall, user, keep if isinstance(keep, str) else None)
    return None


def _others(gateway: Gateway) -> list[str]:
    """The other nodes alive, as their last beats said."""
    return sorted(node for node in gateway.cluster.said if node != gateway.node)


def _tell(gateway: Gateway | None, message: Message) -> None:
    """Send ``message`` (unanswered) to every other node alive."""
    if gateway is None:
        return
    for node in _others(gateway):
        gateway.send(node, {"k": KIND, "c": CONNECTION, **message})
