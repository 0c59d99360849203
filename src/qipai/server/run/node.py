"""This hall process as a node of a cluster (``qipai serve --redis URL --node-id ID``).

A :class:`ClusterNode` beats in Redis (:class:`qipai.cluster.Nodes`) and holds a lease
(:class:`qipai.cluster.Leases`) on every table it plays a hand at: the hall asks for the
table's lease before each hand (:meth:`ClusterNode.lease`), settles the hand with the
lease's fence (the store refuses it if the lease was lost meanwhile) and gives the lease
back when the table closes.  One task beats and renews every lease a third of the time to
live apart; a lease that cannot be renewed is dropped (the store's fence check is the
safety net: the hand under it can no longer settle).  The same task looks for nodes that
stopped beating: one node (the one that wins a ``recover:<node>`` lease) voids the hands
such a node left in play (:attr:`ClusterNode.on_stopped`) and forgets it.

Rooms are owned too, through ``room:<id>`` leases: each node claims the rooms it is the
first choice for among the nodes alive (:mod:`qipai.cluster.placement`), and gives back an
idle room that another node would be the first choice for; the leases of a node that
stopped are cleared when it is taken over, so that its rooms move within a beat.  A node
that finds itself taken over (it was paused or cut off past its beat's time to live, and
came back) drops everything it held (:attr:`ClusterNode.on_taken_over`): its hands were
voided, its players moved on.  A private table holds the lease ``private:<code>`` on the
node it is open on (:attr:`ClusterNode.private_codes`), so that every node finds it.
The matches run on one node (lease ``matches``,
:attr:`ClusterNode.on_matches`), which carries on the runs a lost node left.  After Redis
did not answer, a node waits a beat's time to live before taking anyone over, so that
the nodes whose beats lapsed meanwhile can beat again first.  Without Redis the hall runs
alone, as always, and none of this exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from redis.asyncio import Redis
from redis.exceptions import RedisError

from qipai.cluster import Lease, Leases, Nodes
from qipai.cluster.lease import DEFAULT_TTL_MS as DEFAULT_LEASE_TTL_MS
from qipai.cluster.mailbox import Mailbox, Message
from qipai.cluster.nodes import DEFAULT_TTL_MS as DEFAULT_BEAT_TTL_MS
from qipai.cluster.placement import preferred
from qipai.cluster.players import Players
from qipai.errors import IllegalActionError
from qipai.jsontypes import Json

log = logging.getLogger(__name__)
T = TypeVar("T")

LEASE_TTL_MS = DEFAULT_LEASE_TTL_MS
"""A lease's time to live (5 s): a lease of a node that stopped is free after it."""
MATCHES = "matches"
"""The lease of the one node that runs the matches."""
BEAT_TTL_MS = DEFAULT_BEAT_TTL_MS
"""A node beat's time to live (3 s): a stopped node is seen within it."""


class ClusterNode:
    """This process's beat and leases in Redis."""

    def __init__(
        self,
        redis: Redis,
        node_id: str,
        *,
        prefix: str = "qipai",
        info: Callable[[], dict[str, object]] = dict,
    ) -> None:
        self.node_id = node_id
        """This node's id (unique among the hall's processes)."""
        self.redis = redis
        """The shared Redis."""
        self.nodes = Nodes(redis, prefix=prefix, ttl_ms=BEAT_TTL_MS)
        """The hall's nodes."""
        self.leases = Leases(redis, prefix=prefix, ttl_ms=LEASE_TTL_MS)
        """The hall's leases."""
        self.held: dict[str, Lease] = {}
        """The leases this node holds, by resource."""
        self.players = Players(redis, prefix=prefix)
        """Where the players are held, and what was kept for them."""
        self.mailbox = Mailbox(redis, node_id, self._receive, prefix=prefix)
        """This node's inbox, and its way to the others'."""
        self.info = info
        """What the node says of itself in each beat."""
        self.rooms: tuple[str, ...] = ()
        """The hall's rooms, which the nodes share out."""
        self.room_idle: Callable[[str], bool] = lambda room: True
        """Whether a room has nobody in it here (it may move to another node)."""
        self.private_codes: Callable[[], Iterable[str]] = tuple
        """The codes of the private tables open here: each holds its lease
        ``private:<code>`` (which names this node to the others)."""
        self.reserved: set[str] = set()
        """Codes whose lease was taken for a table being created here (kept meanwhile)."""
        self.alive: set[str] = {node_id}
        """The nodes alive at the last look."""
        self.said: dict[str, dict[str, Json]] = {}
        """What each node alive at the last look said of itself (:attr:`info`) at its
        last beat: at most a beat old."""
        self.stopped: set[str] = set()
        """The nodes stopped, not yet taken over, at the last look."""
        self._background: set[asyncio.Task[None]] = set()
        self.on_stopped: Callable[[str], Awaitable[object]] | None = None
        """Called with a node that stopped, by the one node that takes it over (the hall
        voids the hands it left in play); the node is then forgotten."""
        self.on_matches: Callable[[], Awaitable[object]] | None = None
        """Called when this node took the matches (it runs them from now on)."""
        self.on_taken_over: Callable[[], Awaitable[object]] | None = None
        """Called when this node finds that it was taken over as stopped, or that another
        node took the matches it ran: it drops all its work."""
        self.matches_here = False
        """Whether this node runs the matches (:attr:`on_matches` was called, and it was
        not taken over since)."""
        self.clock: Callable[[], float] = time.monotonic
        self._answering_since: float | None = None
        """When Redis began answering again (``None``: the last look failed)."""
        self.on_message: Callable[[Message], None] = lambda message: None
        """Called with each message of the inbox."""
        self.on_census: Callable[[set[str], set[str]], None] = lambda alive, stopped: None
        """Called after each look at the nodes, with those alive and those stopped."""
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def connect(cls, url: str, node_id: str, *, prefix: str = "qipai") -> ClusterNode:
        """A node on the Redis at ``url`` (what it says of itself: :attr:`info`)."""
        redis = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        return cls(redis, node_id, prefix=prefix)

    async def start(self) -> None:
        """Beat once (Redis must answer), read the inbox, and keep beating and renewing."""
        await self.nodes.beat(self.node_id, self.info())
        self._answering_since = self.clock()
        await self.mailbox.start()
        self.alive = set(await self.nodes.alive())
        await self._share_rooms()  # its rooms playable at once
        self._task = asyncio.get_running_loop().create_task(self._keep_alive())

    async def stop(self, *, leave: bool = True) -> None:
        """Stop beating; give back every lease held; leave the list of nodes (the hall
        has voided its hands itself), unless not ``leave``: then the node stays listed,
        seen stopped, and another node takes it over (its private tables, kept in the
        store, are opened again there)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.mailbox.stop()
        for lease in list(self.held.values()):
            await self.release(lease.resource)
        if leave:
            with contextlib.suppress(OSError, RedisError):
                await self.nodes.leave(self.node_id)
        await self.redis.aclose()

    def _receive(self, message: Message) -> None:
        self.on_message(message)

    @staticmethod
    async def guarded(call: Awaitable[T]) -> T:
        """``call``'s result; a Redis failure as ``cluster_unavailable``.

        :raises IllegalActionError: ``cluster_unavailable``.
        """
        try:
            return await call
        except (OSError, RedisError) as error:
            raise IllegalActionError("cluster_unavailable", f"Redis: {error}") from None

    async def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(await self.redis.ping())
        except (OSError, RedisError):
            return False

    def owns(self, room: str) -> bool:
        """Whether this node holds ``room``'s lease (it seats that room's players)."""
        return room_resource(room) in self.held

    async def room_owner(self, room: str) -> str | None:
        """The node holding ``room``'s lease now (``None``: none, it is moving).

        :raises IllegalActionError: ``cluster_unavailable`` when Redis does not answer.
        """
        return await self.holder(room_resource(room))

    async def holder(self, resource: str) -> str | None:
        """The node holding ``resource``'s lease now (``None``: none).

        :raises IllegalActionError: ``cluster_unavailable`` when Redis does not answer.
        """
        lease = await self.guarded(self.leases.holder(resource))
        return None if lease is None else lease.node

    def table_resource(self, number: int) -> str:
        """The lease name of this node's table ``number``."""
        return f"table:{self.node_id}:{number}"

    async def lease(self, resource: str) -> Lease:
        """The lease on ``resource`` for this node (taken, or renewed if held).

        :raises IllegalActionError: ``cluster_unavailable`` when Redis does not answer or
            another node holds the resource: no hand may start there.
        """
        try:
            lease = await self.leases.acquire(resource, self.node_id)
        except (OSError, RedisError) as error:
            raise IllegalActionError("cluster_unavailable", f"Redis: {error}") from None
        if lease is None:
            raise IllegalActionError("cluster_unavailable", f"{resource} is held elsewhere")
        self.held[resource] = lease
        return lease

    def release_soon(self, resource: str) -> None:
        """:meth:`release` in a task of its own (from a callback)."""
        self._soon(self.release(resource))

    def _soon(self, work: Awaitable[None]) -> None:
        task = asyncio.get_running_loop().create_task(_wait(work))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def release(self, resource: str) -> None:
        """Give back this node's lease on ``resource`` (Redis errors are only logged: an
        unreleased lease lapses by itself)."""
        lease = self.held.pop(resource, None)
        if lease is None:
            return
        try:
            await self.leases.release(lease)
        except (OSError, RedisError) as error:
            log.warning("could not release %s: %s", resource, error)

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(BEAT_TTL_MS / 3000)
            try:
                await self.look()
            except (OSError, RedisError) as error:
                self._answering_since = None
                log.warning("cluster: Redis did not answer: %s", error)
            except Exception:  # a failed callback (the database down…) must not stop the beat
                log.exception("cluster: a look failed")

    async def look(self) -> None:
        """One beat: renew the leases, see who is alive, take over the nodes that stopped
        (not until every node had a beat's time to beat again after Redis came back),
        share out the rooms, take (or hold on to) the matches."""
        if await self.nodes.beat(self.node_id, self.info()):
            await self._drop_everything("node %s was taken over while away", self.node_id)
        now = self.clock()
        if self._answering_since is None:
            self._answering_since = now
        await self._renew_all()
        alive, stopped = await self.nodes.census()
        self.alive, self.stopped, self.said = set(alive), set(stopped), alive
        if now - self._answering_since >= BEAT_TTL_MS / 1000:
            await self._take_over_stopped(stopped)  # its rooms free now: shared out at once
        await self._share_rooms()
        await self._hold_privates()
        await self._claim_matches()
        self.on_census(self.alive, self.stopped)

    async def _drop_everything(self, why: str, *args: object) -> None:
        log.error("cluster: " + why + ": dropping its work", *args)
        self.held.clear()
        self.matches_here = False
        if self.on_taken_over is not None:
            await self.on_taken_over()

    async def _share_rooms(self) -> None:
        """Claim the free rooms this node is the first choice for; give back the idle
        ones another node is."""
        for room in self.rooms:
            resource = room_resource(room)
            mine = preferred(resource, self.alive) == self.node_id
            if mine and resource not in self.held:
                lease = await self.leases.acquire(resource, self.node_id)
                if lease is not None:
                    self.held[resource] = lease
            elif not mine and resource in self.held and self.room_idle(room):
                await self.release(resource)

    async def _hold_privates(self) -> None:
        """Hold the lease of each private table open here (taken again if it lapsed);
        give back those of the tables closed since (or never created)."""
        codes = set(self.private_codes()) | self.reserved
        for code in codes:
            resource = private_resource(code)
            if resource not in self.held:
                lease = await self.leases.acquire(resource, self.node_id)
                if lease is None:
                    log.error("cluster: private table %s is held by another node", code)
                else:
                    self.held[resource] = lease
        for resource in [r for r in self.held if r.startswith(PRIVATE)]:
            if resource[len(PRIVATE) :] not in codes:
                await self.release(resource)

    async def reserve(self, code: str) -> bool:
        """Take the lease of private table ``code`` for a table about to be created here
        (:attr:`reserved` until :meth:`unreserve`); ``False``: another node holds it.

        :raises IllegalActionError: ``cluster_unavailable`` when Redis does not answer.
        """
        resource = private_resource(code)
        lease = await self.guarded(self.leases.acquire(resource, self.node_id))
        if lease is None:
            return False
        self.held[resource] = lease
        self.reserved.add(code)
        return True

    def unreserve(self, code: str) -> None:
        """The table of ``code`` was created, or refused: its lease is kept while it is
        open (the next look gives back that of a table refused)."""
        self.reserved.discard(code)

    async def _claim_matches(self) -> None:
        """Take the matches if they are free and this node is their first choice (they
        stay where they are while their node lives).  A node that runs them and lost
        their lease (Redis away past its time to live) takes it again; if another node
        has it, this one drops all its work, as a node taken over does."""
        if MATCHES in self.held:
            return
        if not self.matches_here and preferred(MATCHES, self.alive) != self.node_id:
            return
        lease = await self.leases.acquire(MATCHES, self.node_id)
        if lease is None:
            if self.matches_here:
                await self._drop_everything("node %s lost the matches", self.node_id)
            return
        self.held[MATCHES] = lease
        if self.matches_here or self.on_matches is None:
            self.matches_here = True
            return
        try:
            await self.on_matches()
        except Exception:  # the database down: give them back, try again at a next look
            log.exception("cluster: could not start the matches")
            await self.release(MATCHES)
            return
        self.matches_here = True

    async def _take_over_stopped(self, stopped: list[str]) -> None:
        """For each node that stopped: if this node wins its recovery lease, run
        :attr:`on_stopped` for it, clear its rooms' and matches' leases, then forget it."""
        for node in stopped:
            recovery = f"recover:{node}"
            lease = await self.leases.acquire(recovery, self.node_id)
            if lease is None:
                continue  # another node is on it
            self.held[recovery] = lease
            try:
                if self.on_stopped is not None:
                    await self.on_stopped(node)
                for theirs in [MATCHES, *map(room_resource, self.rooms)]:
                    await self.leases.clear(theirs, node)
                await self.nodes.forget(node)
                log.warning("cluster: took over node %s, which stopped", node)
            finally:
                await self.release(recovery)

    async def _renew_all(self) -> None:
        leases = list(self.held.values())
        for lease, renewed in zip(leases, await self.leases.renew_all(leases), strict=True):
            if not renewed:
                log.error("cluster: lost the lease on %s", lease.resource)
                if self.held.get(lease.resource) == lease:
                    del self.held[lease.resource]


def room_resource(room: str) -> str:
    """The lease name of ``room``."""
    return f"room:{room}"


PRIVATE = "private:"
"""What the lease name of a private table starts with (then its code)."""


def private_resource(code: str) -> str:
    """The lease name of private table ``code``: its holder is the node it is open on."""
    return PRIVATE + code


async def _wait(work: Awaitable[None]) -> None:
    await work
