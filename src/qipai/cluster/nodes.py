"""Hall processes (nodes) in Redis: who is alive, and who stopped.

Every node beats (:meth:`Nodes.beat`) more often than the time to live of its key
``<prefix>:node:<id>`` (which holds what the node says of itself, as JSON) and is listed
in the set ``<prefix>:nodes``.  A node whose key lapsed while it is still listed has
stopped (killed, paused, cut off): :meth:`Nodes.census` names it within the time to live
of its last beat, for another node to take over its rooms, tables and matches and then
:meth:`Nodes.forget` it.  A node that comes back beats again, and its beat says that it
was forgotten meanwhile (it drops its work); a node that stops on purpose leaves
(:meth:`Nodes.leave`).  Forgetting a node leaves a mark (``<prefix>:forgotten:<id>``, a
day to live) that its next beat reads and removes: a node is told it was taken over only
when it was, not when Redis restarted empty and lost the list of nodes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from qipai.cluster.keyspace import Keyspace, nodes_key, text_of
from qipai.jsontypes import Json

if TYPE_CHECKING:
    from redis.asyncio import Redis

DEFAULT_TTL_MS = 3_000
"""How long a beat keeps a node alive: a stopped node is seen within this."""

FORGOTTEN_TTL_MS = 86_400_000
"""How long the mark of a forgotten node waits for its beat (a day)."""

_FORGET = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local removed = redis.call('SREM', KEYS[2], ARGV[1])
if removed == 1 then
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
end
return removed
"""


class Nodes(Keyspace):
    """The nodes of one hall (one key prefix) in one Redis; ``ttl_ms``: a beat's time to
    live."""

    def __init__(
        self, redis: Redis, *, prefix: str = "qipai", ttl_ms: int = DEFAULT_TTL_MS
    ) -> None:
        super().__init__(redis, prefix=prefix, ttl_ms=ttl_ms)
        self._forget = redis.register_script(_FORGET)

    def key(self, node: str) -> str:
        """The Redis key of ``node``'s last beat."""
        return f"{self.prefix}:node:{node}"

    @property
    def _members(self) -> str:
        return nodes_key(self.prefix)

    def _forgotten(self, node: str) -> str:
        return f"{self.prefix}:forgotten:{node}"

    async def beat(self, node: str, info: dict[str, object] | None = None) -> bool:
        """``node`` is alive (for the time to live), saying ``info`` of itself, and
        listed; whether it was taken over (forgotten as stopped) since its last beat."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self.key(node), json.dumps(info or {}), px=self.ttl_ms)
            pipe.sadd(self._members, node)
            pipe.delete(self._forgotten(node))
            _, _, forgotten = await pipe.execute()
        return bool(forgotten)

    async def leave(self, node: str) -> None:
        """``node`` stops on purpose, having handed its work back: not listed any more."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self.key(node))
            pipe.srem(self._members, node)
            await pipe.execute()

    async def census(self) -> tuple[dict[str, dict[str, Json]], list[str]]:
        """The nodes alive now (with what each said of itself at its last beat), and
        those listed whose last beat lapsed: they stopped (one read)."""
        members = sorted(text_of(m) for m in await self.redis.smembers(self._members))
        if not members:
            return {}, []
        beats = await self.redis.mget([self.key(node) for node in members])
        alive: dict[str, dict[str, Json]] = {}
        stopped: list[str] = []
        for node, beat in zip(members, beats, strict=True):
            if beat is None:
                stopped.append(node)
            else:
                alive[node] = json.loads(text_of(beat))
        return alive, stopped

    async def alive(self) -> dict[str, dict[str, Json]]:
        """Every node alive now, with what it said of itself at its last beat."""
        return (await self.census())[0]

    async def forget(self, node: str) -> bool:
        """Stop listing ``node`` (its work was taken over); ``False`` if it was alive again
        or not listed (one script, atomic: a node beating meanwhile stays)."""
        keys = [self.key(node), self._members, self._forgotten(node)]
        return bool(await self._forget(keys=keys, args=[node, FORGOTTEN_TTL_MS]))
