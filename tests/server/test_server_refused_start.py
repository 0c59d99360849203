"""A table that cannot start its hand leaves no hand ``playing`` in the store: what a table
would refuse (a seat below the room's minimum: "seat 0 holds 74 < 96") is checked before
the hand is recorded, and a hand recorded before a failure (the deal refused, the table
stopped while the start was being written) is voided at once, so that ``qipai audit``
finds nothing unfinished once the hall stops."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from wire_kit import room_like

from qipai.errors import GameError
from qipai.hall.effects import TableClosed
from qipai.hall.rooms import Room
from qipai.hall.table import SeatInfo, Table
from qipai.server.bus import LocalBus
from qipai.server.hall import Database, HallService
from qipai.store import Store
from qipai.store.audit import audit
from qipai.store.schema import hands

ROOM = room_like("doudizhu-yifa", "refused-start", min_coins=96)
BOTS = (None, None, None)


def _seats(first_balance: int) -> list[SeatInfo]:
    return [
        SeatInfo(None, f"机器人{seat + 1}", first_balance if seat == 0 else 100_000)
        for seat in range(3)
    ]


def _statuses(store: Store) -> list[str]:
    with store.read() as connection:
        return list(connection.execute(select(hands.c.status)).scalars())


def _run(tmp_path: Path, scenario: Callable[[HallService], Any]) -> Store:
    """Run ``scenario`` against a hall on a fresh SQLite store, stop the hall; the store."""
    store = Store.open(f"sqlite:///{tmp_path / 'hall.db'}")
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


async def _refused(hall: HallService, room: Room, first_balance: int) -> GameError:
    """Open a table of bots whose first seat holds ``first_balance``; why it was refused."""
    closed: asyncio.Future[TableClosed] = asyncio.get_running_loop().create_future()
    hall.open_table(room, BOTS, _seats(first_balance), done=closed.set_result)
    ended = await asyncio.wait_for(closed, 20.0)
    assert ended.refused is not None and not ended.failed
    return ended.refused


def test_a_seat_below_the_minimum_is_refused_before_the_hand_is_recorded(tmp_path: Path) -> None:
    async def scenario(hall: HallService) -> None:
        error = await _refused(hall, ROOM, 74)
        assert error.code == "not_enough_coins" and "seat 0 holds 74 < 96" in error.message

    store = _run(tmp_path, scenario)
    with store:
        assert _statuses(store) == []  # nothing recorded: nothing to void
        assert audit(store) == []


def test_a_hand_recorded_before_the_table_fails_to_start_it_is_voided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse_the_deal(table: Table, hand_id: str, seed: int, now: float) -> None:
        raise ValueError("the engine refuses this deal")

    monkeypatch.setattr(Table, "start_hand", refuse_the_deal)

    async def scenario(hall: HallService) -> None:
        await _refused(hall, ROOM, 100_000)
        await _until(lambda: _statuses(hall.db.store) == ["voided"])

    with _run(tmp_path, scenario) as store:
        assert _statuses(store) == ["voided"]
        assert audit(store) == []


def test_a_table_stopped_while_its_start_is_written_leaves_no_hand_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = asyncio.Event()

    async def scenario(hall: HallService) -> None:
        starts = hall.executor._starts
        write = starts._run

        async def slow_write(*args: Any) -> Any:
            answer = await write(*args)  # recorded; the table waits on, and is stopped
            recorded.set()
            await asyncio.sleep(60)
            return answer

        monkeypatch.setattr(starts, "_run", slow_write)
        number = hall.open_table(ROOM, BOTS, _seats(100_000), done=lambda closed: None)
        await recorded.wait()
        assert hall.core.flow.tables[number].table.hand_id is None  # not started
        # the scenario returns: the hall stops with the start still being written

    with _run(tmp_path, scenario) as store:
        assert _statuses(store) == ["voided"]
        assert audit(store) == []


async def _until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)
