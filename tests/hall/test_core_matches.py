"""The matches driven through the live hall's core with plain calls (no event loop): a
registration or a withdrawal refused changes nothing, a store step refused is taken back
or retried, and a run starts, plays its hands at the core's tables with bots, and pays
its prizes (:mod:`qipai.hall.match.desk`)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from core_kit import ROOMS
from matchworld_kit import FIRST, MATCH, MATCHES, SECOND, MatchWorld

from qipai.errors import GameError
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.match import commands as mc
from qipai.hall.match import effects as me
from qipai.hall.match.desk import START_TRIES
from qipai.hall.match.parts import RunState


def _refused(world: MatchWorld, command: c.Command) -> str:
    before = (world.open_run, world.core.matches.listing(1), len(world.effects))
    with pytest.raises(GameError) as refused:
        world.handle(command)
    assert (world.open_run, world.core.matches.listing(1), len(world.effects)) == before
    return refused.value.code


def test_refused_registrations_and_withdrawals_change_nothing() -> None:
    world = MatchWorld()
    world.register(1)
    world.core.player(2, "p2")
    world.handle(c.Join(2, next(iter(ROOMS)), 10_000))
    assert _refused(world, mc.Register(1, "p1", "nope")) == "unknown_match"
    assert _refused(world, mc.Register(1, "p1", MATCH)) == "already_registered"
    assert _refused(world, mc.Register(2, "p2", MATCH)) == "already_in_room"
    assert _refused(world, mc.Unregister(3, MATCH)) == "not_registered"
    assert _refused(world, mc.Unregister(1, "nope")) == "unknown_match"
    assert world.open_run == (FIRST, RunState.REGISTERING, ("user:1",))


def test_a_registration_the_store_refuses_is_taken_back() -> None:
    world = MatchWorld(auto=False)
    world.core.player(1, "p1")
    world.handle(mc.Register(1, "p1", MATCH))
    assert world.open_run[2] == ("user:1",)
    world.step(fail="database_unavailable")
    assert world.open_run == (FIRST, RunState.REGISTERING, ())
    assert world.core.matches.run_of(1) is None
    world.tick(60)  # no first registration: no bot wait ran out
    assert world.steps == []


def test_a_withdrawal_the_store_refuses_keeps_the_registration() -> None:
    world = MatchWorld()
    world.register(1)
    world.auto = False
    world.handle(mc.Unregister(1, MATCH))
    assert world.open_run[2] == ()
    world.step(fail="database_unavailable")
    assert world.open_run[2] == ("user:1",)
    assert world.core.matches.run_of(1) is not None


def test_a_start_the_store_refuses_is_retried_then_cancelled_and_refunded() -> None:
    world = MatchWorld()
    for user in (1, 2, 3):
        world.register(user)
    world.auto = False
    world.tick()
    logs = []
    for _ in range(START_TRIES):
        assert isinstance(world.steps[0], me.StartRun)
        world.step(fail="database_unavailable")
        logs = [x for x in world.effects if isinstance(x, e.Log) and FIRST in x.text]
        world.tick()  # too early: nothing asked
        assert world.steps == []
        world.tick(60)
    assert len(logs) == 2  # the first failure, and the last
    assert isinstance(world.steps[0], me.CancelRun)
    world.auto = True
    world.step()
    assert world.open_run == (SECOND, RunState.REGISTERING, ())
    for user in (1, 2, 3):
        [cancelled] = world.frames(user, "match_cancelled")
        assert cancelled["reason"] == "start_failed"
        assert world.core.matches.run_of(user) is None
    assert {x.user for x in world.effects if isinstance(x, e.ReleasePlace)} >= {1, 2, 3}


def test_a_run_whose_registrations_differ_is_cancelled_at_once() -> None:
    world = MatchWorld()
    for user in (1, 2, 3):
        world.register(user)
    world.held.discard((FIRST, 3))  # a registration whose outcome was lost
    world.tick()
    assert world.open_run[0] == FIRST
    world.tick(60)
    assert world.open_run == (SECOND, RunState.REGISTERING, ())
    [cancelled] = world.frames(1, "match_cancelled")
    assert cancelled["reason"] == "start_failed"


def test_a_withdrawal_restarts_the_bot_wait_and_no_run_starts_with_no_person() -> None:
    world = MatchWorld()
    world.register(1)
    world.tick(3)
    world.handle(mc.Unregister(1, MATCH))  # the only person withdraws
    world.tick(60)  # long past the bot wait: no run of bots only
    assert world.open_run == (FIRST, RunState.REGISTERING, ())
    assert not [x for x in world.effects if isinstance(x, me.StartRun)]
    world.register(2)
    world.tick(2)
    world.register(3)
    world.tick(2)  # 4 s after 2 registered
    world.handle(mc.Unregister(3, MATCH))  # the wait starts again from his withdrawal
    world.tick(4)  # 8 s after 2 registered, 4 after the withdrawal
    assert world.open_run == (FIRST, RunState.REGISTERING, ("user:2",))
    world.tick(1)  # 5 s after the withdrawal: bots fill the places, with 2
    assert world.open_run[0] == SECOND
    [start] = [x for x in world.effects if isinstance(x, me.StartRun)]
    assert start.users == (2,)


def test_bots_left_by_a_failed_start_never_start_a_run_alone() -> None:
    world = MatchWorld()
    world.register(1)
    world.auto = False
    world.tick(5)  # bots fill the places; the store refuses the start
    assert isinstance(world.steps[0], me.StartRun)
    world.step(fail="database_unavailable")
    world.handle(mc.Unregister(1, MATCH))  # the person goes: the bots go with him
    world.step()
    assert world.open_run == (FIRST, RunState.REGISTERING, ())
    world.tick(60)
    assert world.steps == [] and world.open_run == (FIRST, RunState.REGISTERING, ())


def test_a_run_plays_its_hands_with_bots_and_pays_its_prizes() -> None:
    world = MatchWorld()
    world.register(1)
    world.handle(c.Presence(1, False))  # gone: 托管 plays for him
    world.tick(1)
    assert world.open_run[0] == FIRST  # the bot wait is not over
    world.tick(5)
    assert world.open_run == (SECOND, RunState.REGISTERING, ())
    assert FIRST in world.core.matches.playing
    assert world.core.matches.run_of(1) is not None
    world.run_until_quiet()
    assert FIRST not in world.core.matches.playing
    after_hands = [u for u in world.frames(1, "match_update") if u["hand_base"] is not None]
    assert len(after_hands) == 2 and all(u["hand_base"] == 1 for u in after_hands)  # base 1
    kept = [x for x in world.effects if isinstance(x, me.KeepMatchPoints)]  # for 战绩
    assert len(kept) == 2 and all(sum(k.points) == 0 for k in kept)
    assert [k.hand for k in kept] == [o.hand_id for o in world.settled]
    [paid] = world.paid
    assert paid.run == FIRST and paid.users == (1,)
    [over] = world.frames(1, "match_over")
    assert over["run"] == FIRST and over["rank"] in (1, 2, 3)
    assert len(world.frames(1, "match_update")) >= 2
    assert world.core.matches.run_of(1) is None
    assert world.core.table_of(1) is None
    saves = [x for x in world.effects if isinstance(x, me.SaveRun)]
    assert len(saves) >= 2


def test_a_saved_run_is_carried_on_by_the_next_core() -> None:
    world = MatchWorld()
    world.register(1)
    world.handle(c.Presence(1, False))
    world.tick(6)
    saved = world.core.matches.snapshot(FIRST)
    assert saved is not None
    text = json.dumps(saved)
    changed = dataclasses.replace(MATCHES[0], entry_fee=11)

    later = MatchWorld()
    later.balance(1)
    later.handle(mc.StartMatches(MATCHES, ((MATCH, 2),), ((FIRST, MATCH, text),)))
    kept = [x for x in later.effects if isinstance(x, me.CancelInterrupted)][-1]
    assert kept == me.CancelInterrupted((FIRST,), (MATCH,))
    assert me.HoldPlayer(1) in later.effects
    assert FIRST in later.core.matches.playing
    assert later.open_run[0] == f"{MATCH}#3"
    later.run_until_quiet()
    [paid] = later.paid
    assert paid.run == FIRST

    other = MatchWorld()  # its match configured differently since: not carried on
    other.handle(mc.StartMatches((changed,), ((MATCH, 2),), ((FIRST, MATCH, text),)))
    kept = [x for x in other.effects if isinstance(x, me.CancelInterrupted)][-1]
    assert kept == me.CancelInterrupted((), (MATCH,))
    assert other.core.matches.playing == {}


def test_stopped_matches_move_no_run_on_but_their_last_snapshot_is_still_written() -> None:
    world = MatchWorld()
    world.register(1)
    world.handle(c.Presence(1, False))
    world.tick(6)
    world.handle(mc.StopMatches())
    saves = len([x for x in world.effects if isinstance(x, me.SaveRun)])
    assert world.core.matches.snapshot(FIRST) is not None
    assert world.core.matches.run_of(1) is None
    world.run_until_quiet()  # its tables play on: their ends move nothing
    assert world.paid == []
    assert len([x for x in world.effects if isinstance(x, me.SaveRun)]) == saves
