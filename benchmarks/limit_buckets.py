"""Benchmark: what a limit costs per attempt, counted in Redis (a node of a cluster) and in
memory (a hall of one process).

    .venv/bin/python benchmarks/limit_buckets.py [--redis redis://127.0.0.1:6379/0] [--takes 2000]

``--takes`` attempts one after the other, each on a key of its own, counted in one bucket
(a sign-in's address) and in two (a code try's address and account), by
:class:`qipai.cluster.buckets.RedisBuckets` (one Lua script, one round trip) and by
:class:`qipai.server.edge.limits.MemoryBuckets`.  Prints microseconds per attempt.  The keys
are under a prefix of the run's own, deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid

from redis.asyncio import Redis

from qipai.cluster.buckets import Bucket, Buckets, RedisBuckets
from qipai.server.edge.limits import MemoryBuckets


async def _per_take(buckets: Buckets, takes: int, *, pair: bool) -> float:
    """Microseconds per attempt over ``takes`` attempts."""
    began = time.perf_counter()
    for n in range(takes):
        asked = [Bucket("codes", f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", 30, 60.0)]
        if pair:
            asked.append(Bucket("codes_of", str(n), 10, 60.0))
        await buckets.take(asked)
    return (time.perf_counter() - began) / takes * 1e6


async def main(url: str, takes: int) -> None:
    """Measure both backends, one bucket and two."""
    redis = Redis.from_url(url)
    prefix = f"bench-{uuid.uuid4().hex[:10]}"
    try:
        backends: dict[str, Buckets] = {
            "redis": RedisBuckets(redis, prefix=prefix),
            "memory": MemoryBuckets(),
        }
        for name, buckets in backends.items():
            for pair in (False, True):
                micros = await _per_take(buckets, takes, pair=pair)
                what = "address and account" if pair else "one bucket"
                print(f"{name:6} {what:19} {micros:7.1f} µs per attempt")
    finally:
        keys = [key async for key in redis.scan_iter(f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--takes", type=int, default=2000)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.redis, arguments.takes))
