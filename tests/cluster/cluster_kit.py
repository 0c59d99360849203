"""What the cluster tests share: the test Redis, a key prefix of one's own, a lapse."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError

REDIS = os.environ.get("QIPAI_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the tests use (as on the developers' machines and in CI; each test under a
key prefix of its own, removed afterwards)."""
T = TypeVar("T")


class redis_client:  # noqa: N801 (used like a function: ``async with redis_client()``)
    """A client of the test Redis; a clear failure when there is none."""

    async def __aenter__(self) -> Redis:
        self.client = Redis.from_url(REDIS, socket_connect_timeout=3)
        try:
            await self.client.ping()
        except (OSError, RedisError) as error:
            await self.client.aclose()
            pytest.fail(f"the cluster tests need Redis at {REDIS} (QIPAI_TEST_REDIS): {error}")
        return self.client

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()


def run_with(make: Callable[[Redis, str], T], scenario: Callable[[T], Awaitable[None]]) -> None:
    """Run ``scenario(make(redis, prefix))`` under a fresh key prefix; remove its keys."""

    async def main() -> None:
        async with redis_client() as redis:
            prefix = f"qipai-test-{uuid.uuid4().hex}"
            try:
                await scenario(make(redis, prefix))
            finally:
                keys = [key async for key in redis.scan_iter(f"{prefix}:*")]
                if keys:
                    await redis.delete(*keys)

    asyncio.run(main())


async def lapse(redis: Redis, key: str) -> None:
    """Make ``key`` run out now (as if its owner stopped renewing it)."""
    await redis.pexpire(key, 1)
    while await redis.exists(key):
        await asyncio.sleep(0.001)
