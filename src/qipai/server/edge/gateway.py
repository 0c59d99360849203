"""Players anywhere: a node's sockets reach the players it does not hold, over Redis.

A player's state (queue entry, table, 托管) lives on one node, the one that owns the room
he joined (:mod:`qipai.cluster.players` names it; :mod:`qipai.cluster.placement` says which
node owns a room).  His socket may reach any node.  The node of the socket, his
*gateway*, holds a :class:`RemoteLink` to the node that holds him; that node serves the
link with a :class:`~qipai.server.edge.links.LocalLink` of its own, exactly as if the socket
were there, and sends his frames back.  Messages travel in the nodes' inboxes
(:class:`qipai.cluster.mailbox.Mailbox`), in order, each kind one small JSON object:

- ``attach`` (a connection's player, and his ``last`` event numbers), ``call`` (one client
  message, as the client sent it), ``release`` (may the player move to another node's
  room?) and ``detach``, from the gateway; the first three are answered with ``reply``
  (the answering frame, or the error's code and text);
- ``frame``, from the holder: one frame for one connection;
- ``match`` (one request of the match API, answered with ``reply``), to the node that
  runs the matches, and ``moved`` from it (a player it holds from now on: his
  connections on every node link to it);
- ``private`` (``GET /api/private/{code}``, answered with ``reply``), to the node a
  private table is open on (its lease ``private:<code>`` names it); a ``private_join`` or
  a ``spectate`` by code links the connection there first, as a ``join`` does.
- ``social`` (friends: :mod:`.socialnodes`), to each other node, answered or not.

A call not answered within :data:`CALL_SECONDS` is refused with ``cluster_unavailable``.
When a node stops, the gateways close what they served for it (its players are away:
托管), and once another node has taken it over (voided its hands, which are kept for its
players as ``hand_voided`` frames) they link its players' connections to this node again:
they find the hand voided and may join a room again, within about the beat's time to
live of the stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass
from functools import partial

import msgspec

from qipai.cluster.mailbox import Message, field
from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall.frames import OutFrame, from_json, to_json
from qipai.hall.match.requests import MatchRequest, Register, parse_request, wire_of
from qipai.hall.table.summary import TableSummary
from qipai.jsontypes import Json
from qipai.server.api import protocol
from qipai.server.api.answers import PrivateInfo
from qipai.server.run.bus import Sink
from qipai.server.run.hall import HallService
from qipai.server.run.matches import MatchAnswer, MatchHall
from qipai.server.run.metrics import Histogram
from qipai.server.run.node import MATCHES, ClusterNode, private_resource

from .links import Link, LocalLink
from .logs import log_failure
from .privates import private_info
from .remote import NOT_ATTACHED, LostHandler, RemoteLink, answer_of

log = logging.getLogger(__name__)


CALL_SECONDS = 3.0
"""How long a gateway waits for the holder's answer to a call."""
WAIT_STEP = 0.25
"""Seconds between two looks at a stopped node that has not been taken over yet."""
MOVE_SECONDS = 8.0
"""The longest a join waits for its room to have a live owner (a stopped node is seen
within a beat's time to live, and its rooms move at once)."""
TAKEOVER_SECONDS = 15.0
"""The longest a signing-in player waits for his stopped node to be taken over."""


@dataclass(frozen=True)
class Client:
    """A connection as the gateway sees it: its player, where his frames go, and what
    to call if his holder is lost."""

    user: int
    name: str
    sink: Sink
    on_lost: LostHandler
    moved: Callable[[str | None], None]
    """Called when the player is held by another node from now on (``None``: this one):
    he registered in a match, which that node runs."""
    use: Callable[[Link], None]
    """Called with the connection's new link when a join moves it."""
    current: Callable[[], Link]
    """The connection's link now."""
    reattach: Callable[[Link], None]
    """Called with the link when its holder, alive, forgot it (it took this node for
    gone a moment): the connection attaches there again."""


NodeHandler = Callable[[Message], Awaitable[Json]]
"""What a feature answers to a call of another node (its own kind of message)."""


class Gateway:
    """This node's links to the players held elsewhere, and its service to the
    gateways of the players it holds."""

    def __init__(
        self,
        hall: HallService,
        cluster: ClusterNode,
        handlers: Mapping[str, NodeHandler] | None = None,
    ) -> None:
        self.hall = hall
        self.cluster = cluster
        self.node = cluster.node_id
        self.numbers: Iterator[int] = itertools.count(1)
        """Numbers of this node's calls and links (each used once)."""
        self._calls: dict[int, asyncio.Future[Message]] = {}
        self.links: dict[int, RemoteLink] = {}
        """This node's connections to players held elsewhere, by connection number."""
        self._served: dict[tuple[str, int], LocalLink] = {}
        """The connections of other gateways to players held here."""
        self._serving: set[asyncio.Task[None]] = set()
        self._order: dict[tuple[str, int], asyncio.Lock] = {}
        """One lock per served connection: its messages are done one at a time, in order."""
        self._clients: dict[int, list[Client]] = {}
        """This node's connections, by player."""
        self.matches: MatchHall | None = None
        """The matches (running here when this node holds them)."""
        self.handlers: Mapping[str, NodeHandler] = handlers or {}
        """A feature's own calls between nodes, by kind (friends: :mod:`.socialnodes`)."""
        self.call_seconds = Histogram(
            "qipai_node_call_seconds",
            "Time from a call sent to another node to its answer (through Redis).",
        )
        """How long the calls to other nodes take (``/metrics``)."""
        cluster.on_message = self.receive
        cluster.on_census = self.census

    def connected(self, client: Client) -> Callable[[], None]:
        """Note ``client``'s connection (to move it when its player moves); the returned
        function forgets it."""
        clients = self._clients.setdefault(client.user, [])
        clients.append(client)

        def forget() -> None:
            clients.remove(client)
            if not clients:
                self._clients.pop(client.user, None)

        return forget

    # --- a connection's link --------------------------------------------------------------

    async def open_link(self, client: Client, last: dict[str, int]) -> Link:
        """The link of a new connection of ``user``, open: to the node holding him (this
        one if none does).  A holder that does not answer is tried again until it does,
        or is seen stopped and taken over (within :data:`TAKEOVER_SECONDS`); one that
        answers with a failure (``server_error``: its database down) is not.

        :raises IllegalActionError: ``cluster_unavailable``, ``server_error``.
        """
        give_up = asyncio.get_running_loop().time() + TAKEOVER_SECONDS
        while True:
            holder = await self._holder(client.user)
            link = self.link_to(holder, client)
            if not isinstance(link, RemoteLink):
                await link.open(last)
                return link
            try:
                await link.open(last)
                return link
            except IllegalActionError as error:
                await link.close()
                late = asyncio.get_running_loop().time() > give_up
                if error.code != "cluster_unavailable" or late:  # (a failure: not again)
                    raise

    async def _holder(self, user: int) -> str | None:
        """The other node holding ``user``, if one is alive.

        :raises IllegalActionError: ``cluster_unavailable`` when Redis does not answer.
        """
        cluster = self.cluster
        for _ in range(round(TAKEOVER_SECONDS / WAIT_STEP)):
            node = await cluster.guarded(cluster.players.where(user))
            if node is None or node == self.node:
                return None
            alive, stopped = await cluster.guarded(cluster.nodes.census())
            if node in alive:
                return node
            if node not in stopped:  # taken over: its hands voided, the player free…
                if await cluster.guarded(cluster.players.unplace(user, node)):
                    return None
                continue  # …or held by the node that took over his private table: there
            await asyncio.sleep(WAIT_STEP)
        raise IllegalActionError("cluster_unavailable", f"node {node} is being taken over")

    def link_to(self, node: str | None, client: Client) -> Link:
        """A new link of ``client``'s connection to ``node`` (``None``: this one)."""
        if node is None:
            return LocalLink(self.hall, self.hall.player(client.user, client.name), client.sink)
        link = RemoteLink(self, node, client.user, client.name, client.sink)
        link.on_lost = client.on_lost
        link.on_forgotten = client.reattach
        return link

    async def join(self, link: Link, message: protocol.Join, client: Client) -> OutFrame | None:
        """``message`` (join a room) sent where the room is, the connection linked there
        (:attr:`Client.use`); the answer.  While the room moves (its node stopped and is
        being taken over) the join waits, up to :data:`MOVE_SECONDS`.

        :raises GameError: ``unknown_room``, ``cluster_unavailable`` (the room is still
            moving), ``already_in_room``, ``in_match``, or the owner's refusal.
        """
        if message.room not in self.hall.rooms:
            raise InvalidActionError("unknown_room", f"no room {message.room!r}")

        async def owner(link: Link) -> str | None:
            return await self.cluster.room_owner(message.room)

        return await self._at(owner, link, message, client, f"room {message.room!r} is moving")

    async def at_private(
        self, link: Link, message: protocol.ClientMessage, code: str, client: Client
    ) -> OutFrame | None:
        """``message`` (``private_join`` or ``spectate`` by ``code``) sent to the node the
        private table is open on, the connection linked there; the answer.  A code no node
        holds is answered where the player is (``unknown_code``, ``table_closed``); one
        whose table is moving (its node stopped) waits, as a join does.

        :raises GameError: ``cluster_unavailable`` (the table is still moving),
            ``already_in_room`` (the player is at a place of another node), or the
            table's node's refusal.
        """

        async def holder(link: Link) -> str | None:
            node = await self.private_node(code)
            if node is None and not await self._moving(code):
                return self.node if link.node is None else link.node  # nobody has it
            return node

        return await self._at(holder, link, message, client, f"table {code} is moving")

    async def private_node(self, code: str) -> str | None:
        """The node private table ``code`` is open on (``None``: none now).

        :raises IllegalActionError: ``cluster_unavailable`` when Redis does not answer.
        """
        return await self.cluster.holder(private_resource(code))

    async def _moving(self, code: str) -> bool:
        """Whether private table ``code`` is open but held by no node now (its node
        stopped, and the table waits to be taken over): the store keeps it open."""
        db = self.hall.db
        return await db.run(db.store.open_private_node, code) is not None

    async def private_info(self, code: str) -> PrivateInfo:
        """``GET /api/private/{code}``, answered by the node the table is open on (the
        store's last closed table of that code when none is).

        :raises GameError: ``unknown_code``; ``cluster_unavailable`` (its node does not
            answer).
        """
        give_up = asyncio.get_running_loop().time() + MOVE_SECONDS
        while (node := await self.private_node(code)) is None and await self._moving(code):
            if asyncio.get_running_loop().time() > give_up:
                raise IllegalActionError("cluster_unavailable", f"table {code} is moving")
            await asyncio.sleep(WAIT_STEP)
        if node is not None and node != self.node:
            info = await self.call(node, {"k": "private", "c": 0, "code": code})
            return msgspec.convert(info, PrivateInfo)
        return await private_info(self.hall, code)

    async def _at(
        self,
        where: Callable[[Link], Awaitable[str | None]],
        link: Link,
        message: protocol.ClientMessage,
        client: Client,
        moving: str,
    ) -> OutFrame | None:
        """``message`` sent to the node ``where(link)`` names, the connection linked
        there (:attr:`Client.use`); the answer.  While it names none (the place moves: its
        node stopped and is being taken over) the message waits, up to :data:`MOVE_SECONDS`.

        :raises GameError: ``cluster_unavailable`` (``moving``: still none), or the node's
            refusal.
        """
        give_up = asyncio.get_running_loop().time() + MOVE_SECONDS
        while True:
            owner = await where(link)
            try:
                if owner is not None:
                    link = await self._link_at(None if owner == self.node else owner, link, client)
                    return await link.handle(message)
            except IllegalActionError as error:
                if error.code != "cluster_unavailable":
                    raise
                link = client.current()  # (a failed move linked it here already)
                if link.node is not None:  # its node did not answer: the player is free
                    link = await self._here(link, client)
            if asyncio.get_running_loop().time() > give_up:
                raise IllegalActionError("cluster_unavailable", moving)
            await asyncio.sleep(WAIT_STEP)

    async def _link_at(self, node: str | None, link: Link, client: Client) -> Link:
        """The connection's link to ``node`` (``link`` if it is one already, else a new
        one, open, once the player may leave ``link``'s node)."""
        if link.node == node:
            return link
        await link.release()
        await link.close()
        new = self.link_to(node, client)
        client.use(new)
        try:
            await new.open({})
        except IllegalActionError:
            await self._here(new, client)
            raise
        return new

    async def _here(self, link: Link, client: Client) -> Link:
        """Close ``link`` (its node does not answer) and link the connection here."""
        await link.close()
        here = self.link_to(None, client)
        client.use(here)
        await here.open({})
        return here

    # --- matches --------------------------------------------------------------------------

    async def ask_matches(self, request: MatchRequest, user: int | None, name: str) -> MatchAnswer:
        """One request of the match API (:meth:`MatchHall.serve`), answered by the node
        that holds the matches.

        :raises GameError: the answer's error; ``cluster_unavailable`` while the matches
            move to another node.
        """
        if self.matches is not None and self.matches.active:
            return await self._serve_matches(request, user, name)
        holder = await self.cluster.holder(MATCHES)
        if holder is None or holder == self.node:
            raise IllegalActionError("cluster_unavailable", "the matches are moving: try again")
        op, arg = wire_of(request)
        message: Message = {"k": "match", "c": 0, "op": op, "u": user, "n": name, "a": arg}
        return await self.call(holder, message)

    async def _serve_matches(
        self, request: MatchRequest, user: int | None, name: str
    ) -> MatchAnswer:
        """:meth:`MatchHall.serve` here; a player who registered is held here from now on,
        and his connections on every node are moved here."""
        if self.matches is None or not self.matches.active:
            raise IllegalActionError("cluster_unavailable", "the matches are moving: try again")
        answer = await self.matches.serve(request, user, name)
        if isinstance(request, Register) and user is not None:
            await self.hold_here(user)
        return answer

    async def hold_here(self, user: int) -> None:
        """``user``'s player is held by this node from now on (his claim:
        :mod:`qipai.server.run.places`): his connections on every node are moved here (a player
        registered for a match, or in a run this node carries on).

        :raises IllegalActionError: ``already_in_room`` (another node holds him),
            ``cluster_unavailable`` when Redis does not answer.
        """
        places = self.hall.places
        async with places.lock(user):
            await places.claim(user)
        for node in self.cluster.alive - {self.node}:
            self.send(node, {"k": "moved", "u": user})
        self._move(user, self.node)

    def end_sessions(self, user: int, cause: str, why: str) -> None:
        """Close every connection of ``user`` on every node (an operator ended his
        sessions): here at once, on the others as their inbox is read."""
        self.hall.end_sessions(user, cause, why)
        for node in self.cluster.alive - {self.node}:
            self.send(node, {"k": "ended", "u": user, "cause": cause, "why": why})

    async def live_tables(self) -> dict[str, list[TableSummary]]:
        """The tables in play on every node that answers, by node (the console)."""
        found = {self.node: self.hall.live_tables()}
        for node in sorted(self.cluster.alive - {self.node}):
            with contextlib.suppress(GameError):  # a node that does not answer: left out
                tables = await self.call(node, {"k": "tables", "c": 0})
                found[node] = msgspec.convert(tables, list[TableSummary])
        return found

    async def close_table(self, node: str, number: int, reason: str) -> None:
        """Close table ``number`` of ``node`` (an operator's close).

        :raises GameError: ``unknown_table``, ``unknown_node``, ``cluster_unavailable``.
        """
        if node == self.node:
            self.hall.close_table(number, reason)
        elif node in self.cluster.alive:
            await self.call(node, {"k": "close_table", "c": 0, "t": number, "why": reason})
        else:
            raise IllegalActionError("unknown_table", f"no node {node} in the hall")

    def _move(self, user: int, node: str) -> None:
        """``user`` is held by ``node`` now: move this node's connections of his."""
        target = None if node == self.node else node
        for client in list(self._clients.get(user, ())):
            client.moved(target)

    # --- calls ----------------------------------------------------------------------------

    def send(self, node: str, message: Message) -> None:
        """Send ``message`` to ``node`` (signed with this node's id)."""
        message["from"] = self.node
        self.cluster.mailbox.send(node, message)

    async def call(self, node: str, message: Message) -> Json:
        """Send ``message`` to ``node`` and wait for its answer.

        :raises GameError: the holder's refusal, or ``cluster_unavailable`` (no answer
            within :data:`CALL_SECONDS`).
        """
        number = message["i"] = next(self.numbers)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._calls[number] = future
        self.send(node, message)
        started = time.perf_counter()
        try:
            async with asyncio.timeout(CALL_SECONDS):
                reply = await future
        except TimeoutError:
            raise IllegalActionError("cluster_unavailable", f"node {node} did not answer") from None
        finally:
            self._calls.pop(number, None)
        self.call_seconds.observe(time.perf_counter() - started)
        return answer_of(reply)

    # --- the inbox ------------------------------------------------------------------------

    def receive(self, message: Message) -> None:
        """One message from another node."""
        kind = message["k"]
        if kind == "moved":
            self._move(field(message, "u", int), field(message, "from", str))
        elif kind == "ended":
            cause, why = field(message, "cause", str), field(message, "why", str)
            self.hall.end_sessions(field(message, "u", int), cause, why)
        elif kind == "frame":
            link = self.links.get(field(message, "c", int))
            if link is not None:
                link.deliver(from_json(message["f"]))
        elif kind == "reply":
            future = self._calls.pop(field(message, "i", int), None)
            if future is not None and not future.done():
                future.set_result(message)
        else:
            task = asyncio.get_running_loop().create_task(self._serve(message))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

    async def _serve(self, message: Message) -> None:
        """One message of another gateway, after the earlier ones of its connection (an
        ``attach`` then a ``detach`` are done in that order, even if the first waits)."""
        origin = field(message, "from", str)
        connection = (origin, field(message, "c", int))
        lock = self._order.setdefault(connection, asyncio.Lock())
        reply: Message = {"k": "reply", "i": message.get("i")}
        try:
            async with lock:
                reply["f"] = await self._serve_one(field(message, "k", str), connection, message)
        except GameError as error:
            kind = "invalid" if isinstance(error, InvalidActionError) else "illegal"
            reply.update(e=error.code, t=error.message, x=kind)
        except Exception as error:  # the database down…: answered now, as a local failure is
            log_failure(log, f"{message['k']} for node {origin}", error)
            reply.update(e="server_error", t=protocol.COULD_NOT, x="illegal")
        if reply["i"] is not None:
            self.send(origin, reply)

    async def _serve_one(self, kind: str, connection: tuple[str, int], message: Message) -> Json:
        handler = self.handlers.get(kind)
        if handler is not None:
            return await handler(message)
        if kind == "match":
            request = parse_request(message.get("op"), message.get("a"))
            user = None if message.get("u") is None else field(message, "u", int)
            served = await self._serve_matches(request, user, field(message, "n", str))
            return _plain(served)
        if kind == "private":
            return _plain(await private_info(self.hall, field(message, "code", str)))
        if kind == "tables":
            tables: Json = msgspec.to_builtins(self.hall.live_tables())
            return tables
        if kind == "close_table":
            self.hall.close_table(field(message, "t", int), field(message, "why", str))
            return None
        if kind == "attach":
            player = self.hall.player(field(message, "u", int), field(message, "n", str))
            attached = LocalLink(self.hall, player, partial(self._forward, connection))
            self._served[connection] = attached
            await attached.open(msgspec.convert(message["last"], dict[str, int]))
            return None
        if kind == "detach":
            self._order.pop(connection, None)
            detached = self._served.pop(connection, None)
            if detached is not None:
                await detached.close()
            return None
        link = self._served.get(connection)
        if link is None:  # closed here while its node seemed gone, or this node restarted
            raise IllegalActionError(NOT_ATTACHED, "this connection is not attached")
        if kind == "release":
            await link.release()
            return None
        answer = await link.handle(protocol.parse(field(message, "m", str)))
        return None if answer is None else to_json(answer)

    def _forward(self, connection: tuple[str, int], frame: OutFrame) -> None:
        origin, number = connection
        self.send(origin, {"k": "frame", "c": number, "f": to_json(frame)})

    # --- nodes that stop ------------------------------------------------------------------

    def census(self, alive: set[str], stopped: set[str]) -> None:
        """After each look at the nodes: close what was served for nodes that stopped;
        link the connections whose node was taken over to this node again."""
        for connection, served in list(self._served.items()):
            if connection[0] not in alive:
                del self._served[connection]
                self._order.pop(connection, None)
                self._spawn(served.close())
        for link in list(self.links.values()):
            if link.node not in alive and link.node not in stopped:
                link.lost()

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)


def _plain(answer: MatchAnswer | PrivateInfo) -> Json:
    """An answer of the API as JSON, to cross to another node."""
    plain: Json = msgspec.to_builtins(answer)
    return plain
