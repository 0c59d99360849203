"""New WebSocket connections are limited per address and per account, and refused with a
code and the time to wait (``too_many_connections``, ``retry_after``, close 4029), never
silently: a client reconnecting in a loop costs the hall nothing past its rate."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import pytest
from refusal_kit import hello_refusal
from server_kit import RunningHall, fast_config, running_hall

from qipai.client.connection import HallClient, HallError
from qipai.server.edge.limits import Limits, Rate

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


def test_connections_per_account_and_per_address_are_refused_with_a_wait(
    hall: RunningHall,
) -> None:
    async def scenario() -> None:
        async with HallClient(hall.url) as client:
            first, second = await client.guest(), await client.guest()
            for _ in range(PER_ACCOUNT):
                async with client.connect(first.token):
                    pass
            frame, code = await hello_refusal(hall.url, first.token)
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
