"""The tables in play and the life of each: record its hand, deal it, play it, settle it.

A :class:`LiveTable` is one :class:`~qipai.hall.table.table.Table` with its players and its
:class:`Phase`.  Its hand is written to the store before it is dealt
(:class:`~qipai.hall.table.effects.RecordHandStart`, answered by ``HandRecorded``), and settled
before anybody is told the result: the frames of a finished hand are held until
``HandSettled`` comes (a snapshot asked meanwhile waits with them).  A table whose hand
could not be recorded is *refused* (nothing was dealt, its players leave); one whose
settlement failed is *failed* (its hand voided, its players told).  A table that plays on
(a cash room with ``regroup = false``) pauses between two hands, then deals the next.

:class:`TableFlow` keeps them, and their wake-ups in one heap: each change names the
earliest (:class:`~qipai.hall.effects.WakeAt`), and a ``Tick`` runs what is due.
"""

from __future__ import annotations

import contextlib
import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Protocol

from qipai.errors import GameError, IllegalActionError
from qipai.games.events import SPECTATOR
from qipai.hall import notices
from qipai.hall.cash.matchmaking import MatchedTable
from qipai.hall.effects import Effect, KeepMissed, Log, NoteEnding, Send, WakeAt
from qipai.hall.frames import OutFrame
from qipai.hall.players import Player
from qipai.hall.seeds import SEED_BITS, commitment
from qipai.hall.table.effects import AskBot, RecordHandStart, Release, SettleHand, VoidHand
from qipai.hall.table.table import BotTurn, Table

Out = list[Effect]
"""Where a handler appends its effects, in order."""


class Phase(Enum):
    """Where a table's hand is."""

    RECORDING = "recording"
    """Its start is being written: not dealt yet (presence changes wait)."""
    PLAYING = "playing"
    """Dealt (or waiting for its players' entropy), not over."""
    SETTLING = "settling"
    """Over, its settlement being written: its last frames wait for it."""
    PAUSED = "paused"
    """Between two hands of a table that plays on."""


class Posted(Enum):
    """A seat's change that nobody waits an answer for (its refusal is dropped)."""

    AWAY = "away"
    """The player lost his last connection."""
    BACK = "back"
    """The player is back."""
    LEAVE_EARLY = "leave_early"
    """He leaves the room: an escape while the hand is not dealt yet."""


@dataclass(eq=False)
class LiveTable:
    """One table in play: its pure table, who sits where, where its hand is."""

    table: Table
    users: tuple[int | None, ...]
    """The user at each seat, ``None`` for a bot."""
    seating: MatchedTable | None
    """Its room's matchmaking table (a cash table), ``None`` for a match's."""
    owner: Owner
    """The place it plays for (a cash room, a private table, a match): decides after each
    hand whether it plays on, and takes its players back when it closes."""
    phase: Phase = Phase.RECORDING
    hand: str = ""
    """The id of the hand being recorded (:attr:`Phase.RECORDING`)."""
    seed: int = 0
    """Its house seed."""
    held: list[tuple[int, Posted]] = field(default_factory=list)
    """Posted changes held while the hand is recorded, applied once it is dealt."""
    resyncs: list[int] = field(default_factory=list)
    """Users who asked for a snapshot while the hand settles."""
    resume_at: float | None = None
    """When the pause between two hands ends (:attr:`Phase.PAUSED`)."""
    wake: float | None = None
    """The earliest wake-up in the heap for this table."""
    refusal: GameError | None = None
    """Why its hand could not start, once refused (nothing was dealt)."""
    failed: bool = False
    """Its hand was voided unsettled (its settlement failed, or the hall stopped)."""
    unsettled: bool = False
    """The store refused or failed its hand's settlement (the hand voided): a table that
    plays on deals its next hand at once."""
    stopped: bool = False
    """The hall stopped it."""
    asked: BotTurn | None = None
    """The last decision asked of the bots' worker pool."""

    @property
    def number(self) -> int:
        """The table's number (hall-wide)."""
        return self.table.number

    def seat_of(self, user: int) -> int:
        """The seat of ``user``."""
        return self.users.index(user)

    @property
    def ended(self) -> bool:
        """Whether it closed with its last hand settled (a result to show), not refused,
        failed or stopped."""
        return self.refusal is None and not self.failed

    def humans(self) -> list[tuple[int, int]]:
        """(seat, user) of each player (bots left out)."""
        return [(seat, user) for seat, user in enumerate(self.users) if user is not None]


class Owner(Protocol):
    """The place a live table plays for (each wing's: :class:`~qipai.hall.cash.rooms.CashRooms`,
    :class:`~qipai.hall.private.tables.PrivateTables`, a match's
    :class:`~qipai.hall.match.desk.MatchTable`): whether it plays on, and what follows its
    close.  The table holds it (:attr:`LiveTable.owner`): the flow asks it, never the hall."""

    def plays_on(self, live: LiveTable) -> bool:
        """Whether ``live`` deals its next hand to the same players."""
        ...

    def closed(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` is closed (its players are still seated at it)."""
        ...


Spectated = Callable[[LiveTable, tuple[OutFrame, ...], Out, float], None]
"""Takes the frames of one change at a table made for its spectators."""


class TableFlow:
    """The tables in play, each moved by commands and wake-ups.

    :param players: the hall's players (whom to tell, whether they are connected).
    :param fresh: ``fresh(bits)`` random bits for hand ids and seeds (the caller's
        entropy: :func:`secrets.randbits` in the server, a seeded generator in tests).
    :param pause: seconds between two hands of a table that plays on.
    :param asks_bots: whether its bots decide in the bots' worker pool (``AskBot``).
    :param tables: the dict it keeps the tables in play in, by number (one its caller
        shares with whoever reads them: the spectators); a new one by default.
    :param spectators: where the frames a table makes for its spectators go.
    """

    def __init__(
        self,
        players: dict[int, Player],
        fresh: Callable[[int], int],
        pause: float,
        *,
        asks_bots: bool = False,
        tables: dict[int, LiveTable] | None = None,
        spectators: Spectated | None = None,
    ) -> None:
        self.tables: dict[int, LiveTable] = {} if tables is None else tables
        self.bot_fallbacks = 0
        """Bots' moves the basic 托管 played, the pool's answer late (tables closed)."""
        self._asks_bots = asks_bots
        self._players = players
        self._fresh = fresh
        self._pause = pause
        self._wakes: list[tuple[float, int]] = []
        self.spectators = spectators
        """Where the frames a table makes for its spectators go (the hall's
        :class:`~qipai.hall.watch.spectators.Spectators`)."""

    # --- a hand's start -------------------------------------------------------------

    def add(self, live: LiveTable, out: Out, now: float) -> None:
        """Seat ``live`` and record its first hand."""
        self.tables[live.number] = live
        self.start(live, out, now)

    def start(self, live: LiveTable, out: Out, now: float) -> None:
        """Record the next hand (what the table would refuse is refused first: nothing is
        recorded then); seated players see the table before its first."""
        table = live.table
        try:
            table.check_start()
        except GameError as error:
            self.refuse(live, error, out, now)
            return
        if table.hands_started == 0:
            out.extend(Send(user, table.snapshot(seat)) for seat, user in live.humans())
        live.phase, live.resume_at = Phase.RECORDING, None
        live.hand = f"{int(now * 1_000_000):013x}{self._fresh(24):06x}"
        live.seed = self._fresh(SEED_BITS)
        room = table.room
        bots = tuple(s.name if s.is_bot else None for s in table.seats)
        start = RecordHandStart(
            live.number, live.hand, room.id, room.game, room.rules, commitment(live.seed),
            live.users, bots,
        )  # fmt: skip
        out.append(start)

    def recorded(self, number: int, hand: str, out: Out, now: float) -> None:
        """The hand's start is written: deal it (a table stopped meanwhile: its hand was
        voided by the stop)."""
        live = self.tables.get(number)
        if live is None or live.phase is not Phase.RECORDING or live.hand != hand:
            return
        try:
            live.table.start_hand(hand, live.seed, now)
        except Exception as error:  # recorded, not dealt: never left in play
            out.append(VoidHand(hand))
            refusal = error if isinstance(error, GameError) else _unavailable()
            self.refuse(live, refusal, out, now)
            return
        live.phase = Phase.PLAYING
        self.drain(live, out, now)
        held, live.held = live.held, []
        for seat, posted in held:
            self._apply_posted(live, seat, posted, now)
        self.after(live, out, now)

    def store_failed(self, number: int, hand: str, error: GameError, out: Out, now: float) -> None:
        """The store (or the lease) failed ``hand``: a hand not dealt is refused (and voided,
        its write may have landed), a settlement fails its table."""
        live = self.tables.get(number)
        if live is None:
            return
        if live.phase is Phase.RECORDING and live.hand == hand:
            out.append(VoidHand(hand))
            self.refuse(live, error, out, now)
        elif live.phase is Phase.SETTLING and live.table.hand_id == hand:
            out.append(Log("error", f"table {number} failed: {error.message}"))
            live.unsettled = True
            self.fail(live, out, now)

    # --- playing ----------------------------------------------------------------------

    def post(self, live: LiveTable, seat: int, posted: Posted, out: Out, now: float) -> None:
        """A change nobody waits for: held while the hand is recorded, else applied."""
        if live.phase is Phase.RECORDING:
            live.held.append((seat, posted))
            return
        self.guard(live, out, now, partial(self._posted_then_after, live, seat, posted, out, now))

    def _posted_then_after(
        self, live: LiveTable, seat: int, posted: Posted, out: Out, now: float
    ) -> None:
        self._apply_posted(live, seat, posted, now)
        self.after(live, out, now)

    def guard(self, live: LiveTable, out: Out, now: float, work: Callable[[], None]) -> None:
        """``work`` at ``live``; a table that fails in it (a bug: anything but a refusal)
        is failed alone, its hand voided, and the hall goes on."""
        try:
            work()
        except GameError:
            raise
        except Exception as error:
            out.append(Log("error", f"table {live.number} failed: {error!r}"))
            if self.tables.get(live.number) is live:
                self.fail(live, out, now)

    @staticmethod
    def _apply_posted(live: LiveTable, seat: int, posted: Posted, now: float) -> None:
        table = live.table
        try:
            match posted:
                case Posted.AWAY:
                    table.disconnect(seat, now)
                case Posted.BACK:
                    table.reconnect(seat, now)
                case Posted.LEAVE_EARLY:
                    if table.is_dealing:
                        table.escape(seat, now)
        except GameError:
            pass  # nobody to tell

    def after(self, live: LiveTable, out: Out, now: float) -> None:
        """After a change at ``live``: what is due now, then its frames out (held once the
        hand is over: it is settled first), then its next wake-up."""
        if live.phase is Phase.PLAYING:
            live.table.tick(now)
            if live.table.is_over:
                live.phase = Phase.SETTLING
                assert live.table.outcome is not None
                out.append(SettleHand(live.number, live.table.outcome))
                return
        if live.phase is not Phase.SETTLING:
            self.drain(live, out, now)
        if live.phase is Phase.PLAYING:
            self._ask_bot(live, out)
        self._schedule(live, out)

    def _ask_bot(self, live: LiveTable, out: Out) -> None:
        """The decision the table needs next, to the bots' pool, once per position."""
        turn = live.table.bot_turn() if self._asks_bots else None
        if turn is not None and turn != live.asked:
            live.asked = turn
            out.append(AskBot(live.number, turn))

    def decided(
        self, number: int, turn: BotTurn, action: object, out: Out, now: float
    ) -> None:
        """The pool's answer to ``turn`` (a table gone, or a turn passed: nothing)."""
        live = self.tables.get(number)
        if live is not None:
            self.guard(live, out, now, partial(self._decided, live, turn, action, out, now))

    def _decided(
        self, live: LiveTable, turn: BotTurn, action: object, out: Out, now: float
    ) -> None:
        with contextlib.suppress(GameError):  # an answer too late: the table moved on
            live.table.decided(turn, action, now)
        self.after(live, out, now)

    def drain(self, live: LiveTable, out: Out, now: float) -> None:
        """The table's frames, each to its seat's player; those made for its spectators
        to :attr:`spectators`."""
        watched: list[OutFrame] = []
        for outbound in live.table.drain():
            if outbound.seat == SPECTATOR:
                watched.append(outbound.frame)
                continue
            user = live.users[outbound.seat]
            if user is not None:
                out.append(Send(user, outbound.frame))
        if watched and self.spectators is not None:
            self.spectators(live, tuple(watched), out, now)

    @staticmethod
    def snapshot(live: LiveTable, user: int) -> OutFrame | None:
        """``user``'s snapshot of ``live`` now, or ``None``: a settling hand's comes once it
        is settled (never ahead of the events he was sent)."""
        if live.phase is Phase.SETTLING:
            live.resyncs.append(user)
            return None
        return live.table.snapshot(live.seat_of(user))

    # --- a hand's end -----------------------------------------------------------------

    def settled(self, number: int, hand: str, out: Out, now: float) -> None:
        """The hand is settled: its frames out; the table pauses and plays on, or closes."""
        live = self.tables.get(number)
        if live is None or live.phase is not Phase.SETTLING or live.table.hand_id != hand:
            return
        self.drain(live, out, now)
        self._answer_resyncs(live, out)
        if live.owner.plays_on(live):
            live.phase, live.resume_at = Phase.PAUSED, now + self._pause
            self._schedule(live, out)
        else:
            self.close(live, out, now)

    def _answer_resyncs(self, live: LiveTable, out: Out) -> None:
        resyncs, live.resyncs = live.resyncs, []
        out.extend(Send(user, live.table.snapshot(live.seat_of(user))) for user in resyncs)

    def leaving(self, live: LiveTable, out: Out, now: float) -> None:
        """A player leaves the room after his hand: a pausing table breaks up now."""
        if live.phase is Phase.PAUSED and not live.owner.plays_on(live):
            self.close(live, out, now)

    def refuse(self, live: LiveTable, error: GameError, out: Out, now: float) -> None:
        """The hand could not start (nothing dealt, nothing staked): its players are told
        why and leave the room; the table closes."""
        out.append(Log("warning", f"table {live.number}: hand refused: {error.message}"))
        for _, user in live.humans():
            player = self._players.get(user)
            if player is not None and player.table == live.number:
                out.append(Send(user, notices.error(error.code, error.message)))
                player.leaving = True
        live.refusal = error
        self.close(live, out, now)

    def fail(
        self, live: LiveTable, out: Out, now: float, *, stopped: bool = False,
        reason: tuple[str, str | None] = ("table_failed", None),
    ) -> None:
        """The table stops without settling: its hand is voided (by the caller when
        ``stopped``), its players told now or when they come back (``reason``: the
        ``hand_voided`` frame's code and message)."""
        hand, live.failed, live.stopped = live.table.hand_id, True, stopped
        if hand is not None:
            frame = notices.voided(hand, live.number, *reason)
            for _, user in live.humans():
                player = self._players.get(user)
                connected = player is not None and player.connected
                out.append(Send(user, frame) if connected else KeepMissed(user, (frame,)))
            if not stopped:
                out.append(VoidHand(hand))
        self._answer_resyncs(live, out)
        self.close(live, out, now)

    def close(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` is done: its lease goes back, its room takes its players."""
        del self.tables[live.number]
        self.bot_fallbacks += live.table.unanswered
        out.append(Release(live.number))
        live.owner.closed(live, out, now)

    def stop_all(self, out: Out, now: float) -> list[str]:
        """Stop every table (their players told their hand is voided); the hands to void:
        those in play, and those whose start is being written."""
        tables = list(self.tables.values())
        in_play = [live.table.hand_id for live in tables if live.table.outcome is None]
        recording = sorted(live.hand for live in tables if live.phase is Phase.RECORDING)
        for live in tables:
            self.fail(live, out, now, stopped=True)
        self._wakes.clear()
        return [hand for hand in in_play if hand is not None] + recording

    # --- time -------------------------------------------------------------------------

    def _schedule(self, live: LiveTable, out: Out) -> None:
        """Wake ``live`` at its next deadline (or the end of its pause)."""
        when = live.table.deadline() if live.phase is Phase.PLAYING else live.resume_at
        if live.phase is not Phase.PLAYING and live.phase is not Phase.PAUSED:
            when = None
        if when is None or (live.wake is not None and live.wake <= when):
            return
        live.wake = when
        heapq.heappush(self._wakes, (when, live.number))
        out.append(WakeAt(when))

    def tick(self, out: Out, now: float) -> None:
        """Run what is due at ``now``; name the next wake-up."""
        due: dict[int, None] = {}
        while self._wakes and self._wakes[0][0] <= now:
            due[heapq.heappop(self._wakes)[1]] = None
        for number in due:
            live = self.tables.get(number)
            if live is None:
                continue
            live.wake = None
            try:
                self.guard(live, out, now, partial(self._woken, live, out, now))
            except GameError as error:  # nobody to answer: the table's own bug
                out.append(Log("error", f"table {number} failed: {error.message}"))
                self.fail(live, out, now)
        if self._wakes:
            out.append(WakeAt(self._wakes[0][0]))

    def _woken(self, live: LiveTable, out: Out, now: float) -> None:
        """``live``'s wake-up: the end of its pause, or what is due at its hand."""
        if live.phase is Phase.PAUSED and live.resume_at is not None:
            if live.resume_at <= now:
                self._resume(live, out, now)
            else:
                self._schedule(live, out)
        else:
            self.after(live, out, now)

    def _resume(self, live: LiveTable, out: Out, now: float) -> None:
        """The pause is over: the next hand, unless somebody leaves."""
        if live.owner.plays_on(live):
            self.start(live, out, now)
        else:
            self.close(live, out, now)


def _unavailable() -> GameError:
    return IllegalActionError("database_unavailable", "the database does not answer")


def ending(live: LiveTable, player: Player) -> list[Effect]:
    """How ``player``'s last hand at ``live`` ended, kept for him (nothing when it was
    refused, failed or stopped: no result to show)."""
    table = live.table
    if table.outcome is None or not live.ended:
        return []
    frames = tuple(table.ending(live.seat_of(player.user)))
    return [NoteEnding(player.user, frames, away=not player.connected)]
