"""One place per player: a room's queue or table, or a match, on one node at a time.

The ledger covers a hand's losses with the coins of a player who sits at one table only,
so a player is in one place at a time, whatever he sends at once and to whichever nodes:

- **In one process** his place is his room (:attr:`~qipai.server.run.hall.Player.room`: its
  queue or a table) or his match (registered or playing).  Whatever takes or gives back a
  place (a join, a match registration or withdrawal, the release of his claim) runs under
  his lock (:meth:`Places.lock`) and checks that he is free in the same turn as it takes
  the place: a ``join`` and a registration sent together are done one after the other,
  and the second is refused (``already_in_room``, ``in_match``).
- **With several nodes** the node that holds his place also holds his *claim* in Redis
  (:meth:`qipai.cluster.players.Players.claim`), taken in one script before the place is
  taken (:meth:`Places.claim`), refused while another node holds it (``already_in_room``:
  he is in a room or a match there), and given back (:meth:`Places.release`) once he has
  no place left on the node.  A join on any node and a registration at the node that runs
  the matches all take it, so two nodes never both seat him.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from redis.exceptions import RedisError

from qipai.errors import IllegalActionError

from .node import ClusterNode

log = logging.getLogger(__name__)


class Places:
    """The players' places in this process; ``holds(user)`` says whether he has one here
    now (a room, a table, a match)."""

    def __init__(self, cluster: ClusterNode | None, holds: Callable[[int], bool]) -> None:
        self.cluster = cluster
        """This node's cluster (``None``: a hall alone, where the lock is the claim)."""
        self.holds = holds
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}
        """How many tasks hold or wait for each user's lock (it is dropped at zero)."""
        self._background: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def lock(self, user: int) -> AsyncIterator[None]:
        """Hold ``user``'s lock for the block: his place is checked and changed by one task
        at a time."""
        lock = self._locks.setdefault(user, asyncio.Lock())
        self._users[user] = self._users.get(user, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[user] -= 1
            if not self._users[user]:
                del self._users[user], self._locks[user]

    async def claim(self, user: int) -> None:
        """Claim ``user`` for this node (his lock held; nothing to do in a hall alone).

        :raises IllegalActionError: ``already_in_room`` (another node holds him: he is in a
            room or a match there), ``cluster_unavailable`` (Redis does not answer, or his
            node stopped and is being taken over).
        """
        cluster = self.cluster
        if cluster is None:
            return
        held = await cluster.guarded(cluster.players.claim(user, cluster.node_id))
        if held is None:
            return
        if held in cluster.stopped:
            raise IllegalActionError("cluster_unavailable", f"node {held} is being taken over")
        raise IllegalActionError("already_in_room", f"in a room or a match on node {held}")

    async def release(self, user: int) -> None:
        """Give ``user``'s claim back if he has no place left here (his lock held; Redis
        errors are logged: a stale claim only delays his next join elsewhere until he
        leaves this node)."""
        cluster = self.cluster
        if cluster is None or self.holds(user):
            return
        try:
            await cluster.players.unplace(user, cluster.node_id)
        except (OSError, RedisError) as error:
            log.warning("could not release player %d: %s", user, error)

    def release_soon(self, user: int) -> None:
        """:meth:`release` under his lock, in a task of its own (from a callback)."""
        if self.cluster is None:
            return

        async def release() -> None:
            async with self.lock(user):
                await self.release(user)

        task = asyncio.get_running_loop().create_task(release())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
