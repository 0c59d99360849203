"""What a hall whose database fails leaves behind: nothing in play, nothing misreported.

- A hall that stops (or a node that drops its work) lets the writes its tables asked for
  land, then voids every hand it still has in play: a hand whose start was being written
  as its table was cancelled is voided too (before, it stayed ``playing`` for ever: seen
  in the chaos drill when a paused node found itself taken over).
- A hand that could not be settled is voided, and a player away meanwhile is told so when
  he comes back, not shown its result (before, he got its ``hand_over`` and not the
  ``hand_voided``: in the chaos drill every client's coins then differed from what its
  frames said).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from gate_kit import GatedDatabase
from sqlalchemy import select
from wire_kit import room_like

from json_kit import wire
from qipai.hall.frames import OutFrame
from qipai.server.run.bus import LocalBus
from qipai.server.run.hall import Database, HallService
from qipai.store import HandStart, Store
from qipai.store.schema import hands

WAIT = 20.0


def test_a_hand_being_recorded_when_the_hall_stops_is_voided(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'hall.db'}")
    writing, release = threading.Event(), threading.Event()
    start_hands = store.start_hands

    def held(batch: Sequence[HandStart]) -> None:  # the write under way, in its thread
        writing.set()
        release.wait(WAIT)
        start_hands(batch)

    store.start_hands = held  # type: ignore[method-assign]
    try:
        asyncio.run(_stop_while_recording(store, writing, release))
        with store.read() as connection:
            statuses = list(connection.execute(select(hands.c.status)).scalars())
    finally:
        store.close()
    assert statuses == ["voided"], statuses


async def _stop_while_recording(
    store: Store, writing: threading.Event, release: threading.Event
) -> None:
    db = Database(store)
    room = room_like("doudizhu-yifa", "stop-room", bot_wait=0.05)
    hall = HallService(db, [room], LocalBus(), bot_delay=0.0, entropy_window=0.0)
    await hall.start()
    user = store.register("p1", "x", grant=10_000, now=datetime.now(UTC))
    await hall.join(hall.player(user, "p1"), room.id)  # bots fill his table at once
    assert await asyncio.to_thread(writing.wait, WAIT), "no hand was recorded"
    stopping = asyncio.ensure_future(hall.stop())
    await asyncio.sleep(0.2)  # the table is cancelled while its hand is being written
    release.set()
    await asyncio.wait_for(stopping, WAIT)
    db.close()


def test_a_hand_that_could_not_be_settled_is_reported_voided_to_the_absent(
    tmp_path: Path,
) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'hall.db'}")
    try:
        kept = asyncio.run(_settle_while_down(store))
        with store.read() as connection:
            statuses = list(connection.execute(select(hands.c.status)).scalars())
    finally:
        store.close()
    assert statuses == ["voided"], statuses
    kinds = [wire(frame)["type"] for frame in kept]
    assert "hand_voided" in kinds and "hand_over" not in kinds, kinds


async def _settle_while_down(store: Store) -> list[OutFrame]:
    """A player away from his table (托管 plays his seat, bots the others) while its
    settlement fails; what is kept for his return."""
    db = GatedDatabase(store)
    db.failing |= {"settle_hands", "settle_hand"}
    room = room_like("doudizhu-yifa", "away-room", bot_wait=0.05)
    hall = HallService(db, [room], LocalBus(), bot_delay=0.0, entropy_window=0.0)
    await hall.start()
    user = store.register("p1", "x", grant=10_000, now=datetime.now(UTC))
    await hall.join(hall.player(user, "p1"), room.id)
    async with asyncio.timeout(WAIT):  # played out by 托管 and bots, refused, voided
        while not _voided(store):
            await asyncio.sleep(0.02)
    kept = await hall.missed.take(user)
    await hall.stop()
    db.close()
    return kept


def _voided(store: Store) -> bool:
    with store.read() as connection:
        return "voided" in connection.execute(select(hands.c.status)).scalars().all()
