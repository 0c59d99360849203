"""Limits on the account endpoints and on new connections: attempts per address, per name
and per account, hashes in flight.

Signing in, registering and guest accounts are the HTTP API's costly and abusable calls: a
sign-in is a password guess and an Argon2 hash (about 0.2 s of CPU and 64 MiB), and every
new account or guest receives the starting grant.  This module decides who may try now;
:mod:`qipai.server.edge.app` asks it before doing any work and answers a refusal with ``429``.

- :class:`Limiter` is a token bucket per key (an address, a name).  It is pure: the time is
  passed in with every call (``now``, seconds on any monotonic clock), and it does no I/O.
  Its memory is bounded: a key whose bucket has filled up again is forgotten (it is then
  the same as a key never seen), and past ``max_keys`` the key touched longest ago goes
  first, so a client rotating names or addresses cannot grow it without bound.
- :class:`Limits` is the configuration (:class:`~qipai.server.edge.app.ServerConfig.limits`),
  :class:`Limit` one kind of limit (the buckets of one rate of :class:`Limits`), and
  :class:`Gate` the limits of one hall, with one method per endpoint, and two for new
  WebSocket connections (per address, before ``hello``; per account, after it), so that a
  client reconnecting in a tight loop is refused (``too_many_connections``, with the
  seconds to wait) instead of costing the hall a sign-in each time.
- The gate counts in *buckets* (:class:`~qipai.cluster.buckets.Buckets`): a hall of one
  process keeps them in its memory (:class:`MemoryBuckets`, a :class:`Limiter` per kind);
  the nodes of a cluster keep them in their shared Redis
  (:class:`~qipai.cluster.buckets.HallBuckets`), so that an address or an account has one
  allowance in the whole hall, however its attempts are spread over the nodes.
- :class:`HashGate` bounds the password hashes running at once and waiting for a slot.

>>> limiter = Limiter(Rate(2, 60.0))
>>> [limiter.take("1.2.3.4", now=0.0) for _ in range(3)]  # two at once, then wait 30 s
[0.0, 0.0, 30.0]
>>> limiter.take("1.2.3.4", now=30.0), limiter.take("5.6.7.8", now=30.0)
(0.0, 0.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import math
import os
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from qipai.cluster.buckets import Bucket, Buckets, Refusal
from qipai.errors import IllegalActionError

T = TypeVar("T")
P = ParamSpec("P")

TOO_MANY = "too_many_connections"
"""The code of a WebSocket connection refused by its address's or its account's rate."""
MAX_KEYS = 100_000
"""Keys a limiter remembers at most (a few MiB); past it the oldest is forgotten."""
IPV6_PREFIX = 64
"""An IPv6 client is limited by its /64 network: one subscriber usually holds a whole
/64, so its single addresses are free to rotate."""


@dataclass(frozen=True)
class Rate:
    """``count`` attempts per ``seconds``: a bucket of ``count`` tokens, one token back every
    ``seconds / count`` seconds (so a burst of ``count``, then a steady pace)."""

    count: int
    """Attempts allowed at once (the bucket's size)."""
    seconds: float
    """Seconds for an empty bucket to fill up again."""

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0:
            raise ValueError(f"a rate is at least 1 per a positive time, not {self}")

    @property
    def interval(self) -> float:
        """Seconds for one token to come back."""
        return self.seconds / self.count


class Limiter:
    """A token bucket per key (see the module's doctest).

    :param rate: the size and pace of every key's bucket.
    :param max_keys: keys remembered at most (the key touched longest ago is dropped).
    """

    def __init__(self, rate: Rate, *, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.max_keys = max_keys
        # key -> (tokens, when): the tokens left at ``when``, the key's last touch; in
        # order of last touch, the oldest first
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        """Keys remembered now (those whose bucket is not full)."""
        return len(self._buckets)

    def wait(self, key: str, *, now: float) -> float:
        """Seconds until ``key`` has a token (``0.0``: it has one now); nothing is spent."""
        tokens = self._tokens(key, now)
        return 0.0 if tokens >= 1 else (1 - tokens) * self.rate.interval

    def take(self, key: str, *, now: float) -> float:
        """Spend one of ``key``'s tokens: ``0.0`` if there was one, else the seconds until
        there is one (nothing is spent then)."""
        self._expire(now)
        tokens = self._tokens(key, now)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            self._buckets.move_to_end(key)
            return (1 - tokens) * self.rate.interval
        self._buckets[key] = (tokens - 1, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return 0.0

    def refund(self, key: str, *, now: float) -> None:
        """Give back one token of ``key`` (an attempt that was not made after all)."""
        if key in self._buckets:
            tokens = self._tokens(key, now)
            self._buckets[key] = (min(float(self.rate.count), tokens + 1), now)
            self._buckets.move_to_end(key)

    def forget(self, key: str) -> None:
        """Give ``key`` a full bucket again (a sign-in that succeeded clears its name)."""
        self._buckets.pop(key, None)

    def _tokens(self, key: str, now: float) -> float:
        found = self._buckets.get(key)
        if found is None:
            return float(self.rate.count)
        tokens, when = found
        refilled = tokens + max(0.0, now - when) / self.rate.interval
        return min(float(self.rate.count), refilled)

    def _expire(self, now: float) -> None:
        """Forget the keys whose bucket is full again: untouched for ``rate.seconds``, the
        time an empty bucket takes to fill.  They are the oldest, so the loop stops at the
        first key still in use (each key is dropped once: constant time on average)."""
        full_after = self.rate.seconds
        while self._buckets:
            key, (_tokens, when) = next(iter(self._buckets.items()))
            if now - when < full_after:
                return
            del self._buckets[key]


class RateLimitedError(IllegalActionError):
    """Too many attempts: answered ``429`` with ``Retry-After``.

    :param code: ``rate_limited`` (too many from one address) or ``too_many_attempts``
        (too many failed sign-ins for one name).
    :param retry_after: whole seconds until an attempt may succeed (at least 1).
    """

    def __init__(self, code: str, message: str, retry_after: float) -> None:
        super().__init__(code, message)
        self.retry_after = max(1, math.ceil(retry_after))
        """Whole seconds to wait (the ``Retry-After`` header and ``retry_after``)."""


class BusyError(IllegalActionError):
    """Too many password hashes running and waiting: answered ``503`` with
    ``Retry-After: 1`` and the code ``busy``."""

    retry_after = 1
    """Seconds to wait before trying again."""

    def __init__(self) -> None:
        super().__init__("busy", "the hall is busy checking passwords: try again in a second")


@dataclass(frozen=True)
class Limits:
    """The hall's limits on accounts (``ServerConfig.limits``); ``None``: no limit.

    The defaults are for a public hall: nobody signs in ten times a minute, and a person
    who forgets his password gets five tries, then one every three minutes.  Players behind
    one address (a school, an internet café, a carrier's NAT) share its buckets: raise the
    per-address rates for such a hall.
    """

    sign_in_per_address: Rate | None = Rate(10, 60.0)
    """``POST /api/login`` per client address, every attempt counted (10 a minute)."""
    sign_in_failures_per_name: Rate | None = Rate(5, 15 * 60.0)
    """Sign-ins per name that did not succeed, from any address (5 per 15 minutes: after
    five, one more every three minutes); a successful sign-in clears the name's count."""
    register_per_address: Rate | None = Rate(3, 60.0)
    """``POST /api/register`` per client address (3 a minute)."""
    guest_per_address: Rate | None = Rate(5, 60.0)
    """``POST /api/guest`` per client address (5 a minute)."""
    connections_per_address: Rate | None = Rate(60, 60.0)
    """New WebSocket connections per client address (60 at once, then one a second)."""
    connections_per_account: Rate | None = Rate(20, 60.0)
    """New WebSocket connections per account, from any address (20 at once, then one every
    3 s: a browser's reconnections after a restart, several tabs, are far fewer)."""
    codes_per_address: Rate | None = Rate(30, 60.0)
    """Private table codes tried (``private_join``, ``spectate`` by code,
    ``GET /api/private/{code}``) per client address (30 a minute)."""
    codes_per_account: Rate | None = Rate(10, 60.0)
    """Private table codes tried per account, from any address (10 a minute)."""
    names_per_address: Rate | None = Rate(30, 60.0)
    """Players' names looked up to watch their table (``spectate`` with ``player``) per
    client address (30 a minute)."""
    names_per_account: Rate | None = Rate(10, 60.0)
    """Players' names looked up to watch their table per account, from any address (10 a
    minute)."""
    hash_slots: int = 2
    """Password hashes (Argon2) computed at once, in threads; each takes ~64 MiB."""
    hash_waiting: int = 16
    """Hashes that may wait for a slot; one more is refused at once with ``503 busy``."""
    max_keys: int = MAX_KEYS
    """Keys (addresses, names) each limiter remembers at most."""

    @classmethod
    def off(cls) -> Limits:
        """No limit on attempts (tests, load runs on a private hall); the hashes stay
        bounded.  Every :class:`Rate` field is named here (a new one too:
        ``tests/server/test_limits.py`` checks)."""
        return cls(
            sign_in_per_address=None,
            sign_in_failures_per_name=None,
            register_per_address=None,
            guest_per_address=None,
            connections_per_address=None,
            connections_per_account=None,
            codes_per_address=None,
            codes_per_account=None,
            names_per_address=None,
            names_per_account=None,
        )


@dataclass(frozen=True)
class Limit:
    """One kind of limit: the name of its buckets, the rate of :class:`Limits` they follow,
    and how a refusal reads (``too many {what}: wait``).

    A new kind of limit is a :class:`Rate` field of :class:`Limits` (``None`` turns it
    off; :meth:`Limits.off` names it too), a :class:`Limit` naming it, and a call of
    :meth:`Gate.spend` (or a method of :class:`Gate` that makes one) where the attempt is
    made: the backends (memory, Redis) need nothing more.
    """

    kind: str
    """The name of its buckets (unique: part of their Redis keys)."""
    rate: Callable[[Limits], Rate | None]
    """Its rate among the hall's limits."""
    code: str
    """The code of a refusal."""
    what: str
    """What is counted, for the refusal's message."""


SIGN_IN = Limit(
    "sign_in", lambda limits: limits.sign_in_per_address, "rate_limited",
    "sign-ins from this address",
)  # fmt: skip
"""``POST /api/login`` per address."""
SIGN_IN_NAME = Limit(
    "sign_in_name", lambda limits: limits.sign_in_failures_per_name, "too_many_attempts",
    "failed sign-ins for this name",
)  # fmt: skip
"""Sign-ins per name that did not succeed."""
REGISTER = Limit(
    "register", lambda limits: limits.register_per_address, "rate_limited",
    "new accounts from this address",
)  # fmt: skip
"""``POST /api/register`` per address."""
GUEST = Limit(
    "guest", lambda limits: limits.guest_per_address, "rate_limited",
    "guest accounts from this address",
)  # fmt: skip
"""``POST /api/guest`` per address."""
CONNECTIONS = Limit(
    "connections", lambda limits: limits.connections_per_address, TOO_MANY,
    "connections from this address",
)  # fmt: skip
"""New WebSocket connections per address."""
CONNECTIONS_OF = Limit(
    "connections_of", lambda limits: limits.connections_per_account, TOO_MANY,
    "connections for this account",
)  # fmt: skip
"""New WebSocket connections per account."""
CODES = Limit(
    "codes", lambda limits: limits.codes_per_address, "too_many_tries",
    "codes tried from this address",
)  # fmt: skip
"""Private table codes tried per address."""
CODES_OF = Limit(
    "codes_of", lambda limits: limits.codes_per_account, "too_many_tries",
    "codes tried by this account",
)  # fmt: skip
"""Private table codes tried per account."""
NAMES = Limit(
    "names", lambda limits: limits.names_per_address, "too_many_tries",
    "names tried from this address",
)  # fmt: skip
"""Players looked up by name (to watch them) per address."""
NAMES_OF = Limit(
    "names_of", lambda limits: limits.names_per_account, "too_many_tries",
    "names tried by this account",
)  # fmt: skip
"""Players looked up by name per account."""


class MemoryBuckets:
    """The buckets of a hall of one process, in its memory: a :class:`Limiter` per kind
    of limit (:class:`~qipai.cluster.buckets.Buckets`).

    :param max_keys: keys each kind remembers at most.
    :param clock: seconds on a monotonic clock (a test's own, to move time by hand).
    """

    def __init__(
        self, *, max_keys: int = MAX_KEYS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.max_keys = max_keys
        self.clock = clock
        """Where the time comes from."""
        self._limiters: dict[str, Limiter] = {}

    def __len__(self) -> int:
        """Keys remembered now, of every kind together."""
        return sum(len(limiter) for limiter in self._limiters.values())

    async def take(self, buckets: Sequence[Bucket]) -> Refusal | None:
        """See :meth:`~qipai.cluster.buckets.Buckets.take`."""
        return self.take_now(buckets)

    def take_now(self, buckets: Sequence[Bucket]) -> Refusal | None:
        """:meth:`take`, at once (nothing to wait for in memory)."""
        now = self.clock()
        for index, bucket in enumerate(buckets):
            wait = self._limiter(bucket).wait(bucket.key, now=now)
            if wait > 0:
                return Refusal(index, wait)
        for bucket in buckets:
            self._limiter(bucket).take(bucket.key, now=now)
        return None

    async def refund(self, bucket: Bucket) -> None:
        """See :meth:`~qipai.cluster.buckets.Buckets.refund`."""
        self._limiter(bucket).refund(bucket.key, now=self.clock())

    async def forget(self, bucket: Bucket) -> None:
        """See :meth:`~qipai.cluster.buckets.Buckets.forget`."""
        self._limiter(bucket).forget(bucket.key)

    def _limiter(self, bucket: Bucket) -> Limiter:
        found = self._limiters.get(bucket.kind)
        if found is None:
            rate = Rate(bucket.count, bucket.seconds)
            found = self._limiters[bucket.kind] = Limiter(rate, max_keys=self.max_keys)
        return found


class Gate:
    """The limits of one hall: each endpoint asks its method before any work.

    Every method raises :class:`RateLimitedError` when the attempt must wait (nothing is
    spent then) and spends the attempt otherwise.  The buckets are this process's
    (:class:`MemoryBuckets`, the default) or, on a node of a cluster, the hall's in Redis
    (:class:`~qipai.cluster.buckets.HallBuckets`): the same attempts are allowed however
    they are spread over the nodes.

    :param limits: what the limits are.
    :param buckets: where they are counted.
    """

    def __init__(self, limits: Limits | None = None, buckets: Buckets | None = None) -> None:
        self.limits = limits or Limits()
        """What the limits are."""
        self.buckets: Buckets = (
            MemoryBuckets(max_keys=self.limits.max_keys) if buckets is None else buckets
        )
        """Where they are counted."""

    async def spend(self, *tries: tuple[Limit, str]) -> None:
        """One attempt, counted against each ``(limit, key)`` of ``tries`` (those whose
        rate is set): spent from each, or, if one of them must wait, from none.

        :raises RateLimitedError: the first limit that must wait, its code.
        """
        asked = [(limit, bucket) for limit, key in tries if (bucket := self._bucket(limit, key))]
        if not asked:
            return
        refusal = await self.buckets.take([bucket for _limit, bucket in asked])
        if refusal is not None:
            limit = asked[refusal.index][0]
            raise RateLimitedError(limit.code, f"too many {limit.what}: wait", refusal.wait)

    async def sign_in(self, address: str | None) -> None:
        """A sign-in from ``address`` (before its body is read).

        :raises RateLimitedError: ``rate_limited``.
        """
        await self.spend((SIGN_IN, address_key(address)))

    async def sign_in_name(self, name: object) -> None:
        """A sign-in for ``name``: it spends one of the name's tries, given back by
        :meth:`signed_in` (so concurrent guesses cannot all pass before one fails).

        :raises RateLimitedError: ``too_many_attempts``.
        """
        await self.spend((SIGN_IN_NAME, name_key(name)))

    async def not_tried(self, name: object) -> None:
        """The sign-in for ``name`` was refused before its password was checked (``busy``):
        its try is given back."""
        bucket = self._bucket(SIGN_IN_NAME, name_key(name))
        if bucket is not None:
            await self.buckets.refund(bucket)

    async def signed_in(self, name: object) -> None:
        """``name`` signed in: its failed tries are forgotten."""
        bucket = self._bucket(SIGN_IN_NAME, name_key(name))
        if bucket is not None:
            await self.buckets.forget(bucket)

    async def register(self, address: str | None) -> None:
        """A new account from ``address``.

        :raises RateLimitedError: ``rate_limited``.
        """
        await self.spend((REGISTER, address_key(address)))

    async def guest(self, address: str | None) -> None:
        """A new guest from ``address``.

        :raises RateLimitedError: ``rate_limited``.
        """
        await self.spend((GUEST, address_key(address)))

    async def connection(self, address: str | None) -> None:
        """A new WebSocket connection from ``address`` (before its ``hello`` is read).

        :raises RateLimitedError: ``too_many_connections``.
        """
        await self.spend((CONNECTIONS, address_key(address)))

    async def connection_of(self, user: int) -> None:
        """A new WebSocket connection signed in as ``user`` (before its ``welcome``).

        :raises RateLimitedError: ``too_many_connections``.
        """
        await self.spend((CONNECTIONS_OF, str(user)))

    async def code_try(self, address: str | None, user: int | None) -> None:
        """A private table's code tried from ``address`` by ``user`` (``None``: not
        signed in): codes cannot be guessed by trying.  It counts for the address and
        the account, or, refused by either, for neither.

        :raises RateLimitedError: ``too_many_tries``.
        """
        tries = [(CODES, address_key(address))]
        if user is not None:
            tries.append((CODES_OF, str(user)))
        await self.spend(*tries)

    async def name_try(self, address: str | None, user: int) -> None:
        """A player's table looked up by his name, from ``address`` by ``user``: who plays
        where cannot be found out by trying names.

        :raises RateLimitedError: ``too_many_tries``.
        """
        await self.spend((NAMES, address_key(address)), (NAMES_OF, str(user)))

    def _bucket(self, limit: Limit, key: str) -> Bucket | None:
        """``key``'s bucket of ``limit`` (``None``: that limit is off)."""
        rate = limit.rate(self.limits)
        return None if rate is None else Bucket(limit.kind, key, rate.count, rate.seconds)


def address_key(host: str | None) -> str:
    """The key of a client address: the address itself, an IPv6 one's /64 network (an
    IPv4-mapped one as IPv4), ``"?"`` when unknown.

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:3:4:5:6")
    ('203.0.113.7', '2001:db8:1:2::/64')
    >>> address_key("::ffff:203.0.113.7"), address_key(None)
    ('203.0.113.7', '?')
    """
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # a Unix socket path, a test client's name: itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def name_key(name: object) -> str:
    """The key of a name: NFKC, case folded, so that the spellings of one name (``ＡＮＮ``,
    ``Ann``, ``ann``) share one count; anything not a string shares one key.

    >>> name_key("ＡＮＮ") == name_key("Ann") == "ann"
    True
    """
    if not isinstance(name, str):
        return "\x00"
    return unicodedata.normalize("NFKC", name[:64]).casefold()


HASH_NICENESS = 10
"""How much lower than the hall's the hashing threads' CPU priority is (Linux ``nice``)."""


def _lower_priority() -> None:
    """Run this thread (and the threads Argon2 starts from it) at a lower CPU priority, so
    that hashing yields the processor to the event loop that runs the tables.  Linux gives
    each thread its own niceness; elsewhere this does nothing."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


class HashGate:
    """At most ``slots`` password hashes at once (in threads of their own, at a lower CPU
    priority), ``waiting`` more queued for a slot; beyond that :class:`BusyError` at once,
    so a flood of sign-ins costs a bounded CPU and memory, and the event loop (the tables)
    keeps its share of the machine."""

    def __init__(self, slots: int = 2, waiting: int = 16) -> None:
        if slots < 1 or waiting < 0:
            raise ValueError("a hash gate has at least one slot")
        self.slots = slots
        self.waiting = waiting
        self.inside = 0
        """Hashes running or waiting now."""
        self._slots = asyncio.Semaphore(slots)
        self._threads = ThreadPoolExecutor(
            max_workers=slots, thread_name_prefix="qipai-hash", initializer=_lower_priority
        )

    def admit(self) -> None:
        """Refuse at once when the gate is full, before any other work is done for the
        request (a flood refused ``busy`` then costs no database look-up either).

        :raises BusyError: ``slots + waiting`` hashes are already running or waiting.
        """
        if self.inside >= self.slots + self.waiting:
            raise BusyError()

    async def run(self, hash_work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``hash_work(*args, **kwargs)`` in a thread once a slot is free; its result.

        :raises BusyError: ``slots + waiting`` hashes are already running or waiting.
        """
        self.admit()
        self.inside += 1
        try:
            async with self._slots:
                loop = asyncio.get_running_loop()
                work = functools.partial(hash_work, *args, **kwargs)
                return await loop.run_in_executor(self._threads, work)
        finally:
            self.inside -= 1
