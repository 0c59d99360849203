"""``GET /api/rooms/online`` through a real hall: the people online and the bots at tables,
in all and in each room (its people waiting or seated, its bots at its tables); and every
room's stake level in ``GET /api/rooms``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_kit import RunningHall, running_hall
from wire_kit import config_with, of_type, room_like, until

from qipai.client.connection import HallClient
from qipai.hall.rooms import default_rooms

WAITS = room_like("doudizhu-yifa", "online-waits", bots=False)
"""A room without bots: its players wait in the queue."""
SEATS = room_like("doudizhu-yifa-junior", "online-seats")
"""A 初级场 whose bots seat a lone player after 0.2 s."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('online') / 'hall.db'}"
    with running_hall(config_with(url, WAITS, SEATS)) as running:
        yield running


def test_every_room_is_listed_with_its_stake_level(hall: RunningHall) -> None:
    rooms = httpx.get(f"{hall.url}/api/rooms").json()
    levels = {room["id"]: room["level"] for room in rooms}
    assert {room.id: room.level for room in default_rooms()}.items() <= levels.items()
    assert levels[SEATS.id] == "junior" and levels["doudizhu-yifa"] == "novice"
    online = httpx.get(f"{hall.url}/api/rooms/online").json()
    nobody = {"people": 0, "bots": 0}
    assert online == {**nobody, "rooms": dict.fromkeys(levels, nobody)}  # nobody in yet


def test_the_players_in_a_room_are_counted_waiting_and_seated_without_bots(
    hall: RunningHall,
) -> None:
    counts = asyncio.run(_counts(hall.url))
    assert counts == [  # (moment, people and bots in all, in WAITS, in SEATS)
        ("nobody", (2, 0), (0, 0), (0, 0)),  # two guests online, in the lobby
        ("two wait", (2, 0), (2, 0), (0, 0)),
        ("one left", (2, 0), (1, 0), (0, 0)),
        ("one seated with two bots", (2, 2), (0, 0), (1, 2)),
        ("all gone", (2, 0), (0, 0), (0, 0)),
    ]


Counts = tuple[str, tuple[int, int], tuple[int, int], tuple[int, int]]


async def _counts(url: str) -> list[Counts]:
    """What ``/api/rooms/online`` says in all and of the two rooms as two guests come and
    go."""
    seen: list[Counts] = []
    async with HallClient(url) as client:

        async def look(moment: str) -> None:
            online: dict[str, Any] = await client.request("GET", "/api/rooms/online")
            waits, seats = online["rooms"][WAITS.id], online["rooms"][SEATS.id]
            seen.append((
                moment, (online["people"], online["bots"]),
                (waits["people"], waits["bots"]), (seats["people"], seats["bots"]),
            ))  # fmt: skip

        ann, bob = await client.guest(), await client.guest()
        async with client.connect(ann.token) as a, client.connect(bob.token) as b:
            await look("nobody")
            for conn in (a, b):
                await conn.send({"type": "join", "room": WAITS.id})
                await until(conn, of_type("queued"))
            await look("two wait")
            await b.send({"type": "leave"})
            await until(b, of_type("left"))
            await look("one left")
            await a.send({"type": "leave"})
            await until(a, of_type("left"))
            await b.send({"type": "join", "room": SEATS.id})
            await until(b, of_type("snapshot"))  # at a table, with two bots
            await look("one seated with two bots")
            await b.send({"type": "trustee", "on": True})  # the hand plays itself out
            await b.send({"type": "leave"})  # and he goes once it is over
            await until(b, of_type("left"))  # his table finished: he is out of the room
            await look("all gone")
    return seen
