"""Where each player's hall state lives, and what was kept for him while he was away.

A player who joins a room is *placed* on the node that owns the room: his queue entry, his
table and his 托管 live there, and a socket of his on any other node sends his messages
there (:mod:`qipai.server.edge.links`); a player registered in a match is placed on the node
that runs the matches.  ``<prefix>:player:<user>`` names that node while it holds him: it
is the player's one *claim* (one place at a time: a queue, a table or a match, on one
node).  :meth:`Players.claim` takes it in one script, refused while another node listed
(alive, or stopped and not yet taken over) holds it; the claim of a node that was taken
over and forgotten is void and taken.  The node removes it when it lets him go
(:meth:`Players.unplace` removes only its own claim).

Frames kept for a player who was away when they happened (how his hand ended, that it was
voided) wait in ``<prefix>:missed:<user>``, a list of JSON frames living
:data:`MISSED_TTL_MS` after the last one kept and capped at :data:`MISSED_FRAMES`, and are
taken, once, by whichever node he comes back to.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from qipai.cluster.keyspace import DELETE_IF_EQUAL, Keyspace, nodes_key, text_of

if TYPE_CHECKING:
    from redis.asyncio import Redis

MISSED_TTL_MS = 1_800_000
"""How long kept frames wait for their player (half an hour)."""
MISSED_FRAMES = 16
"""Most frames kept for one player (the newest: a hand's ending is two, a snapshot and
``hand_over``)."""

_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] and redis.call('SISMEMBER', KEYS[2], held) == 1 then
  return held
end
redis.call('SET', KEYS[1], ARGV[1])
return false
"""
"""Lua: ``KEYS[1]`` (a player's key) names ``ARGV[1]`` (a node) unless another node listed in
``KEYS[2]`` (the nodes) holds it; that node, or nil when claimed."""

_MOVE = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] and held ~= ARGV[2] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""
"""Lua: ``KEYS[1]`` (a player's key) names ``ARGV[2]`` if it named ``ARGV[1]`` (a node
taken over), ``ARGV[2]`` already, or nobody; 1 if so."""


class Players(Keyspace):
    """The players' whereabouts and kept frames of one hall (one key prefix)."""

    def __init__(self, redis: Redis, *, prefix: str) -> None:
        super().__init__(redis, prefix=prefix, ttl_ms=MISSED_TTL_MS)
        self._unplace = redis.register_script(DELETE_IF_EQUAL)
        self._claim = redis.register_script(_CLAIM)
        self._move = redis.register_script(_MOVE)

    def key(self, user: int) -> str:
        """The Redis key naming ``user``'s node."""
        return f"{self.prefix}:player:{user}"

    def _missed_key(self, user: int) -> str:
        return f"{self.prefix}:missed:{user}"

    async def claim(self, user: int, node: str) -> str | None:
        """``user``'s state lives on ``node`` from now on, unless another node listed holds
        him: then that node (nothing changed)."""
        keys = [self.key(user), nodes_key(self.prefix)]
        held: object = await self._claim(keys=keys, args=[node])
        return text_of(held) if isinstance(held, bytes | str) else None

    async def move(self, user: int, old: str, node: str) -> bool:
        """``user``'s state lives on ``node`` from now on if it lived on ``old`` (a node
        being taken over by ``node``, still listed) or nowhere; ``False``: another node
        holds him (nothing changed)."""
        return bool(await self._move(keys=[self.key(user)], args=[old, node]))

    async def unplace(self, user: int, node: str) -> bool:
        """``node`` lets ``user`` go (``False``: another node had placed him since)."""
        return bool(await self._unplace(keys=[self.key(user)], args=[node]))

    async def where(self, user: int) -> str | None:
        """The node holding ``user``'s state, if any."""
        node: bytes | str | None = await self.redis.get(self.key(user))
        return None if node is None else text_of(node)

    async def keep(self, user: int, frames: list[dict[str, object]]) -> None:
        """Keep ``frames`` for ``user`` after those kept already."""
        if not frames:
            return
        key = self._missed_key(user)
        texts = [json.dumps(frame, ensure_ascii=False, separators=(",", ":")) for frame in frames]
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, *texts)
            pipe.ltrim(key, -MISSED_FRAMES, -1)
            pipe.pexpire(key, self.ttl_ms)
            await pipe.execute()

    async def take(self, user: int) -> list[dict[str, object]]:
        """The frames kept for ``user``, oldest first, forgotten now."""
        key = self._missed_key(user)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.lrange(key, 0, -1)
            pipe.delete(key)
            texts, _ = await pipe.execute()
        return [json.loads(text_of(text)) for text in texts]
