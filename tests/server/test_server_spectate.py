"""Spectators 观战 over real sockets: a guest watches another guest's cash table (with bots)
by his name, and gets a snapshot with ``seat`` null, the hand's events, its end, and no card
the player held unseen; refusals come with their codes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import Frame, config_with, guests, of_type, room_like

from json_kit import strings
from qipai.client.connection import HallClient

ROOM = room_like("doudizhu-yifa", "watched-cash")


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('spectate') / 'hall.db'}"
    with running_hall(config_with(url, ROOM)) as running:
        yield running


def test_a_guest_watches_a_cash_table_to_the_end_and_sees_no_hidden_card(
    hall: RunningHall,
) -> None:
    asyncio.run(_watch(hall.url))


async def _watch(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, eve):
        nobody = await eve.answer(await eve.conn.request({"type": "spectate", "player": "x"}))
        assert (nobody["type"], nobody["code"]) == ("error", "not_playing")
        both = {"type": "spectate", "player": "x", "code": "123456"}
        assert (await eve.answer(await eve.conn.request(both)))["code"] == "bad_message"
        code = {"type": "spectate", "code": "123456"}
        assert (await eve.answer(await eve.conn.request(code)))["code"] == "unknown_code"
        stop = await eve.answer(await eve.conn.request({"type": "stop_spectating"}))
        assert stop["code"] == "not_spectating"

        await ann.conn.send({"type": "join", "room": ROOM.id})
        await ann.until(of_type("snapshot"))
        watched = {"type": "spectate", "player": ann.session.name}
        assert (await eve.answer(await eve.conn.request(watched)))["type"] == "ack"
        seated = await ann.answer(await ann.conn.request(watched))
        assert seated["code"] == "already_in_room"

        over, ended = await asyncio.gather(ann.play_out(), eve.until(of_type("hand_over")))
        assert ended["hand"] == over["hand"]
        frames = eve.frames
        snapshot = next(f for f in frames if f["type"] == "snapshot")
        assert snapshot["seat"] is None and snapshot["table"] == ann.table
        assert any(f["type"] == "event" and "event" in f for f in frames)
        assert all("legal" not in f and "options" not in f for f in frames)
        _no_hidden_card(frames, over)
        assert any(f["type"] == "spectator_count" and f["count"] == 1 for f in ann.frames)


def _no_hidden_card(frames: list[Frame], over: Frame) -> None:
    """The cards the players still held at the end (but the bottom and the marker card,
    shown to all) are in no frame the spectator got before the hand's end."""
    before = frames[: frames.index(next(f for f in frames if f["type"] == "hand_over"))]
    events = [f["event"] for f in before if "event" in f]
    shown_to_all = {e["card"] for e in events if e["kind"] == "MarkerTurned"}
    held = {card for hand in over["cards"]["hands"] for card in hand}
    held -= {*over["cards"]["bottom"], *shown_to_all}
    assert held, over["cards"]
    leaks = [f for f in before if set(strings(f)) & held]
    assert leaks == []
