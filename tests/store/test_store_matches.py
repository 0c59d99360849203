"""Match runs 比赛 in the ledger, on SQLite and PostgreSQL: entry fees held in escrow,
refunds, prizes with the house's guarantee, cancellation exactly once, the restart rule,
crashes at every step, and the audit's match checks."""

from __future__ import annotations

import random
import signal
import subprocess
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select, text
from store_kit import (
    NOW,
    CrashError,
    balances,
    crash_at,
    crash_child,
    deal,
    dump,
    entries_of,
    entry,
    execute,
    missed_tampering,
    moved,
    outcome,
    players,
    transaction,
)
from store_match_crash_child import PRIZES

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.store import Fence, MatchRunRow, Store, database
from qipai.store.audit import Problem, audit
from qipai.store.matches import STEPS
from qipai.store.schema import transactions

HERE = Path(__file__).resolve().parent
GRANT = 1000
LATER = NOW + timedelta(minutes=30)


def kind_of(store: Store, key: str) -> tuple[str, str | None]:
    """A transaction's kind and run."""
    with store.read() as connection:
        row = connection.execute(
            select(transactions.c.kind, transactions.c.run_id).where(transactions.c.key == key)
        ).one()
        return row.kind, row.run_id


def registered(store: Store, run_id: str, *users: int, fee: int = 100) -> None:
    """Open a run and register the users in order."""
    store.open_match_run(run_id, "tiyan", fee, NOW)
    for user in users:
        store.register_for_match(run_id, user, NOW)


# --- registration ------------------------------------------------------------------------


def test_registering_holds_the_fee_and_withdrawing_returns_it(store: Store) -> None:
    ann, bob = players(store, 2, grant=GRANT)
    store.open_match_run("tiyan-9#3", "tiyan-9", 100, NOW)
    assert store.register_for_match("tiyan-9#3", ann, NOW) == 1
    assert store.register_for_match("tiyan-9#3", bob, NOW + timedelta(seconds=1)) == 2
    assert (store.balance(ann), store.balance(bob)) == (900, 900)
    assert balances(store)["match:tiyan-9#3"] == 200
    assert entries_of(store, "match_entry:tiyan-9#3:2") == [
        (f"user:{bob}", -100, "entry", 2),
        ("match:tiyan-9#3", 100, "entry", 2),
    ]
    assert kind_of(store, "match_entry:tiyan-9#3:2") == ("match_entry", "tiyan-9#3")
    store.unregister_from_match("tiyan-9#3", bob, NOW)
    assert store.balance(bob) == GRANT
    assert balances(store)["match:tiyan-9#3"] == 100
    assert entries_of(store, "match_refund:tiyan-9#3:2") == [
        ("match:tiyan-9#3", -100, "refund", 2),
        (f"user:{bob}", 100, "refund", 2),
    ]
    assert kind_of(store, "match_refund:tiyan-9#3:2") == ("match_refund", "tiyan-9#3")
    assert store.register_for_match("tiyan-9#3", bob, NOW) == 3  # numbers are never reused
    assert store.match_registrations("tiyan-9#3") == [(ann, 1), (bob, 3)]
    assert store.balance(bob) == 900
    assert store.match_run("tiyan-9#3") == MatchRunRow(
        "tiyan-9#3", "tiyan-9", "registering", 100, 2, NOW, None, None, None
    )
    assert audit(store) == []


def test_a_free_match_moves_no_coins(store: Store) -> None:
    ann, bob = players(store, 2, grant=GRANT)
    registered(store, "free", ann, bob, fee=0)
    store.unregister_from_match("free", bob, NOW)
    assert entries_of(store, "match_entry:free:1") == []
    assert entries_of(store, "match_refund:free:2") == []
    store.start_match_run("free", NOW)
    assert store.finish_match_run("free", {ann: 30}, "{}", NOW)  # all guaranteed
    assert store.balance(ann) == GRANT + 30
    assert balances(store)["house:matches"] == -30
    assert audit(store) == []


def test_the_lifecycle_sets_states_and_times(store: Store) -> None:
    ann, bob = players(store, 2, grant=GRANT)
    registered(store, "r1", ann, bob)
    store.start_match_run("r1", NOW + timedelta(minutes=5))
    run = store.match_run("r1")
    assert run is not None
    assert (run.state, run.registered, run.started_at, run.ended_at) == (
        "running", 2, NOW + timedelta(minutes=5), None
    )
    assert store.finish_match_run("r1", {bob: 150, ann: 50}, '{"ranks":[2,1]}', LATER)
    run = store.match_run("r1")
    assert run is not None
    assert (run.state, run.ended_at, run.standings_json) == ("finished", LATER, '{"ranks":[2,1]}')
    assert store.match_run("r9") is None


def test_each_player_keeps_his_result_until_he_is_told(store: Store) -> None:
    """The run finishes with each registration's rank and prize; a player told at once is
    never told again, one away is told (once) when he next comes; 战绩 lists every run he
    played, withdrawn registrations and runs not started left out."""
    ann, bob, cid = players(store, 3, grant=GRANT)
    registered(store, "r1", ann, bob, cid)
    registered(store, "r2", ann)
    store.unregister_from_match("r2", ann, NOW)
    store.start_match_run("r1", NOW)
    [playing] = store.match_results(ann)  # r2 left out: withdrawn before its start
    assert (playing.run_id, playing.state, playing.rank, playing.prize) == (
        "r1", "running", None, None
    )  # fmt: skip
    ranks = {ann: 2, bob: 1, cid: 3}
    assert store.finish_match_run("r1", {bob: 250}, "[]", LATER, ranks=ranks, told=[bob])
    [mine] = store.match_results(ann)
    assert (mine.run_id, mine.state, mine.rank, mine.prize, mine.entrants) == (
        "r1", "finished", 2, 0, 3
    )  # fmt: skip
    assert store.take_untold_match_results(bob, LATER) == []  # told at the end
    [(told, standings)] = store.take_untold_match_results(ann, LATER)
    assert (told.run_id, told.rank, standings) == ("r1", 2, "[]")
    assert store.take_untold_match_results(ann, LATER) == []  # once
    assert store.match_results(bob)[0].prize == 250
    assert audit(store) == []


def test_runs_are_listed_newest_first_by_state_and_match(store: Store) -> None:
    (ann,) = players(store, 1, grant=GRANT)
    for minute, (run_id, match_id) in enumerate([("a#1", "a"), ("b#1", "b"), ("a#2", "a")]):
        store.open_match_run(run_id, match_id, 10, NOW + timedelta(minutes=minute))
    store.register_for_match("a#1", ann, NOW)
    store.start_match_run("a#1", NOW)
    store.cancel_match_run("b#1", NOW)
    assert [run.id for run in store.match_runs()] == ["a#2", "b#1", "a#1"]
    assert [run.id for run in store.match_runs(["registering", "running"])] == ["a#2", "a#1"]
    assert [run.id for run in store.match_runs(match_id="a")] == ["a#2", "a#1"]
    assert [run.id for run in store.match_runs(["cancelled"], match_id="a")] == []
    assert [run.id for run in store.match_runs(limit=1)] == ["a#2"]
    assert [run.registered for run in store.match_runs()] == [0, 0, 1]
    with pytest.raises(InvalidActionError, match="bad_state"):
        store.match_runs(["playing"])
    with pytest.raises(InvalidActionError, match="bad_limit"):
        store.match_runs(limit=0)


# --- errors ------------------------------------------------------------------------------


@pytest.fixture
def hall(store: Store) -> Store:
    """Runs in every state, and their players.

    ``reg`` registering (ann 1, bob 2, cid 3 withdrawn), ``run`` running (ann, bob; fee
    50), ``done`` finished (ann, bob, cid: ann 200, bob 50, a surplus of 50), ``off``
    cancelled (ann, bob).  dan has 10 coins and registered nowhere.
    """
    ann, bob, cid = players(store, 3, grant=GRANT)
    store.register("dan", "hash", grant=10, now=NOW)
    registered(store, "reg", ann, bob, cid)
    store.unregister_from_match("reg", cid, NOW)
    registered(store, "run", ann, bob, fee=50)
    store.start_match_run("run", NOW)
    registered(store, "done", ann, bob, cid)
    store.start_match_run("done", NOW)
    store.finish_match_run("done", {ann: 200, bob: 50}, "{}", NOW)
    registered(store, "off", ann, bob)
    store.cancel_match_run("off", NOW)
    return store


def test_the_hall_fixture_is_clean(hall: Store) -> None:
    held = balances(hall)
    assert [held[f"match:{run}"] for run in ("reg", "run", "done", "off")] == [200, 100, 0, 0]
    assert held["house:matches"] == 50
    assert [hall.balance(user) for user in (1, 2, 3, 4)] == [950, 800, 900, 10]
    assert audit(hall) == []


NAIVE = datetime(2026, 5, 10, 12, 0)
REFUSALS: list[tuple[str, Callable[[Store], object], type[GameError], str]] = [
    ("open again", lambda s: s.open_match_run("reg", "tiyan", 1, NOW),
     IllegalActionError, "run_exists"),
    ("open an empty id", lambda s: s.open_match_run("", "tiyan", 1, NOW),
     InvalidActionError, "bad_run"),
    ("open a long id", lambda s: s.open_match_run("r" * 59, "tiyan", 1, NOW),
     InvalidActionError, "bad_run"),
    ("open no match", lambda s: s.open_match_run("new", "", 1, NOW),
     InvalidActionError, "bad_match"),
    ("open a negative fee", lambda s: s.open_match_run("new", "tiyan", -1, NOW),
     InvalidActionError, "bad_amount"),
    ("open without a zone", lambda s: s.open_match_run("new", "tiyan", 1, NAIVE),
     InvalidActionError, "naive_datetime"),
    ("register unknown run", lambda s: s.register_for_match("nope", 1, NOW),
     InvalidActionError, "unknown_run"),
    ("register unknown user", lambda s: s.register_for_match("reg", 99, NOW),
     InvalidActionError, "unknown_user"),
    ("register running", lambda s: s.register_for_match("run", 3, NOW),
     IllegalActionError, "match_closed"),
    ("register finished", lambda s: s.register_for_match("done", 4, NOW),
     IllegalActionError, "match_closed"),
    ("register cancelled", lambda s: s.register_for_match("off", 3, NOW),
     IllegalActionError, "match_closed"),
    ("register twice", lambda s: s.register_for_match("reg", 2, NOW),
     IllegalActionError, "already_registered"),
    ("register poor", lambda s: s.register_for_match("reg", 4, NOW),
     IllegalActionError, "insufficient_coins"),
    ("unregister unknown run", lambda s: s.unregister_from_match("nope", 1, NOW),
     InvalidActionError, "unknown_run"),
    ("unregister withdrawn", lambda s: s.unregister_from_match("reg", 3, NOW),
     IllegalActionError, "not_registered"),
    ("unregister stranger", lambda s: s.unregister_from_match("reg", 4, NOW),
     IllegalActionError, "not_registered"),
    ("unregister running", lambda s: s.unregister_from_match("run", 1, NOW),
     IllegalActionError, "match_closed"),
    ("registrations of unknown run", lambda s: s.match_registrations("nope"),
     InvalidActionError, "unknown_run"),
    ("start unknown run", lambda s: s.start_match_run("nope", NOW),
     InvalidActionError, "unknown_run"),
    ("start running", lambda s: s.start_match_run("run", NOW),
     IllegalActionError, "match_closed"),
    ("start cancelled", lambda s: s.start_match_run("off", NOW),
     IllegalActionError, "match_closed"),
    ("finish unknown run", lambda s: s.finish_match_run("nope", {}, "{}", NOW),
     InvalidActionError, "unknown_run"),
    ("finish registering", lambda s: s.finish_match_run("reg", {1: 10}, "{}", NOW),
     IllegalActionError, "match_not_running"),
    ("finish cancelled", lambda s: s.finish_match_run("off", {1: 10}, "{}", NOW),
     IllegalActionError, "match_cancelled"),
    ("prize to a stranger", lambda s: s.finish_match_run("run", {1: 10, 3: 5}, "{}", NOW),
     IllegalActionError, "not_registered"),
    ("prize of nothing", lambda s: s.finish_match_run("run", {1: 10, 2: 0}, "{}", NOW),
     InvalidActionError, "bad_amount"),
    ("negative prize", lambda s: s.finish_match_run("run", {1: -10}, "{}", NOW),
     InvalidActionError, "bad_amount"),
    ("cancel unknown run", lambda s: s.cancel_match_run("nope", NOW),
     InvalidActionError, "unknown_run"),
    ("cancel finished", lambda s: s.cancel_match_run("done", NOW),
     IllegalActionError, "match_finished"),
    ("cancel without a zone", lambda s: s.cancel_interrupted_matches(NAIVE),
     InvalidActionError, "naive_datetime"),
]  # fmt: skip


def test_every_refusal_changes_nothing(hall: Store) -> None:
    before = dump(hall)
    wrong = {}
    for case, call, kind, code in REFUSALS:
        try:
            call(hall)
        except GameError as error:
            if type(error) is not kind or error.code != code:
                wrong[case] = f"{type(error).__name__}({error.code})"
        else:
            wrong[case] = "no error"
        if dump(hall) != before:
            wrong[case] = "changed the database"
            before = dump(hall)
    assert wrong == {}
    assert audit(hall) == []


def test_a_registration_may_take_the_last_coin_not_more(store: Store) -> None:
    ann, bob = players(store, 2, grant=100)
    registered(store, "r1", ann)
    assert store.balance(ann) == 0  # down to zero is allowed
    store.open_match_run("r2", "tiyan", 101, NOW)
    before = dump(store)
    with pytest.raises(IllegalActionError, match="insufficient_coins"):
        store.register_for_match("r2", bob, NOW)
    assert dump(store) == before
    assert store.match_registrations("r2") == []


def test_a_player_in_a_hand_in_play_cannot_register(store: Store) -> None:
    """His coins are his table's until the hand is settled (on any node): the fee is
    refused in its own transaction, nothing written; once settled he may register."""
    ann, bob = players(store, 2, grant=1000)
    store.start_hand(deal("h1", [ann, bob, None]))
    store.open_match_run("r1", "tiyan", 100, NOW)
    before = dump(store)
    with pytest.raises(IllegalActionError, match="already_in_room"):
        store.register_for_match("r1", ann, NOW)
    assert dump(store) == before
    store.settle_hand(outcome("h1", [0, 0, 0]))
    assert store.register_for_match("r1", ann, NOW) == 1


# --- finishing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prizes", "house"),
    [
        ((150, 90), 60),  # below the pool of 300: the house keeps the surplus
        ((200, 100), 0),  # the pool exactly
        ((500, 200, 100), -500),  # above: the house guarantees the difference
        ((), 300),  # nobody paid: all of it to the house
    ],
    ids=["below", "equal", "above", "none"],
)
def test_finishing_pays_the_prizes_and_empties_the_escrow(
    store: Store, prizes: tuple[int, ...], house: int
) -> None:
    users = players(store, 3, grant=GRANT)
    registered(store, "r1", *users)
    store.start_match_run("r1", NOW)
    paid = dict(zip(reversed(users), prizes, strict=False))  # the last registered ranks first
    assert store.finish_match_run("r1", paid, "{}", LATER)
    held = balances(store)
    assert held["match:r1"] == 0
    assert held["house:matches"] == house
    assert [store.balance(user) for user in users] == [GRANT - 100 + paid.get(u, 0) for u in users]
    moved_out = entries_of(store, "match_payout:r1")
    prize_moves = [(name, amount, number) for name, amount, reason, number in moved_out
                   if reason == "prize"]  # fmt: skip
    assert prize_moves == [
        move
        for user in sorted(paid)  # registration order: users were registered by id
        for move in (("match:r1", -paid[user], users.index(user) + 1),
                     (f"user:{user}", paid[user], users.index(user) + 1))
    ]  # fmt: skip
    house_moves = [(name, amount, reason) for name, amount, reason, _ in moved_out
                   if reason in ("guarantee", "surplus")]  # fmt: skip
    if house > 0:
        assert house_moves == [("match:r1", -house, "surplus"), ("house:matches", house, "surplus")]
    elif house < 0:
        assert house_moves == [("house:matches", house, "guarantee"),
                               ("match:r1", -house, "guarantee")]  # fmt: skip
    else:
        assert house_moves == []
    assert kind_of(store, "match_payout:r1") == ("match_prize", "r1")
    before = dump(store)
    assert store.finish_match_run("r1", paid, "{}", LATER) is False
    assert store.finish_match_run("r1", {users[0]: 1_000}, "{}", LATER) is False
    assert dump(store) == before
    assert audit(store) == []


def test_only_current_registrations_win_prizes(store: Store) -> None:
    ann, bob, cid = players(store, 3, grant=GRANT)
    registered(store, "r1", ann, bob, cid)
    store.unregister_from_match("r1", cid, NOW)
    store.start_match_run("r1", NOW)
    before = dump(store)
    with pytest.raises(IllegalActionError, match="not_registered"):
        store.finish_match_run("r1", {ann: 100, cid: 100}, "{}", NOW)
    assert dump(store) == before
    assert store.finish_match_run("r1", {ann: 100, bob: 100}, "{}", NOW)
    assert store.balance(cid) == GRANT
    assert audit(store) == []


# --- cancelling --------------------------------------------------------------------------


@pytest.mark.parametrize("started", [False, True], ids=["registering", "running"])
def test_cancelling_refunds_every_registration_exactly_once(store: Store, started: bool) -> None:
    ann, bob, cid = players(store, 3, grant=GRANT)
    registered(store, "r1", ann, bob, cid)
    store.unregister_from_match("r1", bob, NOW)  # refunded already: not again
    if started:
        store.start_match_run("r1", NOW)
    assert store.cancel_match_run("r1", LATER)
    assert [store.balance(user) for user in (ann, bob, cid)] == [GRANT] * 3
    assert balances(store)["match:r1"] == 0
    assert entries_of(store, "match_cancel:r1") == [
        ("match:r1", -100, "refund", 1), (f"user:{ann}", 100, "refund", 1),
        ("match:r1", -100, "refund", 3), (f"user:{cid}", 100, "refund", 3),
    ]  # fmt: skip
    assert kind_of(store, "match_cancel:r1") == ("match_refund", "r1")
    before = dump(store)
    assert store.cancel_match_run("r1", LATER) is False
    assert store.cancel_interrupted_matches(LATER) == []
    with pytest.raises(IllegalActionError, match="match_cancelled"):
        store.finish_match_run("r1", {ann: 100}, "{}", LATER)
    assert dump(store) == before
    run = store.match_run("r1")
    assert run is not None
    assert (run.state, run.ended_at, run.registered) == ("cancelled", LATER, 2)
    assert store.match_registrations("r1") == [(ann, 1), (cid, 3)]
    assert audit(store) == []


def test_a_restart_cancels_and_refunds_unfinished_runs(db_url: str) -> None:
    with Store.open(db_url) as store:
        ann, bob = players(store, 2, grant=GRANT)
        registered(store, "a-registering", ann, bob)
        registered(store, "b-running", ann)
        store.start_match_run("b-running", NOW)
        registered(store, "c-finished", bob)
        store.start_match_run("c-finished", NOW)
        store.finish_match_run("c-finished", {bob: 300}, "{}", NOW)
        registered(store, "d-cancelled", ann)
        store.cancel_match_run("d-cancelled", NOW)
        registered(store, "e-empty")
    with Store.open(db_url) as store:  # the hall starts again
        assert store.cancel_interrupted_matches(LATER) == [
            "a-registering", "b-running", "e-empty",
        ]  # fmt: skip
        assert (store.balance(ann), store.balance(bob)) == (GRANT, GRANT - 100 + 300)
        assert store.cancel_interrupted_matches(LATER) == []
        assert (store.balance(ann), store.balance(bob)) == (GRANT, GRANT - 100 + 300)
        states = {run.id: run.state for run in store.match_runs()}
        assert states == {
            "a-registering": "cancelled", "b-running": "cancelled", "c-finished": "finished",
            "d-cancelled": "cancelled", "e-empty": "cancelled",
        }  # fmt: skip
        assert entries_of(store, "match_cancel:e-empty") == []
        assert audit(store) == []


def test_a_running_run_keeps_its_snapshot_and_is_carried_on_not_cancelled(store: Store) -> None:
    ann, bob = players(store, 2, grant=GRANT)
    registered(store, "kept", ann)
    assert store.save_match_snapshot("kept", '{"hands": 1}') is False  # not running yet
    store.start_match_run("kept", NOW)
    assert store.save_match_snapshot("kept", '{"hands": 1}')
    assert store.save_match_snapshot("kept", '{"hands": 2}')
    registered(store, "dropped", bob)
    store.start_match_run("dropped", NOW)  # no snapshot: cannot be carried on
    assert store.match_snapshots() == {"kept": ("tiyan", '{"hands": 2}')}
    store.open_match_run("elsewhere", "another-halls-match", 0, NOW)  # not this hall's
    cancelled = store.cancel_interrupted_matches(LATER, keep=["kept"], match_ids=["tiyan"])
    assert cancelled == ["dropped"]
    assert store.match_run("elsewhere").state == "registering"  # type: ignore[union-attr]
    assert (store.balance(ann), store.balance(bob)) == (GRANT - 100, GRANT)
    store.finish_match_run("kept", {}, "[]", LATER)
    assert store.save_match_snapshot("kept", '{"hands": 3}') is False  # finished
    assert store.match_snapshots() == {}
    assert audit(store) == []


def test_a_stale_matches_fence_changes_no_run(store: Store) -> None:
    ann, = players(store, 1, grant=GRANT)
    registered(store, "r1", ann)
    registered(store, "r2", ann)
    old, new = Fence("matches", 3), Fence("matches", 4)
    store.start_match_run("r1", NOW, fence=new)
    before = dump(store)
    stale: list[Callable[[], object]] = [
        lambda: store.start_match_run("r2", NOW, fence=old),
        lambda: store.save_match_snapshot("r1", "{}", fence=old),
        lambda: store.finish_match_run("r1", {ann: 50}, "[]", LATER, fence=old),
        lambda: store.cancel_interrupted_matches(LATER, fence=old),
    ]
    for call in stale:
        with pytest.raises(IllegalActionError, match="stale_lease"):
            call()
    assert dump(store) == before
    assert store.save_match_snapshot("r1", "{}", fence=new)
    assert store.finish_match_run("r1", {ann: 50}, "[]", LATER, fence=new)
    assert audit(store) == []


# --- crashes -----------------------------------------------------------------------------


def test_the_hook_sees_every_step_in_order(store: Store) -> None:
    ann, bob = players(store, 2, grant=GRANT)
    store.open_match_run("r1", "tiyan", 100, NOW)
    calls: list[Callable[[Callable[[str], None]], object]] = [
        lambda hook: store.register_for_match("r1", ann, NOW, fault=hook),
        lambda hook: store.register_for_match("r1", bob, NOW, fault=hook),
        lambda hook: store.unregister_from_match("r1", bob, NOW, fault=hook),
        lambda hook: store.cancel_match_run("r1", NOW, fault=hook),
    ]
    for call in calls:
        seen: list[str] = []
        call(crash_at("none", seen))
        assert tuple(seen) == STEPS


def crash_then_retry(store: Store, step: str, call: Callable[..., object]) -> None:
    """``call(fault=…)`` crashing at ``step`` changes nothing; then ``call()`` completes."""
    before = dump(store)
    with pytest.raises(CrashError, match=step):
        call(fault=crash_at(step))
    assert dump(store) == before, step
    call()


def test_a_fault_at_any_step_changes_nothing_and_a_retry_completes(store: Store) -> None:
    ann, bob, cid = players(store, 3, grant=GRANT)
    registered(store, "idle", ann)  # left registering, for cancel_interrupted_matches
    for step in STEPS:
        run, off = f"r-{step}", f"r-{step}-off"
        registered(store, run, ann)
        crash_then_retry(store, step, partial(store.register_for_match, run, bob, NOW))
        crash_then_retry(store, step, partial(store.register_for_match, run, cid, NOW))
        crash_then_retry(store, step, partial(store.unregister_from_match, run, cid, NOW))
        store.start_match_run(run, NOW)
        crash_then_retry(store, step, partial(store.finish_match_run, run, {bob: 500}, "{}", NOW))
        registered(store, off, cid)
        before = dump(store)
        with pytest.raises(CrashError, match=step):
            store.cancel_interrupted_matches(NOW, fault=crash_at(step))
        assert dump(store) == before, step
        crash_then_retry(store, step, partial(store.cancel_match_run, off, NOW))
    assert store.cancel_interrupted_matches(NOW) == ["idle"]
    count = len(STEPS)
    assert [store.balance(user) for user in (ann, bob, cid)] == [
        GRANT - 100 * count, GRANT + 400 * count, GRANT,
    ]  # fmt: skip
    assert balances(store)["house:matches"] == -300 * count
    assert [run.state for run in store.match_runs()].count("finished") == count
    assert audit(store) == []


def child(url: str, step: str) -> subprocess.Popen[str]:
    """Start the child that dies at ``step``."""
    return crash_child("store_match_crash_child.py", url, step)


def test_sigkill_at_any_step_of_a_payout_recovers_to_one_outcome(
    new_database: Callable[[], str],
) -> None:
    urls = {step: new_database() for step in (*STEPS, "after")}
    for url in urls.values():
        with Store.open(url) as store:
            ann, bob, cid = players(store, 3, grant=GRANT)
            assert [ann, bob] == sorted(PRIZES)
            registered(store, "r1", ann, bob, cid)
            store.start_match_run("r1", NOW)
            registered(store, "r2", ann)
    children = {step: child(url, step) for step, url in urls.items()}  # all at once: faster
    for step, process in children.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == -signal.SIGKILL, (step, out, err)
        assert out == "finishing r1\n", (step, err)
    for step, url in urls.items():
        committed = step == "after"
        with Store.open(url) as store:
            assert store.cancel_interrupted_matches(LATER) == (
                ["r2"] if committed else ["r1", "r2"]
            ), step
            coins = [store.balance(user) for user in (1, 2, 3)]
            if committed:
                assert store.finish_match_run("r1", PRIZES, "{}", LATER) is False
                assert coins == [GRANT - 100 + 400, GRANT - 100 + 100, GRANT - 100], step
                assert balances(store)["house:matches"] == -200
            else:
                with pytest.raises(IllegalActionError, match="match_cancelled"):
                    store.finish_match_run("r1", PRIZES, "{}", LATER)
                assert coins == [GRANT] * 3, step
                assert balances(store)["house:matches"] == 0
            assert audit(store) == [], step


# --- concurrency -------------------------------------------------------------------------


def test_concurrent_registrations_get_distinct_numbers(store: Store) -> None:
    users = players(store, 8, grant=GRANT)
    store.open_match_run("r1", "tiyan", 100, NOW)
    failures: list[BaseException] = []

    def join(mine: list[int], seed: int) -> None:
        rng = random.Random(seed)
        try:
            for user in mine:
                store.register_for_match("r1", user, NOW)
                if rng.random() < 0.5:
                    store.unregister_from_match("r1", user, NOW)
                    store.register_for_match("r1", user, NOW)
        except BaseException as error:  # a deadlock, a lock timeout: the test fails
            failures.append(error)

    threads = [threading.Thread(target=join, args=(users[n::4], n)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    current = store.match_registrations("r1")
    assert sorted(user for user, _ in current) == users
    with store.read() as connection:
        numbers = sorted(
            connection.execute(text("SELECT number FROM match_entries WHERE run_id = 'r1'"))
            .scalars()
        )  # fmt: skip
    assert numbers == list(range(1, len(numbers) + 1))
    assert balances(store)["match:r1"] == 800
    assert audit(store) == []


# --- the audit ---------------------------------------------------------------------------


MATCH_TAMPERING = {
    "a finished run's escrow keeps coins": (
        [entry("match_payout:done", "match:done", 5, "surplus"),
         entry("match_payout:done", "house:matches", -5, "surplus"),
         moved("match:done", 5), moved("house:matches", -5)],
        {"match_escrow_not_empty"},
    ),
    "a cancelled run's escrow keeps coins": (
        [entry("match_cancel:off", "match:off", 7, "refund", 1),
         entry("match_cancel:off", "user:1", -7, "refund", 1),
         moved("match:off", 7), moved("user:1", -7)],
        {"match_escrow_not_empty"},
    ),
    "an open run's escrow short": (
        [entry("match_entry:reg:1", "match:reg", -10, "entry", 1),
         entry("match_entry:reg:1", "house:matches", 10, "entry", 1),
         moved("match:reg", -10), moved("house:matches", 10)],
        {"match_escrow_mismatch"},
    ),
    "a withdrawal without a refund": (
        ["UPDATE match_entries SET withdrawn_at = " + "'2026-05-10 12:00:00'"
         " WHERE run_id = 'run' AND number = 2"],
        {"match_escrow_mismatch"},
    ),
    "a registration without its fee": (
        ["UPDATE match_entries SET withdrawn_at = NULL WHERE run_id = 'reg' AND number = 3"],
        {"match_escrow_mismatch"},
    ),
    "a registration refunded twice": (
        [transaction("match_refund:reg:1", "match_refund", run="reg"),
         entry("match_refund:reg:1", "match:reg", -100, "refund", 3),
         entry("match_refund:reg:1", "user:3", 100, "refund", 3),
         entry("match_refund:reg:1", "house:matches", -100, "guarantee"),
         entry("match_refund:reg:1", "match:reg", 100, "guarantee"),
         moved("user:3", 100), moved("house:matches", -100)],
        {"match_double_refund"},
    ),
    "a cancelled run refunded again": (
        [transaction("match_refund:off:2", "match_refund", run="off"),
         entry("match_refund:off:2", "match:off", -100, "refund", 2),
         entry("match_refund:off:2", "user:2", 100, "refund", 2),
         moved("match:off", -100), moved("user:2", 100)],
        {"match_double_refund", "match_escrow_not_empty"},
    ),
    "a running run marked finished": (
        ["UPDATE match_runs SET state = 'finished' WHERE id = 'run'"],
        {"match_escrow_not_empty", "match_outcome_mismatch"},
    ),
    "a cancelled run marked finished": (
        ["UPDATE match_runs SET state = 'finished' WHERE id = 'off'"],
        {"match_outcome_mismatch"},
    ),
    "a finished run marked running": (
        ["UPDATE match_runs SET state = 'running' WHERE id = 'done'"],
        {"match_outcome_mismatch", "match_escrow_mismatch"},
    ),
    "a second payout": (
        [transaction("match_payout:done:2", "match_prize", run="done")],
        {"match_outcome_mismatch", "bad_key"},
    ),
    "a payout under another run's key": (
        ["UPDATE transactions SET key = 'match_payout:off' WHERE key = 'match_payout:done'"],
        {"bad_key"},
    ),
    "an entry fee booked on another run": (
        ["UPDATE transactions SET run_id = 'run' WHERE key = 'match_entry:reg:1'"],
        {"bad_key"},
    ),
    "a match transaction about no run": (
        ["UPDATE transactions SET run_id = NULL WHERE key = 'match_cancel:off'"],
        {"bad_key", "match_outcome_mismatch"},
    ),
    "a grant naming a run": (
        ["UPDATE transactions SET run_id = 'reg' WHERE key = 'grant:signup:1'"],
        {"bad_key"},
    ),
}  # fmt: skip


def test_each_match_discrepancy_is_caught(hall: Store) -> None:
    assert missed_tampering(hall, MATCH_TAMPERING) == {}
    assert audit(hall) == []


def test_match_problems_name_the_run(hall: Store) -> None:
    execute(hall, "UPDATE match_runs SET state = 'finished' WHERE id = 'run'")
    assert audit(hall) == [
        Problem("match_escrow_not_empty", "run run (finished): match:run holds 100"),
        Problem("match_outcome_mismatch", "run run is finished with 0 payouts, 0 cancellations"),
    ]


# --- the migration -----------------------------------------------------------------------


def downgrade(db_url: str, revision: str) -> None:
    """Migrate the database down to ``revision`` as the store migrates up."""
    engine = database.create(database.normalize_url(db_url))
    config = database.alembic_config()
    try:
        with database.migrating(engine) as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, revision)
    finally:
        engine.dispose()


def revision(db_url: str) -> str | None:
    """The database's revision."""
    engine = database.create(database.normalize_url(db_url))
    try:
        return database.current_revision(engine)
    finally:
        engine.dispose()


def test_migration_0003_keeps_the_ledger_both_ways(db_url: str) -> None:
    with Store.open(db_url) as store:
        ann, bob = players(store, 2, grant=GRANT)
        before = balances(store)
    downgrade(db_url, "0002")
    assert revision(db_url) == "0002"
    with Store.open(db_url) as store:  # 0002 → 0003 over a ledger with rows in it
        assert balances(store) == before
        registered(store, "r1", ann, bob)
        assert audit(store) == []
    with pytest.raises(RuntimeError, match="match runs"):
        downgrade(db_url, "0002")
    assert revision(db_url) == database.head_revision()  # refused: nothing undone


def test_sqlite_foreign_keys_are_on_again_after_migrating() -> None:
    with Store.open("sqlite://") as store, store.read() as connection:  # one shared connection
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
