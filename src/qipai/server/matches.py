"""Matches in the running hall: the edge of the core's match desk.

The runs, their registrations, the passes that start or cancel them and their play live in
the pure core (:mod:`qipai.hall.matchdesk`, ``docs/matches.md``).  :class:`MatchHall`
answers the match API (:mod:`qipai.hall.matchrequests`), looks at the runs every
:data:`TICK`, and carries out the desk's store steps (:mod:`qipai.hall.matcheffects`),
feeding each outcome back as a command.  A registration, a withdrawal and each match's pass
are one ordered sequence per match (its lock); a step of the sequence is awaited before
the next, so that the memory and the database change together, or neither.  Starting,
saving, paying and the cancellations at start carry the matches' lease fence (several
processes: a node that lost the matches cannot do any of them).  A run's snapshot is
written by one task at a time, each write the run as it is then.  Runs left running by a
previous process are carried on from their last saved hand (the others are cancelled and
refunded); a player told nothing of a run's end gets ``match_over`` when he next connects
(:meth:`MatchHall.untold`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, assert_never

import msgspec

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall import matchcommands as mc
from qipai.hall import matcheffects as me
from qipai.hall.effects import Effect
from qipai.hall.frames import MatchOver, OutFrame
from qipai.hall.matchconfig import MatchConfig
from qipai.hall.matchdesk import DIVERGED
from qipai.hall.matchrequests import ListMatches, MatchRequest, Register, Standings, Unregister
from qipai.hall.matchruns import LiveRun, over, pid, shown
from qipai.store import Fence, MatchResultRow

from .cluster import MATCHES
from .hall import HallService, Player

log = logging.getLogger(__name__)

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
        self._last_fence: Fence | None = None
        self._savers: dict[str, asyncio.Task[None]] = {}
        self._unsaved: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._cancelled: list[str] = []
        self.hold: Callable[[int], Awaitable[None]] | None = None
        """Several processes: hold a user's player on this node (his connections on every
        node move here), for the people of a run carried on here."""
        hall.executor.on_match = self._later

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
        saved = await db.run(db.store.match_snapshots)
        numbers = []
        for match in self.matches:
            runs = await db.run(db.store.match_runs, match_id=match.id, limit=1)
            numbers.append((match.id, int(runs[0].id.rpartition("#")[2]) if runs else 0))
        mine = tuple((run, *found) for run, found in saved.items() if found[0] in ours)
        await self._drive(mc.StartMatches(self.matches, tuple(numbers), mine), strict=True)
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        return self._cancelled

    async def stop(self) -> None:
        """Stop looking at the runs, finish saving them, and forget them (they are carried
        on from their last finished hand at the next start, here or elsewhere)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        await asyncio.gather(*self._savers.values(), return_exceptions=True)
        self.hall.core.handle(mc.StopMatches(), self.hall.clock())

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

    async def serve(self, request: MatchRequest, user: int | None, name: str) -> Any:
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
                return {"ok": True}
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

    async def register(self, player: Player, match_id: str) -> dict[str, Any]:
        """Register ``player`` in the match's open run, holding the entry fee: his place
        (his lock, his claim in the cluster) taken first, then the run's."""
        sequence, places = self._sequence(match_id), self.hall.places
        async with places.lock(player.user):
            await places.claim(player.user)
            try:
                async with sequence:
                    command = mc.Register(player.user, player.name, match_id)
                    [held] = [e for e in await self._drive(command) if isinstance(e, me.HoldEntry)]
                    return {"match": match_id, "run": held.run, "number": held.number}
            finally:
                await places.release(player.user)  # (refused: his claim given back)

    async def unregister(self, player: Player, match_id: str) -> None:
        """Withdraw ``player`` from the match's open run and refund his fee."""
        sequence, places = self._sequence(match_id), self.hall.places
        async with places.lock(player.user), sequence:
            await self._drive(mc.Unregister(player.user, match_id))
            await places.release(player.user)

    async def standings(self, run_id: str, user: int | None) -> dict[str, Any]:
        """A run's standings, live while it plays, final once it ended (from the store).

        :raises InvalidActionError: ``unknown_run``.
        """
        live = self.desk.find(run_id)
        if live is not None:
            return live.standings(user)
        row = await self.hall.db.run(self.hall.db.store.match_run, run_id)
        if row is None or row.standings_json is None:
            raise InvalidActionError("unknown_run", f"no run {run_id!r}")
        ended = {"match": row.match_id, "run": row.id, "state": row.state, "stage": None}
        rows = json.loads(row.standings_json)
        return {**ended, "stage_name": None, "players_left": 0, **shown(rows, user)}

    async def untold(self, user: int) -> list[OutFrame]:
        """The ``match_over`` of each run that ended while ``user`` was away, once."""
        store = self.hall.db.store
        found = await self.hall.db.run(store.take_untold_match_results, user, _utcnow())
        return [_over_kept(result, text, pid(user)) for result, text in found]

    # --- the desk's effects -----------------------------------------------------------

    async def _drive(self, command: mc.MatchCommand, *, strict: bool = False) -> list[Effect]:
        """Handle ``command`` now and carry out its effects in order, each store step
        awaited and its outcome handled in turn; the effects.  ``strict``: a failed step
        raises (at start)."""
        effects = self.hall.core.handle(command, self.hall.clock())
        for effect in effects:
            if isinstance(effect, me.MatchEffect):
                answer = await self._store(effect, strict)
                if answer is not None:
                    await self._drive(answer, strict=strict)
            else:
                self.hall.executor.carry([effect])
        return effects

    def _later(self, effect: me.MatchEffect) -> None:
        """A store step asked outside a sequence (a hand's end): carried out soon."""
        if isinstance(effect, me.SaveRun):
            self._save(effect.run)
            return

        async def carry() -> None:
            answer = await self._store(effect, False)
            if answer is not None:
                await self._drive(answer)

        task = asyncio.get_running_loop().create_task(carry())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store(self, effect: me.MatchEffect, strict: bool) -> mc.MatchCommand | None:
        """Carry out one store step; the command that answers it (``None``: none)."""
        db, store, now = self.hall.db, self.hall.db.store, _utcnow()
        match effect:
            case me.HoldEntry(run, user, _):
                work: Awaitable[object] = db.run(store.register_for_match, run, user, now)
                return await self._both(work, mc.EntryHeld(run, user), mc.EntryFailed(run, user))
            case me.RefundEntry(run, user):
                work = db.run(store.unregister_from_match, run, user, now)
                done = mc.EntryRefunded(run, user)
                return await self._both(work, done, mc.RefundFailed(run, user))
            case me.OpenRun(match, run, fee):
                work = db.run(store.open_match_run, run, match, fee, now)
                return await self._step(match, work, mc.RunOpened(match, run), strict)
            case me.StartRun(match, run, users):
                return await self._step(match, self._start(run, users), mc.RunStarted(run), strict)
            case me.CancelRun(match, run, reason):
                work = db.run(store.cancel_match_run, run, now)
                return await self._step(match, work, mc.RunCancelled(run, reason), strict)
            case me.CancelInterrupted(keep, matches):
                self._cancelled = await db.run(store.cancel_interrupted_matches, now, keep=keep,
                                               match_ids=matches, fence=self._fence)  # fmt: skip
                if self._cancelled:
                    log.warning("cancelled %d match runs interrupted by the last shutdown",
                                len(self._cancelled))  # fmt: skip
            case me.HoldPlayer(user):
                await self._hold(user)
            case me.SaveRun(run):
                self._save(run)
            case me.PayPrizes():
                return await self._pay(effect)
            case _:
                assert_never(effect)
        return None

    async def _both(
        self, work: Awaitable[object], done: mc.MatchCommand, undo: mc.MatchCommand
    ) -> mc.MatchCommand:
        """A registration's write: ``done`` once written; ``undo`` at once (the memory
        taken back) if it failed, and the failure raised to the asker."""
        try:
            await work
        except BaseException:
            self.hall.core.handle(undo, self.hall.clock())
            raise
        return done

    @staticmethod
    async def _step(
        match: str, work: Awaitable[object], done: mc.MatchCommand, strict: bool
    ) -> mc.MatchCommand:
        """A pass's step: ``done``, or ``StepFailed`` (retried by the desk)."""
        try:
            await work
        except Exception as error:
            if strict:
                raise
            if isinstance(error, GameError):
                return mc.StepFailed(match, error.code, error.message)
            return mc.StepFailed(match, "store_failed", repr(error))
        return done

    async def _start(self, run_id: str, users: tuple[int, ...]) -> None:
        """Start the run in the database, which must hold exactly ``users``' registrations.

        :raises IllegalActionError: :data:`DIVERGED`, or the store's refusal.
        """
        db = self.hall.db
        stored = await db.run(db.store.match_registrations, run_id)
        if sorted(user for user, _ in stored) != sorted(users):
            raise IllegalActionError(DIVERGED, f"the database holds {stored}")
        await db.run(db.store.start_match_run, run_id, _utcnow(), fence=self._fence)

    async def _hold(self, user: int) -> None:
        if self.hold is not None:
            try:
                await self.hold(user)
            except GameError as error:  # he is moved when he connects again
                log.warning("could not hold user %d here: %s", user, error)

    async def _pay(self, effect: me.PayPrizes) -> mc.MatchCommand | None:
        """Pay the prizes; the players connected now are told at once, the others later."""
        told = [user for user in effect.users if self.hall.bus.is_connected(user)]
        db = self.hall.db
        try:
            await db.run(db.store.finish_match_run, effect.run, dict(effect.prizes),
                         effect.standings, _utcnow(), fence=self._fence,
                         ranks=dict(effect.ranks), told=told)  # fmt: skip
        except Exception as error:
            log.error("match run %s not paid: %r", effect.run, error)
            return None
        return mc.RunFinished(effect.run, tuple(told))

    def _save(self, run_id: str) -> None:
        """Save the run soon: one writer per run, each write the run as it is then."""
        self._unsaved.add(run_id)
        saver = self._savers.get(run_id)
        if saver is None or saver.done():
            self._savers[run_id] = asyncio.get_running_loop().create_task(self._write(run_id))

    async def _write(self, run_id: str) -> None:
        while run_id in self._unsaved and (data := self.desk.snapshot(run_id)) is not None:
            self._unsaved.discard(run_id)
            try:  # encoded in a thread: a 3,000-player run is about half a MiB
                text = await asyncio.to_thread(_encode, data)
                db = self.hall.db
                await db.run(db.store.save_match_snapshot, run_id, text, fence=self._fence)
            except Exception as error:  # the next hand saves again; a stale fence stays so
                log.warning("match run %s not saved: %s", run_id, error)
        self._unsaved.discard(run_id)
        self._savers.pop(run_id, None)

    @property
    def _fence(self) -> Fence | None:
        """The matches' lease fence: the lease held now, or the last one held."""
        cluster = self.hall.cluster
        lease = None if cluster is None else cluster.held.get(MATCHES)
        if lease is not None:
            self._last_fence = lease.fence
        return self._last_fence


def _over_kept(result: MatchResultRow, standings_json: str, player: str) -> MatchOver:
    """``match_over`` from a result kept in the database."""
    standings: list[dict[str, Any]] = json.loads(standings_json)
    frame = over(result.match_id, result.run_id, player, result.prize or 0, standings)
    return msgspec.structs.replace(frame, rank=result.rank)


def _encode(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _utcnow() -> datetime:
    return datetime.now(UTC)
