"""Token buckets in Redis: the hall's limits counted once for all its nodes.

A *bucket* holds up to ``count`` tokens and gets one back every ``seconds / count``
seconds; an attempt spends one, and waits when there is none (the limits of
:mod:`qipai.server.edge.limits`: code tries, sign-ins, new accounts, connections).  A hall of
several nodes keeps its buckets here, so that an address or an account has the same
allowance however its attempts are spread over the nodes.

:meth:`RedisBuckets.take` is one Lua script, atomic in Redis: it looks at every bucket an
attempt is counted in (an address's and an account's, say) and spends one token of each
only if each has one, else spends nothing and says which bucket refused and for how long.
The clock is Redis's (``TIME``), so the nodes' clocks never disagree about a bucket.

Keys: ``<prefix>:limit:<kind>:<key>``, a hash of ``t`` (the tokens left, a decimal
number) and ``w`` (when, in milliseconds of Redis's clock); it expires once the bucket
would be full again (``seconds`` after its last spend), a full bucket being the same as no
key.  Memory is thus bounded by the attempts of the last minutes, not by every address or
name ever seen.

:class:`HallBuckets` is what a node uses: the buckets in Redis while it answers, the node's
own in memory while it does not (each node then counts alone, a warning logged once).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from redis.exceptions import RedisError

from qipai.cluster.keyspace import Keyspace

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)
T = TypeVar("T")

ALONE_SECONDS = 5.0
"""How long a node counts alone after Redis did not answer, before it asks Redis again
(so that a Redis away costs one timed-out call per this time, not one per attempt)."""

# ARGV: per key, its count and its interval (milliseconds per token), in KEYS' order.
# Returns 0 when every bucket had a token (one spent from each), else {i, ms}: the 1-based
# index of the first bucket without one and the milliseconds until it has one.
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local left = {}
for i, key in ipairs(KEYS) do
  local count = tonumber(ARGV[2 * i - 1])
  local interval = tonumber(ARGV[2 * i])
  local held = redis.call('HMGET', key, 't', 'w')
  local tokens = count
  if held[1] then
    local refilled = math.max(0, now - tonumber(held[2])) / interval
    tokens = math.min(count, tonumber(held[1]) + refilled)
  end
  if tokens < 1 then
    return {i, math.ceil((1 - tokens) * interval)}
  end
  left[i] = tokens - 1
end
for i, key in ipairs(KEYS) do
  local full_after = math.ceil(tonumber(ARGV[2 * i - 1]) * tonumber(ARGV[2 * i]))
  redis.call('HSET', key, 't', string.format('%.17g', left[i]), 'w', now)
  redis.call('PEXPIRE', key, full_after)
end
return 0
"""
# ARGV: count, interval (ms).  One token given back, up to the bucket's size.
_REFUND = """
local held = redis.call('HMGET', KEYS[1], 't', 'w')
if not held[1] then
  return 0
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local count = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local refilled = math.max(0, now - tonumber(held[2])) / interval
local tokens = math.min(count, tonumber(held[1]) + refilled + 1)
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'w', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(count * interval))
return 1
"""


@dataclass(frozen=True, slots=True)
class Bucket:
    """One key's bucket of one kind of limit."""

    kind: str
    """The kind of limit (``codes``, ``sign_in``…): buckets of different kinds never mix."""
    key: str
    """Whose bucket: an address, a name, an account."""
    count: int
    """Tokens when full (attempts at once)."""
    seconds: float
    """Seconds for an empty bucket to fill up again."""

    @property
    def interval(self) -> float:
        """Seconds for one token to come back."""
        return self.seconds / self.count


@dataclass(frozen=True, slots=True)
class Refusal:
    """An attempt that must wait: nothing was spent."""

    index: int
    """Which of the buckets asked has no token (0-based, the first such one)."""
    wait: float
    """Seconds until it has one."""


class Buckets(Protocol):
    """Where a hall keeps its buckets: this process's memory, or Redis for every node."""

    async def take(self, buckets: Sequence[Bucket]) -> Refusal | None:
        """Spend one token of every bucket of ``buckets`` if each has one (``None``);
        else spend nothing and say which refused."""

    async def refund(self, bucket: Bucket) -> None:
        """Give one token back to ``bucket`` (an attempt that was not made after all)."""

    async def forget(self, bucket: Bucket) -> None:
        """Fill ``bucket`` up again (a sign-in that succeeded clears its name's tries)."""


class RedisBuckets(Keyspace):
    """The buckets of one hall (one key prefix) in one Redis (:class:`Buckets`).

    Every method raises what the client raises when Redis does not answer
    (:class:`OSError`, :class:`redis.exceptions.RedisError`); the caller decides.
    """

    def __init__(self, redis: Redis, *, prefix: str = "qipai") -> None:
        super().__init__(redis, prefix=prefix, ttl_ms=0)  # each bucket's own, from its rate
        self._take = redis.register_script(_TAKE)
        self._refund = redis.register_script(_REFUND)

    def key(self, bucket: Bucket) -> str:
        """The Redis key of ``bucket``."""
        return f"{self.prefix}:limit:{bucket.kind}:{bucket.key}"

    async def take(self, buckets: Sequence[Bucket]) -> Refusal | None:
        """See :meth:`Buckets.take` (one round trip, atomic)."""
        if not buckets:
            return None
        keys = [self.key(bucket) for bucket in buckets]
        args = [part for bucket in buckets for part in _rate_args(bucket)]
        answer: object = await self._take(keys=keys, args=args)
        if not isinstance(answer, list):
            return None
        index, wait_ms = answer
        return Refusal(int(index) - 1, int(wait_ms) / 1000)

    async def refund(self, bucket: Bucket) -> None:
        """See :meth:`Buckets.refund`."""
        await self._refund(keys=[self.key(bucket)], args=_rate_args(bucket))

    async def forget(self, bucket: Bucket) -> None:
        """See :meth:`Buckets.forget`."""
        await self.redis.delete(self.key(bucket))


def _rate_args(bucket: Bucket) -> list[int | float]:
    """A bucket's size and interval in milliseconds (at least 1), as the scripts read
    them."""
    return [bucket.count, max(1, math.ceil(bucket.interval * 1000))]


class HallBuckets:
    """The hall's buckets in Redis (:class:`RedisBuckets`) while Redis answers; this
    node's own (``alone``, in its memory) while it does not (:class:`Buckets`).

    A Redis that does not answer is logged once (a warning), and its coming back once;
    meanwhile each node counts on its own for :data:`ALONE_SECONDS` at a time, then asks
    Redis again.  The limits hold on every node then, as in a hall of one process: an
    address may try at most as many times as there are nodes, never without limit, and
    nobody is refused for Redis's sake (``docs/security.md``).

    :param shared: the hall's buckets in Redis.
    :param alone: this node's own.
    :param clock: seconds on a monotonic clock.
    """

    def __init__(
        self,
        shared: Buckets,
        alone: Buckets,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.shared = shared
        """The hall's buckets."""
        self.alone = alone
        """This node's own, while Redis does not answer."""
        self.clock = clock
        """Where the time comes from."""
        self._alone_until: float | None = None
        """Until when this node counts alone (``None``: it counts in Redis)."""

    @property
    def is_alone(self) -> bool:
        """Whether the last call found Redis away (this node counts alone now)."""
        return self._alone_until is not None

    async def take(self, buckets: Sequence[Bucket]) -> Refusal | None:
        """See :meth:`Buckets.take`."""
        return await self._either(lambda where: where.take(buckets))

    async def refund(self, bucket: Bucket) -> None:
        """See :meth:`Buckets.refund`."""
        await self._either(lambda where: where.refund(bucket))

    async def forget(self, bucket: Bucket) -> None:
        """See :meth:`Buckets.forget`."""
        await self._either(lambda where: where.forget(bucket))

    async def _either(self, work: Callable[[Buckets], Awaitable[T]]) -> T:
        """``work`` in Redis, unless it did not answer less than :data:`ALONE_SECONDS`
        ago (or does not answer now): then in this node's own buckets."""
        if self._alone_until is None or self.clock() >= self._alone_until:
            try:
                answer = await work(self.shared)
            except (OSError, RedisError) as error:
                if self._alone_until is None:
                    log.warning("limits: Redis does not answer, each node counts alone: %s", error)
                self._alone_until = self.clock() + ALONE_SECONDS
            else:
                if self._alone_until is not None:
                    log.warning("limits: Redis answers again, the hall counts as one")
                    self._alone_until = None
                return answer
        return await work(self.alone)
