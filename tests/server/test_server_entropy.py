"""The players' entropy over real sockets: each seated client sends some after the hand's
commitment is published, the hand is dealt as soon as every connected player's is in, and
its record (``qipai-hand/3``) carries every contribution and verifies through the API.

The hall here waits up to 5 s for entropy, so that a deal that came before the window's end
can only have come because both players contributed; refused contributions change
nothing and get their stable codes.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import TOGETHER, Frame, Player, config_with, guests, of_type, room_like, seat_together

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient
from qipai.hall.records import FORMAT_V3, HandRecord, verify
from qipai.hall.seeds import commitment, deal_seed

PAIR = room_like("doudizhu-yifa", "entropy-pair", bot_wait=TOGETHER)
"""Two guests and a bot."""
LONE = room_like("doudizhu-yifa", "entropy-lone")
"""One guest who sends no entropy, and two bots."""
WINDOW = 5.0
"""Seconds this module's hall waits, at most, for a hand's entropy."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    url = f"sqlite:///{tmp_path_factory.mktemp('entropy') / 'hall.db'}"
    with running_hall(config_with(url, PAIR, LONE, entropy_window=WINDOW)) as running:
        yield running


async def _play_out(player: Player, auto: AutoPlayer) -> tuple[Frame, float]:
    """Play with ``auto`` (which sends the entropy) until ``hand_over``: it, and when the
    first event (the deal) came."""
    first_event_at = 0.0
    async with asyncio.timeout(60):
        while True:
            frame = await player.until(lambda f: True)
            if frame["type"] == "event" and not first_event_at:
                first_event_at = time.time()
            if frame["type"] == "hand_over":
                return frame, first_event_at
            reply = auto.on_frame(frame)
            if reply is not None and reply["type"] == "act":
                await player.conn.act(reply["action"], reply.get("table"))
            elif reply is not None:
                await player.conn.send(reply)


def test_two_guests_contribute_and_the_record_carries_their_entropy(hall: RunningHall) -> None:
    starts, dealt_at, body, contributed = asyncio.run(_pair_hand(hall.url))
    start = starts[0]
    assert start["entropy_deadline"] is not None and starts[1]["hand"] == start["hand"]
    # dealt early: both were in long before the window's end (5 s)
    assert max(dealt_at) < start["entropy_deadline"] - WINDOW / 2
    assert body["verified"] is True, body
    data = body["record"]
    assert data["format"] == FORMAT_V3
    assert data["entropy"] == [contributed.get(seat) for seat in range(3)]  # the bot's: null
    assert len([value for value in data["entropy"] if value]) == 2
    parsed = HandRecord.from_json(json.dumps(data))
    assert parsed.commitment == start["commitment"] == commitment(parsed.seed)
    assert verify(parsed, published=start["commitment"]).ok
    assert parsed.deal_seed == deal_seed(parsed.seed, data["entropy"]) != parsed.seed


async def _pair_hand(url: str) -> tuple[Any, ...]:
    async with HallClient(url) as client, guests(client, 2) as players:
        await seat_together(players, PAIR.id)
        autos = [AutoPlayer(lambda legal: legal[0]) for _ in players]
        pairs = zip(players, autos, strict=True)
        results = await asyncio.gather(*(_play_out(p, a) for p, a in pairs))
        starts = [next(f for f in p.frames if f["type"] == "hand_start") for p in players]
        hand = starts[0]["hand"]
        assert all(over["hand"] == hand for over, _ in results)
        body = await client.request("GET", f"/api/hands/{hand}")
        contributed = {p.seat: a.contributed[hand] for p, a in zip(players, autos, strict=True)}
        return starts, [at for _, at in results], body, contributed


def test_refused_contributions_get_their_codes(hall: RunningHall) -> None:
    codes, over, record = asyncio.run(_refusals(hall.url))
    assert codes == {
        "not_seated": "not_seated",
        "stale_table": "stale_table",
        "bad_hex": "bad_entropy",
        "too_short": "bad_entropy",
        "too_long": "bad_entropy",
        "wrong_hand": "wrong_hand",
        "first": "ack",
        "again": "already_contributed",
    }
    assert record["verified"] is True
    # the one contribution accepted is the one recorded: the refused ones changed nothing
    assert record["record"]["entropy"][over["seat"]] == "ab" * 16
    assert [e for s, e in enumerate(record["record"]["entropy"]) if s != over["seat"]] == [None] * 2


async def _refusals(url: str) -> tuple[dict[str, str], dict[str, Any], Any]:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        codes: dict[str, str] = {}

        async def answer(name: str, **message: Any) -> None:
            pending = await ann.conn.request({"type": "entropy", **message})
            frame = await ann.answer(pending)
            codes[name] = frame["code"] if frame["type"] == "error" else frame["type"]

        await answer("not_seated", table=1, hand="x", value="00" * 16)
        await ann.conn.send({"type": "join", "room": LONE.id})
        start = await ann.until(of_type("hand_start"))
        table, hand = start["table"], start["hand"]
        good = "ab" * 16
        await answer("stale_table", table=table + 1000, hand=hand, value=good)
        await answer("bad_hex", table=table, hand=hand, value="zz" * 16)
        await answer("too_short", table=table, hand=hand, value="ab" * 15)
        await answer("too_long", table=table, hand=hand, value="ab" * 65)
        await answer("wrong_hand", table=table, hand=hand + "0", value=good)
        # nothing was dealt meanwhile: he is the only human, and has not contributed
        assert not [f for f in ann.frames if f["type"] == "event"]
        await answer("first", table=table, hand=hand, value=good.upper())
        # his was the only one awaited: dealt at once (the events come before the ack)
        assert [f for f in ann.frames if f["type"] == "event"]
        await answer("again", table=table, hand=hand, value=good)
        await ann.conn.send({"type": "trustee", "on": True})  # 托管 plays it out
        over = await ann.until(of_type("hand_over"), timeout=60)
        over = {**over, "seat": ann.seat}
        record = await client.request("GET", f"/api/hands/{hand}")
        return codes, over, record


def test_a_player_who_sends_nothing_is_dealt_at_the_window_end(
    tmp_path: Any,
) -> None:
    """Without his entropy the hand waits the whole window, then is dealt from the house
    seed and no contribution (recorded as nulls); it still verifies."""
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    with running_hall(config_with(url, LONE, entropy_window=0.6)) as running:
        start, first_event_at, late, record = asyncio.run(_silent(running.url))
    assert first_event_at >= start["entropy_deadline"] - 0.05
    assert late["type"] == "error" and late["code"] == "entropy_closed"
    assert record["verified"] is True
    assert record["record"]["entropy"] == [None, None, None]


async def _silent(url: str) -> tuple[Frame, float, Frame, Any]:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        await ann.conn.send({"type": "join", "room": LONE.id})
        start = await ann.until(of_type("hand_start"))
        await ann.until(of_type("event"))
        first_event_at = time.time()
        message = {"type": "entropy", "table": start["table"], "hand": start["hand"]}
        late = await ann.answer(await ann.conn.request({**message, "value": "cd" * 32}))
        await ann.conn.send({"type": "trustee", "on": True})
        await ann.until(of_type("hand_over"), timeout=60)
        record = await client.request("GET", f"/api/hands/{start['hand']}")
        return start, first_event_at, late, record


def test_a_player_back_during_the_window_gets_the_hand_start_and_contributes(
    hall: RunningHall,
) -> None:
    replayed, body, contributed, dealt_at = asyncio.run(_back_in_the_window(hall.url))
    assert replayed["type"] == "hand_start" and replayed["entropy_deadline"] is not None
    assert max(dealt_at) < replayed["entropy_deadline"] - WINDOW / 2  # not the window's end
    assert body["verified"] is True
    entropy = body["record"]["entropy"]
    assert all(entropy[seat] == value for seat, value in contributed.items())
    assert len([value for value in entropy if value]) == 2


async def _back_in_the_window(url: str) -> tuple[Any, ...]:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        await seat_together([ann, bob], PAIR.id)
        await ann.until(of_type("hand_start"))
        seat = ann.seat
        await ann.conn.socket.close()  # gone before sending his entropy
        async with client.connect(ann.session.token, last=ann.conn.last) as conn:
            back = Player(ann.session, conn)
            replayed = await back.until(lambda f: f["type"] in ("hand_start", "snapshot"))
            autos = [AutoPlayer(lambda legal: legal[0]) for _ in range(2)]
            back_over, bob_over = await asyncio.gather(
                _play_out_from(back, autos[0], replayed), _play_out(bob, autos[1])
            )
            hand = replayed["hand"]
            assert back_over[0]["hand"] == bob_over[0]["hand"] == hand
            body = await client.request("GET", f"/api/hands/{hand}")
            contributed = {seat: autos[0].contributed[hand], bob.seat: autos[1].contributed[hand]}
            return replayed, body, contributed, [back_over[1], bob_over[1]]


async def _play_out_from(player: Player, auto: AutoPlayer, first: Frame) -> tuple[Frame, float]:
    """:func:`_play_out`, after answering ``first``, a frame already read."""
    reply = auto.on_frame(first)
    assert reply is not None and reply["type"] == "entropy"
    await player.conn.send(reply)
    return await _play_out(player, auto)
