"""Waiting between reconnections: exponential back-off with jitter, and a time to give up.

A client whose connection keeps failing (the hall restarting, its database down, its
node taken over) must not come back in a tight loop: thousands of clients doing so at
once are a storm that keeps the hall down.  :class:`Backoff` spaces the attempts of one
client: the first comes at once, the next after ``base`` seconds, then twice as long each
time up to ``cap``, each wait drawn between half and all of that (jitter: clients that
lost the hall together do not come back together), and never sooner than the hall asked
(its ``retry_after``).  An attempt that only *seems* to succeed (a ``welcome`` followed by a
close) does not end the outage: only :meth:`Backoff.succeeded` does, once the client is
back where it was.  Past ``give_up`` seconds since the outage began, it gives up
(:class:`GaveUpError`, with what happened).

>>> import random
>>> now = [0.0]
>>> backoff = Backoff(base=1, cap=4, give_up=30, rng=random.Random(1), clock=lambda: now[0])
>>> [round(backoff.delay(), 2) for _ in range(6)]
[0.0, 0.57, 1.85, 3.53, 2.51, 2.99]
>>> backoff.delay(retry_after=10.0)
10.0
>>> now[0] = 31.0
>>> backoff.delay()
Traceback (most recent call last):
...
qipai.client.backoff.GaveUpError: gave up reconnecting after 7 attempts in 31 s
>>> backoff.succeeded(); backoff.delay()
0.0
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

RECONNECT_BASE = 0.25
"""Seconds before the second attempt (the first is at once)."""
RECONNECT_CAP = 8.0
"""The longest wait between two attempts."""
RECONNECT_SECONDS = 90.0
"""How long an outage is waited out before giving up (a database failing over, a node
taken over: seconds to a minute)."""


class GaveUpError(Exception):
    """The client stopped trying: ``attempts`` attempts in ``seconds`` seconds."""

    def __init__(self, attempts: int, seconds: float, last: str | None = None) -> None:
        text = f"gave up reconnecting after {attempts} attempts in {seconds:.0f} s"
        super().__init__(text if last is None else f"{text}; last: {last}")
        self.attempts = attempts
        self.seconds = seconds


class Backoff:
    """The waits of one client between its attempts to connect (module docstring).

    :param rng: draws the jitter (seed it for a reproducible run).
    :param clock: seconds, monotonic (default :func:`time.monotonic`).
    """

    def __init__(
        self,
        *,
        base: float = RECONNECT_BASE,
        cap: float = RECONNECT_CAP,
        give_up: float = RECONNECT_SECONDS,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base, self.cap, self.give_up = base, cap, give_up
        self.rng = rng or random.Random()
        self.clock = clock
        self.attempts = 0
        """Attempts since the outage began."""
        self.total = 0
        """Attempts since this client started (every outage)."""
        self.last: str | None = None
        """What went wrong last (for :class:`GaveUpError`)."""
        self._since: float | None = None

    def delay(self, retry_after: float | None = None) -> float:
        """Seconds to wait before one more attempt (counted now): 0 for the first of an
        outage, then a jittered exponential wait, at least ``retry_after`` (the hall's).

        :raises GaveUpError: ``give_up`` seconds have passed since the outage began.
        """
        now = self.clock()
        if self._since is None:
            self._since = now
        elif now - self._since >= self.give_up:
            raise GaveUpError(self.attempts, now - self._since, self.last)
        wait = 0.0
        if self.attempts:
            ceiling = min(self.cap, self.base * 2 ** (self.attempts - 1))
            wait = self.rng.uniform(ceiling / 2, ceiling)
        self.attempts += 1
        self.total += 1
        return max(wait, retry_after or 0.0)

    def succeeded(self) -> None:
        """The client is back: the next outage starts from the first attempt again."""
        self.attempts, self._since, self.last = 0, None, None
