"""The hall whose database stops answering refuses with a code and keeps its connections:
a ``hello`` it cannot check is told to come back later (``database_unavailable``,
``retry_after``, close 1013); a message that fails is answered ``server_error`` on a
connection that stays open (before, the connection died: the client reconnected, was
welcomed, sent it again and died again, in a tight loop); players the matcher cannot seat
are told and let go (before, they were out of the queue at no table, waiting for ever)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from fuzz_kit import hall_log, problems
from outage_kit import OwnPostgres, failing, own_postgres
from refusal_kit import hello_refusal
from server_kit import RunningHall, fast_config, running_hall
from wire_kit import of_type, until

from qipai.client.connection import HallClient

ROOM = "doudizhu-yifa"


def test_a_message_that_fails_is_answered_and_the_connection_stays(tmp_path: Path) -> None:
    config = fast_config(f"sqlite:///{tmp_path / 'hall.db'}")
    with running_hall(config) as hall, hall_log() as records:
        asyncio.run(_join_while_down(hall))
    failed = [r for r in records if r.name == "qipai.server.edge.connection"]
    assert [r.levelname for r in failed] == ["WARNING"], [r.getMessage() for r in failed]
    assert "failed: ConnectionError" in failed[0].getMessage()
    assert problems(records) == []  # an outage: one line, no traceback


async def _join_while_down(hall: RunningHall) -> None:
    async with HallClient(hall.url) as client:
        guest = await client.guest()
        async with client.connect(guest.token) as conn:
            with failing(hall.hall.db.store, "balance"):  # a join reads the balance
                await conn.send({"type": "join", "room": ROOM})
                answer = await until(conn, of_type("error"))
            assert answer["code"] == "server_error", answer
            await conn.send({"type": "ping", "t": 1})  # still open
            await until(conn, of_type("pong"))


def test_a_hello_the_hall_cannot_check_is_told_to_come_back(tmp_path: Path) -> None:
    with running_hall(fast_config(f"sqlite:///{tmp_path / 'hall.db'}")) as hall:
        frame, code = asyncio.run(_hello_while_down(hall))
    assert frame["code"] == "database_unavailable" and frame["retry_after"] > 0, frame
    assert code == 1013


async def _hello_while_down(hall: RunningHall) -> tuple[dict[str, Any], int | None]:
    async with HallClient(hall.url) as client:
        guest = await client.guest()
    with failing(hall.hall.db.store, "session_user"):
        return await hello_refusal(hall.url, guest.token)


def test_players_the_matcher_cannot_seat_are_told_and_let_go(tmp_path: Path) -> None:
    with running_hall(fast_config(f"sqlite:///{tmp_path / 'hall.db'}")) as hall:
        asyncio.run(_seat_while_down(hall))


async def _seat_while_down(hall: RunningHall) -> None:
    """A player alone in a room with bots: the matcher seats him after the bot wait, and
    reads the balances then, from a database that does not answer."""
    async with HallClient(hall.url) as client:
        guest = await client.guest()
        async with client.connect(guest.token) as conn:
            with failing(hall.hall.db.store, "balance", after=1):  # the join's read passes
                await conn.send({"type": "join", "room": ROOM})
                await until(conn, of_type("queued"))
                refused = await until(conn, of_type("error"))
                await until(conn, of_type("left"))
            assert refused["code"] == "database_unavailable", refused
            await conn.send({"type": "join", "room": ROOM})  # free again: seated now
            await until(conn, of_type("snapshot"))


def test_a_postgresql_that_really_stops_is_a_line_per_message_and_the_hall_comes_back() -> None:
    """The hall's own PostgreSQL server stopped for real (not the shared test server): the
    hall says it is not ready, a join is answered ``server_error`` and logged in one line
    (the driver's error is an outage: no traceback); started again, the hall is ready and
    the same connection joins."""
    with own_postgres() as postgres:
        config = fast_config(postgres.create_database("qipai_outage"))
        with running_hall(config) as hall, hall_log() as records:
            asyncio.run(_join_through_an_outage(hall, postgres))
    failed = [r for r in records if r.name == "qipai.server.edge.connection"]
    assert [r.levelname for r in failed] == ["WARNING"], [r.getMessage() for r in failed]
    assert "Join of user" in failed[0].getMessage()
    assert problems(records) == []


async def _join_through_an_outage(hall: RunningHall, postgres: OwnPostgres) -> None:
    async with HallClient(hall.url) as client:
        guest = await client.guest()
        async with client.connect(guest.token) as conn, httpx.AsyncClient() as http:
            with postgres.stopped():
                ready = await http.get(f"{hall.url}/readyz")
                assert (ready.status_code, ready.json()["database"]) == (503, False)
                await conn.send({"type": "join", "room": ROOM})
                answer = await until(conn, of_type("error"))
                assert answer["code"] == "server_error", answer
            assert (await http.get(f"{hall.url}/readyz")).status_code == 200
            await conn.send({"type": "join", "room": ROOM})
            await until(conn, of_type("queued"))
            await conn.send({"type": "leave"})
            await until(conn, of_type("left"))
