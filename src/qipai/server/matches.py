"""Matches in the running hall: runs open for registration, started, played at the hall's
tables, finished with prizes, or cancelled with refunds.

One :class:`MatchHall` serves every configured match (``qipai/matches.toml`` or
``qipai serve --matches FILE``).  Each match always has one run open for registration
(``<match id>#<n>``).  A player registers over the HTTP API (the entry fee is held in the
run's escrow: :mod:`qipai.store.matches`); a regular run starts when it is full (or, where
the match allows bots, when its bot wait has passed since the first registration: bots
take the empty places); a scheduled run starts at its time with whoever registered, or is
cancelled and refunded below its minimum.  A started run is driven by its pure
:class:`~qipai.hall.match.MatchRun`: each seating becomes a table of the hall (the same
:class:`~qipai.hall.table.Table` of the hall core as a cash table, its hand settled as match
points only), and each finished hand moves the run on.  Players are told with frames:
``match_started``, ``match_update`` (after each of their hands, and at each stage),
``match_eliminated``, ``match_over``, ``match_cancelled`` (``docs/protocol.md``).  A
player keeps his place when he leaves or drops: his seat is played by 托管, and he
finishes the match.  A player knocked out is free at once (he may join a room or another
match) and is still told the end: ``match_over`` with his final rank and prize, sent at
once if he is connected, else kept in the database (his registration's result) and sent
the next time he connects, on any node (:meth:`MatchHall.untold`).

A running run is saved after each finished hand (:meth:`MatchRun.snapshot
<qipai.hall.match.MatchRun.snapshot>`, with the players' names, in the run's row).  When
the hall stops or its process dies, the hall that runs the matches next (the same one
started again, or, with several processes, the node that takes the matches over) carries
every running run on from its last finished hand: the hands then in play were voided with
the rest of that process's hands and are dealt again.  A run of its matches it cannot
carry on (not saved yet, or its match configured differently since) and every run of its
matches still registering are cancelled and every entry refunded, once
(``store.cancel_interrupted_matches``); the runs of matches it does not run are left
alone (another hall on the database may run them).  With several processes, starting a
run, saving it, paying it and those cancellations carry the matches' lease fence: a node
that lost the matches cannot do any of them.

Registration, withdrawal, the start and the cancellation of a match's open run are one
ordered sequence: each takes the match's lock (:meth:`MatchHall._sequence`) and changes
the memory and the database together, or neither (a registration refused by the database
is taken back in memory; a run starts only once the database has its start, and only if
the database holds exactly the registrations the memory holds).  A pass that fails for a
run is an alarm, not a loop: it is logged once, with what failed, and tried again after
:data:`RETRY_SECONDS`, doubling up to :data:`RETRY_CAP`; after :data:`START_TRIES`
failures in a row the run is cancelled and every fee refunded (``match_cancelled``,
reason ``start_failed``), and the next run opens (``docs/matches.md``, "When a start
fails").
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, assert_never

import msgspec

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall.effects import TableClosed
from qipai.hall.frames import (
    MatchAdvanced,
    MatchCancelled,
    MatchEliminated,
    MatchOver,
    MatchStarted,
    MatchUpdate,
    OutFrame,
)
from qipai.hall.match import BOT_PREFIX, MatchRun
from qipai.hall.matchconfig import MatchConfig, MatchKind, describe
from qipai.hall.matchparts import Eliminated, Finished, RunState, Seating, StageStarted, Standing
from qipai.hall.matchrequests import ListMatches, MatchRequest, Register, Standings, Unregister
from qipai.hall.rooms import Room, load_rooms
from qipai.hall.table import HandTerms, SeatInfo
from qipai.jsontypes import Json
from qipai.registry import Payout
from qipai.store import Fence, MatchResultRow

from .cluster import MATCHES
from .hall import HallService, Player

log = logging.getLogger(__name__)

TICK = 0.5
"""Seconds between two looks at the runs (starts, scheduled times, bot waits)."""
RETRY_SECONDS = 1.0
"""Seconds before a failed step of a run (a start, a cancellation, opening the next run)
is tried again; doubled at each failure in a row, up to :data:`RETRY_CAP`."""
RETRY_CAP = 30.0
"""The longest wait between two tries of a failing step."""
START_TRIES = 5
"""Failures in a row after which a run that cannot start is cancelled and refunded."""
DIVERGED = "registrations_differ"
"""Why a run does not start: the database holds other registrations than the memory (a
registration whose outcome was lost); it is cancelled at once, every fee refunded."""
STANDINGS_SHOWN = 100
"""Standings rows a request gets at most (and the player's own row)."""
FINAL_SHOWN = 10
"""Standings rows of ``match_over`` (the top of the final table)."""


def _utcnow() -> datetime:
    return datetime.now(UTC)


def match_room(match: MatchConfig) -> Room:
    """The room a match's tables play in: its game and preset, its time limit, no coins."""
    text = (
        f'[[room]]\nid = "match:{match.id}"\nname = "{match.name}"\n'
        f'game = "{match.game}"\nrules = "{match.rules}"\nmin_coins = 0\n'
        f"decision_seconds = {match.decision_seconds}\n"
    )
    [room] = load_rooms(text)
    return room


def next_start(match: MatchConfig, now: float) -> float:
    """A scheduled match's next start time after ``now`` (seconds since the epoch, UTC):
    every ``every_minutes`` minutes, at ``at_minute`` into the period."""
    period = match.every_minutes * 60
    offset = match.at_minute * 60
    return ((now - offset) // period + 1) * period + offset


@dataclass
class _Live:
    """A run the hall has open or in play."""

    config: MatchConfig
    run: MatchRun
    room: Room
    users: dict[str, int] = field(default_factory=dict)
    """Player id (``user:<id>``) → user id, for the people registered."""
    names: dict[str, str] = field(default_factory=dict)
    first_at: float | None = None
    """When the first player registered (a regular run's bot wait counts from it)."""
    starts_at: float | None = None
    """A scheduled run's start time."""
    unsaved: bool = False
    """Whether the run moved on since it was last saved."""
    saver: asyncio.Task[None] | None = None
    """The task writing its snapshots, while one runs."""
    failures: int = 0
    """The passes in a row whose step for this run failed."""
    retry_at: float = 0.0
    """When the next pass may try this run's step again (after a failure)."""


def _pid(user: int) -> str:
    return f"user:{user}"


class MatchHall:
    """Every configured match's runs, in one hall process (module docstring)."""

    def __init__(
        self,
        hall: HallService,
        matches: Sequence[MatchConfig],
        *,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.hall = hall
        self.matches = tuple(matches)
        self.clock = clock or hall.clock
        self.live: dict[str, _Live] = {}
        """The run open or in play of each match, by the match's id (a finished or
        cancelled run is replaced by the next one at once)."""
        self.playing: dict[str, _Live] = {}
        """Runs in play by run id (a match may have one in play and the next open)."""
        self._counts: dict[str, int] = {}
        self._sequences = {match.id: asyncio.Lock() for match in self.matches}
        """One lock per match: its registrations, withdrawals, start and cancellation
        happen one at a time (module docstring)."""
        self._ticker: asyncio.Task[None] | None = None
        self._last_fence: Fence | None = None
        self.hold: Callable[[int], Awaitable[None]] | None = None
        """Several processes: hold a user's player on this node (his connections on every
        node move here), for the people of a run carried on here."""

    # --- life ------------------------------------------------------------------------------

    async def start(self) -> list[str]:
        """Carry on the running runs a previous process left (from their snapshots), cancel
        (and refund) the others it left unfinished, open a run of every match, and start
        looking at them; the ids of the runs cancelled."""
        if self.active or not self.matches:  # no match: nothing here, no run touched
            return []
        store = self.hall.db.store
        ours = {match.id for match in self.matches}
        saved = await self.hall.db.run(store.match_snapshots)
        mine = {run: found for run, found in saved.items() if found[0] in ours}
        carried = [live for live in map(self._restored, mine.items()) if live is not None]
        cancelled = await self.hall.db.run(
            store.cancel_interrupted_matches,
            _utcnow(),
            keep=[live.run.run_id for live in carried],
            match_ids=ours,
            fence=self._fence,
        )
        if cancelled:
            log.warning("cancelled %d match runs interrupted by the last shutdown", len(cancelled))
        for match in self.matches:
            runs = await self.hall.db.run(store.match_runs, match_id=match.id, limit=1)
            self._counts[match.id] = _run_number(runs[0].id) if runs else 0
            await self._open(match)
        for live in carried:
            await self._carry_on(live)
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())
        return cancelled

    async def _carry_on(self, live: _Live) -> None:
        """Play a restored run on from here: its people held here, told, dealt to."""
        log.warning("carrying on match run %s after hand %d", live.run.run_id, live.run.hands)
        self.playing[live.run.run_id] = live
        for pid, user in live.users.items():
            if self.hold is not None:
                try:
                    await self.hold(user)
                except GameError as error:  # he is moved when he connects again
                    log.warning("could not hold user %d here: %s", user, error)
            self._publish(live, pid, self._update(live, pid))
        self._deal(live)

    def _restored(self, saved: tuple[str, tuple[str, str]]) -> _Live | None:
        """The run a snapshot describes, ready to deal again; ``None`` (it is cancelled)
        for a match configured differently since, or a bad snapshot."""
        run_id, (match_id, text) = saved
        config = next((match for match in self.matches if match.id == match_id), None)
        try:
            data = json.loads(text)
            if config is None or data["config"] != config_digest(config):
                raise InvalidActionError("bad_snapshot", f"match {match_id!r} changed")
            run = MatchRun.restore(config, data["run"])
            users = {pid: int(user) for pid, user in data["users"].items()}
            names = {pid: str(name) for pid, name in data["names"].items()}
        except (GameError, KeyError, TypeError, ValueError) as error:
            log.warning("cannot carry on match run %s (cancelled): %s", run_id, error)
            return None
        return _Live(config, run, match_room(config), users, names)

    async def stop(self) -> None:
        """Stop looking at the runs, finish saving them, and forget them (the hall's stop
        voids the hands in play, which the runs do not count: they are carried on from
        their last finished hand at the next start, here or on the node that takes the
        matches next)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        savers = [live.saver for live in self.playing.values() if live.saver is not None]
        await asyncio.gather(*savers, return_exceptions=True)
        self.live.clear()
        self.playing.clear()

    @property
    def _fence(self) -> Fence | None:
        """The matches' lease fence (several processes): the lease held now, or the last
        one held (which the store refuses once another node took the matches)."""
        cluster = self.hall.cluster
        lease = None if cluster is None else cluster.held.get(MATCHES)
        if lease is not None:
            self._last_fence = lease.fence
        return self._last_fence

    @property
    def active(self) -> bool:
        """Whether this process runs the matches (in a cluster: the one node that
        holds them)."""
        return self._ticker is not None

    async def serve(self, request: MatchRequest, user: int | None, name: str) -> Any:
        """One request of the match API (:mod:`qipai.hall.matchrequests`), answered by kind.

        :raises GameError: as the method it calls; ``bad_token`` for a registration or a
            withdrawal without a user.
        """
        match request:
            case ListMatches():
                return self.listing(user)
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
        """The asker's player.  :raises IllegalActionError: ``bad_token`` (no user)."""
        if user is None:
            raise IllegalActionError("bad_token", "sign in to register")
        return self.hall.player(user, name)

    async def _open(self, match: MatchConfig) -> _Live:
        self._counts[match.id] += 1
        run_id = f"{match.id}#{self._counts[match.id]}"
        await self.hall.db.run(
            self.hall.db.store.open_match_run, run_id, match.id, match.entry_fee, _utcnow()
        )
        live = _Live(
            match, MatchRun(match, run_id, random.Random(secrets.randbits(64))), match_room(match)
        )
        if match.kind is MatchKind.SCHEDULED:
            live.starts_at = next_start(match, self.clock())
        self.live[match.id] = live
        return live

    async def _tick_forever(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # a bug in a pass must not stop the matches (steps: _failed)
                log.exception("match pass failed")
            await asyncio.sleep(TICK)

    async def tick(self) -> None:
        """Move every match's open run on (:meth:`_step`), each under its match's lock; a
        step that fails is an alarm (:meth:`_failed`)."""
        now = self.clock()
        for match_id in list(self.live):
            async with self._sequence(match_id):
                live = self.live[match_id]
                if now < live.retry_at:
                    continue
                try:
                    await self._step(live, now)
                except Exception as error:
                    self._failed(live, now, error)
                else:
                    self._recovered(live)

    async def _step(self, live: _Live, now: float) -> None:
        """Start the run if it is due, cancel a scheduled one below its minimum or one that
        failed to start :data:`START_TRIES` times; open the next run of a match whose open
        run started or ended without it (opening it had failed)."""
        run, config = live.run, live.config
        if run.state is not RunState.REGISTERING:
            await self._open(config)
        elif live.failures >= START_TRIES:
            await self._cancel(live, "start_failed")
        elif config.kind is MatchKind.REGULAR:
            waited = live.first_at is not None and now - live.first_at >= config.bot_wait
            if not run.is_ready() and config.bots and waited:
                run.fill_with_bots()
            if run.is_ready():
                await self._start(live)
        elif live.starts_at is not None and now >= live.starts_at:
            if config.bots and run.registered and not run.is_ready():
                run.fill_with_bots()
            if run.is_ready():
                await self._start(live)
            else:
                await self._cancel(live, "not_enough_players")

    def _failed(self, live: _Live, now: float, error: Exception) -> None:
        """A run's step failed: logged the first time and when it gives up, tried again
        after a growing wait; at :data:`START_TRIES` failures (at once for a run whose
        registrations differ) the next try cancels it."""
        diverged = isinstance(error, IllegalActionError) and error.code == DIVERGED
        live.failures = START_TRIES if diverged else live.failures + 1
        live.retry_at = now + min(RETRY_CAP, RETRY_SECONDS * 2 ** (live.failures - 1))
        run_id = live.run.run_id
        if live.failures == 1:
            log.error("match run %s: %r; tried again, cancelled and refunded after %d "
                      "failures", run_id, error, START_TRIES, exc_info=error)  # fmt: skip
        elif live.failures == START_TRIES:
            log.error("match run %s: %r; it is cancelled and refunded", run_id, error)
        else:
            log.debug("match run %s failed again: %r", run_id, error)

    @staticmethod
    def _recovered(live: _Live) -> None:
        if live.failures:
            log.warning("match run %s: its step succeeded after %d failures",
                        live.run.run_id, live.failures)  # fmt: skip
        live.failures, live.retry_at = 0, 0.0

    def _sequence(self, match_id: str) -> asyncio.Lock:
        """The lock of ``match_id``'s registrations, start and cancellation.

        :raises InvalidActionError: ``unknown_match``.
        """
        self._open_run(match_id)  # (an unknown match is refused)
        return self._sequences[match_id]

    # --- registration ----------------------------------------------------------------------

    def listing(self, user: int | None) -> list[dict[str, Any]]:
        """Every match with its open run: id, state, registered count, start time, whether
        ``user`` is registered."""
        listed = []
        for match in self.matches:
            live = self.live[match.id]
            entry = describe(match)
            entry["run"] = self._run_info(live, user)
            listed.append(entry)
        return listed

    def _run_info(self, live: _Live, user: int | None) -> dict[str, Any]:
        run = live.run
        return {
            "id": run.run_id,
            "state": run.state.value,
            "registered": len(run.registered),
            "starts_at": live.starts_at,
            "me": user is not None and _pid(user) in run.registered,
        }

    async def register(self, player: Player, match_id: str) -> dict[str, Any]:
        """Register ``player`` in the match's open run, holding the entry fee: his place
        (:mod:`.places`: his lock, his claim in the cluster) taken first, then the run's,
        in the match's sequence, in memory and in the database together, or neither.

        :raises InvalidActionError: ``unknown_match``.
        :raises IllegalActionError: ``already_registered``, ``match_full``, ``match_closed``,
            ``insufficient_coins``, ``in_match`` (registered or playing in another run),
            ``already_in_room`` (here, or on another node), ``cluster_unavailable``.
        """
        sequence, places, pid = self._sequence(match_id), self.hall.places, _pid(player.user)
        async with places.lock(player.user):
            registered = self._open_run(match_id).run.registered
            if pid not in registered and self.run_of(player.user) is not None:
                raise IllegalActionError("in_match", "already registered in a match")
            if player.room is not None:
                room = player.room
                raise IllegalActionError("already_in_room", f"in room {room!r}: leave it first")
            await places.claim(player.user)
            try:
                async with sequence:
                    return await self._register(self._open_run(match_id), player)
            finally:
                await places.release(player.user)  # (refused: his claim given back)

    async def _register(self, live: _Live, player: Player) -> dict[str, Json]:
        pid = _pid(player.user)
        number = live.run.register(pid)  # the place is taken before the fee is held
        try:
            await self.hall.db.run(
                self.hall.db.store.register_for_match, live.run.run_id, player.user, _utcnow()
            )
        except BaseException:
            live.run.unregister(pid)
            raise
        live.users[pid], live.names[pid] = player.user, player.name
        if live.first_at is None:
            live.first_at = self.clock()
        return {"match": live.config.id, "run": live.run.run_id, "number": number}

    async def unregister(self, player: Player, match_id: str) -> None:
        """Withdraw ``player`` from the match's open run and refund his fee (in the match's
        sequence); his claim is given back.

        :raises InvalidActionError: ``unknown_match``.
        :raises IllegalActionError: ``not_registered``, ``match_closed``.
        """
        sequence, places, pid = self._sequence(match_id), self.hall.places, _pid(player.user)
        async with places.lock(player.user), sequence:
            live = self._open_run(match_id)
            if pid not in live.run.registered and self._started_with(match_id, pid):
                raise IllegalActionError("match_closed", "the run has started: play it to its end")
            live.run.unregister(pid)
            try:
                await self.hall.db.run(
                    self.hall.db.store.unregister_from_match, live.run.run_id, player.user,
                    _utcnow(),
                )  # fmt: skip
            except BaseException:
                live.run.register(pid)
                raise
            live.users.pop(pid, None)
            await places.release(player.user)

    def run_of(self, user: int) -> _Live | None:
        """The run ``user`` is registered in or still playing, if any (knocked out, he is
        in none: free at once)."""
        pid = _pid(user)
        for live in [*self.live.values(), *self.playing.values()]:
            if pid in live.users and live.run.takes_part(pid):
                return live
        return None

    def _started_with(self, match_id: str, pid: str) -> bool:
        """Whether ``pid`` is in a run of the match that has started."""
        return any(
            live.config.id == match_id and pid in live.users for live in self.playing.values()
        )

    async def standings(self, run_id: str, user: int | None) -> dict[str, Any]:
        """A run's standings, live while it plays, final once it ended (from the store):
        the first :data:`STANDINGS_SHOWN` rows and ``user``'s.

        :raises InvalidActionError: ``unknown_run``.
        """
        live = self.playing.get(run_id) or next(
            (each for each in self.live.values() if each.run.run_id == run_id), None
        )
        if live is None:
            return await self._ended(run_id, user)
        rows = [self._row(live, standing) for standing in live.run.standings()]
        mine = [row for row in rows if user is not None and row["player"] == _pid(user)]
        return {
            **self._status(live),
            "standings": rows[:STANDINGS_SHOWN],
            "me": mine[0] if mine else None,
        }

    async def _ended(self, run_id: str, user: int | None) -> dict[str, Any]:
        row = await self.hall.db.run(self.hall.db.store.match_run, run_id)
        if row is None or row.standings_json is None:
            raise InvalidActionError("unknown_run", f"no run {run_id!r}")
        rows: list[dict[str, Any]] = json.loads(row.standings_json)
        mine = [r for r in rows if user is not None and r["player"] == _pid(user)]
        return {
            "match": row.match_id,
            "run": row.id,
            "state": row.state,
            "stage": None,
            "stage_name": None,
            "players_left": 0,
            "standings": rows[:STANDINGS_SHOWN],
            "me": mine[0] if mine else None,
        }

    def _row(self, live: _Live, standing: Standing) -> dict[str, Json]:
        """A standings row: the stage reached comes before the score in the ranking."""
        return {
            "rank": standing.rank,
            "player": standing.player,
            "name": self._name(live, standing.player),
            "score": standing.score,
            "out": standing.out,
            "stage": standing.stage,
            "stage_name": live.config.stages[standing.stage].name,
        }

    @staticmethod
    def _name(live: _Live, player: str) -> str:
        if player.startswith(BOT_PREFIX):
            return f"机器人{player.removeprefix(BOT_PREFIX)}"
        return live.names.get(player, player)

    def _open_run(self, match_id: str) -> _Live:
        """The match's run open for registration.

        :raises InvalidActionError: ``unknown_match``.
        """
        live = self.live.get(match_id)
        if live is None:
            known = ", ".join(self.live)
            raise InvalidActionError("unknown_match", f"no match {match_id!r}; known: {known}")
        return live

    # --- a run in play ---------------------------------------------------------------------

    async def _start(self, live: _Live) -> None:
        """Start the run (its match's lock held): the database first, which must hold
        exactly the registrations the memory holds, then the memory; then open the next
        run.

        :raises IllegalActionError: :data:`DIVERGED` (no use trying again: the run is
            cancelled at the next pass), or the store's refusal.
        """
        run, store = live.run, self.hall.db.store
        stored = await self.hall.db.run(store.match_registrations, run.run_id)
        if sorted(user for user, _ in stored) != sorted(live.users.values()):
            raise IllegalActionError(DIVERGED, f"the database holds {stored}")
        await self.hall.db.run(store.start_match_run, run.run_id, _utcnow(), fence=self._fence)
        run.start()
        self.playing[run.run_id] = live
        self._tell(live, MatchStarted(match=live.config.id, run=run.run_id))
        self._deal(live)
        await self._open(live.config)  # the next run takes registrations at once

    def _deal(self, live: _Live) -> None:
        """Open a table for each hand the run deals now; save the run."""
        for seating in live.run.seat():
            self._open_table(live, seating)
        self._save(live)

    def _save(self, live: _Live) -> None:
        """Save the run soon: one writer per run, each write the run as it is then (so a
        burst of hands costs one or two writes, never one behind another)."""
        live.unsaved = True
        if live.saver is None or live.saver.done():
            live.saver = asyncio.get_running_loop().create_task(self._write_snapshots(live))

    async def _write_snapshots(self, live: _Live) -> None:
        store = self.hall.db.store
        while live.unsaved and live.run.state is RunState.RUNNING:
            live.unsaved = False
            data = {
                "config": config_digest(live.config),
                "run": live.run.snapshot(),
                "users": dict(live.users),
                "names": dict(live.names),
            }
            try:  # encoded in a thread: a 3,000-player run is about half a MiB
                text = await asyncio.to_thread(_encode, data)
                await self.hall.db.run(
                    store.save_match_snapshot, live.run.run_id, text, fence=self._fence
                )
            except Exception as error:  # the next hand saves again; a stale fence stays so
                log.warning("match run %s not saved: %s", live.run.run_id, error)

    def _open_table(self, live: _Live, seating: Seating) -> None:
        users = tuple(live.users.get(pid) for pid in seating.players)
        seats = [
            SeatInfo(
                None if user is None else str(user),
                self._name(live, pid),
                max(live.run.score(pid), 0),
            )
            for pid, user in zip(seating.players, users, strict=True)
        ]
        for pid, user in zip(seating.players, users, strict=True):
            if user is not None:
                self.hall.player(user, live.names[pid])
        terms = HandTerms(live.config.game_rules(forced=seating.forced), Payout.POINTS_ONLY)
        self.hall.open_table(
            live.room,
            users,
            seats,
            terms=terms,
            done=lambda closed: self._hand_done(live, seating, closed),
        )

    def _hand_done(self, live: _Live, seating: Seating, closed: TableClosed) -> None:
        """A match table's hand is over (or its table failed): score it, move the run on.
        Not once the matches stopped: the hand was voided by the stop, and is dealt again
        where the run is carried on."""
        if not self.active:
            return
        outcome = closed.table.outcome
        voided = outcome is not None and outcome.voided  # dealt again, an all-pass scored
        points = (0,) * len(seating.players)
        if outcome is not None and not voided:
            points = outcome.settlement.points
        notices = live.run.finish_hand(seating.hand, points, voided=voided)
        for pid in seating.players:
            user = live.users.get(pid)
            if user is not None:
                self.hall.bus.publish(user, self._update(live, pid))
        for notice in notices:
            self._announce(live, notice)
        if live.run.is_over:
            asyncio.get_running_loop().create_task(self._finish(live))
        else:
            self._deal(live)

    def _announce(self, live: _Live, notice: Eliminated | StageStarted | Finished) -> None:
        match notice:
            case Eliminated(stage, players, first_rank):
                for rank, pid in enumerate(players, first_rank):
                    match_id, run_id = self._ids(live)
                    frame = MatchEliminated(match=match_id, run=run_id, stage=stage, rank=rank)
                    self._publish(live, pid, frame)
                    user = live.users.get(pid)
                    if user is not None:  # free at once: his claim goes back (several nodes)
                        self.hall.places.release_soon(user)
            case StageStarted(stage, players):
                for pid in players:
                    match_id, run_id = self._ids(live)
                    advanced = MatchAdvanced(match=match_id, run=run_id, stage=stage)
                    self._publish(live, pid, advanced)
                    self._publish(live, pid, self._update(live, pid))
            case Finished():
                pass

    async def _finish(self, live: _Live) -> None:
        """Pay the prizes; tell every player (knocked out or not) his final rank and
        prize: at once if connected, else when he next connects (the result is kept with
        his registration)."""
        run = live.run
        prizes = {live.users[p]: coins for p, coins in run.prizes().items() if p in live.users}
        final = run.standings()
        standings = [self._row(live, standing) for standing in final]
        ranks = {live.users[s.player]: s.rank for s in final if s.player in live.users}
        told = [user for user in live.users.values() if self.hall.bus.is_connected(user)]
        await self.hall.db.run(
            self.hall.db.store.finish_match_run,
            run.run_id,
            prizes,
            json.dumps(standings, ensure_ascii=False),
            _utcnow(),
            fence=self._fence,
            ranks=ranks,
            told=told,
        )
        self.playing.pop(run.run_id, None)
        for pid, user in live.users.items():
            if user in told:
                frame = _over(live.config.id, run.run_id, pid, prizes.get(user, 0), standings)
                self.hall.bus.publish(user, frame)
        self._release(live)

    async def untold(self, user: int) -> list[OutFrame]:
        """The ``match_over`` of each run that ended while ``user`` was away (knocked out
        and gone, or 托管 finished it for him), from the database: on any node, once."""
        store = self.hall.db.store
        found = await self.hall.db.run(store.take_untold_match_results, user, _utcnow())
        return [_over_kept(result, text, _pid(user)) for result, text in found]

    async def _cancel(self, live: _Live, reason: str) -> None:
        """Cancel the open run (its match's lock held) and refund every fee: the database
        first, then the memory; then open the next run."""
        run = live.run
        await self.hall.db.run(self.hall.db.store.cancel_match_run, run.run_id, _utcnow())
        run.cancel()
        match_id, run_id = self._ids(live)
        refunded = live.config.entry_fee
        self._tell(
            live, MatchCancelled(match=match_id, run=run_id, reason=reason, refunded=refunded)
        )
        self._release(live)
        await self._open(live.config)

    def _release(self, live: _Live) -> None:
        """The run ended: its players' claims are given back (those with no other place
        here)."""
        for user in live.users.values():
            self.hall.places.release_soon(user)

    # --- frames -------------------------------------------------------------------------

    def _ids(self, live: _Live) -> tuple[str, str]:
        """The match's id and the run's."""
        return live.config.id, live.run.run_id

    def _status(self, live: _Live) -> dict[str, Any]:
        run = live.run
        index = run.stage_index
        running = run.state is RunState.RUNNING and index is not None
        stage = live.config.stages[index] if running and index is not None else None
        return {
            "match": live.config.id,
            "run": run.run_id,
            "state": run.state.value,
            "stage": index,
            "stage_name": None if stage is None else stage.name,
            "stage_kind": None if stage is None else stage.kind.value,
            "base": run.base() if running else None,
            "line": run.line() if running else None,
            "round": run.round() if running else None,
            "players_left": run.players_left(),
            "hands": run.hands,
        }

    def _update(self, live: _Live, pid: str) -> MatchUpdate:
        run = live.run
        rank = run.rank_of(pid) if run.state is RunState.RUNNING else None
        return MatchUpdate(**self._status(live), rank=rank, score=run.score(pid))

    def _publish(self, live: _Live, pid: str, frame: OutFrame) -> None:
        user = live.users.get(pid)
        if user is not None:
            self.hall.bus.publish(user, frame)

    def _tell(self, live: _Live, frame: OutFrame) -> None:
        for user in live.users.values():
            self.hall.bus.publish(user, frame)


def _over(
    match_id: str, run_id: str, pid: str, prize: int, standings: list[dict[str, Any]]
) -> MatchOver:
    """``match_over`` for ``pid``: his rank, score and prize, the top of the standings."""
    row = next((row for row in standings if row["player"] == pid), {})
    return MatchOver(
        match=match_id,
        run=run_id,
        rank=row.get("rank"),
        score=row.get("score"),
        prize=prize,
        standings=list(standings[:FINAL_SHOWN]),
    )


def _over_kept(result: MatchResultRow, standings_json: str, pid: str) -> MatchOver:
    """``match_over`` from a result kept in the database."""
    standings: list[dict[str, Any]] = json.loads(standings_json)
    frame = _over(result.match_id, result.run_id, pid, result.prize or 0, standings)
    return msgspec.structs.replace(frame, rank=result.rank)


def _encode(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def config_digest(config: MatchConfig) -> str:
    """A short digest of ``config``: a saved run is carried on only under the same one."""
    return hashlib.sha256(repr(config).encode()).hexdigest()[:16]


def _run_number(run_id: str) -> int:
    """The ``n`` of a run id ``<match>#<n>``."""
    return int(run_id.rpartition("#")[2])
