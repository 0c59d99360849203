"""Tables over several hands and leaving before a hand starts, through real sockets.

- 征途 (``regroup = false``): one player and two bots play hand after hand at the same
  table, the first bidder turning round it from the first sitter; the table breaks up when
  a player leaves, and the others wait again.
- 欢乐斗地主 (``escape_before_start``): leaving while the hand is dealt is an escape, priced
  by the engine; leaving once the bidding has begun is leaving after the hand.

The hall here deals its paced hands in 0.3 s steps, so that a client can leave during the
deal (about a second) without racing it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from server_kit import RunningHall, running_hall
from wire_kit import TOGETHER, Frame, Player, config_with, guests, of_type, room_like, seat_together

from qipai.client.autoplay import AutoPlayer
from qipai.client.connection import HallClient

ROOMS = {
    "alone": room_like("doudizhu-zhengtu", "sit-alone"),
    "pair": room_like("doudizhu-zhengtu", "sit-pair", bot_wait=TOGETHER),
    "early": room_like("doudizhu-huanle", "sit-early"),
    "late": room_like("doudizhu-huanle", "sit-late"),
    "once": room_like("doudizhu-huanle", "sit-once"),
}
DEAL_STEP = 0.3
"""Seconds per step of a paced deal in this module's hall."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module, with a room of its own for each test."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sittings') / 'hall.db'}"
    config = config_with(url, *ROOMS.values(), deal_step=DEAL_STEP)
    with running_hall(config) as running:
        yield running


def _first_bidder(frames: list[Frame], hand: str) -> int:
    """The seat the hand's bidding started with (its first deal)."""
    start = next(i for i, f in enumerate(frames) if f.get("hand") == hand)
    events = [f["event"] for f in frames[start:] if f["type"] == "event" and "event" in f]
    seat: int = next(e["seat"] for e in events if e["kind"] == "BiddingStarted")
    return seat


async def _play_until(player: Player, kind: str, auto: AutoPlayer) -> Frame:
    """Play (the first legal action) until a frame of ``kind``; it."""
    while True:
        frame = await player.until(lambda f: True)
        if frame["type"] == kind:
            return frame
        reply = auto.on_frame(frame)
        if reply is not None and reply["type"] == "act":
            await player.conn.act(reply["action"], reply.get("table"))
        elif reply is not None:
            await player.conn.send(reply)


# --- 征途: the table stays together ---------------------------------------------------------


def test_a_zhengtu_table_plays_on_and_the_first_bidder_turns(hall: RunningHall) -> None:
    """征途: "第一局由最先進入該牌桌的玩家先叫“地主”,之後每一局首先叫“地主”的玩家按照
    出牌順序輪流擔任。"  Alone with two bots, Ann is the first sitter; three hands at one table
    start with her seat, then the next two in play order."""
    asyncio.run(_plays_on(hall.url))


async def _plays_on(url: str) -> None:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        auto = AutoPlayer(lambda legal: legal[0])
        await ann.conn.send({"type": "join", "room": ROOMS["alone"].id})
        starts = [await _play_until(ann, "hand_start", auto)]
        for _ in range(2):
            await _play_until(ann, "hand_over", auto)
            starts.append(await _play_until(ann, "hand_start", auto))
        await ann.conn.send({"type": "leave"})  # during the third hand: out after it
        over = await _play_until(ann, "hand_over", auto)
        await ann.until(of_type("left"))
        seat = ann.seat
        assert {f["table"] for f in starts} == {ann.table} and over["table"] == ann.table
        assert [f["hand_number"] for f in starts] == [0, 1, 2]
        bidders = [(_first_bidder(ann.frames, f["hand"]) - seat) % 3 for f in starts]
        assert bidders == [0, 1, 2] and seat == 0
        kinds = [f["type"] for f in ann.frames]
        seated = [f for f in ann.frames if f["type"] == "snapshot" and f["view"] is None]
        assert len(seated) == 1 and kinds[0] == "queued"  # joined: no queued after that
        assert "queued" not in kinds[1 : kinds.index("left")]


def test_a_kept_table_breaks_up_when_a_player_leaves(hall: RunningHall) -> None:
    """A player leaving ends the kept table after its hand; the other waits again (a new
    table: bots never keep one alive without him)."""
    asyncio.run(_breaks_up(hall.url))


async def _breaks_up(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        table = await seat_together([ann, bob], ROOMS["pair"].id)
        await bob.conn.send({"type": "leave"})
        await bob.until(of_type("leaving"))
        play = [_play_until(p, "hand_over", AutoPlayer(lambda legal: legal[0])) for p in (ann, bob)]
        overs = await asyncio.gather(*play)
        assert overs[0] == overs[1]
        await bob.until(of_type("left"))
        await ann.until(of_type("queued"))
        snapshot = await ann.until(of_type("snapshot"))  # alone now: a new table with bots
        assert snapshot["table"] != table and snapshot["view"] is None
        await ann.conn.send({"type": "leave"})
        await _play_until(ann, "left", AutoPlayer(lambda legal: legal[0]))


# --- 欢乐斗地主: leaving before the hand starts -------------------------------------------


def test_huanle_leaving_during_the_deal_is_an_escape(hall: RunningHall) -> None:
    """欢乐斗地主: "在系统撮合成功后、游戏开始前玩家如果退出游戏一律视为逃跑".  Ann
    leaves (``leave``, not ``escape``) while the hand is dealt: she escapes at once."""
    asyncio.run(_early(hall.url))


async def _early(url: str) -> None:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        await ann.conn.send({"type": "join", "room": ROOMS["early"].id})
        await ann.until(of_type("hand_start"))
        await ann.conn.send({"type": "leave"})
        over = await ann.until(of_type("hand_over"))
        seat = ann.seat
        assert not any(f["type"] == "turn" and f.get("legal") for f in ann.frames)
        assert over["escaper"] == seat and over["winners"] == []
        assert over["points"][seat] < 0 and over["result"][seat] < 0
        await ann.until(of_type("left"))
        checked = await client.request("GET", f"/api/hands/{over['hand']}")
        assert checked["verified"], checked["reason"]  # the penalty is the engine's
        me = await client.me(ann.session.token)
        assert me["coins"] == ann.session.coins + over["result"][seat]


def test_huanle_leaving_once_the_bidding_began_waits_for_the_hand(hall: RunningHall) -> None:
    asyncio.run(_late(hall.url))


async def _late(url: str) -> None:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        auto = AutoPlayer(lambda legal: legal[0])
        await ann.conn.send({"type": "join", "room": ROOMS["late"].id})
        turn = await ann.until(lambda f: f["type"] == "turn" and f["seat"] is not None)
        await ann.conn.send({"type": "leave"})  # the bidding has begun: the game has started
        reply = auto.on_frame(turn)
        if reply is not None:
            await ann.conn.act(reply["action"], reply.get("table"))
        over = await _play_until(ann, "hand_over", auto)
        assert over["escaper"] is None
        await ann.until(of_type("left"))


# --- one hand at a time: join with once -----------------------------------------------------


def test_a_player_who_joined_for_one_hand_leaves_with_the_table(hall: RunningHall) -> None:
    """``join`` with ``once`` (the browser's): after the hand the hall lets him go (``left``,
    with no escape in a room that counts leaving before the start as one), where a plain
    join waits again (``queued``) and may be seated at once at the room's next table."""
    asyncio.run(_once(hall.url))


async def _once(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        auto = AutoPlayer(lambda legal: legal[0])
        await ann.conn.send({"type": "join", "room": ROOMS["once"].id, "once": True})
        over = await _play_until(ann, "hand_over", auto)
        after = await ann.until(lambda f: f["type"] in ("left", "queued"))
        assert after == {"type": "left", "room": ROOMS["once"].id}
        assert over["escaper"] is None
        await bob.conn.send({"type": "join", "room": ROOMS["once"].id})
        await _play_until(bob, "hand_over", AutoPlayer(lambda legal: legal[0]))
        again = await bob.until(lambda f: f["type"] in ("left", "queued"))
        assert again["type"] == "queued"
        await bob.conn.send({"type": "leave"})
