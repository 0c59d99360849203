"""Several ``qipai serve`` processes as one hall (``--redis``) on loopback, for the tests
that kill or pause one: a fresh PostgreSQL database, a Redis key prefix of their own."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from process_kit import serving
from server_kit import RunningHall, fast_config, running_hall
from wire_kit import fresh_postgres

from qipai.cluster.placement import preferred

REDIS = os.environ.get("QIPAI_TEST_REDIS", "redis://127.0.0.1:6379/0")


@dataclass
class Node:
    """One hall process."""

    name: str
    process: subprocess.Popen[bytes]
    url: str
    log: Path


@dataclass
class Cluster:
    """The nodes, their database and their Redis keys."""

    db_url: str
    prefix: str
    redis: redis.Redis
    nodes: dict[str, Node] = field(default_factory=dict)

    @property
    def urls(self) -> list[str]:
        """Every node's URL."""
        return [node.url for node in self.nodes.values()]

    def owner(self, room: str) -> str | None:
        """The node that owns ``room`` now."""
        return self.holder(f"room:{room}")

    def settled(self, room: str) -> bool:
        """Whether ``room`` is owned by the node it belongs to among all the nodes (it
        moves there from the first node up once idle)."""
        return self.owner(room) == preferred(f"room:{room}", self.nodes)

    def holder(self, resource: str) -> str | None:
        """The node holding the lease on ``resource`` now (``matches``, ``room:r1``…)."""
        held = self.redis.get(f"{self.prefix}:lease:{resource}")
        return None if held is None else held.decode().rpartition("|")[0]

    def listed(self) -> set[str]:
        """The nodes listed in Redis (alive, or stopped and not yet taken over)."""
        return {member.decode() for member in self.redis.smembers(f"{self.prefix}:nodes")}

    def wait(self, what: str, check: object, seconds: float = 30.0) -> None:
        """Poll ``check()`` until it is true (fails after ``seconds``)."""
        give_up = time.monotonic() + seconds
        while not check():  # type: ignore[operator]
            if time.monotonic() > give_up:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)


def room_owner(client: redis.Redis, prefix: str, room: str) -> str | None:
    """The node that owns ``room`` now, in the hall of key prefix ``prefix``."""
    return Cluster("", prefix, client).holder(f"room:{room}")


@contextlib.contextmanager
def redis_keys() -> Iterator[tuple[str, redis.Redis]]:
    """A new key prefix in the test Redis, and a client; the prefix's keys are deleted at
    the end."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    client = redis.Redis.from_url(REDIS)
    try:
        yield prefix, client
    finally:
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()


@contextlib.contextmanager
def two_halls(purpose: str) -> Iterator[tuple[dict[str, RunningHall], str, str, redis.Redis]]:
    """Nodes ``a`` and ``b`` in this process (over Redis, with no match) on a new
    PostgreSQL database: the halls, the database's URL, the Redis key prefix and client."""
    with (
        redis_keys() as (prefix, client),
        fresh_postgres(purpose) as url,
        contextlib.ExitStack() as stack,
    ):
        halls = {}
        for node in ("a", "b"):
            config = dataclasses.replace(
                fast_config(url), redis_url=REDIS, node_id=node, redis_prefix=prefix, matches=()
            )
            halls[node] = stack.enter_context(running_hall(config))
        yield halls, url, prefix, client


@contextlib.contextmanager
def cluster(
    names: list[str], rooms: str, tmp: Path, purpose: str, *options: str, limited: bool = False
) -> Iterator[Cluster]:
    """Start one ``qipai serve --redis`` per name (with ``options``; with the shipped limits
    if ``limited``, else none) on one new database, with the rooms TOML ``rooms``; wait
    until every room has an owner; stop them all at the end."""
    config = tmp / "rooms.toml"
    config.write_text(rooms, encoding="utf-8")
    with redis_keys() as (prefix, client), fresh_postgres(purpose) as url:
        found = Cluster(url, prefix, client)
        with contextlib.ExitStack() as stack:
            for name in names:
                log = tmp / f"{name}.log"
                extra = ("--redis", REDIS, "--node-id", name, "--redis-prefix", prefix)
                extra += () if limited else ("--no-limits",)
                process, node_url = stack.enter_context(serving(url, config, log, *extra, *options))
                found.nodes[name] = Node(name, process, node_url, log)
            room_ids = [line.split('"')[1] for line in rooms.splitlines() if line.startswith("id")]
            found.wait("every room at its node", lambda: all(map(found.settled, room_ids)))
            yield found
