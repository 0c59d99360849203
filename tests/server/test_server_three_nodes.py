"""Three hall processes as one hall, on real PostgreSQL and Redis:

- one killed with SIGKILL while ``qipai loadtest`` plays over the three URLs: every client
  resumes, no error, coins as the results say, ``qipai audit`` clean, nothing settled
  twice (``kill_kit.py`` checks it all; ``benchmarks/cluster_kill.py`` runs it many
  times);
- one account with a socket on each node joins a room of another node from each and
  registers for a match at the same moment, a hundred times: exactly one of the four
  succeeds each time (its claim in Redis: ``server/run/places.py``).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from kill_kit import CLIENTS, three_nodes_play_on_when_one_is_killed
from nodes_kit import Cluster, cluster
from places_kit import MATCHES, TRIES, Racer, race, waiting_room
from wire_kit import WAIT

from qipai.client.connection import HallClient

pytestmark = pytest.mark.postgres

RACE_ROOMS = ("race-0", "race-1", "race-2")
"""Rooms owned by n1, n2 and n3 (rendezvous hashing among the three)."""


def test_three_nodes_play_on_when_one_is_killed(tmp_path: Path) -> None:
    summary = three_nodes_play_on_when_one_is_killed(tmp_path)
    assert summary["resumed"] == summary["reconnects"] >= CLIENTS // 3


def test_one_account_takes_one_place_across_three_nodes(tmp_path: Path) -> None:
    matches = tmp_path / "matches.toml"
    matches.write_text(MATCHES, encoding="utf-8")
    rooms = "".join(waiting_room(room) for room in RACE_ROOMS)
    names = ["n1", "n2", "n3"]
    with cluster(names, rooms, tmp_path, "places", "--matches", str(matches)) as hall:
        assert sorted(map(hall.owner, RACE_ROOMS)) == names  # a room on each node
        counts = asyncio.run(_race(hall))
    assert counts == {1: TRIES}, counts


async def _race(hall: Cluster) -> dict[int, int]:
    """A socket on each node joins the room of the next node; the registration goes
    through the first node (to the node that runs the matches)."""
    owned = {hall.owner(room): room for room in RACE_ROOMS}
    nodes = list(hall.nodes.values())
    async with HallClient(nodes[0].url) as first:
        session = await first.guest()
        clients = [HallClient(node.url) for node in nodes]
        conns = [client.connect(session.token) for client in clients]
        try:
            for conn in conns:
                await conn.__aenter__()
            nexts = [nodes[(index + 1) % len(nodes)].name for index in range(len(nodes))]
            racers = [Racer(conn, owned[name]) for conn, name in zip(conns, nexts, strict=True)]
            key = f"{hall.prefix}:player:{session.user}"

            async def released() -> None:  # his claim given back, wherever it was
                give_up = time.monotonic() + WAIT
                while hall.redis.get(key) is not None:
                    assert time.monotonic() < give_up, f"{key} still held"
                    await asyncio.sleep(0.01)

            return dict(await race(racers, first, session.token, released=released))
        finally:
            for conn in conns:
                await conn.__aexit__(None, None, None)
            for client in clients:
                await client.close()
