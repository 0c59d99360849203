"""The matches' store steps: what the core's match desk asks (:mod:`qipai.hall.match.effects`)
carried out on the store, each answered by its command (:mod:`qipai.hall.match.commands`).

A registration's write refused takes the registration back in memory at once and is raised
to the asker; a pass's step refused is answered ``StepFailed`` (the desk retries it, then
cancels the run).  Starting, saving and paying a run, and the cancellations at start, carry
the matches' lease fence (several processes: a node that lost the matches can do none of
them).  A run's snapshot is written by one task at a time, each write the run as it is
then (a burst of hands costs one or two writes).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import assert_never

from qipai.errors import GameError, IllegalActionError
from qipai.hall.core import HallCore
from qipai.hall.match import commands as mc
from qipai.hall.match import effects as me
from qipai.hall.match.desk import DIVERGED
from qipai.jsontypes import Json
from qipai.store import Fence

from .bus import Bus
from .database import Database
from .node import MATCHES, ClusterNode

log = logging.getLogger(__name__)


class UndoneError(Exception):
    """A registration's write failed: the command that takes it back in memory, and the
    failure (raised on to the asker once the command is handled)."""

    def __init__(self, undo: mc.MatchCommand, error: BaseException) -> None:
        super().__init__(f"{type(undo).__name__} after {error!r}")
        self.undo = undo
        self.error = error


class MatchSteps:
    """Carries out the match desk's store steps for one hall process."""

    def __init__(
        self,
        core: HallCore,
        db: Database,
        bus: Bus,
        *,
        clock: Callable[[], float],
        cluster: ClusterNode | None,
    ) -> None:
        self.core = core
        self.db = db
        self.bus = bus
        self.clock = clock
        self.cluster = cluster
        self.hold: Callable[[int], Awaitable[None]] | None = None
        """Several processes: hold a user's player on this node (his connections on every
        node move here), for the people of a run carried on here."""
        self.cancelled: list[str] = []
        """The runs the last ``CancelInterrupted`` cancelled."""
        self._savers: dict[str, asyncio.Task[None]] = {}
        self._unsaved: set[str] = set()
        self._last_fence: Fence | None = None

    async def stop(self) -> None:
        """Let the snapshots being written land."""
        await asyncio.gather(*self._savers.values(), return_exceptions=True)

    async def carry(self, effect: me.MatchEffect, strict: bool = False) -> mc.MatchCommand | None:
        """Carry out one store step; the command that answers it (``None``: none)."""
        db, store, now = self.db, self.db.store, _utcnow()
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
                self.cancelled = await db.run(store.cancel_interrupted_matches, now, keep=keep,
                                               match_ids=matches, fence=self._fence)  # fmt: skip
                if self.cancelled:
                    log.warning("cancelled %d match runs interrupted by the last shutdown",
                                len(self.cancelled))  # fmt: skip
            case me.HoldPlayer(user):
                await self._hold(user)
            case me.SaveRun(run):
                self.save(run)
            case me.PayPrizes():
                return await self._pay(effect)
            case me.KeepMatchPoints(hand, points):
                await self._keep(hand, points)
            case _:
                assert_never(effect)
        return None

    @staticmethod
    async def _both(
        work: Awaitable[object], done: mc.MatchCommand, undo: mc.MatchCommand
    ) -> mc.MatchCommand:
        """A registration's write: ``done`` once written.

        :raises UndoneError: it failed: ``undo`` (the memory taken back, by the executor at
            once) and the failure, raised on to the asker.
        """
        try:
            await work
        except BaseException as error:
            raise UndoneError(undo, error) from error
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

    async def _keep(self, hand: str, points: tuple[int, ...]) -> None:
        """A match hand's match points for 战绩: logged if they cannot be kept (the hand
        then shows the game's points)."""
        try:
            await self.db.run(self.db.store.keep_match_points, hand, points)
        except Exception as error:  # 战绩 only: nothing waits on it
            log.warning("could not keep the match points of hand %s: %r", hand, error)

    async def _start(self, run_id: str, users: tuple[int, ...]) -> None:
        """Start the run in the database, which must hold exactly ``users``' registrations.

        :raises IllegalActionError: :data:`DIVERGED`, or the store's refusal.
        """
        db = self.db
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
        told = [user for user in effect.users if self.bus.is_connected(user)]
        db = self.db
        try:
            await db.run(db.store.finish_match_run, effect.run, dict(effect.prizes),
                         effect.standings, _utcnow(), fence=self._fence,
                         ranks=dict(effect.ranks), told=told)  # fmt: skip
        except Exception as error:
            log.error("match run %s not paid: %r", effect.run, error)
            return None
        return mc.RunFinished(effect.run, tuple(told))

    def save(self, run_id: str) -> None:
        """Save the run soon: one writer per run, each write the run as it is then."""
        self._unsaved.add(run_id)
        saver = self._savers.get(run_id)
        if saver is None or saver.done():
            self._savers[run_id] = asyncio.get_running_loop().create_task(self._write(run_id))

    async def _write(self, run_id: str) -> None:
        while run_id in self._unsaved and (data := self.core.matches.snapshot(run_id)) is not None:
            self._unsaved.discard(run_id)
            try:  # encoded in a thread: a 3,000-player run is about half a MiB
                text = await asyncio.to_thread(_encode, data)
                db = self.db
                await db.run(db.store.save_match_snapshot, run_id, text, fence=self._fence)
            except Exception as error:  # the next hand saves again; a stale fence stays so
                log.warning("match run %s not saved: %s", run_id, error)
        self._unsaved.discard(run_id)
        self._savers.pop(run_id, None)

    @property
    def _fence(self) -> Fence | None:
        """The matches' lease fence: the lease held now, or the last one held."""
        cluster = self.cluster
        lease = None if cluster is None else cluster.held.get(MATCHES)
        if lease is not None:
            self._last_fence = lease.fence
        return self._last_fence


def _encode(data: dict[str, Json]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _utcnow() -> datetime:
    return datetime.now(UTC)
