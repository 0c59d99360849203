"""Reconnection, 托管 and escape through real sockets.

A player who drops in the middle of a hand and comes back with the number of the last
event he saw gets exactly the events he missed (placeholders included) and the turn; without
a number he gets a snapshot; two devices both get his frames.  While he is away a Dou Dizhu
table plays his turns in 托管 and a Zha Jin Hua table folds him once the grace period is
over, and coming back does not end 托管 (the player cancels it); 托管 can be asked for and
cancelled; an escape ends a huanle hand with its penalty.

The tables of two humans and a bot hold still whenever it is a human's turn (the bots act
at once), which is what makes every step here wait on frames, never on the clock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_kit import RunningHall, running_hall
from sqlalchemy import select
from wire_kit import (
    TOGETHER,
    Frame,
    Player,
    config_with,
    event_numbers,
    guests,
    my_turn,
    next_frame,
    of_type,
    play_all,
    room_like,
    seat_together,
    view_now,
)

from qipai.client.connection import HallClient
from qipai.store import Store
from qipai.store.schema import accounts, entries, transactions

ROOMS = {
    "replay": room_like("doudizhu-yifa", "re-replay", bot_wait=TOGETHER),
    "snapshot": room_like("doudizhu-yifa", "re-snapshot", bot_wait=TOGETHER),
    "devices": room_like("doudizhu-yifa", "re-devices"),
    "away": room_like("doudizhu-yifa", "re-away", bot_wait=TOGETHER, grace_seconds=0.5),
    "timeout": room_like("doudizhu-yifa", "re-timeout", decision_seconds=0.4),
    "request": room_like("doudizhu-yifa", "re-request", bot_wait=TOGETHER),
    "grace": room_like("zhajinhua-yifa", "re-grace", grace_seconds=0.5, bot_wait=TOGETHER),
    "escape": room_like("doudizhu-huanle", "re-escape"),
    "ended": room_like("doudizhu-yifa", "re-ended", bot_wait=TOGETHER),
    "back": room_like("doudizhu-yifa", "re-back", bot_wait=TOGETHER, grace_seconds=0.5),
}


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHall]:
    """One hall (SQLite) for the module, with a room of its own for each test."""
    url = f"sqlite:///{tmp_path_factory.mktemp('reconnect') / 'hall.db'}"
    with running_hall(config_with(url, *ROOMS.values())) as running:
        yield running


def _room(key: str) -> str:
    return ROOMS[key].id


def _event(frame: Frame, n: int | None = None) -> bool:
    return frame["type"] == "event" and (n is None or frame["n"] == n)


def _away(frame: Frame, seat: int) -> bool:
    """A turn frame that shows ``seat`` disconnected."""
    return frame["type"] == "turn" and not frame["players"][seat]["connected"]


async def _drop_after_first_event(ann: Player) -> dict[str, int]:
    """Ann reads up to the hand's first event and closes her socket: what she last saw."""
    await ann.until(lambda frame: _event(frame, 1))
    last = dict(ann.conn.last)
    await ann.conn.socket.close()
    return last


# --- coming back ---------------------------------------------------------------------------


def test_coming_back_with_last_replays_exactly_the_missed_events(hall: RunningHall) -> None:
    asyncio.run(_replay(hall.url))


async def _replay(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        table = await seat_together([ann, bob], _room("replay"))
        last = await _drop_after_first_event(ann)
        assert last == {str(table): 1}
        # the table goes on (Ann in 托管) until it waits on Bob, who sees Ann away
        waiting = await bob.until(lambda f: my_turn(f) and _away(f, ann.seat))
        async with client.connect(ann.session.token, last=last) as conn:
            back = Player(ann.session, conn)
            turn = await back.until(of_type("turn"))
            replayed = back.frames[:-1]
            assert [f["type"] for f in replayed] == ["event"] * len(replayed)
            # contiguous with what she had, up to the table's newest event, nothing else
            assert event_numbers(replayed) == list(range(2, waiting["n"] + 1))
            assert turn["n"] == waiting["n"] and turn["seat"] == bob.seat
            # placeholders included: the two other hands were dealt after event 1
            hidden = [f["n"] for f in replayed if f.get("hidden")]
            assert len(hidden) >= 2
            _same_events_as(replayed, bob.frames, ann.seat)
            overs = await play_all([back, bob])
        assert overs[0] == overs[1]
        seen = event_numbers(ann.frames) + event_numbers(back.frames)
        assert seen == list(range(1, overs[0]["n"] + 1))  # every number once, no gap


def _same_events_as(replayed: list[Frame], other: list[Frame], seat: int) -> None:
    """Each replayed event is the one the other player saw under that number (public ones
    equal; ours visible to us but hidden from him are our own cards)."""
    theirs = {f["n"]: f for f in other if f["type"] == "event"}
    for frame in replayed:
        twin = theirs[frame["n"]]
        if "event" in frame and "event" in twin:
            assert frame["event"] == twin["event"]
        elif "event" in frame:
            assert frame["event"]["seat"] == seat


@pytest.mark.parametrize("last", [None, 10_000], ids=["no-last", "unknown-last"])
def test_coming_back_without_a_usable_last_gets_a_snapshot(
    hall: RunningHall, last: int | None
) -> None:
    asyncio.run(_snapshot(hall.url, last))


async def _snapshot(url: str, number: int | None) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        table = await seat_together([ann, bob], _room("snapshot"))
        await _drop_after_first_event(ann)
        waiting = await bob.until(lambda f: my_turn(f) and _away(f, ann.seat))
        last = None if number is None else {str(table): number}
        async with client.connect(ann.session.token, last=last) as conn:
            back = Player(ann.session, conn)
            snapshot = await next_frame(conn)
            back.frames.append(snapshot)
            assert snapshot["type"] == "snapshot", snapshot
            assert (snapshot["table"], snapshot["n"], snapshot["seat"]) == (
                table,
                waiting["n"],
                ann.seat,
            )
            view = snapshot["view"]
            assert view["seat"] == ann.seat and len(view["hand"]) >= 17
            overs = await play_all([back, bob])
        assert overs[0] == overs[1]


@pytest.mark.parametrize("with_last", [True, False], ids=["last", "no-last"])
def test_coming_back_after_the_hand_ended_shows_how_it_ended(
    hall: RunningHall, with_last: bool
) -> None:
    asyncio.run(_after_the_end(hall.url, with_last))


async def _after_the_end(url: str, with_last: bool) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        table = await seat_together([ann, bob], _room("ended"))
        last = await _drop_after_first_event(ann)
        over = await bob.play_out()  # Ann's turns in 托管, to the end
        await bob.until(lambda f: f["type"] in ("queued", "left"))  # the table is closed
        async with client.connect(ann.session.token, last=last if with_last else None) as conn:
            back = Player(ann.session, conn)
            ended = await back.until(of_type("hand_over"))
            assert ended == over
            # with or without her last number: the finished hand as she sees it, then the end
            snapshot = back.frames[0]
            assert [f["type"] for f in back.frames] == ["snapshot", "hand_over"]
            assert (snapshot["table"], snapshot["n"], snapshot["seat"]) == (
                table,
                over["n"],
                ann.seat,
            )
            assert snapshot["view"]["winner"] is not None
        # once told, never again: a third connection gets nothing of that hand
        async with client.connect(ann.session.token, last=last) as conn:
            again = Player(ann.session, conn)
            await conn.send({"type": "ping", "t": 1})
            await again.until(of_type("pong"))
            assert [f["type"] for f in again.frames] == ["pong"]


def test_a_second_device_receives_the_same_frames(hall: RunningHall) -> None:
    asyncio.run(_two_devices(hall.url))


async def _two_devices(url: str) -> None:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        await ann.conn.send({"type": "join", "room": _room("devices")})
        turn = await ann.until(my_turn)
        async with client.connect(ann.session.token) as conn:
            phone = Player(ann.session, conn)
            snapshot = await phone.until(of_type("snapshot"))
            assert snapshot["n"] == turn["n"]
            assert snapshot["view"]["current_player"] == ann.seat
            answer = await phone.conn.act(turn["legal"][0])  # played from the phone
            applied = await phone.until(lambda f: _event(f, turn["n"] + 1))
            assert (await phone.answer(answer))["type"] == "ack"
            on_desk = await ann.until(lambda f: _event(f, turn["n"] + 1))
            assert on_desk == applied
            assert applied["event"]["seat"] == ann.seat
        # the phone is gone, the first connection is still there: no 托管, no absence
        over = await ann.play_out()
        later = [f for f in ann.frames if f["type"] == "turn" and f["n"] > turn["n"]]
        assert later and all(
            f["players"][ann.seat]["connected"] and not f["players"][ann.seat]["trustee"]
            for f in later
        )
        me = await client.me(ann.session.token)
        assert me["coins"] == ann.session.coins + over["result"][ann.seat]


# --- 托管 --------------------------------------------------------------------------------


def test_a_dou_dizhu_table_plays_an_absent_players_turns_in_trustee(hall: RunningHall) -> None:
    asyncio.run(_away_in_trustee(hall.url))


async def _bob_until_turn_of(bob: Player, seat: int) -> Frame:
    """Bob plays his own turns until the turn is ``seat``'s."""
    while True:
        frame = await bob.until(lambda f: f["type"] == "turn")
        if frame["seat"] == seat:
            return frame
        if my_turn(frame):
            await bob.conn.act(frame["legal"][0])


async def _away_in_trustee(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        await seat_together([ann, bob], _room("away"))
        turn, _ = await asyncio.gather(ann.until(my_turn), _bob_until_turn_of(bob, ann.seat))
        await ann.conn.socket.close()  # gone at her own turn
        over = await bob.play_out()
        after = [f for f in bob.frames if _event(f) and f["n"] > turn["n"] and "event" in f]
        played = next(f["event"] for f in after if f["event"]["kind"] != "TrusteeChanged")
        assert played["seat"] == ann.seat  # the system played her turn
        assert {"kind": "TrusteeChanged", "seat": ann.seat, "on": True} in [
            {k: f["event"][k] for k in ("kind", "seat", "on")}
            for f in after
            if f["event"]["kind"] == "TrusteeChanged"
        ]
        assert any(_away(f, ann.seat) and f["players"][ann.seat]["trustee"] for f in bob.frames)
        assert over["hand"] and not over["voided"]
        me = await client.me(ann.session.token)
        assert me["coins"] == ann.session.coins + over["result"][ann.seat]


def test_a_player_whose_time_runs_out_is_played_in_trustee(hall: RunningHall) -> None:
    asyncio.run(_timeout(hall.url))


async def _timeout(url: str) -> None:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        await ann.conn.send({"type": "join", "room": _room("timeout")})
        turn = await ann.until(my_turn)
        acted = await ann.until(lambda f: _event(f) and f["event"].get("seat") == ann.seat)
        # played for her once her time was up, not before (the hall's clock is this one)
        assert turn["deadline"] <= time.time() < turn["deadline"] + 10
        assert acted["n"] > turn["n"]
        over = await ann.until(of_type("hand_over"))
        assert acted["event"] == {
            "kind": "TrusteeChanged",
            "seat": ann.seat,
            "on": True,
            "cards_left": 17,
        }
        assert not over["voided"]


def test_trustee_on_request_and_cancelled(hall: RunningHall) -> None:
    asyncio.run(_trustee_request(hall.url))


async def _trustee_request(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        await seat_together([ann, bob], _room("request"))
        turn, _ = await asyncio.gather(ann.until(my_turn), _bob_until_turn_of(bob, ann.seat))
        answer = await ann.conn.request({"type": "trustee", "on": True})
        # the system plays her turn, the table goes on to Bob and waits: the ack comes
        # after the frames the request caused
        assert (await ann.answer(answer))["type"] == "ack"
        held = [f for f in ann.frames if f["type"] == "turn"][-1]
        assert held["seat"] == bob.seat and held["players"][ann.seat]["trustee"]
        mine = [f for f in ann.frames if _event(f) and f["n"] > turn["n"]]
        assert any(f["event"].get("seat") == ann.seat for f in mine)
        # in 托管 she cannot play: refused, nothing changes
        before = await view_now(ann.conn)
        refused = await ann.conn.act(turn["legal"][0])
        assert (await next_frame(ann.conn))["code"] == "in_trustee"
        assert refused.result()["code"] == "in_trustee"
        assert await view_now(ann.conn) == before
        # 解除托管: she plays her next turn herself
        answer = await ann.conn.request({"type": "trustee", "on": False})
        assert (await ann.answer(answer))["type"] == "ack"
        back = [f for f in ann.frames if f["type"] == "turn"][-1]
        assert back["seat"] == bob.seat and not back["players"][ann.seat]["trustee"]
        overs = await play_all([ann, bob])
        assert overs[0] == overs[1]
        acks = [f for f in ann.frames if f["type"] == "ack"]
        assert len(acks) >= 3  # 托管 on, 托管 off, and at least one move of her own


def test_coming_back_keeps_trustee_until_the_player_cancels_it(hall: RunningHall) -> None:
    """"玩家可以随时再次登陆游戏并取消托管" (易发): back at her table Ann is still in 托管
    (everyone sees her connected and in 托管); she plays again once she cancels it."""
    asyncio.run(_back_in_trustee(hall.url))


def _shown(frame: Frame, seat: int, *, trustee: bool) -> bool:
    """A turn frame that shows ``seat`` connected, in 托管 or not."""
    if frame["type"] != "turn":
        return False
    player = frame["players"][seat]
    return bool(player["connected"]) and player["trustee"] is trustee


async def _back_in_trustee(url: str) -> None:
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        await seat_together([ann, bob], _room("back"))
        last = await _drop_after_first_event(ann)
        await bob.until(lambda f: _away(f, ann.seat) and f["players"][ann.seat]["trustee"])
        async with client.connect(ann.session.token, last=last) as conn:
            back = Player(ann.session, conn)
            await back.until(lambda f: _shown(f, ann.seat, trustee=True))
            await bob.until(lambda f: _shown(f, ann.seat, trustee=True))
            assert not any(_shown(f, ann.seat, trustee=False) for f in back.frames)
            answer = await conn.request({"type": "trustee", "on": False})  # 取消托管
            assert (await back.answer(answer))["type"] == "ack"
            if not any(_shown(f, ann.seat, trustee=False) for f in back.frames):  # before the ack
                await back.until(lambda f: _shown(f, ann.seat, trustee=False))
            overs = await play_all([back, bob])
        assert overs[0] == overs[1]
        mine = [f["event"] for f in back.frames if _event(f) and "event" in f]
        assert {"kind": "TrusteeChanged", "seat": ann.seat, "on": False} in [
            {k: e.get(k) for k in ("kind", "seat", "on")} for e in mine
        ]


def test_zha_jin_hua_folds_a_player_absent_past_the_grace(hall: RunningHall) -> None:
    asyncio.run(_grace(hall.url))


def _calls(legal: Any) -> str:
    return "call" if "call" in legal else str(legal[0])


async def _grace(url: str) -> None:
    grace = ROOMS["grace"].grace_seconds
    async with HallClient(url) as client, guests(client, 2) as (ann, bob):
        await seat_together([ann, bob], _room("grace"))
        watch = asyncio.create_task(_watch(bob, ann))
        await ann.until(my_turn)
        gone = time.monotonic()
        await ann.conn.socket.close()
        folded, over = await watch
        assert folded - gone >= grace - 0.05  # not before the grace is over
        assert folded - gone < ROOMS["grace"].decision_seconds / 2  # the grace, not the clock
        assert over["result"][ann.seat] < 0  # she lost what she had put in
        me = await client.me(ann.session.token)
        assert me["coins"] == ann.session.coins + over["result"][ann.seat]


async def _watch(bob: Player, ann: Player) -> tuple[float, Frame]:
    """Bob plays (calling) to the end; when he saw Ann's fold, and the hand_over."""
    folded: list[float] = []

    def note(frame: Frame) -> None:
        if _event(frame) and frame.get("event") == {"kind": "Folded", "seat": ann.seat}:
            folded.append(time.monotonic())

    over = await bob.play_out(_calls, watch=note)
    assert len(folded) == 1, "Ann was never folded"
    return folded[0], over


# --- escape -------------------------------------------------------------------------------


def test_an_escape_ends_a_huanle_hand_and_the_escaper_pays(hall: RunningHall) -> None:
    over, user = asyncio.run(_escape(hall.url))
    store = Store.open(hall.db_url)
    try:
        with store.read() as connection:
            rows = connection.execute(
                select(entries.c.amount, entries.c.reason, entries.c.seat)
                .join(transactions, entries.c.transaction_id == transactions.c.id)
                .join(accounts, entries.c.account_id == accounts.c.id)
                .where(transactions.c.key == f"settle:{over['hand']}")
                .where(accounts.c.user_id == user)
            ).all()
    finally:
        store.close()
    escaper = over["escaper"]
    gross = over["result"][escaper] + over["rake"][escaper] + over["fees"][escaper]
    assert (gross, "escape", escaper) in [tuple(row) for row in rows]


async def _escape(url: str) -> tuple[Frame, int]:
    async with HallClient(url) as client, guests(client, 1) as (ann,):
        await ann.conn.send({"type": "join", "room": _room("escape")})
        await ann.until(my_turn)
        answer = await ann.conn.request({"type": "escape"})
        over = await ann.until(of_type("hand_over"))
        assert answer.result()["type"] == "ack"  # applied before the hand was settled
        seat = ann.seat
        assert over["escaper"] == seat and over["winners"] == []
        assert over["result"][seat] < 0 and over["points"][seat] < 0
        assert all(net > 0 for s, net in enumerate(over["points"]) if s != seat)
        assert sum(over["result"]) + sum(over["rake"]) + sum(over["fees"]) == 0
        await ann.until(of_type("left"))  # an escaper leaves the room
        checked = await client.request("GET", f"/api/hands/{over['hand']}")
        assert checked["verified"], checked["reason"]  # the penalty is the engine's
        me = await client.me(ann.session.token)
        assert me["coins"] == ann.session.coins + over["result"][seat]
        return over, ann.session.user
