"""What the cluster's Redis structures share: a client, the hall's key prefix, a time to
live."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redis.asyncio import Redis


DELETE_IF_EQUAL = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
"""Lua: delete ``KEYS[1]`` only while it still holds ``ARGV[1]`` (one's own lease, one's
own placement); 1 if deleted."""


def nodes_key(prefix: str) -> str:
    """The set of a hall's nodes listed (alive, or stopped and not yet taken over)."""
    return f"{prefix}:nodes"


class Keyspace:
    """Keys of one hall (one prefix) in one Redis, living ``ttl_ms`` once set."""

    def __init__(self, redis: Redis, *, prefix: str, ttl_ms: int) -> None:
        self.redis = redis
        """The client (``redis.asyncio``; decoded responses or not, both work)."""
        self.prefix = prefix
        """The hall's key prefix."""
        self.ttl_ms = ttl_ms
        """How long a key set by this structure lives."""


def text_of(value: bytes | str) -> str:
    """A Redis reply as text (a client with or without decoded responses)."""
    return value.decode() if isinstance(value, bytes) else value
