"""The one effect executor: carries out what the live hall's core asks.

:class:`Executor` sends a command to :class:`~qipai.hall.core.HallCore` with the time, and
carries out the effects it returns, in order: frames onto the :class:`~.bus.Bus`, the
store's writes on its threads (batched: :mod:`.batching`) with their answers fed back as
commands (``HandRecorded``, ``HandSettled``, ``StoreFailed``, ``BalancesRead``), one timer
for the earliest ``WakeAt`` (its ``Tick`` names the next), the cluster's table leases and
the players' claims (:mod:`.places`), and what is kept for the absent (:mod:`.missed`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime

from qipai.errors import GameError
from qipai.hall import commands as c
from qipai.hall import effects as e
from qipai.hall.core import HallCore
from qipai.hall.frames import OutFrame, encode_frame
from qipai.hall.match import effects as me
from qipai.hall.match.commands import MatchCommand
from qipai.hall.table.table import BotTurn, HandOutcome
from qipai.store import Fence, HandSettlement, HandStart
from qipai.store.privates import PrivateRow

from .batching import Batcher
from .bots import BotPool
from .bus import Bus
from .database import Database
from .matchsteps import MatchSteps, UndoneError
from .missed import MissedFrames, RecentEndings
from .node import ClusterNode
from .places import Places
from .privatenodes import ALONE, PrivateSaves

log = logging.getLogger(__name__)

VOID_RETRY = 2.0
"""Seconds between two tries to void a hand while the database is down."""

class Executor:
    """Drives one :class:`HallCore`: commands in with the time, effects carried out."""

    def __init__(
        self,
        core: HallCore,
        db: Database,
        bus: Bus,
        *,
        places: Places,
        recent: RecentEndings,
        missed: Callable[[], MissedFrames],
        clock: Callable[[], float] = time.time,
        cluster: ClusterNode | None = None,
        bots: BotPool | None = None,
        steps: MatchSteps | None = None,
    ) -> None:
        self.core = core
        self.steps = steps
        """Carries out the matches' store steps (``None``: a hall without matches)."""
        self.bots = bots
        self.db = db
        self.bus = bus
        self.clock = clock
        self.cluster = cluster
        self._places = places
        self._recent = recent
        self._missed = missed
        store = db.store
        self._starts = Batcher(db.run, store.start_hands, store.start_hand)
        self._settles = Batcher(db.run, store.settle_hands, store.settle_hand)
        self._fences: dict[int, Fence] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._tasks: set[asyncio.Task[None]] = set()
        self._voiding: set[asyncio.Task[None]] = set()
        self.hands_settled = 0
        """Hands settled (voided ones not counted)."""
        node = ALONE if cluster is None else cluster.node_id
        self.private_saves = PrivateSaves(core, db, node)
        """Keeps the open private tables in the store (``SavePrivate``)."""

    @property
    def settle_transactions(self) -> int:
        """Database transactions that settled hands (fewer than hands under load)."""
        return self._settles.batches

    # --- commands in --------------------------------------------------------------------

    def run(self, command: c.Command) -> tuple[OutFrame, ...]:
        """Handle ``command`` now and carry out its effects; the frames that answer it.

        :raises GameError: the core refused it (nothing changed, nothing carried out).
        """
        return self.carry(self.core.handle(command, self.clock()))

    def _feed(self, command: c.Command) -> None:
        """An answer from the world, as a command (a refusal here is a bug: logged)."""
        try:
            self.run(command)
        except Exception:
            log.exception("the hall could not take %r", command)

    # --- effects out --------------------------------------------------------------------

    def carry(self, effects: list[e.Effect]) -> tuple[OutFrame, ...]:
        """Carry out ``effects`` in order; the frames of its replies."""
        replies: list[OutFrame] = []
        for effect in effects:
            match effect:
                case e.Send(user, frame):
                    self.bus.publish(user, frame)
                case e.Reply(frames):
                    replies.extend(frames)
                case e.KeepMissed(user, frames):
                    self._missed().keep(user, list(frames))
                case e.NoteEnding(user, frames, away):
                    if away:
                        self._missed().keep(user, list(frames))
                    # noted here too: a connection may be dead before anybody knows, and
                    # kept frames may still be on their way to Redis when he comes back
                    self._recent.note(user, list(frames))
                case e.ReleasePlace(user):
                    self._places.release_soon(user)
                case e.RecordHandStart():
                    self._spawn(self._record(effect))
                case e.SettleHand():
                    self._spawn(self._settle(effect))
                case e.VoidHand(hand):
                    self.void_soon(hand)
                case e.ReadBalances():
                    self._spawn(self._read_balances(effect))
                case e.AskBot(table, turn):
                    self._ask(table, turn)
                case e.Release(table):
                    self._release(table)
                case e.WakeAt(when):
                    self._wake_at(when)
                case e.KeepScoreboard():
                    self._spawn(self._keep_scoreboard(effect))
                case e.SavePrivate(code):
                    self.private_saves.save(code)
                case e.Log(level, text):
                    log.log(logging.ERROR if level == "error" else logging.WARNING, text)
                case _:  # the matches' store steps
                    self._match_step_later(effect)
        return tuple(replies)

    # --- the matches' store steps -------------------------------------------------------

    async def drive(self, command: MatchCommand, *, strict: bool = False) -> list[e.Effect]:
        """Handle ``command`` now and carry out its effects in order, each match store step
        awaited and the command that answers it handled in turn; the effects.

        :param strict: a failed step raises (at start) instead of being answered.
        :raises GameError: the core refused ``command`` (nothing changed).
        """
        effects = self.core.handle(command, self.clock())
        for effect in effects:
            if isinstance(effect, me.MatchEffect) and self.steps is not None:
                try:
                    answer = await self.steps.carry(effect, strict)
                except UndoneError as undone:
                    self.run(undone.undo)  # the memory taken back at once
                    raise undone.error from None
                if answer is not None:
                    await self.drive(answer, strict=strict)
            else:
                self.carry([effect])
        return effects

    def _match_step_later(self, effect: me.MatchEffect) -> None:
        """A store step asked outside a sequence (a hand's end): carried out soon."""
        if self.steps is None:
            return
        if isinstance(effect, me.SaveRun):
            self.steps.save(effect.run)
            return
        steps = self.steps

        async def carry() -> None:
            answer = await steps.carry(effect)
            if answer is not None:
                await self.drive(answer)

        self._spawn(carry())

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _ask(self, table: int, turn: BotTurn) -> None:
        """The bots' pool decides ``turn``; its answer comes back as ``BotDecided``."""
        if self.bots is not None:
            self.bots.ask(turn, lambda action: self._feed(c.BotDecided(table, turn, action)))

    def _release(self, table: int) -> None:
        """The table's lease goes back (several nodes)."""
        self._fences.pop(table, None)
        if self.cluster is not None:
            self.cluster.release_soon(self.cluster.table_resource(table))

    # --- the store ----------------------------------------------------------------------

    async def _record(self, effect: e.RecordHandStart) -> None:
        """Lease the table (several nodes), then write the hand's start."""
        try:
            if self.cluster is not None:  # no hand without the table's lease
                lease = await self.cluster.lease(self.cluster.table_resource(effect.table))
                self._fences[effect.table] = lease.fence
            await self._starts.submit(_start_of(effect, self.cluster))
        except GameError as error:
            self._feed(c.StoreFailed(effect.table, effect.hand, error.code, error.message))
        except Exception as error:  # the database does not answer
            log.warning("table %d: no hand, the database failed: %s", effect.table, error)
            self._feed(c.StoreFailed(effect.table, effect.hand, *_UNAVAILABLE))
        else:
            self._feed(c.HandRecorded(effect.table, effect.hand))

    async def _settle(self, effect: e.SettleHand) -> None:
        """Settle the hand in one transaction (shared with others: :mod:`.batching`), or
        void it when the engine voided it."""
        outcome = effect.outcome
        try:
            if outcome.voided:
                await self.db.run(self.db.store.void_hand, outcome.hand_id, _utcnow())
            else:
                fence = self._fences.get(effect.table)
                await self._settles.submit(settlement_of(outcome, fence))
                self.hands_settled += 1
        except GameError as error:  # the store refused it: its own reason, logged as such
            log.error("table %d: the store refused the settlement: %s", effect.table, error)
            self._feed(c.StoreFailed(effect.table, outcome.hand_id, error.code, error.message))
        except Exception as error:
            log.error("table %d: settlement failed: %r", effect.table, error)
            self._feed(c.StoreFailed(effect.table, outcome.hand_id, *_UNAVAILABLE))
        else:
            self._feed(c.HandSettled(effect.table, outcome.hand_id))

    async def _keep_scoreboard(self, effect: e.KeepScoreboard) -> None:
        """Store a closed private table's final scoreboard (lost, and logged, if the
        database does not answer: no coin depends on it)."""
        row = PrivateRow(
            effect.code, effect.game, effect.rules, effect.stakes, effect.hands, _utcnow(),
            encode_frame(effect.scoreboard).decode("utf-8"), effect.base,
        )  # fmt: skip
        try:
            await self.db.run(self.db.store.keep_private, row, effect.users)
        except Exception as error:
            log.error("private table %s: scoreboard not kept: %r", effect.code, error)

    async def _read_balances(self, effect: e.ReadBalances) -> None:
        try:
            balances = await self.db.run(self._balances, effect.users)
        except Exception as error:  # the database does not answer
            self._feed(c.SeatingFailed(effect.seating, repr(error)))
        else:
            self._feed(c.BalancesRead(effect.seating, tuple(balances)))

    def _balances(self, users: tuple[int | None, ...]) -> list[int]:
        """Each player's coins (0 for a bot: :func:`~qipai.hall.table.botseats.bot_seats` draws its
        own)."""
        return [0 if user is None else self.db.store.balance(user) for user in users]

    def void_soon(self, hand_id: str) -> None:
        """Void ``hand_id``, again every :data:`VOID_RETRY` seconds while the database
        does not answer (a hand never stays in play: its stakes are where they were)."""
        task = asyncio.get_running_loop().create_task(self._void_until_done(hand_id))
        self._voiding.add(task)
        task.add_done_callback(self._voiding.discard)

    async def _void_until_done(self, hand_id: str) -> None:
        while True:
            try:
                await self.db.run(self.db.store.void_hand, hand_id, _utcnow())
                return
            except Exception as error:
                log.warning("could not void hand %s yet: %s", hand_id, error)
            await asyncio.sleep(VOID_RETRY)

    # --- time ---------------------------------------------------------------------------

    def _wake_at(self, when: float) -> None:
        """One timer, for the earliest wake-up asked."""
        if self._timer is not None and self._timer_at <= when:
            return
        if self._timer is not None:
            self._timer.cancel()
        delay = max(0.0, when - self.clock())
        self._timer = asyncio.get_running_loop().call_later(delay, self._woken)
        self._timer_at = when

    def _woken(self) -> None:
        self._timer = None
        self._feed(c.Tick())

    # --- stopping -----------------------------------------------------------------------

    async def stop(self, *, forget: bool = False) -> list[str]:
        """Stop every table (``forget``: every queue and player too), let the writes they
        asked for land, then void the hands they were playing and those whose start was
        being written; their ids.  A hand the database does not let void now is voided as
        soon as it answers (while this process lives; else at its start)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        effects = self.core.handle(c.Shutdown(forget), self.clock())
        self.carry([effect for effect in effects if not isinstance(effect, e.VoidHand)])
        await self._starts.close()
        await self._settles.close()
        await self.private_saves.stop()
        voided = []
        for effect in effects:
            if isinstance(effect, e.VoidHand):
                try:
                    if await self.db.run(self.db.store.void_hand, effect.hand, _utcnow()):
                        voided.append(effect.hand)
                except Exception as error:
                    log.warning("could not void hand %s yet: %s", effect.hand, error)
                    self.void_soon(effect.hand)
        return voided


_UNAVAILABLE = ("database_unavailable", "the database does not answer")


def _start_of(effect: e.RecordHandStart, cluster: ClusterNode | None) -> HandStart:
    return HandStart(
        id=effect.hand,
        room_id=effect.room,
        game=effect.game,
        rules=effect.rules,
        table=effect.table,
        commitment=effect.commitment,
        players=effect.players,
        bot_names=effect.bots,
        started_at=_utcnow(),
        node=None if cluster is None else cluster.node_id,
    )


def settlement_of(outcome: HandOutcome, fence: Fence | None = None) -> HandSettlement:
    """What the store writes for a finished hand (played under ``fence``, if any)."""
    settlement = outcome.settlement
    return HandSettlement(
        id=outcome.hand_id,
        net=settlement.net,
        rake=settlement.rake,
        fees=settlement.fees,
        points=settlement.points,
        winners=outcome.winners,
        record_json="null" if outcome.record is None else outcome.record.to_json(),
        ended_at=_utcnow(),
        escaper=outcome.escaper,
        roles=outcome.roles,
        feats=outcome.feats,
        fence=fence,
    )


def fresh_bits(bits: int) -> int:
    """``bits`` random bits from the system's entropy (the core's ``fresh``)."""
    return secrets.randbits(bits)


def _utcnow() -> datetime:
    return datetime.now(UTC)
