"""One place per player, raced: the same account joins rooms from several sockets and
registers for a match at the same moment, again and again; exactly one of them may
succeed each time (``server/run/places.py``).  Used on one process
(``test_server_places.py``) and on three nodes (``test_server_three_nodes.py``)."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from wire_kit import WAIT, Frame, until

from qipai.client.connection import Connection, HallClient, HallError

MATCH = "places-trio"
MATCHES = f"""
[[match]]
id = "{MATCH}"
name = "三人赛"
kind = "regular"
game = "doudizhu"
rules = "jj"
players = 3
entry_fee = 10
[[match.stage]]
kind = "fixed"
hands = 1
"""
"""A match nobody else registers for: with one player registered it never starts."""
TRIES = 100
OFFSET = 0.01
"""Seconds the joins go out after the registration, at most (a random offset each try,
so that the requests cross at every point of their way)."""


def waiting_room(room_id: str) -> str:
    """A room's TOML where a player alone waits for ever (no bots)."""
    return (
        f'[[room]]\nid = "{room_id}"\nname = "等待"\ngame = "doudizhu"\nrules = "yifa"\n'
        "bots = false\n"
    )


@dataclass(frozen=True)
class Racer:
    """One socket of the account, and the room it joins."""

    conn: Connection
    room: str


async def race(
    racers: Sequence[Racer],
    hall: HallClient,
    token: str,
    *,
    released: Callable[[], Awaitable[None]],
    tries: int = TRIES,
) -> Counter[int]:
    """``tries`` times: every racer joins its room and ``hall`` registers the account
    for :data:`MATCH`, all at once; then whatever succeeded is undone, and ``released()``
    waits until the account is free again.  How many tries had 0, 1, 2… successes (it
    stops at the first try that had not exactly one)."""
    counts: Counter[int] = Counter()
    offsets = random.Random(23)
    for _ in range(tries):
        registering = asyncio.ensure_future(register(hall, token))
        await asyncio.sleep(offsets.uniform(0, OFFSET))  # (wherever the HTTP request is)
        await asyncio.gather(*(r.conn.send({"type": "join", "room": r.room}) for r in racers))
        joined = await asyncio.gather(*(_joined(racer) for racer in racers))
        registered = await registering
        counts[sum(joined) + registered] += 1
        if sum(joined) + registered != 1:
            return counts
        for racer, ok in zip(racers, joined, strict=True):
            if ok:
                await racer.conn.send({"type": "leave"})
                await until(racer.conn, lambda frame: frame["type"] == "left")
        if registered:
            await hall.request("POST", f"/api/matches/{MATCH}/unregister", token)
        await released()
    return counts


async def register(hall: HallClient, token: str) -> bool:
    """Whether the account of ``token`` is registered for :data:`MATCH` now (refused:
    ``already_in_room`` or ``in_match``)."""
    try:
        await hall.request("POST", f"/api/matches/{MATCH}/register", token)
    except HallError as error:
        assert error.code in ("already_in_room", "in_match"), error
        return False
    return True


async def _joined(racer: Racer) -> bool:
    """Whether the racer's join was taken (``queued`` for its room) or refused."""

    def answer(frame: Frame) -> bool:
        queued = frame["type"] == "queued" and frame["room"] == racer.room
        return queued or frame["type"] == "error"

    frame = await until(racer.conn, answer, timeout=WAIT)
    if frame["type"] == "error":
        assert frame["code"] in ("already_in_room", "in_match"), frame
        return False
    return True
