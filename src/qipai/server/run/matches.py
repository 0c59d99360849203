"""Matches in the running hall: the edge of the core's match desk.

The runs, their registrations, their passes and their play live in the pure core
(:mod:`qipai.hall.match.desk`, ``docs/matches.md``).  :class:`MatchHall` answers the match
API (:mod:`qipai.hall.match.requests`), looks at the runs every :data:`TICK`, and has the
desk's store steps carried out (:mod:`.matchsteps`), each outcome fed back as a command.
A registration, a withdrawal and each pass are one ordered sequence per match (its lock):
each store step of the sequence is awaited before the next, so that the memory and the
database change together, or neither.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TypeAlias, assert_never

import msgspec

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.effects import Effect
from qipai.hall.frames import MatchOver, OutFrame
from qipai.hall.match import commands as mc
from qipai.hall.match import effects as me
from qipai.hall.match.config import MatchConfig, rescheduled
from qipai.hall.match.requests import (
    Cancel,
    ListMatches,
    MatchRequest,
    Register,
    Schedule,
    Standings,
    Unregister,
)
from qipai.hall.match.runs import LiveRun, over, pid, shown
from qipai.jsontypes import Json
from qipai.server.api.answers import Ok, Registered
from qipai.store import MatchResultRow
from qipai.store.console import Console
from qipai.store.console import Schedule as KeptSchedule

from .database import Database
from .hall import HallService, Player
from .matchsteps import MatchSteps

log = logging.getLogger(__name__)

MatchAnswer: TypeAlias = "Registered | Ok | list[dict[str, Json]] | Json"
"""An answer of the match API: a registration, a withdrawal, or the JSON the core builds
(the matches' list, a run's standings); from another node, JSON read back."""

TICK = 0.5
"""Seconds between two looks at the runs (starts, scheduled times, bot waits)."""


class MatchHall:
    """Every configured match's runs, in one hall process (module docstring)."""

    def __init__(self, hall: HallService, matches: Sequence[MatchConfig]) -> None:
        self.hall = hall
        self.matches = tuple(matches)
        self.desk = hall.core.matches
        self._sequences = {match.id: asyncio.Lock() for match in self.matches}
        self._ticker: asyncio.Task[None] | None = None
        steps = hall.executor.steps
        assert steps is not None, "a hall with matches carries out their store steps"
        self.steps: MatchSteps = steps
        """Carries out the desk's store steps (the executor's)."""

    @property
    def live(self) -> dict[str, LiveRun]:
        """The open run of each match, by the match's id."""
        return self.desk.live

    @property
    def playing(self) -> dict[str, LiveRun]:
        """Runs in play, by run id."""
        return self.desk.playing

    @property
    def active(self) -> bool:
        """Whether this process runs the matches (in a cluster: the node holding them)."""
        return self._ticker is not None

    async def start(self) -> list[str]:
        """Carry on the runs a previous process left running, cancel (and refund) the
        others it left unfinished, open a run of every match, and start looking at them;
        the ids of the runs cancelled."""
        if self.active or not self.matches:  # no match: nothing here, no run touched
            return []
        db, ours = self.hall.db, {match.id for match in self.matches}
        self.matches = with_schedules(self.matches, await db.run(Console(db.store).schedules))
        saved = await db.run(db.store.match_snapshots)
        numbers = []
        for match in self.matches:
            runs = await db.run(db.store.match_runs, match_id=match.id, limit=1)
            numbers.append((match.id, int(runs[0].id.rpartition("#")[2]) if runs else 0))
        mine = tuple((run, *found) for run, found in saved.items() if found[0] in ours)
        await self._drive(mc.StartMatches(self.matches, tuple(numbers), mine), strict=True)
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        return self.steps.cancelled

    async def stop(self) -> None:
        """Stop looking at the runs and moving them on, forget them, and finish saving
        them (they are carried on from their last finished hand at the next start)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        self.hall.executor.run(mc.StopMatches())
        await self.steps.stop()

    def run_of(self, user: int) -> LiveRun | None:
        """The run ``user`` is registered in or still playing, if any."""
        return self.desk.run_of(user)

    async def _tick_forever(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # a bug in a pass must not stop the matches
                log.exception("match pass failed")
            await asyncio.sleep(TICK)

    async def tick(self) -> None:
        """Move every match's open run on, each under its match's lock."""
        for match_id in list(self.desk.live):
            async with self._sequences[match_id]:
                await self._drive(mc.MatchTick(match_id))

    # --- the match API --------------------------------------------------------------

    async def serve(self, request: MatchRequest, user: int | None, name: str) -> MatchAnswer:
        """One request of the match API, answered by kind.

        :raises GameError: the desk's refusal; ``bad_token`` for a registration or a
            withdrawal without a user.
        """
        match request:
            case ListMatches():
                return self.desk.listing(user)
            case Standings(run):
                return await self.standings(run, user)
            case Register(match):
                return await self.register(self._signed_in(user, name), match)
            case Unregister(match):
                await self.unregister(self._signed_in(user, name), match)
                return Ok(ok=True)
            case Cancel(run, reason):
                await self.cancel(run, reason)
                return Ok(ok=True)
            case Schedule(match, every, at, enabled):
                await self.reschedule(match, every, at, enabled=enabled)
                return Ok(ok=True)
            case _:
                assert_never(request)

    def _signed_in(self, user: int | None, name: str) -> Player:
        if user is None:
            raise IllegalActionError("bad_token", "sign in to register")
        return self.hall.player(user, name)

    def _sequence(self, match_id: str) -> asyncio.Lock:
        """The lock of ``match_id``'s sequence.  :raises InvalidActionError: ``unknown_match``."""
        self.desk.open_run(match_id)
        return self._sequences[match_id]

    async def register(self, player: Player, match_id: str) -> Registered:
        """Register ``player`` in the match's open run, holding the entry fee: his place
        (his lock, his claim in the cluster) taken first, then the run's."""
        sequence, places = self._sequence(match_id), self.hall.places
        async with places.lock(player.user):
            await places.claim(player.user)
            try:
                async with sequence:
                    command = mc.Register(player.user, player.name, match_id)
                    [held] = [e for e in await self._drive(command) if isinstance(e, me.HoldEntry)]
                    return Registered(match=match_id, run=held.run, number=held.number)
            finally:
                await places.release(player.user)  # (refused: his claim given back)

    async def unregister(self, player: Player, match_id: str) -> None:
        """Withdraw ``player`` from the match's open run and refund his fee."""
        sequence, places = self._sequence(match_id), self.hall.places
        async with places.lock(player.user), sequence:
            await self._drive(mc.Unregister(player.user, match_id))
            await places.release(player.user)

    async def cancel(self, run_id: str, reason: str) -> None:
        """An operator's cancel of ``run_id``: its tables closed, every fee refunded, in
        the match's sequence (after a registration or withdrawal under way).

        :raises GameError: ``unknown_run`` (not open nor in play), the store's refusal.
        """
        match_id = run_id.rpartition("#")[0]
        if self.desk.find(run_id) is None or match_id not in self._sequences:
            raise IllegalActionError("unknown_run", f"no run {run_id!r} open or in play")
        async with self._sequences[match_id]:
            await self._drive(mc.CancelMatch(run_id, reason))

    async def reschedule(self, match_id: str, every: int, at: int, *, enabled: bool) -> None:
        """An operator's schedule of ``match_id`` (kept in the database already), followed
        from now on (:class:`~qipai.hall.match.commands.Reschedule`).

        :raises InvalidActionError: ``unknown_match``, ``bad_match``.
        """
        current = next((match for match in self.matches if match.id == match_id), None)
        if current is None:
            raise InvalidActionError("unknown_match", f"no match {match_id!r}")
        changed = rescheduled(current, every, at, enabled)
        async with self._sequences[match_id]:
            await self._drive(mc.Reschedule(changed))
        self.matches = tuple(changed if m.id == match_id else m for m in self.matches)

    async def standings(self, run_id: str, user: int | None) -> dict[str, Json]:
        """A run's standings, live while it plays, final once it ended (from the store).

        :raises InvalidActionError: ``unknown_run``.
        """
        live = self.desk.find(run_id)
        if live is not None:
            return live.standings(user)
        row = await self.hall.db.run(self.hall.db.store.match_run, run_id)
        if row is None or row.standings_json is None:
            raise InvalidActionError("unknown_run", f"no run {run_id!r}")
        ended: dict[str, Json] = {
            "match": row.match_id, "run": row.id, "state": row.state, "stage": None
        }  # fmt: skip
        rows: list[dict[str, Json]] = json.loads(row.standings_json)
        return {**ended, "stage_name": None, "players_left": 0, **shown(rows, user)}

    # --- the desk's effects -----------------------------------------------------------

    async def _drive(self, command: mc.MatchCommand, *, strict: bool = False) -> list[Effect]:
        """:meth:`~qipai.server.run.executor.Executor.drive`: ``command`` handled, its store
        steps carried out in order; the effects."""
        return await self.hall.executor.drive(command, strict=strict)


async def untold(db: Database, user: int) -> list[OutFrame]:
    """The ``match_over`` of each run that ended while ``user`` was away, once (the
    hall's :attr:`~qipai.server.run.hall.HallService.notices`)."""
    found = await db.run(db.store.take_untold_match_results, user, _utcnow())
    return [_over_kept(result, text, pid(user)) for result, text in found]


def _over_kept(result: MatchResultRow, standings_json: str, player: str) -> MatchOver:
    """``match_over`` from a result kept in the database."""
    standings: list[dict[str, Json]] = json.loads(standings_json)
    frame = over(result.match_id, result.run_id, player, result.prize or 0, standings)
    return msgspec.structs.replace(frame, rank=result.rank)


def _utcnow() -> datetime:
    return datetime.now(UTC)


def with_schedules(
    matches: Sequence[MatchConfig], schedules: Mapping[str, KeptSchedule]
) -> tuple[MatchConfig, ...]:
    """``matches`` with the schedules operators set from the console (the matches file's
    values where none was set, or where a set one no longer fits the file's match)."""
    return tuple(_followed(match, schedules.get(match.id)) for match in matches)


def _followed(match: MatchConfig, kept: KeptSchedule | None) -> MatchConfig:
    if kept is None:
        return match
    try:
        return rescheduled(match, kept.every_minutes, kept.at_minute, kept.enabled)
    except InvalidActionError as error:
        log.warning("match %s keeps the file's schedule: %s", match.id, error.message)
        return match
