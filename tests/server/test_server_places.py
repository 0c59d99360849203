"""One place per player on one process: two sockets of one account join two rooms and an
HTTP request registers it for a match, all at once, a hundred times; each time exactly
one of the three succeeds (before, a join and a registration both succeeded in about
half the tries, and both joins often did: two places, two hands in play at once)."""

from __future__ import annotations

import asyncio
import dataclasses
import textwrap
from pathlib import Path

from places_kit import MATCHES, TRIES, Racer, race, waiting_room
from server_kit import running_hall
from wire_kit import config_with

from qipai.client.connection import HallClient
from qipai.hall.matchconfig import load_matches
from qipai.hall.rooms import load_rooms

ROOMS = ("places-a", "places-b")


def test_join_join_and_register_at_once_take_one_place(tmp_path: Path) -> None:
    rooms = load_rooms("".join(waiting_room(room) for room in ROOMS))
    config = config_with(f"sqlite:///{tmp_path / 'hall.db'}", *rooms)
    config = dataclasses.replace(config, matches=load_matches(textwrap.dedent(MATCHES)))
    with running_hall(config) as hall:
        counts = asyncio.run(_race(hall.url))
    assert counts == {1: TRIES}, counts


async def _race(url: str) -> dict[int, int]:
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as one, client.connect(session.token) as two:
            racers = [Racer(one, ROOMS[0]), Racer(two, ROOMS[1])]

            async def released() -> None:  # alone, the lock is the claim: free at once
                return None

            return dict(await race(racers, client, session.token, released=released))
