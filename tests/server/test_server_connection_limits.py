"""New WebSocket connections are limited per address and per account, and refused with a
code and the time to wait (``too_many_connections``, ``retry_after``, close 4029), never
silently; a ``hello`` the hall cannot check (its database down) is told to come back
later (``database_unavailable``, ``retry_after``, close 1013), and a message that fails
for such a reason is answered ``server_error`` on a connection that stays open (before,
its connection died: the client reconnected, was welcomed, sent it again and died again,
in a tight loop)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import RunningHall, fast_config, running_hall
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from qipai.client.connection import HallClient, HallError
from qipai.server.limits import Limits, Rate

PER_ADDRESS = 4
PER_ACCOUNT = 2


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    limits = dataclasses.replace(
        Limits.off(),
        connections_per_address=Rate(PER_ADDRESS, 600.0),
        connections_per_account=Rate(PER_ACCOUNT, 600.0),
    )
    url = f"sqlite:///{tmp_path_factory.mktemp('connections') / 'hall.db'}"
    with running_hall(fast_config(url, limits=limits)) as running:
        yield running


async def _refusal(url: str, token: str) -> tuple[dict[str, Any], int | None]:
    """Connect and say hello: the first frame, and the close code that follows it."""
    socket = await connect(url.replace("http", "ws", 1) + "/ws")
    try:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        frame = json.loads(await socket.recv())
        await asyncio.wait_for(socket.recv(), 10)
    except ConnectionClosed as closed:
        return frame, None if closed.rcvd is None else closed.rcvd.code
    finally:
        with contextlib.suppress(ConnectionClosed):
            await socket.close()
    return frame, None


def test_connections_per_account_and_per_address_are_refused_with_a_wait(
    hall: RunningHall,
) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            first, second = await client.guest(), await client.guest()
            for _ in range(PER_ACCOUNT):
                async with client.connect(first.token):
                    pass
            frame, code = await _refusal(hall.url, first.token)
            assert frame["code"] == "too_many_connections" and frame["retry_after"] >= 1
            assert code == 4029
            # the address has had PER_ACCOUNT + 1 connections: one more passes, then none
            async with client.connect(second.token):
                pass
            with pytest.raises(HallError) as refused:
                async with client.connect(second.token):
                    pass
            assert refused.value.code == "too_many_connections"
            assert refused.value.retry_after is not None and refused.value.retry_after >= 1

    asyncio.run(scenario())
    assert PER_ACCOUNT + 2 == PER_ADDRESS


def test_the_database_down_is_a_refusal_not_a_dead_connection(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    url = f"sqlite:///{tmp_path_factory.mktemp('down') / 'hall.db'}"
    with running_hall(fast_config(url)) as running:
        store = running.hall.db.store

        def down(*args: object, **kwargs: object) -> Any:
            raise ConnectionError("the database does not answer")

        async def scenario() -> None:
            async with HallClient(running.url) as client:
                guest = await client.guest()
                async with client.connect(guest.token) as conn:
                    store.balance = down  # a join reads the balance
                    await conn.send({"type": "join", "room": "doudizhu-yifa"})
                    answer = await asyncio.wait_for(conn.recv(), 10)
                    assert answer["code"] == "server_error", answer
                    await conn.send({"type": "ping", "t": 1})  # still open
                    assert (await asyncio.wait_for(conn.recv(), 10))["type"] == "pong"
                store.session_user = down
                frame, code = await _refusal(running.url, guest.token)
                assert frame["code"] == "database_unavailable" and frame["retry_after"] > 0
                assert code == 1013

        try:
            asyncio.run(scenario())
        finally:
            for name in ("balance", "session_user"):
                store.__dict__.pop(name, None)
