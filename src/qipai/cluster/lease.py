"""Leases with fencing tokens, in Redis: who owns a table or a match run, and since when.

A lease names its *resource* (``room:<id>``, ``table:<node>:<n>``, ``matches``,
``recover:<node>``), the *node* (hall process) that holds it and its *fencing token*, a
number Redis raises by one at each new lease of the resource (``INCR``), never reused.  A
resource's first token is Redis's clock in microseconds, so tokens keep growing even
after Redis restarted empty (no persistence): the store, which remembers the tokens it
saw, would otherwise refuse every settlement of a resource whose counter began again.

The holder renews its lease well before the time to live runs out; a node that stops
(killed, paused, cut off) lets it lapse, and another node may then take the resource with
a larger token.  The store refuses a settlement whose
token is older than one it has seen (:class:`qipai.store.fences.Fence`), so the old holder,
come back, can never settle over the new one.

Each operation is one Lua script, atomic in Redis:

- :meth:`Leases.acquire`: take a free resource (a new token), or renew one's own lease;
- :meth:`Leases.renew`: extend one's own lease, exactly that lease (node and token);
- :meth:`Leases.release`: give one's own lease back (nothing else is touched);
- :meth:`Leases.clear`: end whatever lease a node (one that stopped) holds on it;
- :meth:`Leases.holder`: who holds the resource now.

Keys: ``<prefix>:lease:<resource>`` holds ``"<node>|<token>"`` with the time to live;
``<prefix>:token:<resource>`` the last token given out (kept for ever: a few bytes per
resource, so that tokens only grow; the first is the time in microseconds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from qipai.cluster.keyspace import DELETE_IF_EQUAL, Keyspace, text_of
from qipai.store.models import Fence

if TYPE_CHECKING:
    from redis.asyncio import Redis

DEFAULT_TTL_MS = 5_000
"""A lease's time to live: a node that stops is replaced within this (and its renewals
come every third of it)."""

_ACQUIRE = """
local held = redis.call('GET', KEYS[1])
if held then
  local node, token = string.match(held, '^(.*)|(%d+)$')
  if node == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(token)
  end
  return false
end
local token
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('INCR', KEYS[2])
  token = redis.call('GET', KEYS[2])  -- as text: a Lua number prints as 1.7e+15
else
  local now = redis.call('TIME')
  token = now[1] .. string.sub('000000' .. now[2], -6)
  redis.call('SET', KEYS[2], token)
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return tonumber(token)
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_CLEAR = """
local held = redis.call('GET', KEYS[1])
if held and string.match(held, '^(.*)|%d+$') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True, slots=True)
class Lease:
    """One node's hold on one resource."""

    resource: str
    """What is held (``room:<id>``, ``table:<node>:<n>``, ``matches``…)."""
    node: str
    """The holder's node id."""
    token: int
    """The fencing token (larger: newer)."""

    @property
    def fence(self) -> Fence:
        """The proof a settlement made under this lease carries."""
        return Fence(self.resource, self.token)

    @property
    def value(self) -> str:
        """What Redis keeps for it."""
        return f"{self.node}|{self.token}"


class Leases(Keyspace):
    """The leases of one hall (one key prefix) in one Redis; ``ttl_ms``: each lease's
    time to live."""

    def __init__(
        self, redis: Redis, *, prefix: str = "qipai", ttl_ms: int = DEFAULT_TTL_MS
    ) -> None:
        super().__init__(redis, prefix=prefix, ttl_ms=ttl_ms)
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(DELETE_IF_EQUAL)
        self._clear = redis.register_script(_CLEAR)

    def key(self, resource: str) -> str:
        """The Redis key of ``resource``'s lease."""
        return f"{self.prefix}:lease:{resource}"

    def _token_key(self, resource: str) -> str:
        return f"{self.prefix}:token:{resource}"

    async def acquire(self, resource: str, node: str) -> Lease | None:
        """Take ``resource`` for ``node`` (or renew the node's own lease on it); ``None``
        while another node holds it."""
        keys = [self.key(resource), self._token_key(resource)]
        token = await self._acquire(keys=keys, args=[node, self.ttl_ms])
        return None if token is None else Lease(resource, node, int(token))

    async def renew(self, lease: Lease) -> bool:
        """Extend ``lease`` by the time to live; ``False`` if it is no longer held (it
        lapsed, and perhaps another node took the resource)."""
        key = self.key(lease.resource)
        return bool(await self._renew(keys=[key], args=[lease.value, self.ttl_ms]))

    async def renew_all(self, leases: list[Lease]) -> list[bool]:
        """:meth:`renew` each of ``leases``, in one round trip (a pipeline)."""
        if not leases:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for lease in leases:
                key = self.key(lease.resource)
                await self._renew(keys=[key], args=[lease.value, self.ttl_ms], client=pipe)
            answers = await pipe.execute()
        return [bool(answer) for answer in answers]

    async def release(self, lease: Lease) -> bool:
        """Give ``lease`` back; ``False`` if it was not held any more."""
        return bool(await self._release(keys=[self.key(lease.resource)], args=[lease.value]))

    async def clear(self, resource: str, node: str) -> bool:
        """End ``node``'s lease on ``resource``, whatever its token (``node`` stopped and
        was taken over); ``False`` if it held none."""
        return bool(await self._clear(keys=[self.key(resource)], args=[node]))

    async def holder(self, resource: str) -> Lease | None:
        """The lease on ``resource`` now, if any."""
        held: bytes | str | None = await self.redis.get(self.key(resource))
        if held is None:
            return None
        node, _, token = text_of(held).rpartition("|")
        return Lease(resource, node, int(token))
