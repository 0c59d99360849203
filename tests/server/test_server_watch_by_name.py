"""Watching by a player's name over real sockets: a person at a private table is not
watched by name unless he lets it be (``watch_by_name``), and then his spectator is sent
no code (``private_join`` with anything in his frames is refused); a player at a cash table
turns it off; names tried are limited (``too_many_tries``)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import Frame, Player, config_with, guests, of_type, room_like

from json_kit import strings
from qipai.client.connection import HallClient
from qipai.server.edge.limits import Limits, Rate

ROOM = room_like("doudizhu-yifa", "watched-by-name")
NAMES = 4
"""Names one account may try a minute in this hall."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('names') / 'hall.db'}"
    limits = dataclasses.replace(Limits.off(), names_per_account=Rate(NAMES, 60.0))
    with running_hall(config_with(url, ROOM, limits=limits)) as running:
        yield running


async def ask(player: Player, message: Frame) -> Frame:
    """``message``'s ``ack`` or ``error``."""
    return await player.answer(await player.conn.request(message))


def test_a_private_tables_person_is_watched_by_name_only_if_he_lets_it_and_no_code_leaks(
    hall: RunningHall,
) -> None:
    asyncio.run(_private(hall.url))


async def _private(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, eve):
        create = {"type": "private_create", "game": "doudizhu", "rules": "huanle", "hands": 0}
        assert (await ask(ann, create))["type"] == "ack"
        code = next(f for f in ann.frames if f["type"] == "private_table")["code"]
        started = ({"type": "ready"}, {"type": "private_start"}, {"type": "trustee", "on": True})
        for message in started:
            assert (await ask(ann, message))["type"] == "ack"
        by_name = {"type": "spectate", "player": ann.session.name}
        refused = await ask(eve, by_name)  # the default at a private table: no
        nobody = await ask(eve, {"type": "spectate", "player": "nobody-here"})
        assert refused["code"] == nobody["code"] == "not_playing"
        assert not [f for f in eve.frames if f["type"] != "error"]

        assert (await ask(ann, {"type": "watch_by_name", "allow": True}))["type"] == "ack"
        assert (await ask(eve, by_name))["type"] == "ack"
        await eve.until(of_type("event"))
        seen = [f for f in eve.frames if f["type"] != "error"]
        table, snapshot = seen[0], seen[1]
        assert (table["type"], table["you"], snapshot["seat"]) == ("private_table", None, None)
        assert snapshot["room"] == table["room"] and code not in table["room"]
        assert all("code" not in f and "link" not in f for f in seen)
        tried = {s for f in seen for s in strings(f)} | {table["room"].removeprefix("private:")}
        assert code not in tried
        for text in sorted(tried)[:40]:  # each refused: nothing there seats him
            answer = await ask(eve, {"type": "private_join", "code": text})
            assert answer["code"] == "unknown_code", (text, answer)
        assert (await ask(ann, {"type": "private_close"}))["type"] == "ack"


def test_a_player_turns_watching_by_name_off_and_names_are_limited(hall: RunningHall) -> None:
    asyncio.run(_off_and_limited(hall.url))


async def _off_and_limited(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, eve):
        await ann.conn.send({"type": "join", "room": ROOM.id})
        await ann.until(of_type("snapshot"))
        by_name = {"type": "spectate", "player": ann.session.name}
        assert (await ask(eve, by_name))["type"] == "ack"  # a cash table: yes by default
        assert (await ask(eve, {"type": "stop_spectating"}))["type"] == "ack"
        assert (await ask(ann, {"type": "watch_by_name", "allow": False}))["type"] == "ack"
        assert (await ask(eve, by_name))["code"] == "not_playing"  # as if he played nowhere
        await ann.conn.send({"type": "watch_by_name"})  # allow is asked for
        assert (await ann.until(of_type("error")))["code"] == "bad_message"
        for _ in range(NAMES - 2):  # the names' limit: the first two were tried already
            assert (await ask(eve, by_name))["code"] == "not_playing"
        limited = await ask(eve, by_name)
        assert limited["code"] == "too_many_tries" and limited["retry_after"] > 0
