"""``qipai loadtest`` over several addresses, against a real hall: the clients spread over
them, and a client whose socket dies reconnects at the next address, finds its place again
(its table, or its room's queue) and plays on, with no error and its coins conserved.

A relay (``relay_kit``) stands in for each node of the hall: two relays to one hall, the
first cut in the middle of the run, are two nodes of which one stops, without the
multi-node hall.  The test waits on what the relays carried, never on the clock."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from relay_kit import Relay, RunningHall, crowded_hall

from qipai.client.loadtest import LoadConfig, run

CLIENTS = 6
DURATION = 8.0
"""Seconds of play: the cut comes within the first two, once every client plays."""
PLAYING_BYTES = 4_000
"""What a client has received once it plays (the ``welcome`` is under 200 bytes, a hand
several kilobytes)."""
WAIT = 30.0
"""How long the clients may take to reach that (never, when they work)."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    with crowded_hall(tmp_path_factory.mktemp("loadtest")) as running:
        yield running


def _clean(summary: dict[str, Any]) -> None:
    assert summary["failed_clients"] == 0, summary["first_failure"]
    assert summary["errors"] == 0 and summary["error_codes"] == {}, summary["error_codes"]
    assert summary["coins_conserved"] is True, json.dumps(summary)
    assert summary["hands_total"] > 0 and summary["join_retries"] == 0, json.dumps(summary)


def test_the_same_hall_given_twice_spreads_the_clients_without_reconnecting(
    hall: RunningHall,
) -> None:
    summary = asyncio.run(run(LoadConfig((hall.url, hall.url), clients=4, duration=2.0)))
    _clean(summary)
    assert summary["urls"] == [hall.url, hall.url]
    assert summary["reconnects"] == 0 and summary["resumed"] == 0
    assert summary["resume_seconds"] == {"p50": None, "p99": None, "max": None}
    assert summary["hands_voided"] == 0


def test_clients_cut_off_reconnect_at_the_next_address_and_play_on(hall: RunningHall) -> None:
    summary, seen = asyncio.run(_cut_mid_run(hall.url))
    run = json.dumps({"seen": seen, "summary": summary})
    # client i started at address i mod 2
    assert seen["first"] == (CLIENTS + 1) // 2 and seen["second"] == CLIENTS // 2, run
    # each client cut off came back once, at the next address, and found its place again
    assert seen["cut"] == seen["first"], run
    assert summary["reconnects"] == seen["cut"] == seen["moved"], run
    assert summary["resumed"] == summary["reconnects"], run
    assert summary["resume_seconds"]["max"] < 10, run
    assert summary["urls"] == [seen["first_url"], seen["second_url"]]
    _clean(summary)
    assert summary["hands_voided"] == 0  # one hall: the hands went on in 托管 meanwhile


async def _cut_mid_run(target: str) -> tuple[dict[str, Any], dict[str, Any]]:
    first, second = await Relay(target).start(), await Relay(target).start()
    config = LoadConfig((first.url, second.url), clients=CLIENTS, duration=DURATION)
    load = asyncio.create_task(run(config))
    expected = (CLIENTS + 1) // 2
    async with asyncio.timeout(WAIT):
        while not _all_playing(first, expected):
            assert not load.done(), load.result()
            await asyncio.sleep(0.05)
    seen: dict[str, Any] = {
        "first": len(first.websockets()),
        "second": len(second.websockets()),
        "cut": sum(1 for link in first.websockets() if link.open),
        "first_url": first.url,
        "second_url": second.url,
    }
    first.cut()
    summary = await load
    seen["moved"] = len(second.websockets()) - seen["second"]
    return summary, seen


def _all_playing(relay: Relay, clients: int) -> bool:
    links = relay.websockets()
    return len(links) >= clients and all(link.open and link.down >= PLAYING_BYTES for link in links)
