"""The live hall's core by plain calls (no sockets, no event loop): joins, tables filled
with bots, hands recorded before they are dealt and settled before they are told, the
store's failures, resyncs, the pause of a table that plays on, the stop."""

from __future__ import annotations

import pytest
from core_kit import World, room

from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.table.live import Phase
from qipai.hall.table.table import Table

YIFA = room("doudizhu-yifa")
KEEPS = room("doudizhu-yifa", id="keeps-tables", regroup=False)  # plays on, like 征途


def seated_alone(world: World, user: int = 1, room_id: str = YIFA.id) -> int:
    """``user`` joins, waits for the bots, and his table's first hand is recorded; its number."""
    world.join(user, room_id)
    world.pass_time(1.0)
    live = world.core.table_of(user)
    assert live is not None
    return live.number


def test_a_join_queues_the_player_and_a_refused_one_changes_nothing() -> None:
    world = World([YIFA], coins=50)
    world.core.player(1, "p1")
    error = world.try_handle(c.Join(1, YIFA.id, 50))
    assert error is not None and error.code == "not_enough_coins"
    assert world.effects == [] and world.core.players[1].room is None
    unknown = world.try_handle(c.Join(1, "nowhere", 5_000))
    assert unknown is not None and unknown.code == "unknown_room"
    world.handle(c.Join(1, YIFA.id, 5_000))
    assert world.frames(1) == [{"type": "queued", "room": YIFA.id}]
    again = world.try_handle(c.Join(1, YIFA.id, 5_000))
    assert again is not None and again.code == "already_in_room"


def test_bots_fill_a_lone_players_table_and_its_hand_is_recorded_before_it_is_dealt() -> None:
    world = World([YIFA])
    world.join(1, YIFA.id)
    world.matchmake()
    assert world.core.table_of(1) is None  # the bots wait 0.5 s
    world.now += 1.0
    world.handle(c.Matchmake(frozenset({YIFA.id})))
    [read] = world.pending
    assert isinstance(read, e.ReadBalances) and read.users.count(None) == 2
    world.answer()
    [record] = world.pending
    assert isinstance(record, e.RecordHandStart) and record.players == read.users
    assert [f["type"] for f in world.frames(1)] == ["queued", "snapshot"]  # not dealt yet
    world.answer()
    assert "hand_start" in [f["type"] for f in world.frames(1)]


def test_a_hand_is_settled_before_its_result_is_told_then_the_player_waits_again() -> None:
    world = World([YIFA])
    seated_alone(world)
    world.answer_all()
    while not any(isinstance(p, e.SettleHand) for p in world.pending):
        assert world.advance()  # his turns time out: 托管 plays for him
    assert world.frames(1, "hand_over") == []
    world.answer_all()
    [over] = world.frames(1, "hand_over")
    assert world.frames(1)[-1] == {"type": "queued", "room": YIFA.id}
    outcome = world.settled[0]
    seat = outcome.seats.index("1")
    assert over["hand"] == outcome.hand_id
    assert world.ledger[1] == 10_000 + outcome.settlement.net[seat]


def test_a_hand_the_store_does_not_record_is_refused_and_voided() -> None:
    world = World([YIFA])
    seated_alone(world)
    record = world.pending[0]
    assert isinstance(record, e.RecordHandStart)
    world.answer(fail=True)
    assert world.voided == [record.hand]
    codes = [f.get("code") for f in world.frames(1, "error")]
    assert codes == ["database_unavailable"]
    assert world.frames(1)[-1] == {"type": "left", "room": YIFA.id}
    assert world.core.players[1].room is None and world.core.flow.tables == {}
    assert e.ReleasePlace(1) in world.effects


def test_a_settlement_that_fails_voids_the_hand_and_tells_its_players() -> None:
    world = World([YIFA])
    seated_alone(world)
    world.answer_all()
    while not world.pending:
        assert world.advance()
    settle = world.pending[0]
    assert isinstance(settle, e.SettleHand)
    world.answer(fail=True)
    hand = settle.outcome.hand_id
    assert world.voided == [hand]
    assert world.frames(1, "hand_voided") == [
        {"type": "hand_voided", "hand": hand, "table": settle.table, "reason": "table_failed"}
    ]
    assert world.frames(1, "hand_over") == []


def test_a_resync_while_the_hand_settles_waits_for_the_settlement() -> None:
    world = World([YIFA])
    seated_alone(world)
    world.answer_all()
    while not world.pending:
        assert world.advance()
    # nothing yet: it would be ahead of the events he was sent
    assert world.handle(c.Resync(1)) == [e.Reply(())]
    world.answer_all()
    types = [f["type"] for f in world.frames(1)]
    assert types.index("snapshot", 2) > types.index("hand_over")


def test_seat_commands_need_a_seat_and_the_table_named() -> None:
    world = World([YIFA])
    world.join(1, YIFA.id)
    for command in (c.Act(1, "pass"), c.Trustee(1, True), c.Escape(1), c.Resync(1)):
        error = world.try_handle(command)
        assert error is not None and error.code == "not_seated", command
    stale = world.try_handle(c.Act(1, "pass", table=7))
    assert stale is not None and stale.code == "stale_table"
    number = seated_alone(world, 2)
    wrong = world.try_handle(c.Contribute(2, number + 1, "h", "00" * 16))
    assert wrong is not None and wrong.code == "stale_table"


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    world = World([YIFA])
    seated_alone(world)
    world.answer_all()
    before = len(world.effects)
    error = world.try_handle(c.Act(1, "play 3x"))
    assert error is not None and len(world.effects) == before


def test_leaving_the_queue_gives_the_place_back() -> None:
    world = World([YIFA])
    world.join(1, YIFA.id)
    world.handle(c.Leave(1))
    assert world.frames(1)[-1] == {"type": "left", "room": YIFA.id}
    assert e.ReleasePlace(1) in world.effects and world.core.cash.room_idle(YIFA.id)


def test_a_player_who_drops_while_queued_is_forgotten() -> None:
    world = World([YIFA])
    world.join(1, YIFA.id)
    world.handle(c.Presence(1, False))
    assert 1 not in world.core.players and not world.core.holds(1)


def test_a_table_that_plays_on_pauses_then_deals_again_and_breaks_up_when_one_leaves() -> None:
    world = World([KEEPS])
    number = seated_alone(world, 1, KEEPS.id)
    world.answer_all()
    while world.core.flow.tables[number].phase is not Phase.PAUSED:
        assert world.advance()
        world.answer_all()
    assert world.advance()  # the pause ends: the next hand is recorded
    [record] = world.pending
    assert isinstance(record, e.RecordHandStart) and record.table == number
    world.answer_all()
    world.handle(c.Leave(1))
    while number in world.core.flow.tables:
        assert world.advance()
        world.answer_all()
    assert world.frames(1)[-1] == {"type": "left", "room": KEEPS.id}


def test_a_shutdown_voids_the_hands_in_play_and_those_being_recorded() -> None:
    world = World([YIFA])
    seated_alone(world, 1)
    world.answer_all()  # dealt
    seated_alone(world, 2)  # recorded, not dealt
    record = world.pending[-1]
    assert isinstance(record, e.RecordHandStart)
    first = world.core.table_of(1)
    assert first is not None and first.table.hand_id is not None
    world.handle(c.Shutdown())
    assert sorted(world.voided) == sorted([first.table.hand_id, record.hand])
    assert world.core.flow.tables == {}


@pytest.mark.parametrize("once", [False, True])
def test_a_player_there_for_one_hand_leaves_with_it(once: bool) -> None:
    world = World([YIFA])
    world.join(1, YIFA.id, once=once)
    world.pass_time(1.0)
    world.run_until_quiet()
    assert (world.core.players[1].room is None) is once


def test_a_table_that_breaks_fails_alone_and_the_others_play_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = World([YIFA])
    seated_alone(world, 1)
    seated_alone(world, 2)
    world.answer_all()
    broken = world.core.table_of(1)
    assert broken is not None and broken.table.hand_id is not None
    tick = Table.tick

    def breaks(table: Table, now: float) -> None:
        if table is broken.table:
            raise RuntimeError("a bug in this table")
        tick(table, now)

    monkeypatch.setattr(Table, "tick", breaks)
    world.run_until_quiet()
    assert world.voided == [broken.table.hand_id]
    assert [f["reason"] for f in world.frames(1, "hand_voided")] == ["table_failed"]
    assert len(world.frames(2, "hand_over")) == 1  # the other table played its hand out
