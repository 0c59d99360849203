"""The table: numbering and placeholders, time limits, 托管, reconnection, escapes, the
paced deal, voided hands, hand_over and the next hand, and refused calls that change nothing."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from table_kit import run_out

from json_kit import Wire, wire, wires
from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.games.doudizhu.scoring import escape_points
from qipai.hall.records import HandRecord, verify
from qipai.hall.rooms import default_rooms
from qipai.hall.seeds import commitment
from qipai.hall.table.clock import RECONNECT_GRACE
from qipai.hall.table.table import HISTORY_LIMIT, SeatInfo, Table
from qipai.hall.wire import parse_action, view_json
from qipai.registry import EscapeCost, game_type
from qipai.registry.doudizhu import MAX_DEALS

ROOMS = {room.id: room for room in default_rooms()}
RICH = 10**6


def make_table(
    room_id: str,
    humans: tuple[int, ...] | None = None,
    *,
    bot_delay: float = 1.0,
    balance: int = RICH,
    deal_step: float = 1.0,
    trustee: str | None = None,
) -> Table:
    room = ROOMS[room_id]
    if trustee is not None:
        room = dataclasses.replace(room, trustee=trustee)
    humans = tuple(range(room.seats)) if humans is None else humans
    seats = [
        SeatInfo(f"p{s}" if s in humans else None, f"seat{s}", balance) for s in range(room.seats)
    ]
    return Table(
        room, 7, seats, now=0.0, bot_delay=bot_delay, rng=random.Random(0), deal_step=deal_step
    )


def frames_of(table: Table) -> dict[int, list[Wire]]:
    out: dict[int, list[Wire]] = {}
    for item in table.drain():
        out.setdefault(item.seat, []).append(wire(item.frame))
    return out


def events_of(frames: list[Wire]) -> list[dict[str, Any]]:
    return [f["event"] for f in frames if f["type"] == "event" and "event" in f]


def kinds(frames: list[Wire]) -> list[str]:
    return [e["kind"] for e in events_of(frames)]


def refused(call: Any, *args: Any) -> str:
    with pytest.raises(GameError) as caught:
        call(*args)
    return caught.value.code


def fingerprint(table: Table) -> str:
    """Everything a refused call must leave as it was, down to every seat's whole view."""
    state = table.game_state
    views = []
    if state is not None:
        views = [view_json(table.room.game, state.view(s)) for s in range(len(table.seats))]
    return json.dumps(
        [
            views,
            None if state is None else [len(state.history), len(state.events)],
            table.deadline(),
            table.last_event,
            [wire(table.snapshot(s)) for s in range(len(table.seats))],
            [wires(table.frames_since(s, 0)) for s in range(len(table.seats))],
            table.seats,
            table.hand_id,
            table.outcome is None,
        ],
        sort_keys=True,
        default=repr,
    )


# --- frames -----------------------------------------------------------------------------


def test_events_are_numbered_per_seat_with_placeholders() -> None:
    table = make_table("doudizhu-yifa")
    table.start_hand("h1", 3, now=0.0)
    out = frames_of(table)
    assert sorted(out) == [0, 1, 2]
    for seat, frames in out.items():
        assert frames[0] == {
            "type": "hand_start",
            "table": 7,
            "n": 0,
            "room": "doudizhu-yifa",
            "hand": "h1",
            "hand_number": 0,
            "commitment": commitment(3),
            "entropy_deadline": None,
            "players": wire(table.snapshot(seat))["players"],
        }
        events = [f for f in frames if f["type"] == "event"]
        assert [f["n"] for f in events] == list(range(1, len(events) + 1))
        for frame in events:
            if "event" in frame and frame["event"]["kind"] == "CardsDealt":
                assert frame["event"]["seat"] == seat
        hidden = [f for f in events if f.get("hidden")]
        assert len(hidden) == 2 and all(set(f) == {"type", "table", "n", "hidden"} for f in hidden)
        assert frames[-1]["type"] == "turn" and frames[-1]["n"] == events[-1]["n"]
    actor = table.game_state.current_player
    for seat, frames in out.items():
        turn = frames[-1]
        assert turn["seat"] == actor and turn["deadline"] == 20.0
        assert ("legal" in turn) == (seat == actor)
    legal = out[actor][-1]["legal"]
    assert [str(parse_action("doudizhu", t)) for t in legal] == legal


def test_bots_get_no_frames_and_act_after_the_delay() -> None:
    table = make_table("doudizhu-zhengtu", humans=(1,), bot_delay=2.5)
    table.start_hand("h", 1, now=10.0)  # seat 0 bids first (seat order)
    items = table.drain()
    assert {item.seat for item in items} == {1}
    assert table.deadline() == 12.5
    # the human sees the bot's clock as a player's (20 s), not its 2.5 s of thinking
    turn = [f for f in (wire(item.frame) for item in items) if f["type"] == "turn"][-1]
    assert turn["seat"] == 0 and turn["deadline"] == 10.0 + 20.0
    table.tick(12.4)
    assert table.drain() == [] and table.game_state.current_player == 0
    table.tick(12.5)
    frames = [wire(item.frame) for item in table.drain()]
    assert kinds(frames) == ["BidMade"] and frames[-1]["seat"] == 1
    assert table.deadline() == 12.5 + 20.0  # the human's decision time


# --- time limits and 托管 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("room_id", "style"),
    [("doudizhu-yifa", "strong"), ("doudizhu-huanle", "strong"), ("doudizhu-jj", "basic")],
)
def test_trustee_plays_in_the_rooms_style(room_id: str, style: str) -> None:
    """jj keeps the platforms' 托管; the other presets play an absent player with the
    strong player (the room's default ``trustee``): every 托管 turn is that policy's choice
    from the seat's view."""
    table = make_table(room_id, bot_delay=1.0)
    assert table.room.trustee == style
    policy = game_type("doudizhu").trustee_policy(style)
    table.start_hand("h", 9, now=0.0)
    for seat in range(3):
        table.set_trustee(seat, True, now=0.0)
    checked = 0
    while not table.is_over:
        state = table.game_state
        seat = None if state.deciding else state.current_player  # one seat's turn
        expected = None if seat is None else policy.choose(state.view(seat))
        before = len(state.history)
        table.tick(table.deadline() or 0.0)
        if expected is not None:
            step = state.history[before]
            assert (step.seat, step.action) == (seat, expected)
            checked += 1
    assert checked > 20


def test_a_timeout_enters_trustee_and_plays_the_trustee_action() -> None:
    table = make_table("doudizhu-yifa", bot_delay=1.0, trustee="basic")
    table.start_hand("h", 3, now=0.0)
    actor = table.game_state.current_player
    table.drain()
    table.tick(19.9)
    assert table.drain() == []
    table.tick(20.0)
    frames = frames_of(table)[actor]
    assert kinds(frames) == ["TrusteeChanged", "BidMade"]
    assert events_of(frames)[1] == {"kind": "BidMade", "seat": actor, "points": 0, "robbed": None}
    assert frames[-1]["players"][actor]["trustee"] is True
    assert table.deadline() == 40.0  # the next seat's own 20 s
    assert refused(table.act, actor, "bid 3", 21.0) == "in_trustee"


def test_trustee_on_request_plays_after_the_delay_and_cancel_restarts_the_clock() -> None:
    table = make_table("doudizhu-zhengtu", bot_delay=1.0)
    table.start_hand("h", 1, now=0.0)
    assert table.game_state.current_player == 0
    table.set_trustee(0, True, now=5.0)
    assert table.deadline() == 1.0  # since the turn began, + bot_delay: due
    table.set_trustee(0, True, now=5.0)  # no change, no frame
    table.drain()
    table.set_trustee(0, False, now=6.0)
    assert kinds(frames_of(table)[0]) == ["TrusteeChanged"]
    assert table.deadline() == 26.0  # a fresh decision time
    table.act(0, "bid 1", now=7.0)
    assert table.game_state.current_player == 1


def test_ddz_disconnect_is_trustee_and_reconnecting_keeps_it_until_cancelled() -> None:
    """ "玩家可以随时再次登陆游戏并取消托管" (易发): a player still away after his few
    seconds of grace is in 托管, and coming back does not end it; he cancels it himself."""
    table = make_table("doudizhu-zhengtu", bot_delay=0.5)
    table.start_hand("h", 1, now=0.0)
    seen = max(f["n"] for f in frames_of(table)[2] if f["type"] == "event")
    table.disconnect(2, now=1.0)
    table.disconnect(2, now=1.5)  # already gone: nothing
    assert table.deadline() == 1.0 + RECONNECT_GRACE
    table.tick(1.0 + RECONNECT_GRACE)
    missed = frames_of(table)[2]
    assert kinds(missed) == ["TrusteeChanged"]
    table.act(0, "bid 1", now=7.0)
    table.act(1, "bid 0", now=8.0)
    assert table.deadline() == 8.5  # seat 2 in 托管: plays after the bot delay
    table.tick(8.5)
    missed += frames_of(table)[2]
    table.reconnect(2, now=9.0)
    back = frames_of(table)[2]
    assert kinds(back) == []  # still in 托管, now shown connected
    assert back[-1]["players"][2] | {"name": ""} == {
        "name": "",
        "bot": False,
        "trustee": True,
        "connected": True,
        "escaped": False,
    }
    assert refused(table.act, 2, "bid 2", 9.0) == "in_trustee"
    replay = wires(table.frames_since(2, seen))
    assert replay is not None
    sent = [f for f in missed + back if f["type"] == "event"]
    assert [f for f in replay if f["type"] == "event"] == sent
    assert replay[-1]["type"] == "turn" and replay[-1]["n"] == table.last_event
    assert wires(table.frames_since(2, table.last_event + 1)) is None
    assert wires(table.frames_since(2, -1)) is None
    snapshot = wire(table.snapshot(2))
    assert snapshot["view"] == view_json("doudizhu", table.game_state.view(2))
    assert snapshot["n"] == table.last_event and snapshot["commitment"] == commitment(1)
    assert snapshot["players"][2]["trustee"]
    table.set_trustee(2, False, now=10.0)  # 取消托管: his own choice
    assert kinds(frames_of(table)[2]) == ["TrusteeChanged"]
    assert not wire(table.snapshot(2))["players"][2]["trustee"]


def test_ddz_player_back_within_his_grace_is_never_in_trustee() -> None:
    """A reload (away a moment) is not 断线: back within the grace, his seat was never in
    托管, even on his turn; his decision time is not lengthened by the absence."""
    table = make_table("doudizhu-zhengtu", bot_delay=0.5)
    table.start_hand("h", 1, now=0.0)
    actor = table.game_state.current_player
    table.drain()
    table.disconnect(actor, now=1.0)
    table.tick(1.0 + RECONNECT_GRACE - 0.1)
    table.reconnect(actor, now=1.0 + RECONNECT_GRACE - 0.1)
    table.tick(1.0 + 2 * RECONNECT_GRACE)
    assert "TrusteeChanged" not in kinds(frames_of(table)[actor])
    assert not wire(table.snapshot(actor))["players"][actor]["trustee"]
    assert table.deadline() == table.room.decision_seconds  # his turn's own limit
    table.act(actor, "bid 1", now=12.0)


def zjh_table(grace_actor: bool) -> tuple[Table, int]:
    table = make_table("zhajinhua-yifa", bot_delay=1.0)
    table.start_hand("h", 11, now=0.0)
    actor = table.game_state.current_player
    table.drain()
    return table, actor if grace_actor else (actor + 2) % 5


def test_zjh_folds_an_absent_actor_after_the_grace() -> None:
    table, actor = zjh_table(grace_actor=True)
    table.disconnect(actor, now=0.0)
    assert table.deadline() == 30.0  # the grace, longer than the 20 s decision time
    table.tick(29.0)
    assert not table.game_state.folded[actor]
    table.tick(30.0)
    assert table.game_state.folded[actor]
    frames = frames_of(table)[actor]
    assert {"kind": "Folded", "seat": actor} in events_of(frames)
    assert frames[-1]["players"][actor] == {
        "name": f"seat{actor}",
        "bot": False,
        "trustee": True,
        "connected": False,
        "escaped": False,
    }


def test_zjh_absent_player_enters_trustee_at_the_grace_end_then_folds_on_his_turn() -> None:
    table, seat = zjh_table(grace_actor=False)
    table.disconnect(seat, now=0.0)
    for _ in range(100):
        if table.game_state.folded[seat] or not table.in_hand:
            break
        table.tick(table.deadline() or 0.0)
    assert table.game_state.folded[seat]
    assert wire(table.snapshot(seat))["players"][seat]["trustee"]


def test_zjh_player_back_within_the_grace_keeps_his_hand() -> None:
    table, actor = zjh_table(grace_actor=True)
    table.disconnect(actor, now=0.0)
    table.reconnect(actor, now=29.0)
    assert table.deadline() == 20.0  # his ordinary decision time again
    table.act(actor, "look", now=29.5)
    assert not table.game_state.folded[actor]


def test_showhand_timeout_keeps_in_a_swap_and_folds_when_betting() -> None:
    table = make_table("showhand-yifa", humans=(0,), bot_delay=0.0)
    table.start_hand("h", 2, now=0.0)
    table.set_trustee(0, True, now=0.0)
    run_out(table)
    state = table.game_state
    assert state.folded[0] or state.reason == "showdown"
    zero = [step.action for step in state.history if step.seat == 0]
    assert all(str(a) in ("keep", "fold") for a in zero)


def test_a_late_tick_catches_up_in_order() -> None:
    table = make_table("doudizhu-zhengtu", humans=(2,), bot_delay=1.0)
    table.start_hand("h", 1, now=0.0)
    table.tick(10.0)  # bots 0 and 1 were due at 1.0 and 2.0
    assert [step.seat for step in table.game_state.history] == [0, 1]
    assert table.game_state.current_player == 2
    assert table.deadline() == 22.0  # from 2.0, when his turn began
    table.tick(30.0)  # his timeout at 22.0, then the play goes on from there
    assert wire(table.snapshot(2))["players"][2]["trustee"]


# --- escapes ----------------------------------------------------------------------------


@pytest.mark.parametrize("room_id", ["doudizhu-caishen", "doudizhu-huanle", "doudizhu-zhengtu"])
def test_escape_ends_a_dou_dizhu_hand_with_the_presets_penalty(room_id: str) -> None:
    table = make_table(room_id, bot_delay=0.0, deal_step=0.0)
    table.start_hand("h", 5, now=0.0)
    table.tick(0.0)  # dealt
    asked = table.escape_cost(1)  # what the player is told before he leaves
    table.escape(1, now=1.0)
    state = table.game_state
    expected = escape_points(state.facts(), 1)
    assert asked is not None and asked[0].least <= -expected[1] <= asked[0].most
    if room_id != "doudizhu-huanle":  # nothing hidden from him changes the others' price
        assert asked[0].least == asked[0].most
    assert state.returns() == expected
    outcome = table.outcome
    assert outcome is not None and table.is_over and not table.in_hand
    assert outcome.escaper == 1 and outcome.winners == ()
    assert outcome.settlement.points == expected and expected[1] < 0
    taken = -outcome.settlement.net[1]  # all his balance lost: the stake and the fee
    assert asked[1].least <= taken <= asked[1].most
    room = ROOMS[room_id]
    if room_id == "doudizhu-huanle":  # not the stake alone: 扣除 N tells the whole amount
        assert taken == -outcome.settlement.stakes[1] + room.fee
    if room.rules == "zhengtu":
        assert outcome.settlement.net == (0, 0, 0)
    elif room.rules == "huanle":
        assert outcome.settlement.fees == (room.fee,) * 3
    else:
        assert outcome.settlement.net == tuple(p * room.coefficient for p in expected)
    assert outcome.record is not None and outcome.record.actions[-1] == (1, "escape")
    assert refused(table.escape, 1, 2.0) == "hand_over"


@pytest.mark.parametrize("room_id", ["doudizhu-yifa", "doudizhu-jj"])
def test_escape_without_an_escape_model_plays_the_seat_in_trustee(room_id: str) -> None:
    table = make_table(room_id, humans=(0,), bot_delay=0.0, deal_step=0.0)
    table.start_hand("h", 5, now=0.0)
    table.tick(0.0)
    assert table.escape_cost(0) is None  # 托管 plays his seat on: the hand's result
    table.escape(0, now=1.0)
    assert table.in_hand or table.outcome is not None
    assert wire(table.snapshot(0))["players"][0] == {
        "name": "seat0",
        "bot": False,
        "trustee": True,
        "connected": True,
        "escaped": True,
    }
    if table.in_hand:
        assert refused(table.set_trustee, 0, False, 2.0) == "escaped"
        assert refused(table.act, 0, "bid 0", 2.0) == "escaped"
        assert refused(table.escape, 0, 2.0) == "escaped"
        table.reconnect(0, now=2.0)  # connected already: nothing
    table.tick(2.0)
    outcome = table.outcome
    assert outcome is not None and outcome.escaper == 0 and not outcome.voided
    assert outcome.record is not None and (0, "trustee on") in outcome.record.actions


@pytest.mark.parametrize("room_id", ["zhajinhua-yifa", "showhand-yifa"])
def test_escape_in_a_betting_game_folds_the_seat(room_id: str) -> None:
    table = make_table(room_id, bot_delay=5.0)
    table.start_hand("h", 4, now=0.0)
    actor = table.game_state.current_player
    asked = table.escape_cost(actor)  # the chips he has in the pot (the ante)
    table.escape(actor, now=1.0)  # his turn: he folds at once
    state = table.game_state
    assert state.folded[actor] and state.history[-1].seat == actor
    assert wire(table.snapshot(actor))["players"][actor]["escaped"]
    for seat in range(len(table.seats)):
        if seat != actor:
            table.set_trustee(seat, True, now=1.0)
    run_out(table)
    outcome = table.outcome
    assert outcome is not None and outcome.escaper == actor
    net = outcome.settlement.net
    assert net[actor] < 0 and actor not in outcome.winners
    assert asked is not None and asked[0] == asked[1] == EscapeCost.exact(-net[actor])


# --- the paced deal ---------------------------------------------------------------------


def test_huanle_is_dealt_in_steps_with_show_windows() -> None:
    table = make_table("doudizhu-huanle", humans=(0, 1), deal_step=2.0)
    table.start_hand("h", 9, now=0.0)
    assert table.game_state.cards_dealt == 0 and table.deadline() == 2.0
    turn = frames_of(table)[0][-1]
    assert turn["seat"] is None and turn["options"] == ["show"]
    table.act(0, "show", now=0.5)  # 明牌开始 ×5
    assert refused(table.act, 0, "show", 0.6) == "already_shown"
    table.tick(2.0)
    assert table.game_state.cards_dealt == 8
    table.act(1, "show", now=3.0)  # 发牌明牌 ×4
    table.tick(4.0)
    assert table.game_state.cards_dealt == 16
    table.tick(6.0)
    state = table.game_state
    assert state.cards_dealt == 17 and state.current_player == 0  # the first shower bids first
    assert state.shows == [5, 4, 1]
    frames = [f for f in frames_of(table)[1] if f["type"] == "event"]
    dealt = [e for e in events_of(frames) if e["kind"] == "CardsDealt"]
    assert [e["seat"] for e in dealt] == [0, 1] * 3  # three steps: 8, 16, 17 cards
    assert [e["public"] for e in dealt] == [True, False, True, True, True, True]
    assert len(frames) - len(events_of(frames)) == 3  # seat 2's cards: placeholders


def _to_doubling(table: Table, now: float) -> float:
    """Deal and bid (seat 0 calls, nobody robs) up to the 加倍 choice; the time then."""
    table.start_hand("h", 5, now=now)
    state = table.game_state
    while state.phase.value == "deal":
        now += 1.0
        table.tick(now)
    while state.phase.value in ("bid", "rob"):
        seat = state.current_player
        if table.seats[seat].is_bot:
            now = table.deadline()
            table.tick(now)
            continue
        action = "call" if seat == 0 and state.phase.value == "bid" else "nocall"
        table.act(seat, action if state.phase.value == "bid" else "norob", now)
    assert state.phase.value == "double"
    return now


@pytest.mark.parametrize("room_id", ["doudizhu-huanle", "doudizhu-jj"])
def test_doubling_is_chosen_at_once_on_one_clock_and_kept_secret(room_id: str) -> None:
    """ "每个人都做完选择后，游戏开始由地主出牌" and "完成加倍或不加倍的操作后必须等待其他玩家进行完
    相关操作…或直到限制时间到": all choose at once, on one time limit, secretly."""
    table = make_table(room_id, humans=(0, 1, 2))
    now = _to_doubling(table, 0.0)
    assert table.game_state.landlord == 0
    frames_of(table)
    limit = now + table.room.decision_seconds
    assert table.deadline() == limit
    table.act(1, "double", now + 1.0)
    frames = frames_of(table)
    for seat in (0, 1, 2):
        turn = frames[seat][-1]
        assert turn["seat"] is None and turn["deciding"] == [s for s in (2, 0) if s != 1]
        assert ("legal" in turn) == (seat != 1)
        events = [f for f in frames[seat] if f["type"] == "event"]
        assert [("event" in f) for f in events] == [seat == 1]  # others: a placeholder
    assert table.deadline() == limit  # one clock for all: a choice does not restart it
    table.act(0, "nodouble", now + 2.0)
    table.tick(limit)  # seat 2 let the time run out: he has not doubled, and no 托管
    state = table.game_state
    assert state.doubled == [False, True, False] and state.phase.value != "double"
    assert not state.trustee[2]
    revealed = [e for e in events_of(frames_of(table)[0]) if e["kind"] == "DoublesRevealed"]
    assert revealed == [{"kind": "DoublesRevealed", "doubled": [False, True, False]}]


def test_bots_and_trustee_seats_decline_doubling_after_the_delay() -> None:
    table = make_table("doudizhu-huanle", humans=(0, 1), trustee="basic")
    now = _to_doubling(table, 0.0)
    table.set_trustee(1, True, now)
    assert table.deadline() == now + 1.0  # the bot and the 托管 seat: after the bot delay
    table.tick(now + 1.0)
    state = table.game_state
    assert state.deciding == (0,)  # only the player is still to choose
    assert table.deadline() == now + table.room.decision_seconds
    table.act(0, "double", now + 2.0)
    assert state.doubled[0] and not state.doubled[1] and state.phase.value != "double"


# --- the end of a hand and the next -----------------------------------------------------


def test_hand_over_reveals_the_seed_and_a_verifiable_record() -> None:
    table = make_table("zhajinhua-yifa", humans=(0, 1), bot_delay=0.0)
    table.start_hand("first", 21, now=0.0)
    published = frames_of(table)[0][0]["commitment"]
    table.set_trustee(0, True, now=0.0)
    table.set_trustee(1, True, now=0.0)
    table.tick(0.0)
    outcome = table.outcome
    assert outcome is not None and table.is_over
    over = frames_of(table)[1][-1]
    assert over["type"] == "hand_over" and over["hand"] == "first" and over["seed"] == "21"
    assert over["result"] == list(outcome.settlement.net) and over["n"] == table.last_event
    record = HandRecord.from_json(json.dumps(over["record"]))
    assert record == outcome.record and verify(record, published=published).ok
    assert [s.balance for s in table.seats] == [RICH + n for n in outcome.settlement.net]
    assert outcome.winners == (table.game_state.winner,)
    last = table.last_event
    table.start_hand("second", 22, now=10.0)
    frames = frames_of(table)[0]
    assert frames[0]["type"] == "hand_start" and frames[0]["n"] == last
    assert frames[1]["n"] == last + 1 and frames[0]["hand_number"] == 1
    assert table.game_state.dealer == outcome.winners[0]  # the winner deals
    assert wire(table.snapshot(0))["players"][0]["trustee"] is True  # 托管 carries on


def test_tables_of_trustee_seats_that_never_bid_are_voided() -> None:
    table = make_table("doudizhu-yifa", bot_delay=0.0, trustee="basic")
    for seat in range(3):
        table.set_trustee(seat, True, now=0.0)
    table.start_hand("h", 1, now=0.0)
    table.tick(0.0)
    outcome = table.outcome
    assert outcome is not None and outcome.voided and outcome.record is None
    assert table.game_state.deal_number == MAX_DEALS + 1
    assert outcome.settlement.net == (0, 0, 0) and outcome.winners == ()
    over = frames_of(table)[0][-1]
    assert over["voided"] is True and over["record"] is None


def test_frames_since_is_bounded_by_the_history() -> None:
    table = make_table("showhand-yifa", humans=(0,), bot_delay=0.0)
    hands = 0
    while table.last_event <= HISTORY_LIMIT + 50:
        table.start_hand(f"h{hands}", hands, now=float(hands))
        table.set_trustee(0, True, now=float(hands))
        run_out(table)
        hands += 1
    assert wires(table.frames_since(0, 0)) is None
    latest = wires(table.frames_since(0, table.last_event))
    assert latest is not None and latest[-1]["type"] == "hand_over"
    oldest = table.last_event - HISTORY_LIMIT + 100
    replay = wires(table.frames_since(0, oldest))
    assert replay is not None
    assert [f["n"] for f in replay if f["type"] == "event"] == list(
        range(oldest + 1, table.last_event + 1)
    )


# --- refused calls ----------------------------------------------------------------------


def test_every_refused_call_has_a_code_and_changes_nothing() -> None:
    table = make_table("doudizhu-zhengtu", humans=(0, 1), balance=200)
    codes = []

    def check(call: Any, *args: Any) -> None:
        table.drain()
        before = fingerprint(table)
        codes.append(refused(call, *args))
        assert fingerprint(table) == before
        assert table.drain() == []

    check(table.act, 0, "bid 1", 0.0)  # no hand yet
    check(table.escape, 0, 0.0)
    check(table.start_hand, "", 1, 0.0)
    check(table.start_hand, "h", -1, 0.0)
    table.start_hand("h", 1, now=0.0)
    check(table.start_hand, "h2", 2, 0.0)
    for seat in (-1, 3, "0", True, None):
        check(table.act, seat, "bid 1", 1.0)
    for text in ("", "bid", "bid 7", "dance", "play 3x", 7, "bid 1" * 100):
        check(table.act, 0, text, 1.0)
    check(table.act, 1, "bid 1", 1.0)  # seat 0 bids first
    check(table.act, 0, "play 3", 1.0)
    check(table.act, 0, "trustee on", 1.0)
    check(table.act, 0, "escape", 1.0)
    check(table.act, 2, "bid 1", 1.0)  # a bot's seat
    check(table.set_trustee, 2, True, 1.0)
    check(table.disconnect, 2, 1.0)
    check(table.escape, 5, 1.0)
    check(table.frames_since, 9, 0)
    check(table.snapshot, -1)
    table.act(0, "bid 1", now=1.0)
    check(table.act, 0, "bid 2", 1.0)  # not his turn any more
    check(table.act, 1, "bid 1", 1.0)  # too low
    table.set_trustee(0, True, now=1.0)
    table.set_trustee(1, True, now=1.0)
    run_out(table)
    check(table.act, 0, "bid 1", 100.0)
    check(table.escape, 1, 100.0)
    if min(s.balance for s in table.seats) < table.room.min_coins:
        check(table.start_hand, "h3", 3, 100.0)
    assert set(codes) >= {
        "no_hand",
        "bad_hand",
        "bad_seed",
        "hand_in_progress",
        "bad_seat",
        "bad_action",
        "not_your_turn",
        "wrong_phase",
        "not_a_move",
        "bot_seat",
        "bid_too_low",
        "hand_over",
    }


def test_not_enough_coins_to_start() -> None:
    table = make_table("doudizhu-yifa", balance=95)  # the minimum is 96
    with pytest.raises(IllegalActionError, match="not_enough_coins"):
        table.start_hand("h", 1, now=0.0)
    assert table.drain() == [] and table.game_state is None


def test_bad_tables_are_refused() -> None:
    room = ROOMS["doudizhu-yifa"]
    seat = SeatInfo("a", "A", 100)
    rng = random.Random(0)
    with pytest.raises(InvalidActionError, match="bad_seats"):
        Table(room, 1, [seat, seat], now=0.0, rng=rng)
    with pytest.raises(InvalidActionError, match="bad_seats"):
        Table(room, 1, [seat, seat, SeatInfo(None, "b", -1)], now=0.0, rng=rng)
    with pytest.raises(InvalidActionError, match="bad_delay"):
        Table(room, 1, [seat] * 3, now=0.0, bot_delay=-1.0, rng=rng)


def test_the_ending_of_a_hand_is_a_snapshot_and_its_hand_over() -> None:
    table = make_table("zhajinhua-yifa", (0,), bot_delay=0.0)
    assert refused(table.ending, 0) == "no_hand"
    table.start_hand("h1", 5, 0.0)
    assert refused(table.ending, 0) == "hand_not_over"
    table.set_trustee(0, True, 0.0)  # the system folds for him
    run_out(table)
    snapshot, over = wires(table.ending(0))
    assert (snapshot["type"], snapshot["seat"], snapshot["hand"]) == ("snapshot", 0, "h1")
    assert snapshot["view"]["returns"] is not None  # the final view
    published = [f for f in frames_of(table)[0] if f["type"] == "hand_over"]
    assert published == [over]  # the very frame the seat was sent
    assert refused(table.ending, 9) == "bad_seat"


def _played_out(table: Table, seed: int) -> Wire:
    """The hand_over frame of a hand at ``table`` with seat 0 (its only player) in 托管."""
    table.start_hand("h", seed, now=0.0)
    table.set_trustee(0, True, now=0.0)
    run_out(table)
    [over] = [f for f in frames_of(table)[0] if f["type"] == "hand_over"]
    return over


@pytest.mark.parametrize("room_id", ["doudizhu-yifa", "doudizhu-jj", "doudizhu-caishen"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hand_over_shows_every_seats_cards_and_why_the_points(room_id: str, seed: int) -> None:
    over = _played_out(make_table(room_id, humans=(0,), bot_delay=0.0, deal_step=0.0), seed)
    cards = over["cards"]
    left = sum(len(hand) for hand in cards["hands"])
    played = sum(len(play) for play in cards["played"])
    assert left + played == (55 if room_id.endswith("caishen") else 54)
    assert min(len(hand) for hand in cards["hands"]) == 0  # the winner's hand is empty
    explain = over["explain"]
    points = over["points"]
    for pair in explain["pairs"]:
        product = 1
        for _reason, _count, factor in pair["factors"]:
            product *= factor
        assert pair["multiplier"] == product or pair["capped"]
        if not explain["liable"]:  # jj's 托管 liability moves the farmers' points
            assert abs(points[pair["farmer"]]) == explain["base"] * pair["multiplier"]
    farmers = [pair["farmer"] for pair in explain["pairs"]]
    held = room_id == "doudizhu-jj" and 0 in farmers  # seat 0 played in 托管 from the start
    assert explain["liable"] == ([0] if held else [])
    assert over["limited"] == [0, 0, 0]  # rich seats: no limit


def test_hand_over_names_what_the_balances_limited() -> None:
    room = dataclasses.replace(ROOMS["doudizhu-yifa"], min_coins=0, coefficient=100)
    seats = [SeatInfo("p0", "seat0", 30), SeatInfo(None, "seat1", 30), SeatInfo(None, "seat2", 30)]
    table = Table(room, 7, seats, now=0.0, bot_delay=0.0, rng=random.Random(0), deal_step=0.0)
    over = _played_out(table, 5)
    stakes = [n + r + f for n, r, f in zip(over["result"], over["rake"], over["fees"], strict=True)]
    coins = [p * room.coefficient for p in over["points"]]
    assert over["limited"] == [s - c for s, c in zip(stakes, coins, strict=True)]
    assert any(over["limited"])  # 30 coins cannot pay a room of this coefficient in full


def test_a_play_naming_its_cards_shows_those_cards_to_everyone_and_replays() -> None:
    """Issue 27: the browser sends the cards the player lifted (``play 8 @8c``); every seat
    sees those cards played, and the record replays them exactly."""
    table = make_table("doudizhu-zhengtu", bot_delay=0.0)
    table.start_hand("picked", 5, now=0.0)
    published = frames_of(table)[0][0]["commitment"]
    state = table.game_state
    seat = state.current_player
    table.act(seat, "bid 3", now=0.0)
    hand = [str(card) for card in state.hands[seat]]
    rank = next(card[0] for card in hand if sum(c[0] == card[0] for c in hand) >= 2)
    last = [card for card in hand if card[0] == rank][-1]  # not the one the suit order takes
    frames_of(table)
    table.act(seat, f"play {rank} @{last}", now=0.0)
    for frames in frames_of(table).values():
        played = next(e for e in events_of(frames) if e["kind"] == "Played")
        assert played["cards"] == [last] and played["move"] == rank
    for other in range(3):  # the others play on by 托管 to the end
        table.set_trustee(other, True, now=0.0)
    table.tick(0.0)
    outcome = table.outcome
    assert outcome is not None
    assert (seat, f"play {rank} @{last}") in outcome.record.actions
    assert verify(outcome.record, published=published).ok
