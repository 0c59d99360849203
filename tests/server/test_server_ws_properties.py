"""Property-based fuzzing of the WebSocket protocol (Hypothesis): any message, of any
shape, type, unicode and size, text or binary, sent by a seated player who is not to act,
gets exactly one answer — an error whose code ``docs/protocol.md`` names, or the reply a
well-formed harmless message calls for (``pong``, a ``snapshot``) — and changes nothing:
his view of the table is the same after the whole run, no coin moves, and the hall logs no
traceback."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from fuzz_kit import documented_codes, json_values, tracebacks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_kit import RunningHall, running_hall
from wire_kit import (
    TOGETHER,
    Player,
    config_with,
    guests,
    next_frame,
    room_like,
    seat_together,
    view_now,
)

from qipai.client.connection import HallClient
from qipai.server.api import protocol
from qipai.server.edge import connection as connection_module
from qipai.store import Store
from qipai.store.audit import audit

ROOM = room_like("doudizhu-yifa", "props-ws", bot_wait=TOGETHER, decision_seconds=600.0)
"""Nobody's decision runs out while the fuzzer sends (yifa: nothing may be done out of
turn, so the waiting player can change nothing by any action)."""
KINDS = ["hello", "join", "leave", "act", "trustee", "escape", "resync", "ping"]
CODES = documented_codes()
RATE_LIMIT = connection_module.RateLimit
CHANGES_SOMETHING = (protocol.Leave, protocol.EscapeRequest, protocol.TrusteeSwitch)
"""Well-formed messages a waiting player may send that do change things (tested elsewhere)."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('wsprops') / 'hall.db'}"
    with running_hall(config_with(url, ROOM)) as running:
        yield running


def _objects() -> st.SearchStrategy[dict[str, Any]]:
    """Objects of a known or unknown kind with fields of every type, known names first."""
    fields = st.sampled_from(["id", "action", "table", "room", "on", "t", "token", "last"])
    return st.builds(
        lambda kind, extra: {"type": kind, **extra} if kind is not None else extra,
        st.sampled_from(KINDS) | st.none() | st.text(max_size=8),
        st.dictionaries(fields | st.text(max_size=6), json_values(6), max_size=3),
    )


def messages() -> st.SearchStrategy[str | bytes]:
    """A WebSocket message: JSON of any shape, text that is not JSON, or binary."""
    return st.one_of(
        _objects().map(json.dumps),
        json_values().map(json.dumps),
        st.text(st.characters(codec=None), max_size=60),
        st.binary(max_size=60),
        st.integers(4_097, 9_000).map(lambda size: json.dumps({"type": "ping", "x": "3" * size})),
    )


def _expected(message: str | bytes) -> str | None:
    """The reply a well-formed message calls for (``None``: an error); raises
    :class:`ValueError` for a well-formed message that would change something."""
    if isinstance(message, bytes):
        return None
    try:
        decoded = msgspec.json.decode(message, type=protocol.ClientMessage)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeError):
        return None
    if isinstance(decoded, CHANGES_SOMETHING):
        raise ValueError("harmful")
    return {protocol.Ping: "pong", protocol.Resync: "snapshot"}.get(type(decoded))


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(messages(), min_size=40, max_size=40))
def test_any_message_from_a_waiting_player_is_answered_and_changes_nothing(
    hall: RunningHall, monkeypatch: pytest.MonkeyPatch, batch: list[str | bytes]
) -> None:
    # the fuzzer outpaces the rate limit (tested apart)
    monkeypatch.setattr(connection_module, "RateLimit", lambda: RATE_LIMIT(rate=1e6, burst=1e6))
    harmless = []
    for message in batch:
        try:
            harmless.append((message, _expected(message)))
        except ValueError:
            continue
    with tracebacks() as found:
        asyncio.run(_fuzz(hall.url, harmless))
    assert found == [], found
    with Store.open(hall.db_url) as store:
        assert audit(store, allow_playing=True) == []


async def _fuzz(url: str, batch: list[tuple[str | bytes, str | None]]) -> None:
    async with HallClient(url) as client, guests(client, 2) as pair:
        await seat_together(pair, ROOM.id)
        waiting = await _the_one_waiting(pair)
        await _drain(waiting)
        before = await view_now(waiting.conn)
        coins = (await client.me(waiting.session.token))["coins"]
        for message, reply in batch:
            await waiting.conn.socket.send(message)
            answer = await next_frame(waiting.conn)
            if reply is None:
                assert answer["type"] == "error", (message, answer)
                assert answer["code"] in CODES, (message, answer)
            else:
                assert answer["type"] == reply, (message, answer)
        assert await view_now(waiting.conn) == before
        assert (await client.me(waiting.session.token))["coins"] == coins


async def _drain(player: Player) -> None:
    """Read what the player has been sent until the table falls silent (it waits on the
    other player)."""
    with contextlib.suppress(TimeoutError):
        while True:
            await next_frame(player.conn, timeout=0.5)


async def _the_one_waiting(pair: list[Player]) -> Player:
    """Wait for a human's turn (bots act at once); the other player."""
    first = asyncio.create_task(pair[0].until(lambda f: bool(f.get("legal"))))
    second = asyncio.create_task(pair[1].until(lambda f: bool(f.get("legal"))))
    done, pending = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return pair[1] if first in done else pair[0]
