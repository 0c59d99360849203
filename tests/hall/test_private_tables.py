"""Private tables 好友房 in the live hall's core, by plain calls: created, joined by code,
readied, started (with bots or full), played on to their 局数 with a scoreboard, left,
escaped, kicked, closed, given up after the grace time; every refusal changes nothing,
and nobody is at two places."""

from __future__ import annotations

from typing import Any

import pytest
from core_kit import World, room

from qipai.errors import GameError
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.private.options import PrivateOptions, load_private
from qipai.hall.private.tables import TableFullError
from qipai.hall.rooms import load_rooms
from qipai.hall.table.live import Phase

HUANLE = room("doudizhu-huanle")
YIFA = room("doudizhu-yifa")
YIFA_JUNIOR = room("doudizhu-yifa-junior")
ZJH = room("zhajinhua-yifa")
ROOMS = [HUANLE, YIFA, YIFA_JUNIOR, ZJH]


def hall(*users: int, coins: int = 10_000) -> World:
    """A hall with ``users`` signed in."""
    world = World(ROOMS, coins=coins)
    for user in users:
        world.core.player(user, f"p{user}")
    return world


def create(
    world: World, user: int, game: str = "doudizhu", rules: str = "huanle", **kw: Any
) -> str:
    """``user`` creates a table; its code."""
    world.handle(c.CreatePrivate(user, PrivateOptions(game, rules, **kw), world.balance(user)))
    code = world.core.players[user].private
    assert code is not None
    return code


def join(world: World, user: int, code: str) -> None:
    world.handle(c.JoinPrivate(user, code, world.balance(user)))


def last(world: World, user: int, kind: str = "private_table") -> dict[str, Any]:
    return world.frames(user, kind)[-1]


def state(world: World) -> object:
    """Everything a refusal must leave as it was."""
    tables = [
        (t.code, t.owner, list(t.seats), sorted(t.ready), t.played, t.state, t.closing)
        for t in world.core.private.tables.values()
    ]
    players = [(u, p.room, p.table, p.private, p.leaving) for u, p in world.core.players.items()]
    return tables, players, len(world.effects), len(world.core.flow.tables)


def refused(world: World, command: c.Command, code: str) -> GameError:
    before = state(world)
    error = world.try_handle(command)
    assert error is not None and error.code == code, error
    assert state(world) == before
    return error


def full_table(world: World, *, hands: int = 6, **kw: Any) -> str:
    """Users 1, 2, 3 at one table, all ready: its first hand being recorded."""
    code = create(world, 1, hands=hands, **kw)
    join(world, 2, code)
    join(world, 3, code)
    for user in (1, 2, 3):
        world.handle(c.Ready(user))
    return code


def test_a_table_is_created_with_a_code_and_the_owner_at_seat_0() -> None:
    world = hall(1)
    code = create(world, 1)
    assert len(code) == 6 and code.isdigit()
    frame = last(world, 1)
    assert frame["link"] == f"/?p={code}" and frame["owner"] == 0 and frame["you"] == 0
    assert frame["state"] == "waiting" and frame["table"] is None and frame["played"] == 0
    assert frame["seats"] == [
        {"name": "p1", "ready": False, "bot": False, "connected": True},
        None,
        None,
    ]
    assert (frame["hands"], frame["stakes"], frame["seconds"]) == (
        6,
        "points",
        HUANLE.decision_seconds,
    )
    assert world.core.private.table_of_code(code) is None


def test_people_join_by_code_in_arrival_order_and_the_table_starts_when_all_are_ready() -> None:
    world = hall(1, 2, 3)
    code = create(world, 1)
    join(world, 2, code)
    join(world, 3, code)
    frame = last(world, 3)
    assert [s["name"] for s in frame["seats"]] == ["p1", "p2", "p3"] and frame["you"] == 2
    world.handle(c.Ready(1))
    world.handle(c.Ready(2))
    assert not world.pending and last(world, 1)["seats"][1]["ready"] is True
    world.handle(c.Ready(3))
    [record] = world.pending
    assert isinstance(record, e.RecordHandStart) and record.room == last(world, 1)["room"]
    assert record.room.startswith("private:") and code not in record.room  # an opaque id
    assert record.players == (1, 2, 3)
    number = world.core.private.table_of_code(code)
    assert number is not None and all(last(world, u)["table"] == number for u in (1, 2, 3))
    assert last(world, 2)["state"] == "playing"


def test_the_owner_starts_with_bots_and_a_points_table_plays_its_hands_to_the_end() -> None:
    world = hall(1, 2)
    code = create(world, 1, hands=6)
    join(world, 2, code)
    refused(world, c.StartPrivate(1), "not_ready")
    world.handle(c.Ready(1))
    refused(world, c.StartPrivate(2), "not_owner")
    world.handle(c.Ready(2))
    world.handle(c.StartPrivate(1))
    world.answer_all()
    world.handle(c.Trustee(2, True))  # 托管 plays him
    world.run_until_quiet()
    boards = world.frames(1, "scoreboard")
    assert [b["over"] for b in boards] == [False] * 5 + [True]
    final = boards[-1]
    assert len(final["rows"]) == 6 and [r["number"] for r in final["rows"]] == list(range(1, 7))
    assert final["totals"] == [
        sum(col) for col in zip(*(r["points"] for r in final["rows"]), strict=True)
    ]
    assert all(sum(r["points"]) == 0 for r in final["rows"])  # Dou Dizhu points: zero-sum
    assert final["names"][:2] == ["p1", "p2"]
    assert world.frames(2, "scoreboard")[-1] == final
    assert world.ledger == {1: 10_000, 2: 10_000}  # points: no coin moved
    assert [o.hand_id for o in world.settled] == [r["hand"] for r in final["rows"]]
    assert last(world, 1)["state"] == "closed" and last(world, 1)["played"] == 6
    assert all(world.core.players[u].private is None for u in (1, 2))
    [kept] = [x for x in world.effects if isinstance(x, e.KeepScoreboard)]
    assert kept.users == (1, 2) and kept.code == code and kept.scoreboard.over
    assert kept.base is not None and kept.base == last(world, 1)["base"]  # its stake, kept
    refused(world, c.JoinPrivate(3 if 3 in world.core.players else 1, code, 0), "table_closed")


def test_the_owners_start_is_his_ready_alone_or_with_others_ready() -> None:
    world = hall(1, 2)
    code = create(world, 1)
    world.handle(c.StartPrivate(1))  # alone, not ready: bots fill seats 1 and 2
    [record] = world.pending
    assert isinstance(record, e.RecordHandStart) and record.room == last(world, 1)["room"]
    seats = world.core.flow.tables[record.table].table.seats
    assert record.bots == (None, seats[1].name, seats[2].name)  # kept for the replay
    assert all(name and not name.startswith("机器人") for name in record.bots[1:])
    assert last(world, 1)["state"] == "playing"
    other = hall(1, 2)
    code = create(other, 1)
    join(other, 2, code)
    refused(other, c.StartPrivate(1), "not_ready")  # another person present must be ready
    other.handle(c.Ready(2))
    other.handle(c.StartPrivate(1))
    assert last(other, 2)["state"] == "playing"


def test_a_coins_table_settles_through_the_ledger_and_keeps_every_coin() -> None:
    world = hall(1, 2)
    code = create(world, 1, stakes="coins", base=10, rules="yifa")
    assert world.core.private.tables[code].room.coefficient == 10
    join(world, 2, code)
    world.handle(c.Ready(1))
    world.handle(c.Ready(2))
    world.handle(c.StartPrivate(1))
    world.run_until_quiet()
    final = last(world, 1, "scoreboard")
    assert final["over"] and len(final["rows"]) == 6
    settled = [o for o in world.settled if not o.voided]
    assert [o.hand_id for o in settled] == [r["hand"] for r in final["rows"]]
    for outcome in settled:
        assert sum(outcome.settlement.net) + outcome.settlement.house == 0
        row = final["rows"][settled.index(outcome)]
        assert list(outcome.settlement.net) == row["points"]
    for seat, user in enumerate((1, 2)):
        assert world.ledger[user] == 10_000 + final["totals"][seat]


def test_bad_options_and_unknown_codes_are_refused_and_change_nothing() -> None:
    world = hall(1, 2, coins=50)
    bad = [
        PrivateOptions("doudizhu", "huanle", hands=5),
        PrivateOptions("doudizhu", "huanle", stakes="gold"),
        PrivateOptions("doudizhu", "huanle", base=10),
        PrivateOptions("doudizhu", "huanle", seconds=5),
        PrivateOptions("doudizhu", "huanle", delay=61),
        PrivateOptions("zhajinhua", "yifa", tasks=True),
        PrivateOptions("doudizhu", "nope"),
        PrivateOptions("doudizhu", "yifa", stakes="coins", base=7),
    ]
    for options in bad:
        error = refused(world, c.CreatePrivate(1, options, 50), "bad_private")
        assert "field" in error.message
    coins = PrivateOptions("doudizhu", "yifa", stakes="coins", base=10)
    refused(world, c.CreatePrivate(1, coins, 50), "insufficient_coins")
    refused(world, c.JoinPrivate(1, "000000", 50), "unknown_code")
    for command in (c.Ready(1), c.StartPrivate(1), c.KickPrivate(1, 1), c.ClosePrivate(1)):
        refused(world, command, "not_private")
    world.ledger[2] = 10_000
    code = create(world, 2, stakes="coins", rules="yifa")  # the lowest room: 96 coins
    refused(world, c.JoinPrivate(1, code, 50), "insufficient_coins")
    points = create(world, 1)  # no coin needed
    assert world.core.players[1].private == points


def test_a_full_table_offers_to_watch_where_spectators_are_allowed() -> None:
    world = hall(1, 2, 3, 4)
    code = full_table(world)
    error = refused(world, c.JoinPrivate(4, code, 10_000), "table_full")
    assert isinstance(error, TableFullError) and error.watch
    other = hall(1, 2, 3, 4)
    code = full_table(other, spectators=False)
    error = refused(other, c.JoinPrivate(4, code, 10_000), "table_full")
    assert isinstance(error, TableFullError) and not error.watch


def test_the_owners_commands_are_his_and_checked() -> None:
    world = hall(1, 2, 3)
    code = create(world, 1, bots=False)
    join(world, 2, code)
    refused(world, c.KickPrivate(2, 0), "not_owner")
    refused(world, c.ClosePrivate(2), "not_owner")
    refused(world, c.KickPrivate(1, 2), "empty_seat")
    refused(world, c.KickPrivate(1, 7), "empty_seat")
    refused(world, c.KickPrivate(1, 0), "own_seat")
    world.handle(c.Ready(1))
    world.handle(c.Ready(2))
    refused(world, c.StartPrivate(1), "no_bots")
    join(world, 3, code)
    world.handle(c.Ready(3))
    refused(world, c.StartPrivate(1), "started")
    refused(world, c.Ready(2, False), "started")
    refused(world, c.KickPrivate(1, 1), "started")


def test_the_owner_removes_a_person_before_the_first_hand() -> None:
    world = hall(1, 2, 3)
    code = create(world, 1)
    join(world, 2, code)
    world.handle(c.KickPrivate(1, 1))
    assert world.frames(2, "left")[-1] == {
        "type": "left",
        "room": last(world, 1)["room"],
        "reason": "kicked",
    }
    assert world.core.players[2].private is None and last(world, 1)["seats"][1] is None
    join(world, 3, code)
    assert last(world, 3)["you"] == 1


def test_ownership_passes_to_the_next_person_in_seat_order_when_the_owner_leaves() -> None:
    world = hall(1, 2, 3)
    code = create(world, 1)
    join(world, 2, code)
    join(world, 3, code)
    world.handle(c.Leave(1))
    assert world.core.players[1].private is None
    assert last(world, 2)["owner"] == 1 and last(world, 2)["seats"][0] is None
    assert world.core.private.tables[code].owner == 2
    refused(world, c.StartPrivate(3), "not_owner")
    join(world, 1, code)  # he comes back to the first free seat
    assert last(world, 1)["you"] == 0 and last(world, 1)["owner"] == 1


def test_a_person_who_leaves_a_running_points_hand_escapes_and_the_table_waits_again() -> None:
    world = hall(1, 2, 3)
    code = full_table(world)
    world.answer_all()
    number = world.core.private.table_of_code(code)
    world.handle(c.Leave(3))
    assert world.frames(3, "leaving")
    world.run_until_quiet()
    [outcome] = world.settled
    assert outcome.escaper == 2
    board = last(world, 1, "scoreboard")
    assert board["rows"][0]["points"] == list(outcome.settlement.points) and not board["over"]
    frame = last(world, 1)
    assert frame["state"] == "waiting" and frame["seats"][2] is None and frame["table"] is None
    assert frame["played"] == 1 and not frame["seats"][0]["ready"]  # ready again for the next
    assert world.core.players[3].private is None and world.core.players[3].table is None
    assert number not in world.core.flow.tables
    join(world, 3, code)
    for user in (1, 2, 3):
        world.handle(c.Ready(user))
    assert world.core.private.table_of_code(code) not in (None, number)


def test_leaving_between_hands_closes_the_live_table_at_once() -> None:
    world = hall(1, 2)
    code = create(world, 1, hands=0)
    join(world, 2, code)
    world.handle(c.Ready(1))
    world.handle(c.Ready(2))
    world.handle(c.StartPrivate(1))
    for _ in range(5_000):
        world.answer_all()
        if next(iter(world.core.flow.tables.values())).phase is Phase.PAUSED:
            break
        assert world.advance()
    world.handle(c.Leave(2))
    assert not world.core.flow.tables and world.core.players[2].private is None
    assert last(world, 1)["state"] == "waiting"
    assert world.settled[-1].escaper is None


def test_the_owner_closes_the_table_after_the_hand_in_play() -> None:
    world = hall(1, 2)
    code = create(world, 1, hands=0)
    join(world, 2, code)
    world.handle(c.Ready(1))
    world.handle(c.Ready(2))
    world.handle(c.StartPrivate(1))
    world.answer_all()
    world.handle(c.ClosePrivate(1))
    assert world.core.private.tables[code].closing
    for user in (1, 2):  # told at once: it closes after this hand
        told = last(world, user, "private_table")
        assert told["state"] == "playing" and told["closing"] is True
    world.run_until_quiet()
    assert len(world.settled) == 1
    final = last(world, 2, "scoreboard")
    assert final["over"] and len(final["rows"]) == 1 - world.settled[0].voided
    assert code not in world.core.private.tables
    waiting = hall(1)
    other = create(waiting, 1)
    waiting.handle(c.ClosePrivate(1))
    assert last(waiting, 1, "scoreboard") == {
        "type": "scoreboard", "code": other, "table": None, "names": ["", "", ""],
        "rows": [], "totals": [0, 0, 0], "over": True,
    }  # fmt: skip


def test_a_table_with_nobody_connected_closes_after_the_grace_time() -> None:
    world = hall(1, 2)
    code = create(world, 1)
    join(world, 2, code)
    world.handle(c.Presence(1, False))
    assert last(world, 2)["seats"][0]["connected"] is False
    world.handle(c.Presence(2, False))
    assert world.wake == world.now + 120
    world.now += 60
    world.handle(c.Presence(2, True))  # back in time: the clock stops
    world.handle(c.Presence(2, False))
    world.now += 119
    world.handle(c.Tick())
    assert code in world.core.private.tables
    world.now += 1
    world.handle(c.Tick())
    assert code not in world.core.private.tables
    assert world.core.holds(1) is False and world.core.holds(2) is False


def test_a_returning_person_is_told_his_private_table() -> None:
    world = hall(1)
    code = create(world, 1)
    world.handle(c.Presence(1, False))
    [reply] = [x for x in world.handle(c.Resume(1)) if isinstance(x, e.Reply)]
    assert [f.code for f in reply.frames] == [code]  # type: ignore[union-attr]


def test_a_person_is_at_one_place_only() -> None:
    world = hall(1, 2)
    code = create(world, 1)
    refused(
        world, c.CreatePrivate(1, PrivateOptions("doudizhu", "huanle"), 10_000), "already_in_room"
    )
    refused(world, c.JoinPrivate(1, code, 10_000), "already_in_room")
    refused(world, c.Join(1, YIFA.id, 10_000), "already_in_room")
    other = create(world, 2)
    refused(world, c.JoinPrivate(1, other, 10_000), "already_in_room")
    world.handle(c.Leave(2))
    world.join(2, YIFA.id)
    refused(world, c.JoinPrivate(2, code, 10_000), "already_in_room")
    refused(
        world, c.CreatePrivate(2, PrivateOptions("doudizhu", "huanle"), 10_000), "already_in_room"
    )
    world.core.player(3, "p3").table = 99  # a match's table
    refused(world, c.JoinPrivate(3, code, 10_000), "in_match")


def test_seconds_tasks_and_the_stake_come_into_the_tables_room() -> None:
    world = hall(1, 2)
    code = create(world, 1, seconds=15, tasks=True)
    live_room = world.core.private.tables[code].room
    assert live_room.decision_seconds == 15 and live_room.tasks and not live_room.regroup
    other = create(world, 2, game="zhajinhua", rules="yifa", stakes="coins", base=1)
    assert last(world, 2)["base"] == 1 and world.core.private.tables[other].room.base == 1


def test_the_rooms_file_private_section() -> None:
    settings = load_private(
        '[private]\ngrace_seconds = 30\ntasks = ["spring"]\nseconds = [5, 30]\n'
    )
    assert (settings.grace_seconds, settings.tasks, settings.seconds) == (
        30.0,
        ("spring",),
        (5, 30),
    )
    assert load_private("").grace_seconds == 120
    room_text = '[[room]]\nid = "x"\nname = "x"\ngame = "doudizhu"\nrules = "yifa"\n'
    text = f"[private]\ngrace_seconds = 5\n{room_text}"
    assert [r.id for r in load_rooms(text)] == ["x"] and load_private(text).grace_seconds == 5
    for text in (
        "[private]\nnope = 1",
        "[private]\nseconds = [9, 2]",
        "[private]\ngrace_seconds = -1",
    ):
        with pytest.raises(GameError, match="bad_room"):
            load_private(text)


def test_spectators_watch_a_private_table_by_code_and_see_its_scoreboards() -> None:
    world = hall(1, 9)
    code = create(world, 1, hands=6)
    world.handle(c.Ready(1))
    world.handle(c.StartPrivate(1))
    number = world.core.private.table_of_code(code)
    assert number is not None
    world.handle(c.Spectate(9, table=number))
    world.run_until_quiet()
    boards = world.frames(9, "scoreboard")
    assert boards and boards[-1]["over"] and "code" not in boards[-1]  # a spectator's
    assert {**boards[-1], "code": code} == last(world, 1, "scoreboard")
    refused(world, c.JoinPrivate(9, code, 10_000), "table_closed")
    closed = hall(1, 9)
    other = create(closed, 1, spectators=False)
    closed.handle(c.Ready(1))
    closed.handle(c.StartPrivate(1))
    table = closed.core.private.table_of_code(other)
    refused(closed, c.Spectate(9, table=table), "not_watchable")


def test_a_person_at_a_private_table_watches_no_table_even_between_hands() -> None:
    world = hall(1, 2)
    create(world, 1, hands=6)
    world.handle(c.Ready(1))
    world.handle(c.StartPrivate(1))
    number = next(iter(world.core.flow.tables))
    create(world, 2)  # waiting: at no live table
    refused(world, c.Spectate(2, table=number), "already_in_room")


def test_a_hand_the_store_does_not_record_leaves_everyone_seated() -> None:
    world = hall(1, 2, 3)
    code = full_table(world)
    world.answer(fail=True)
    assert world.frames(1, "error")[-1]["code"] == "database_unavailable"
    frame = last(world, 1)
    assert frame["state"] == "waiting" and [s["name"] for s in frame["seats"]] == ["p1", "p2", "p3"]
    assert all(world.core.players[u].private == code for u in (1, 2, 3))
    for user in (1, 2, 3):
        world.handle(c.Ready(user))
    assert world.core.private.table_of_code(code) is not None


def test_a_spectator_watches_a_private_table_from_its_creation_to_its_close() -> None:
    world = hall(1, 2, 3, 9)
    code = create(world, 1, hands=6)
    join(world, 2, code)
    world.handle(c.Spectate(9, code=code))  # waiting: he waits with it
    frame = last(world, 9)
    assert frame["you"] is None and frame["state"] == "waiting" and "code" not in frame
    assert "link" not in frame and frame["room"] == last(world, 1)["room"]
    assert world.core.watch.watchers(code) == 1 and 9 not in world.core.watch.watching
    assert not world.frames(9, "snapshot")
    join(world, 3, code)
    assert [s and s["name"] for s in last(world, 9)["seats"]] == ["p1", "p2", "p3"]
    for user in (1, 2, 3):
        world.handle(c.Ready(user))
    first = world.core.private.table_of_code(code)
    [snapshot] = world.frames(9, "snapshot")
    assert snapshot["seat"] is None and snapshot["table"] == first
    assert world.core.watch.watching[9] == first
    assert last(world, 1, "spectator_count") == {
        "type": "spectator_count",
        "table": first,
        "count": 1,
    }
    world.answer_all()
    world.handle(c.Leave(3))  # people change: the live table closes, the table goes on
    world.run_until_quiet()
    assert not world.frames(9, "spectate_ended")
    assert world.core.watch.parked == {9: code} and world.core.watch.watchers(code) == 1
    assert last(world, 9)["state"] == "waiting" and last(world, 9)["you"] is None
    assert len(world.frames(9, "scoreboard")) == 1  # the first hand's, to him too
    join(world, 3, code)
    for user in (1, 2, 3):
        world.handle(c.Ready(user))
    second = world.core.private.table_of_code(code)
    assert second not in (None, first)
    assert world.frames(9, "snapshot")[-1]["table"] == second
    assert all(s["seat"] is None for s in world.frames(9, "snapshot"))
    world.handle(c.ClosePrivate(1))  # after this hand: the private table closes
    world.run_until_quiet()
    boards = world.frames(9, "scoreboard")
    assert boards[-1]["over"] and {**boards[-1], "code": code} == last(world, 1, "scoreboard")
    assert world.frames(9, "spectate_ended") == [
        {"type": "spectate_ended", "table": second, "reason": "table_closed"}
    ]
    assert not world.core.watch.watches(9) and not world.core.watch.privates


def test_a_waiting_spectator_stops_or_is_told_the_waiting_table_closed() -> None:
    world = hall(1, 8, 9)
    code = create(world, 1)
    world.handle(c.Spectate(8, code=code))
    world.handle(c.Spectate(9, code=code))
    world.handle(c.Spectate(9, code=code))  # again: nothing changes
    assert world.core.watch.watchers(code) == 2
    world.handle(c.StopSpectating(8))
    assert world.frames(8, "spectate_ended") == [
        {"type": "spectate_ended", "table": None, "reason": "stopped"}
    ]
    assert world.core.watch.watchers(code) == 1
    refused(world, c.StopSpectating(8), "not_spectating")
    world.handle(c.ClosePrivate(1))  # closed before its first hand
    assert last(world, 9, "scoreboard")["over"] and last(world, 9)["state"] == "closed"
    assert world.frames(9, "spectate_ended") == [
        {"type": "spectate_ended", "table": None, "reason": "table_closed"}
    ]
    assert not world.core.watch.watches(9) and not world.core.watch.privates
    refused(world, c.Spectate(9, code=code), "table_closed")
    refused(world, c.Spectate(9, code="000000" if code != "000000" else "000001"), "unknown_code")
    hidden = create(world, 1, spectators=False)
    refused(world, c.Spectate(9, code=hidden), "not_watchable")
    refused(world, c.Spectate(1, code=hidden), "already_in_room")


def test_a_waiting_spectator_who_joins_the_table_watches_no_more() -> None:
    world = hall(1, 9)
    code = create(world, 1)
    world.handle(c.Spectate(9, code=code))
    join(world, 9, code)
    assert world.frames(9, "spectate_ended") == [
        {"type": "spectate_ended", "table": None, "reason": "moved"}
    ]
    assert last(world, 9)["you"] == 1 and not world.core.watch.watches(9)


def test_a_delayed_tables_spectator_waits_for_the_next_live_table_after_the_delay() -> None:
    world = hall(1, 2, 9)
    code = create(world, 1, hands=0, delay=5)
    join(world, 2, code)
    world.handle(c.Spectate(9, code=code))
    world.handle(c.Ready(1))
    world.handle(c.Ready(2))
    world.handle(c.StartPrivate(1))
    first = world.core.private.table_of_code(code)
    assert world.core.watch.watching[9] == first and not world.frames(9, "snapshot")
    world.pass_time(6.0)  # the first snapshot released
    assert world.frames(9, "snapshot")[-1]["table"] == first
    world.answer_all()
    world.handle(c.Leave(2))
    world.run_until_quiet()
    assert not world.frames(9, "spectate_ended")
    assert world.core.watch.parked == {9: code}
    world.handle(c.ClosePrivate(1))
    assert world.frames(9, "spectate_ended")[-1]["reason"] == "table_closed"
    assert not world.core.watch.watches(9)


def test_a_hand_the_store_does_not_settle_is_voided_and_the_table_deals_again() -> None:
    """A failed settlement voids that hand (the store's rule) but does not stall the
    table: its people were playing, so the next hand is dealt at once, nobody asked to
    press 准备 again (before, the table waited for a 准备 the client never offered)."""
    world = hall(1)
    code = create(world, 1, hands=6)
    world.handle(c.Ready(1))
    world.handle(c.StartPrivate(1))  # two bots
    world.answer_all()
    world.handle(c.Trustee(1, True))
    while not any(isinstance(p, e.SettleHand) for p in world.pending):
        world.answer_all()
        assert world.advance(), "the hand never ended"
    first = world.core.private.table_of_code(code)
    world.answer(
        next(i for i, p in enumerate(world.pending) if isinstance(p, e.SettleHand)), fail=True
    )
    assert world.frames(1, "hand_voided")
    again = world.core.private.table_of_code(code)
    assert again is not None and again != first
    assert world.core.private.tables[code].sheet.rows == []  # the voided hand scores nothing
