"""This hall process as a node of a cluster (``qipai serve --redis URL --node-id ID``).

A :class:`ClusterNode` beats in Redis (:class:`qipai.cluster.Nodes`) and holds a lease
(:class:`qipai.cluster.Leases`) on every table it plays a hand at: the hall asks for the
table's lease before each hand (:meth:`ClusterNode.lease`), settles the hand with the
lease's fence (the store refuses it if the lease was lost meanwhile) and gives the lease
back when the table closes.  One task beats and renews every lease a third of the time to
live apart; a lease that cannot be renewed is dropped (the store's fence check is the
safety net: the hand under it can no longer settle).  The same task looks for nodes that
stopped beating: one node (the one that wins a ``recover:<node>`` lease) voids the hands
such a node left in play (:attr:`ClusterNode.on_stopped`) and forgets it.  Without
Redis the hall runs alone, as always, and none of this exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from qipai.cluster import Lease, Leases, Nodes
from qipai.errors import IllegalActionError

log = logging.getLogger(__name__)

LEASE_TTL_MS = 5_000
"""A table lease's time to live: another node may take a stopped node's tables after it."""
BEAT_TTL_MS = 3_000
"""A node beat's time to live: a stopped node is seen within it."""


class ClusterNode:
    """This process's beat and leases in Redis."""

    def __init__(
        self,
        redis: Redis,
        node_id: str,
        *,
        prefix: str = "qipai",
        info: Callable[[], dict[str, Any]] = dict,
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
        self.info = info
        """What the node says of itself in each beat."""
        self._releasing: set[asyncio.Task[None]] = set()
        self.on_stopped: Callable[[str], Awaitable[object]] | None = None
        """Called with a node that stopped, by the one node that takes it over (the hall
        voids the hands it left in play); the node is then forgotten."""
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def connect(cls, url: str, node_id: str, **options: Any) -> ClusterNode:
        """A node on the Redis at ``url``."""
        return cls(
            Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2), node_id, **options
        )

    async def start(self) -> None:
        """Beat once (Redis must answer) and keep beating and renewing."""
        await self.nodes.beat(self.node_id, self.info())
        self._task = asyncio.get_running_loop().create_task(self._keep_alive())

    async def stop(self) -> None:
        """Stop beating; give back every lease held."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for lease in list(self.held.values()):
            await self.release(lease.resource)
        await self.redis.aclose()

    async def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(await self.redis.ping())
        except (OSError, RedisError):
            return False

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
        task = asyncio.get_running_loop().create_task(self.release(resource))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

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
                await self.nodes.beat(self.node_id, self.info())
                await self._renew_all()
                await self._take_over_stopped()
            except (OSError, RedisError) as error:
                log.warning("cluster: Redis did not answer: %s", error)

    async def _take_over_stopped(self) -> None:
        """For each node that stopped: if this node wins its recovery lease, run
        :attr:`on_stopped` for it, then forget it."""
        for node in await self.nodes.stopped():
            resource = f"recover:{node}"
            lease = await self.leases.acquire(resource, self.node_id)
            if lease is None:
                continue  # another node is on it
            self.held[resource] = lease
            try:
                if self.on_stopped is not None:
                    await self.on_stopped(node)
                await self.nodes.forget(node)
                log.warning("cluster: took over node %s, which stopped", node)
            finally:
                await self.release(resource)

    async def _renew_all(self) -> None:
        for resource, lease in list(self.held.items()):
            if not await self.leases.renew(lease):
                log.error("cluster: lost the lease on %s", resource)
                self.held.pop(resource, None)
