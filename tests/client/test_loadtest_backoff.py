"""``qipai loadtest`` when the hall welcomes its clients and then drops them, again and
again (what it saw after a database outage): the clients back off between their attempts
(with jitter, growing), give up after ``give_up`` seconds and the run ends by itself with
a clear summary.  Before, each client reconnected in a tight loop, its give-up time
starting again at every ``welcome``: about 232,000 connections in 12 minutes for 30
clients, and the run never ended."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from relay_kit import Relay, RunningHall, crowded_hall

from qipai.client.loadtest import LoadConfig, run

CLIENTS = 3
GIVE_UP = 4.0
"""Seconds the clients wait the outage out."""
MOST_ATTEMPTS = 10
"""Attempts one client may make in :data:`GIVE_UP` seconds with the default back-off
(at once, then waits of 0.125-0.25, 0.25-0.5, 0.5-1, 1-2, 2-4 s: about six)."""
WAIT = 60.0
"""How long the run may take to end (never, before: the test fails on this timeout)."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    with crowded_hall(tmp_path_factory.mktemp("backoff")) as running:
        yield running


def test_clients_dropped_after_each_welcome_back_off_and_give_up(hall: RunningHall) -> None:
    summary, connections = asyncio.run(_storm(hall.url))
    assert summary["gave_up"] == summary["failed_clients"] == CLIENTS, summary
    assert "gave up reconnecting after" in summary["first_failure"], summary
    assert connections <= CLIENTS * MOST_ATTEMPTS, connections
    assert summary["reconnect_attempts"] >= connections - CLIENTS, summary


async def _storm(target: str) -> tuple[dict[str, Any], int]:
    """Clients play through a relay, which then drops every WebSocket after its welcome;
    the summary, and the WebSockets opened from then on."""
    relay = await Relay(target).start()
    config = LoadConfig(relay.url, clients=CLIENTS, duration=60.0, give_up=GIVE_UP)
    load = asyncio.create_task(run(config))
    async with asyncio.timeout(WAIT):
        while len(relay.websockets()) < CLIENTS or not all(
            link.down > 1000 for link in relay.websockets()
        ):
            assert not load.done(), load.result()
            await asyncio.sleep(0.05)
        before = len(relay.websockets())
        relay.start_storm()
        summary = await load
    return summary, len(relay.websockets()) - before
