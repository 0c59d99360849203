"""Registration, withdrawal and the start of a run are one ordered sequence per match, and
a step that fails is an alarm, not a loop (``server/run/matches.py``).

The match hall runs here in the test's own event loop on an SQLite store, with a database
whose calls can be held at a gate: the start of a run is held in the middle (its row
being written) while a withdrawal or a registration comes.  Before the fix the withdrawal
went through in memory and in the database while the start committed: the database said
``running``, the memory ``registering``, the run never started, and every pass of the
matches failed again, twice a second, with the fees held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from gate_kit import GatedDatabase
from places_kit import MATCH, MATCHES

from qipai.errors import IllegalActionError
from qipai.hall.match import desk as matchdesk
from qipai.hall.match.config import load_matches
from qipai.hall.match.parts import RunState
from qipai.server.run import matches as matches_module
from qipai.server.run.bus import LocalBus
from qipai.server.run.hall import HallService, Player
from qipai.server.run.matches import MatchHall
from qipai.store import Store
from qipai.store.audit import audit

TRIO = load_matches(MATCHES)
"""Three players, no bots, one hand (``places_kit``)."""
FIRST, SECOND = f"{MATCH}#1", f"{MATCH}#2"
GRANT = 1_000
WAIT = 20.0


@contextlib.asynccontextmanager
async def match_hall(tmp_path: Path) -> AsyncIterator[MatchHall]:
    """A match hall with :data:`TRIO` on a new SQLite store, started."""
    store = Store.open(f"sqlite:///{tmp_path / 'hall.db'}")
    db = GatedDatabase(store)
    hall = HallService(db, (), LocalBus())
    match_hall = MatchHall(hall, TRIO)
    await match_hall.start()
    try:
        yield match_hall
    finally:
        db.gate.set()
        await match_hall.stop()
        db.close()
        store.close()


def _players(matches: MatchHall, count: int) -> list[Player]:
    store = matches.hall.db.store
    now = datetime.now(UTC)
    users = [store.register(f"p{n}", "x", grant=GRANT, now=now) for n in range(count)]
    return [matches.hall.player(user, f"p{n}") for n, user in enumerate(users)]


async def _until(check: Callable[[], bool], what: str) -> None:
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.01)
    assert check(), what


def _consistent(matches: MatchHall, run_id: str) -> None:
    """The run's state and registrations are the same in memory and in the database, and
    the ledger's audit is clean."""
    store = matches.hall.db.store
    row = store.match_run(run_id)
    assert row is not None
    live = matches.playing.get(run_id) or next(
        each for each in matches.live.values() if each.run.run_id == run_id
    )
    assert row.state == live.run.state.value
    if row.state == "registering":
        stored = sorted(user for user, _ in store.match_registrations(run_id))
        assert stored == sorted(live.users.values())
    assert audit(store, allow_playing=True) == []


def _in_hall(tmp_path: Path, scenario: Callable[[MatchHall], Awaitable[None]]) -> None:
    """Run ``scenario`` on a new match hall (:func:`match_hall`)."""

    async def run() -> None:
        async with match_hall(tmp_path) as matches:
            await scenario(matches)

    asyncio.run(run())


def _gated(matches: MatchHall) -> GatedDatabase:
    db = matches.hall.db
    assert isinstance(db, GatedDatabase)
    return db


def test_a_withdrawal_during_the_start_waits_for_it(tmp_path: Path) -> None:
    _in_hall(tmp_path, _withdraw_during_the_start)


async def _withdraw_during_the_start(matches: MatchHall) -> None:
    db = _gated(matches)
    first, second, third = _players(matches, 3)
    await matches.register(first, MATCH)
    await matches.register(second, MATCH)
    db.gated.add("start_match_run")
    await matches.register(third, MATCH)  # full: the next pass starts it, held at the gate
    await asyncio.wait_for(db.entered.wait(), WAIT)
    withdrawal = asyncio.ensure_future(matches.unregister(third, MATCH))
    await asyncio.wait({withdrawal}, timeout=0.5)  # as far as it gets while the start waits
    db.gate.set()
    outcome = await asyncio.gather(withdrawal, return_exceptions=True)
    await _until(lambda: FIRST in matches.playing, "the run started")
    _consistent(matches, FIRST)
    # it came after the start: his run has started (the open run is the next one)
    assert [getattr(error, "code", error) for error in outcome] == ["match_closed"]
    assert matches.run_of(third.user) is not None


def test_registering_and_withdrawing_in_a_loop_never_freezes_the_run(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two players registered, a third registers and withdraws again and again while the
    passes start the run: the run starts with its full registrations in memory and in the
    database, and the next run opens; no pass fails."""
    _in_hall(tmp_path, _toggle)
    assert not [r for r in caplog.records if "match pass failed" in r.getMessage()]


async def _toggle(matches: MatchHall) -> None:
    first, second, third = _players(matches, 3)
    await matches.register(first, MATCH)
    await matches.register(second, MATCH)
    refused = None
    async with asyncio.timeout(WAIT):
        while FIRST not in matches.playing and refused is None:
            try:
                await matches.register(third, MATCH)
                await matches.unregister(third, MATCH)
            except IllegalActionError as error:  # the run started meanwhile
                refused = error.code
    assert refused in (None, "match_closed", "not_registered"), refused
    await _until(lambda: FIRST in matches.playing, "the first run started")
    _consistent(matches, FIRST)
    assert matches.live[MATCH].run.run_id == SECOND


def test_a_start_that_fails_is_retried_then_cancelled_and_refunded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses the start: the failure is logged once, the start is tried again
    a few times, then the run is cancelled with every fee refunded (and the next run
    opens), instead of a pass that fails twice a second for ever."""
    monkeypatch.setattr(matches_module, "TICK", 0.02)  # (the waits, not their growth)
    monkeypatch.setattr(matchdesk, "RETRY_SECONDS", 0.02)
    caplog.set_level(logging.WARNING, logger="qipai")
    _in_hall(tmp_path, _fail_the_start)
    failures = [r.getMessage() for r in caplog.records if FIRST in r.getMessage()]
    assert 1 <= len(failures) <= 3, failures
    assert not [r for r in caplog.records if "match pass failed" in r.getMessage()]


async def _fail_the_start(matches: MatchHall) -> None:
    db = _gated(matches)
    store = db.store
    players = _players(matches, 3)
    db.failing.add("start_match_run")
    for player in players:
        await matches.register(player, MATCH)
    assert [store.balance(p.user) for p in players] == [GRANT - 10] * 3
    await _until(lambda: matches.live[MATCH].run.run_id == SECOND, "the next run")
    row = store.match_run(FIRST)
    assert row is not None and row.state == "cancelled"
    assert [store.balance(p.user) for p in players] == [GRANT] * 3
    assert matches.live[MATCH].run.state is RunState.REGISTERING
    assert all(matches.run_of(p.user) is None for p in players)
    assert audit(store, allow_playing=True) == []
