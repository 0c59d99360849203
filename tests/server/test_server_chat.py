"""Quick chat 快捷聊天 over real sockets: three guests at one table of a room without bots.

A phrase said by one reaches all three (himself included) with his seat; an unknown phrase,
free text, a fourth message inside the burst, and chat from a player at no table are
refused with their codes, and say nothing: every player's chat frames are exactly those of
the accepted messages, in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import Frame, Player, config_with, guests, room_like, seat_together

from qipai.client.connection import HallClient
from qipai.hall.chat import CHAT_BURST, CHAT_INTERVAL

ROOM = room_like("doudizhu-zhengtu", "chat-humans", bots=False, decision_seconds=600.0)
"""Three humans, no bots; nobody's decision runs out during the test."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('chat') / 'hall.db'}"
    with running_hall(config_with(url, ROOM)) as running:
        yield running


async def _say(player: Player, phrase: str) -> Frame:
    """Send a chat message with an id; its answer (``ack`` or ``error``)."""
    return await player.answer(await player.conn.request({"type": "chat", "phrase": phrase}))


async def _hear(player: Player, phrase: str) -> Frame:
    """The first chat frame of ``phrase`` the player received (read already, with the
    answer to his own message, or awaited)."""
    for frame in player.frames:
        if frame["type"] == "chat" and frame["phrase"] == phrase:
            return frame
    return await player.until(lambda f: f["type"] == "chat" and f["phrase"] == phrase)


def _chats(player: Player) -> list[tuple[int, int, str]]:
    """The chat frames the player received: (table, seat, phrase)."""
    return [(f["table"], f["seat"], f["phrase"]) for f in player.frames if f["type"] == "chat"]


def test_chat_reaches_the_table_and_refusals_say_nothing(hall: RunningHall) -> None:
    asyncio.run(_chat(hall.url))


async def _chat(url: str) -> None:
    async with HallClient(url) as client, guests(client, 3) as players:
        ann, bob, cat = players
        refused = await _say(ann, "hello")  # in no room yet
        assert (refused["type"], refused["code"]) == ("error", "not_seated")
        table = await seat_together(players, ROOM.id)

        assert (await _say(ann, "hurry"))["type"] == "ack"
        said = await asyncio.gather(*(_hear(p, "hurry") for p in players))
        for frame in said:
            assert frame == {"type": "chat", "table": table, "seat": ann.seat, "phrase": "hurry"}

        for phrase in ("free text", "HURRY", ""):
            assert (await _say(bob, phrase))["code"] == "unknown_phrase"
        await bob.conn.send({"type": "chat", "phrase": "hurry", "text": "快点"})  # no free text
        assert (await bob.until(lambda f: f["type"] == "error"))["code"] == "bad_message"

        for _ in range(CHAT_BURST):
            assert (await _say(bob, "smile"))["type"] == "ack"
        too_fast = await _say(bob, "cry")
        assert (too_fast["type"], too_fast["code"]) == ("error", "chat_too_fast")
        assert 0 < too_fast["retry_after"] <= CHAT_INTERVAL
        assert (await _say(ann, "well_played"))["type"] == "ack"  # the allowance is his own

        await cat.conn.send({"type": "chat", "phrase": "goodbye"})  # an id is optional
        last = (table, cat.seat, "goodbye")
        await asyncio.gather(*(_hear(p, "goodbye") for p in players))
        expected = [
            (table, ann.seat, "hurry"),
            *[(table, bob.seat, "smile")] * CHAT_BURST,
            (table, ann.seat, "well_played"),
            last,
        ]
        for player in players:
            assert _chats(player) == expected
