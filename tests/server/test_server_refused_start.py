"""A table that cannot start its hand leaves no hand ``playing`` in the store, and its
players are told why (and leave the room), so that ``qipai audit`` finds nothing
unfinished once the hall stops.  Each case is a cash table: one person joins a room whose
bots fill his table at once.

- What a table would refuse (a seat below the room's minimum: "seat 1 holds 74 < 96",
  his coins gone since he joined) is refused before the hand is recorded.
- A hand whose start the store refuses is refused, and voided (its write may have
  landed: here a write tried again after it had landed).
- A hand recorded before a failure (the deal refused, the table stopped while the start
  was being written) is voided at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from wire_kit import room_like

from qipai.hall.frames import to_json
from qipai.hall.table.table import Table
from qipai.server.run.bus import LocalBus
from qipai.server.run.hall import Database, HallService
from qipai.store import HandStart, Store
from qipai.store.audit import audit
from qipai.store.schema import hands

ROOM = room_like("doudizhu-yifa", "refused-start", min_coins=96, bot_wait=0.0)
WAIT = 20.0
"""Seconds a scenario may wait for what it expects (never reached when the hall works)."""

Frames = list[dict[str, Any]]


def _statuses(store: Store) -> list[str]:
    with store.read() as connection:
        return list(connection.execute(select(hands.c.status)).scalars())


def _run(
    tmp_path: Path,
    scenario: Callable[[HallService], Awaitable[None]],
    patch: Callable[[Store], None] | None = None,
) -> Store:
    """Run ``scenario`` against a hall on a fresh SQLite store (changed by ``patch``
    first), stop the hall; the store."""
    store = Store.open(f"sqlite:///{tmp_path / 'hall.db'}")
    if patch is not None:
        patch(store)
    db = Database(store)

    async def main() -> None:
        hall = HallService(db, [ROOM], LocalBus(), bot_delay=0.0, entropy_window=0.0)
        try:
            await scenario(hall)
        finally:
            await hall.stop()

    try:
        asyncio.run(main())
    finally:
        db.close()
    return store


async def _join(hall: HallService, coins: int) -> tuple[int, Frames]:
    """A new user holding ``coins`` connects and joins :data:`ROOM`; his id and the
    frames he is sent (as JSON objects)."""
    now = datetime.now(UTC)
    user = await hall.db.run(hall.db.store.register, "p1", "x", grant=coins, now=now)
    frames: Frames = []
    hall.bus.subscribe(user, lambda frame: frames.append(to_json(frame)))
    await hall.join(hall.player(user, "p1"), ROOM.id)
    return user, frames


async def _refusal(hall: HallService, user: int, frames: Frames) -> dict[str, Any]:
    """Seat ``user`` (bots fill his table), then the refusal he is told, once he is out
    of the room."""
    hall.match_once()
    await _until(lambda: any(frame["type"] == "error" for frame in frames))
    [error] = [frame for frame in frames if frame["type"] == "error"]
    await _until(lambda: hall.players[user].room is None)
    assert hall.core.table_of(user) is None
    assert frames[-1]["type"] == "left"
    return error


def test_a_seat_below_the_minimum_is_refused_before_the_hand_is_recorded(tmp_path: Path) -> None:
    async def scenario(hall: HallService) -> None:
        user, frames = await _join(hall, 170)
        # his coins go elsewhere before his table opens: 96 to a match's entry fee
        store, now = hall.db.store, datetime.now(UTC)
        await hall.db.run(store.open_match_run, "elsewhere#1", "elsewhere", 96, now)
        await hall.db.run(store.register_for_match, "elsewhere#1", user, now)
        error = await _refusal(hall, user, frames)
        assert error["code"] == "not_enough_coins" and "holds 74 < 96" in error["message"]

    store = _run(tmp_path, scenario)
    with store:
        assert _statuses(store) == []  # nothing recorded: nothing to void
        assert audit(store) == []


def _written_twice(store: Store) -> None:
    """Each hand's start is written, then written again: the store refuses the second
    write (``hand_exists``), as it would a write tried again after it had landed."""
    start_hands = store.start_hands

    def twice(batch: Sequence[HandStart]) -> None:
        start_hands(batch)
        start_hands(batch)

    store.start_hands = twice  # type: ignore[method-assign]


def test_a_hand_whose_start_the_store_refuses_is_refused_and_voided(tmp_path: Path) -> None:
    async def scenario(hall: HallService) -> None:
        user, frames = await _join(hall, 100_000)
        error = await _refusal(hall, user, frames)
        assert error["code"] == "hand_exists"
        assert not any(frame["type"] == "hand_start" for frame in frames)  # nothing dealt
        await _until(lambda: _statuses(hall.db.store) == ["voided"])

    with _run(tmp_path, scenario, _written_twice) as store:
        assert _statuses(store) == ["voided"]
        assert audit(store) == []


def test_a_hand_recorded_before_the_table_fails_to_start_it_is_voided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse_the_deal(table: Table, hand_id: str, seed: int, now: float) -> None:
        raise ValueError("the engine refuses this deal")

    monkeypatch.setattr(Table, "start_hand", refuse_the_deal)

    async def scenario(hall: HallService) -> None:
        user, frames = await _join(hall, 100_000)
        error = await _refusal(hall, user, frames)
        assert error["code"] == "database_unavailable"
        await _until(lambda: _statuses(hall.db.store) == ["voided"])

    with _run(tmp_path, scenario) as store:
        assert _statuses(store) == ["voided"]
        assert audit(store) == []


def test_a_table_stopped_while_its_start_is_written_leaves_no_hand_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded, release = asyncio.Event(), asyncio.Event()

    async def scenario(hall: HallService) -> None:
        starts = hall.executor._starts
        write = starts._run
        stop = hall.stop

        async def slow_write(*args: Any) -> Any:
            answer = await write(*args)  # recorded; the table waits on, and is stopped
            recorded.set()
            await release.wait()  # still being written when the hall begins to stop
            return answer

        async def stopping() -> None:
            stopped = asyncio.ensure_future(stop())
            await asyncio.sleep(0)  # the stop has begun (its tables stopped)
            release.set()
            await stopped

        monkeypatch.setattr(starts, "_run", slow_write)
        monkeypatch.setattr(hall, "stop", stopping)
        user, _ = await _join(hall, 100_000)
        hall.match_once()
        await asyncio.wait_for(recorded.wait(), WAIT)
        live = hall.core.table_of(user)
        assert live is not None and live.table.hand_id is None  # not started
        # the scenario returns: the hall stops with the start still being written

    with _run(tmp_path, scenario) as store:
        assert _statuses(store) == ["voided"]
        assert audit(store) == []


async def _until(condition: Callable[[], bool], timeout: float = WAIT) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)
