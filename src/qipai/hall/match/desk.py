"""The live hall's matches: every run open for registration or in play, moved on by
commands (:mod:`~qipai.hall.match.commands`), its store steps asked as effects
(:mod:`~qipai.hall.match.effects`).

Each configured match always has one run open for registration (``<match id>#<n>``).  A
player registers (:class:`~qipai.hall.match.commands.Register`: his place in the run is taken, then
``HoldEntry`` holds his fee in the store; ``EntryFailed`` takes the place back) and may
withdraw (``Unregister``, ``RefundEntry``; ``RefundFailed`` puts him back), so that the
memory and the store change together, or neither.  A pass (``MatchTick``) starts a regular
run when it is full (or, where the match allows bots, once its bot wait has passed since
the first registration: bots take the empty places), starts a scheduled run at its time
with whoever registered, or cancels it below its minimum; the store starts the run only if
it holds exactly the registrations the memory holds (else ``registrations_differ``: the
run is cancelled at once).  A step the store refuses is an alarm, not a loop: it is logged
once and tried again after :data:`RETRY_SECONDS`, doubling up to :data:`RETRY_CAP`; after
:data:`START_TRIES` failures in a row the run is cancelled and every fee refunded (reason
``start_failed``), and the next run opens.

A started run (:class:`~qipai.hall.match.match.MatchRun`) deals each seating at a table of the
hall (one hand by the match's terms, its points only); when that hand is over the core hands the
table back here (:meth:`MatchDesk.hand_done`): the run scores it and moves on, its players
are told (``match_update``, ``match_advanced``, ``match_eliminated``), the run is saved
(``SaveRun``: the server writes :meth:`MatchDesk.snapshot` then, one writer per run), and
at its end ``PayPrizes`` pays it and ``RunFinished`` tells its players ``match_over``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol, assert_never

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall.effects import Log, ReleasePlace, Send
from qipai.hall.frames import (
    MatchAdvanced,
    MatchCancelled,
    MatchEliminated,
    MatchStarted,
    OutFrame,
)
from qipai.hall.match import commands as mc
from qipai.hall.match import effects as me
from qipai.hall.match.config import MatchConfig, MatchKind, describe
from qipai.hall.match.match import BOT_PREFIX, MatchRun
from qipai.hall.match.parts import Eliminated, Finished, Notice, RunState, Seating, StageStarted
from qipai.hall.match.runs import LiveRun, match_room, next_start, over, pid
from qipai.hall.players import Player
from qipai.hall.rooms import Room
from qipai.hall.table.live import LiveTable, Out, ending
from qipai.hall.table.table import HandTerms, SeatInfo
from qipai.hall.watch.spectators import Spectators
from qipai.jsontypes import Json
from qipai.registry import Payout

RETRY_SECONDS = 1.0
"""Seconds before a failed step of a run (a start, a cancellation, opening the next run)
is tried again; doubled at each failure in a row, up to :data:`RETRY_CAP`."""
RETRY_CAP = 30.0
"""The longest wait between two tries of a failing step."""
START_TRIES = 5
"""Failures in a row after which a run that cannot start is cancelled and refunded."""
DIVERGED = "registrations_differ"
"""Why a run does not start: the store holds other registrations than the memory (a
registration whose outcome was lost); it is cancelled at once, every fee refunded."""

Done = Callable[[LiveTable, Out, float], None]
"""Called by the core with a match table once its hand is over (its ``LiveTable``)."""


@dataclass(frozen=True)
class MatchTable:
    """The :class:`~qipai.hall.table.live.Owner` of a match's table: one hand, then its
    players are freed (told how it ended) and its run moves on (``done``), unless the
    hall stopped it; its spectators are told it closed."""

    players: dict[int, Player]
    watch: Spectators
    done: Done
    run: str
    """The run it plays a hand of."""

    def plays_on(self, live: LiveTable) -> bool:
        """Never: a match table plays one hand (its run seats the next)."""
        return False

    def closed(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` closed: its watchers told, its players freed, its run moved on."""
        self.watch.closed(live, out, now)
        for _, user in live.humans():
            player = self.players.get(user)
            if player is not None and player.table == live.number:
                player.table = None
                out.extend(ending(live, player))
        if not live.stopped:
            self.done(live, out, now)



class Host(Protocol):
    """What the desk needs of the core: players, and tables."""

    def player(self, user: int, name: str, *, connected: bool = True) -> Player:
        """The record of ``user`` (a new one on first sight)."""
        ...

    def open_match_table(
        self,
        room: Room,
        users: tuple[int | None, ...],
        seats: Sequence[SeatInfo],
        *,
        terms: HandTerms,
        done: Done,
        run: str,
        out: Out,
        now: float,
    ) -> None:
        """Seat ``users`` at a new table for one hand of ``run`` by ``terms``; ``done``
        once over."""
        ...

    def close_run_tables(self, run: str, reason: str, out: Out, now: float) -> None:
        """Close every table of ``run`` (an operator cancelled it): hands voided, players
        told ``reason``."""
        ...


class MatchDesk:
    """Every configured match's runs, in one live hall (module docstring)."""

    def __init__(self, host: Host, fresh: Callable[[int], int]) -> None:
        self.matches: tuple[MatchConfig, ...] = ()
        self.live: dict[str, LiveRun] = {}
        """The run open (or, until the next opens, just started or ended) of each match."""
        self.playing: dict[str, LiveRun] = {}
        """Runs in play by run id (a match may have one in play and the next open)."""
        self._counts: dict[str, int] = {}
        self._stopped: dict[str, LiveRun] = {}
        """The runs in play when the matches stopped (their snapshots still asked)."""
        self._host = host
        self._fresh = fresh

    # --- queries (nothing changes) ----------------------------------------------------

    def open_run(self, match_id: str) -> LiveRun:
        """The match's run open for registration.

        :raises InvalidActionError: ``unknown_match``.
        """
        live = self.live.get(match_id)
        if live is None:
            known = ", ".join(self.live)
            raise InvalidActionError("unknown_match", f"no match {match_id!r}; known: {known}")
        return live

    def run_of(self, user: int) -> LiveRun | None:
        """The run ``user`` is registered in or still playing, if any (knocked out, he is
        in none: free at once)."""
        player = pid(user)
        for live in [*self.live.values(), *self.playing.values()]:
            if player in live.users and live.run.takes_part(player):
                return live
        return None

    def find(self, run_id: str) -> LiveRun | None:
        """The run ``run_id``, open or in play (``None``: ended, or unknown)."""
        return self.playing.get(run_id) or next(
            (live for live in self.live.values() if live.run.run_id == run_id), None
        )

    def listing(self, user: int | None) -> list[dict[str, Json]]:
        """Every match with its open run (whether ``user`` is registered in it)."""
        listed = []
        for match in self.matches:
            if match.id in self.live:
                listed.append({**describe(match), "run": self.live[match.id].info(user)})
        return listed

    def snapshot(self, run_id: str) -> dict[str, Json] | None:
        """What to save of ``run_id`` now (``None``: not in play any more)."""
        live = self.playing.get(run_id) or self._stopped.get(run_id)
        if live is None or live.run.state is not RunState.RUNNING:
            return None
        return live.snapshot()

    # --- commands -----------------------------------------------------------------------

    def handle(self, command: mc.MatchCommand, out: Out, now: float) -> None:
        """Apply ``command`` (:meth:`HallCore.handle <qipai.hall.core.HallCore.handle>`).

        :raises GameError: a refused registration or withdrawal (nothing changed).
        """
        match command:
            case mc.StartMatches(matches, numbers, saved):
                self._start(matches, dict(numbers), saved, out, now)
            case mc.StopMatches():  # its last snapshots may still be being written
                self._stopped, self.playing, self.live = self.playing, {}, {}
            case mc.Register(user, name, match_id):
                self._register(user, name, match_id, out)
            case mc.Unregister(user, match_id):
                self._unregister(user, match_id, out, now)
            case mc.MatchTick(match_id):
                self._tick(self.open_run(match_id), out, now)
            case mc.EntryHeld(run_id, user):
                self._entry_held(run_id, user, now)
            case mc.EntryFailed(run_id, user):
                self._entry_failed(run_id, user, now)
            case mc.EntryRefunded(run_id, user):
                live = self.find(run_id)
                if live is not None:
                    live.users.pop(pid(user), None)
            case mc.RefundFailed(run_id, user):
                live = self.find(run_id)
                if live is not None:
                    live.run.register(pid(user))
            case mc.RunOpened(match_id, run_id):
                self._opened(match_id, run_id, now)
            case mc.RunStarted(run_id):
                self._started(run_id, out, now)
            case mc.RunCancelled(run_id, reason):
                self._cancelled(run_id, reason, out)
            case mc.StepFailed(match_id, code, message):
                self._failed(match_id, code, message, out, now)
            case mc.RunFinished(run_id, told):
                self._finished(run_id, told, out)
            case mc.CancelMatch(run_id, reason):
                self._cancel(run_id, reason, out, now)
            case mc.Reschedule(match):
                self._reschedule(match, out, now)
            case _:
                assert_never(command)

    def _start(
        self,
        matches: tuple[MatchConfig, ...],
        numbers: dict[str, int],
        saved: tuple[tuple[str, str, str], ...],
        out: Out,
        now: float,
    ) -> None:
        """Carry on the runs saved by a previous process (the others of these matches it
        left unfinished are cancelled), open a run of every match."""
        self.matches, self.live, self.playing, self._stopped = matches, {}, {}, {}
        configs = {match.id: match for match in matches}
        carried = []
        for run_id, match_id, text in saved:
            if match_id not in configs:
                continue
            try:
                carried.append(LiveRun.restore(configs.get(match_id), text))
            except GameError as error:
                out.append(Log("warning", f"cannot carry on match run {run_id} "
                                          f"(cancelled): {error}"))  # fmt: skip
        keep = tuple(live.run.run_id for live in carried)
        out.append(me.CancelInterrupted(keep, tuple(configs)))
        for match in matches:
            self._counts[match.id] = numbers.get(match.id, 0)
            self._open_next(match, out)  # (none for a match an operator stopped)
        for live in carried:
            self._carry_on(live, out, now)

    def _carry_on(self, live: LiveRun, out: Out, now: float) -> None:
        """Play a restored run on from here: its people held here, told, dealt to."""
        run = live.run
        out.append(Log("warning", f"carrying on match run {run.run_id} after hand {run.hands}"))
        self.playing[run.run_id] = live
        for player, user in live.users.items():
            out.append(me.HoldPlayer(user))
            out.append(Send(user, live.update(player)))
        self._deal(live, out, now)

    def _reschedule(self, match: MatchConfig, out: Out, now: float) -> None:
        """Follow an operator's schedule for ``match`` (:class:`~.commands.Reschedule`).

        :raises InvalidActionError: ``unknown_match``.
        """
        if all(known.id != match.id for known in self.matches):
            raise InvalidActionError("unknown_match", f"no match {match.id!r}")
        self.matches = tuple(match if known.id == match.id else known for known in self.matches)
        live = self.live.get(match.id)
        if live is None:
            if match.enabled:  # switched on again: a run opens
                self._open_next(match, out)
            return
        if live.run.state is RunState.REGISTERING:
            live.config = match
            if match.kind is MatchKind.SCHEDULED:
                live.starts_at = next_start(match, now)

    def _open_next(self, match: MatchConfig, out: Out) -> None:
        if not match.enabled:  # stopped by an operator: no next run
            self.live.pop(match.id, None)
            return
        self._counts[match.id] += 1
        out.append(me.OpenRun(match.id, f"{match.id}#{self._counts[match.id]}", match.entry_fee))

    def _opened(self, match_id: str, run_id: str, now: float) -> None:
        config = next(match for match in self.matches if match.id == match_id)
        run = MatchRun(config, run_id, random.Random(self._fresh(64)))
        live = LiveRun(config, run, match_room(config))
        if config.kind is MatchKind.SCHEDULED:
            live.starts_at = next_start(config, now)
        self.live[match_id] = live

    # --- registration ---------------------------------------------------------------

    def _register(self, user: int, name: str, match_id: str, out: Out) -> None:
        """Take ``user``'s place in the open run; ``HoldEntry`` holds his fee.

        :raises IllegalActionError: the run's refusals (``already_registered``,
            ``match_full``, ``match_closed``); his place was checked by the core
            (:mod:`.place`).
        """
        live, player = self.open_run(match_id), pid(user)
        self._host.player(user, name)
        number = live.run.register(player)  # the place is taken before the fee is held
        live.users[player], live.names[player] = user, name
        out.append(me.HoldEntry(live.run.run_id, user, number))

    def _entry_held(self, run_id: str, user: int, now: float) -> None:
        live = self.find(run_id)
        if live is not None and live.first_at is None:
            live.first_at = now

    def _entry_failed(self, run_id: str, user: int, now: float) -> None:
        live = self.find(run_id)
        if live is not None:
            live.run.unregister(pid(user))
            live.users.pop(pid(user), None)
            _withdrawn(live, now)

    def _unregister(self, user: int, match_id: str, out: Out, now: float) -> None:
        """Take ``user`` out of the open run; ``RefundEntry`` refunds his fee.  The bot
        wait starts again (:func:`_withdrawn`).

        :raises IllegalActionError: ``not_registered``, ``match_closed``.
        """
        live, player = self.open_run(match_id), pid(user)
        started = any(
            each.config.id == match_id and player in each.users for each in self.playing.values()
        )
        if player not in live.run.registered and started:
            raise IllegalActionError("match_closed", "the run has started: play it to its end")
        live.run.unregister(player)
        _withdrawn(live, now)
        out.append(me.RefundEntry(live.run.run_id, user))

    # --- the passes -----------------------------------------------------------------

    def _tick(self, live: LiveRun, out: Out, now: float) -> None:
        """Start the run if it is due, cancel a scheduled one below its minimum or one that
        failed :data:`START_TRIES` times; open the next run of a match whose open run
        started or ended without it (opening it had failed)."""
        if now < live.retry_at:
            return
        run, config = live.run, live.config
        size = len(out)
        if run.state is not RunState.REGISTERING:
            self._open_next(config, out)
        elif live.failures >= START_TRIES:
            out.append(me.CancelRun(config.id, run.run_id, "start_failed"))
        elif config.kind is MatchKind.REGULAR:
            waited = live.first_at is not None and now - live.first_at >= config.bot_wait
            if not run.is_ready() and config.bots and waited and _people(live):
                run.fill_with_bots()
            if run.is_ready() and _people(live):
                out.append(me.StartRun(config.id, run.run_id, tuple(live.users.values())))
        elif live.starts_at is not None and now >= live.starts_at:
            if config.bots and _people(live) and not run.is_ready():
                run.fill_with_bots()
            if run.is_ready() and _people(live):
                out.append(me.StartRun(config.id, run.run_id, tuple(live.users.values())))
            else:
                out.append(me.CancelRun(config.id, run.run_id, "not_enough_players"))
        if len(out) == size:
            _recovered(live, out)

    def _failed(self, match_id: str, code: str, message: str, out: Out, now: float) -> None:
        """A run's step failed: logged the first time and when it gives up, tried again
        after a growing wait; at :data:`START_TRIES` failures (at once for a run whose
        registrations differ) the next try cancels it."""
        live = self.live.get(match_id)
        if live is None:
            return
        live.failures = START_TRIES if code == DIVERGED else live.failures + 1
        live.retry_at = now + min(RETRY_CAP, RETRY_SECONDS * 2 ** (live.failures - 1))
        said = f"match run {live.run.run_id}: {code}: {message}"
        if live.failures == 1:
            out.append(Log("error", f"{said}; tried again, cancelled and refunded after "
                                    f"{START_TRIES} failures"))  # fmt: skip
        elif live.failures == START_TRIES:
            out.append(Log("error", f"{said}; it is cancelled and refunded"))

    def _started(self, run_id: str, out: Out, now: float) -> None:
        """The store started the run: the memory starts it, its tables open, the next run
        opens."""
        live = self.find(run_id)
        if live is None or live.run.state is not RunState.REGISTERING:
            return
        _recovered(live, out)
        live.run.start()
        self.playing[run_id] = live
        self._tell(live, MatchStarted(match=live.config.id, run=run_id), out)
        self._deal(live, out, now)
        self._open_next(live.config, out)  # the next run takes registrations at once

    def _cancel(self, run_id: str, reason: str, out: Out, now: float) -> None:
        """An operator's cancel: the run's tables close (a run in play), the store refunds
        every fee (``CancelRun``), then :meth:`_cancelled` tells its players.

        :raises IllegalActionError: ``unknown_run`` (not registering nor in play here).
        """
        live = self.find(run_id)
        if live is None:
            raise IllegalActionError("unknown_run", f"no run {run_id} open or in play here")
        if live.run.state is RunState.RUNNING and not live.cancelling:
            live.cancelling = True
            self._host.close_run_tables(run_id, reason, out, now)
        live.cancelling = True
        out.append(me.CancelRun(live.config.id, run_id, "operator"))

    def _cancelled(self, run_id: str, reason: str, out: Out) -> None:
        """The store cancelled the run and refunded every fee: the memory too; the next
        run opens (a run in play cancelled by an operator: its next is open already)."""
        live = self.find(run_id)
        if live is None or (live.run.state is not RunState.REGISTERING and not live.cancelling):
            return
        _recovered(live, out)
        running = self.playing.pop(run_id, None) is not None
        live.run.cancel()
        match_id, run_id = live.ids
        refunded = live.config.entry_fee
        frame = MatchCancelled(match=match_id, run=run_id, reason=reason, refunded=refunded)
        self._tell(live, frame, out)
        out.extend(ReleasePlace(user) for user in live.users.values())
        if not running:
            self._open_next(live.config, out)

    # --- a run in play ----------------------------------------------------------------

    def _deal(self, live: LiveRun, out: Out, now: float) -> None:
        """Open a table for each hand the run deals now; save the run."""
        for seating in live.run.seat():
            self._open_table(live, seating, out, now)
        out.append(me.SaveRun(live.run.run_id))

    def _open_table(self, live: LiveRun, seating: Seating, out: Out, now: float) -> None:
        users = tuple(live.users.get(player) for player in seating.players)
        seats = [
            SeatInfo(
                None if user is None else str(user),
                live.name(player),
                max(live.run.score(player), 0),
            )
            for player, user in zip(seating.players, users, strict=True)
        ]
        for player, user in zip(seating.players, users, strict=True):
            if user is not None:  # no record: he has no connection here
                self._host.player(user, live.names[player], connected=False)
        terms = HandTerms(live.config.game_rules(forced=seating.forced), Payout.POINTS_ONLY)
        done = partial(self.hand_done, live, seating)
        self._host.open_match_table(
            live.room, users, seats, terms=terms, done=done, run=live.run.run_id, out=out,
            now=now,
        )  # fmt: skip

    def hand_done(
        self, live: LiveRun, seating: Seating, table: LiveTable, out: Out, now: float
    ) -> None:
        """A match table's hand is over (or its table failed): score it, move the run on.
        Not once the matches stopped (the hand was voided by the stop, and is dealt again
        where the run is carried on)."""
        if self.playing.get(live.run.run_id) is not live or live.cancelling:
            return
        outcome = table.table.outcome
        voided = outcome is not None and outcome.voided  # dealt again, an all-pass scored
        points = (0,) * len(seating.players)
        if outcome is not None and not voided:
            points = outcome.settlement.points
        base = live.run.hand_base(seating.hand)
        notices = live.run.finish_hand(seating.hand, points, voided=voided)
        if outcome is not None and not voided:
            moved = [live.run.moved(player, seating.hand) for player in seating.players]
            out.append(me.KeepMatchPoints(outcome.hand_id, tuple(m or 0 for m in moved)))
        for player in seating.players:
            self._publish(live, player, live.update(player, hand_base=base), out)
        for notice in notices:
            self._announce(live, notice, out)
        if live.run.is_over:
            self._pay(live, out)
        else:
            self._deal(live, out, now)

    def _announce(self, live: LiveRun, notice: Notice, out: Out) -> None:
        match_id, run_id = live.ids
        match notice:
            case Eliminated(stage, players, first_rank):
                for rank, player in enumerate(players, first_rank):
                    frame = MatchEliminated(match=match_id, run=run_id, stage=stage, rank=rank)
                    self._publish(live, player, frame, out)
                    user = live.users.get(player)
                    if user is not None:  # free at once: his claim goes back (several nodes)
                        out.append(ReleasePlace(user))
            case StageStarted(stage, players):
                for player in players:
                    advanced = MatchAdvanced(match=match_id, run=run_id, stage=stage)
                    self._publish(live, player, advanced, out)
                    self._publish(live, player, live.update(player), out)
            case Finished():
                pass

    def _pay(self, live: LiveRun, out: Out) -> None:
        """The run is over: ``PayPrizes`` pays it and keeps its final standings."""
        run, users = live.run, live.users
        prizes = tuple((users[p], coins) for p, coins in run.prizes().items() if p in users)
        final = run.standings()
        ranks = tuple((users[s.player], s.rank) for s in final if s.player in users)
        standings = _dumps([live.row(standing) for standing in final])
        out.append(me.PayPrizes(run.run_id, prizes, standings, ranks, tuple(users.values())))

    def _finished(self, run_id: str, told: tuple[int, ...], out: Out) -> None:
        """The prizes are paid: every player connected is told his rank and prize (the
        others when they next connect); their claims go back."""
        live = self.playing.pop(run_id, None)
        if live is None:
            return
        prizes = {live.users[p]: coins for p, coins in live.run.prizes().items()
                  if p in live.users}  # fmt: skip
        standings = live.rows()
        match_id = live.config.id
        for player, user in live.users.items():
            if user in told:
                frame = over(match_id, run_id, player, prizes.get(user, 0), standings)
                out.append(Send(user, frame))
        out.extend(ReleasePlace(user) for user in live.users.values())

    # --- frames -----------------------------------------------------------------------

    @staticmethod
    def _publish(live: LiveRun, player: str, frame: OutFrame, out: Out) -> None:
        user = live.users.get(player)
        if user is not None:
            out.append(Send(user, frame))

    @staticmethod
    def _tell(live: LiveRun, frame: OutFrame, out: Out) -> None:
        out.extend(Send(user, frame) for user in live.users.values())


def _recovered(live: LiveRun, out: Out) -> None:
    if live.failures:
        out.append(Log("warning", f"match run {live.run.run_id}: its step succeeded after "
                                  f"{live.failures} failures"))  # fmt: skip
    live.failures, live.retry_at = 0, 0.0


def _dumps(rows: list[dict[str, Json]]) -> str:
    return json.dumps(rows, ensure_ascii=False)


def _people(live: LiveRun) -> list[str]:
    """The people (not bots) registered in ``live``'s run: a run never starts without one."""
    return [player for player in live.run.registered if not player.startswith(BOT_PREFIX)]


def _withdrawn(live: LiveRun, now: float) -> None:
    """Someone left the open run: the bot wait (a regular match's) starts again from now,
    and where no person is left it waits for the next registration, the bots a failed
    start left going too (never a run of bots only)."""
    if _people(live):
        live.first_at = now
        return
    live.first_at = None
    for bot in live.run.registered:
        live.run.unregister(bot)
