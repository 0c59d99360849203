"""One place per player on one process: two sockets of one account join two rooms and an
HTTP request registers it for a match, all at once, a hundred times; each time exactly
one of the three succeeds (before, a join and a registration both succeeded in about
half the tries, and both joins often did: two places, two hands in play at once)."""

from __future__ import annotations

import asyncio
import dataclasses
import textwrap
from pathlib import Path

from places_kit import MATCH, MATCHES, TRIES, Racer, race, register, waiting_room
from server_kit import running_hall
from wire_kit import WAIT, Frame, config_with, of_type, until

from qipai.client.connection import Connection, HallClient
from qipai.hall.match.config import load_matches
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


PRIVATE = {"type": "private_create", "game": "doudizhu", "rules": "huanle"}
PRIVATE_TRIES = 25


def test_a_private_table_and_a_match_registration_take_one_place(tmp_path: Path) -> None:
    """A 好友房 created and a registration sent at once: one of the two each time, and
    one after the other the second is refused (before, both were taken every time, and
    the match dealt him a hand while he played at his private table)."""
    rooms = load_rooms(waiting_room(ROOMS[0]))
    config = config_with(f"sqlite:///{tmp_path / 'hall.db'}", *rooms)
    config = dataclasses.replace(config, matches=load_matches(textwrap.dedent(MATCHES)))
    with running_hall(config) as hall:
        taken = asyncio.run(_race_private(hall.url))
    assert taken == [1] * PRIVATE_TRIES, taken


async def _race_private(url: str) -> list[int]:
    async with HallClient(url) as client:
        session = await client.guest()
        async with client.connect(session.token) as conn:
            created = await _answered(conn, PRIVATE)  # at a private table: no registration
            assert created["type"] == "ack", created
            assert not await register(client, session.token)
            await _leave(conn)
            taken = []
            for _ in range(PRIVATE_TRIES):
                registering = asyncio.ensure_future(register(client, session.token))
                created = await _answered(conn, PRIVATE)
                registered = await registering
                taken.append((created["type"] == "ack") + registered)
                if created["type"] == "ack":
                    await _leave(conn)
                else:
                    assert created["code"] == "in_match", created
                if registered:
                    await client.request("POST", f"/api/matches/{MATCH}/unregister", session.token)
            return taken


async def _answered(conn: Connection, message: Frame) -> Frame:
    """``message``'s ``ack`` or ``error`` (the frames before it read and dropped)."""
    answer = await conn.request(message)
    async with asyncio.timeout(WAIT):
        while not answer.done():
            await conn.recv()
    return answer.result()


async def _leave(conn: Connection) -> None:
    """Out of his private table (told ``left``)."""
    await conn.send({"type": "leave"})
    await until(conn, of_type("left"))
