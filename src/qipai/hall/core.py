"""The live hall as a pure core: commands in, effects out.

:class:`HallCore` holds the live hall's state in plain objects: the players it holds
(:mod:`.players`), the cash rooms and their queues (:mod:`~qipai.hall.cash.rooms`), the
matches' runs (:mod:`~qipai.hall.match.desk`), the tables in play
(:mod:`~qipai.hall.table.live`).  Its one entry point that changes anything is
:meth:`HallCore.handle`: a :data:`~qipai.hall.commands.Command` and
the time it is handled at, and the :data:`~qipai.hall.effects.Effect` list the world must
carry out, in order.  It reads no clock, no store, no socket, no unseeded randomness: the
time comes with each command, what the store holds comes in commands (a balance in
``Join``, a write's answer in ``HandRecorded``), and the random bits it draws (hand ids,
seeds, the tables' generators) come from the ``fresh`` source it is given
(:func:`secrets.randbits` in the server).

A refused command raises its :class:`~qipai.errors.GameError` (a stable code) and changes
nothing: the caller answers it to the sender.  The driver is ``qipai.server.run.executor``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import assert_never

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall import commands as c
from qipai.hall import notices
from qipai.hall.cash import commands as cc
from qipai.hall.cash.matchmaking import MatchedTable
from qipai.hall.cash.rooms import CashRooms, Seated
from qipai.hall.chat import chat_frame, check_phrase
from qipai.hall.effects import Effect, ReleasePlace, Reply, Send
from qipai.hall.frames import OutFrame
from qipai.hall.match import commands as mc
from qipai.hall.match.desk import Done, MatchDesk, MatchTable
from qipai.hall.place import Place, PlaceKind, check_free
from qipai.hall.players import Player
from qipai.hall.private import commands as pc
from qipai.hall.private.options import PrivateSettings
from qipai.hall.private.tables import PrivateTables
from qipai.hall.rooms import Room
from qipai.hall.table import commands as tc
from qipai.hall.table.effects import VoidHand
from qipai.hall.table.live import LiveTable, Out, Owner, Posted, TableFlow
from qipai.hall.table.summary import TableSummary, summarize
from qipai.hall.table.table import DEAL_STEP_SECONDS, HandTerms, SeatInfo, Table
from qipai.hall.watch import commands as wc
from qipai.hall.watch.settings import WatchSettings
from qipai.hall.watch.spectators import Spectators

HAND_PAUSE = 3.0
"""Seconds between two hands of a table that plays on (a room with ``regroup = false``):
its players read the result, and may leave."""
ENTROPY_WINDOW = 1.0
"""Seconds a hand waits, at most, for its players' entropy before it is dealt (it is dealt
as soon as every connected player's has come: on a good connection, one round trip)."""


class HallCore:
    """The live hall of one process: its players, rooms and tables.

    :param rooms: the cash rooms it seats.
    :param fresh: ``fresh(bits)``: that many random bits (the caller's entropy).
    :param bot_delay: seconds a bot or 托管 seat waits before it acts.
    :param deal_step: seconds between the steps of a paced deal.
    :param entropy_window: the longest a hand waits for its players' entropy.
    :param hand_pause: seconds between two hands of a table that plays on.
    :param bot_wait: ``None``: bots decide in the tables' ticks; else in the bots' worker
        pool (``AskBot``), the basic 托管 playing for an answer not in ``bot_wait`` seconds.
    :param private: the hall's rules for private tables (the rooms file's ``[private]``).
    :param watch: the hall's rules for spectators 观战 (the rooms file's ``[watch]``).
    """

    def __init__(
        self,
        rooms: Sequence[Room],
        *,
        fresh: Callable[[int], int],
        bot_delay: float = 1.0,
        deal_step: float = DEAL_STEP_SECONDS,
        entropy_window: float = ENTROPY_WINDOW,
        hand_pause: float = HAND_PAUSE,
        bot_wait: float | None = None,
        private: PrivateSettings | None = None,
        watch: WatchSettings | None = None,
    ) -> None:
        self.players: dict[int, Player] = {}
        """The players it holds, by user id."""
        tables: dict[int, LiveTable] = {}
        self.watch = Spectators(self.players, tables, watch)
        """Who watches which table (spectators 观战)."""
        self.flow = TableFlow(
            self.players, fresh, hand_pause, asks_bots=bot_wait is not None,
            tables=tables, spectators=self.watch.frames,
        )  # fmt: skip
        """The tables in play."""
        self.cash = CashRooms(rooms, self.players, self.flow, fresh, self.watch)
        """The cash rooms."""
        self.private = PrivateTables(
            rooms, self.players, self.flow, fresh, opener=self._open_private,
            settings=private, spectators=self.watch,
        )  # fmt: skip
        """The private tables 好友房."""
        self.matches = MatchDesk(self, fresh)
        """The matches' runs (:mod:`~qipai.hall.match.desk`)."""
        self._fresh = fresh
        self._pace = (bot_delay, deal_step, entropy_window)
        self._bot_wait = bot_wait
        self._numbers = itertools.count(1)  # hall-wide: a client keys tables by number

    # --- queries (nothing changes) ----------------------------------------------------

    def player(self, user: int, name: str, *, connected: bool = True) -> Player:
        """The record of ``user`` (a new one, ``connected`` or not, on first sight)."""
        player = self.players.get(user)
        if player is None:
            player = self.players[user] = Player(user, name, connected=connected)
        return player

    def holds(self, user: int) -> bool:
        """Whether ``user`` has a place here: a room (its queue or a table), or a table."""
        player = self.players.get(user)
        return player is not None and (
            player.room is not None or player.table is not None or player.private is not None
        )

    def place_of(self, user: int) -> Place | None:
        """The one place ``user`` holds here (:mod:`.place`), if any: his private table,
        his cash room, his match run (registered or playing), or the table he watches."""
        player = self.players.get(user)
        if player is not None and player.private is not None:
            return Place(PlaceKind.PRIVATE, player.private)
        if player is not None and player.room is not None:
            return Place(PlaceKind.ROOM, player.room)
        run = self.matches.run_of(user)
        if run is not None:
            return Place(PlaceKind.MATCH, run.run.run_id)
        if player is not None and player.table is not None:  # a match table, its run over
            return Place(PlaceKind.MATCH, f"table {player.table}")
        watched = self.watch.watched_by(user)
        return None if watched is None else Place(PlaceKind.WATCHING, watched)

    def check_free(self, user: int) -> None:
        """Refuse ``user`` a new place while he holds one (:func:`.place.check_free`).

        :raises IllegalActionError: ``in_match``, ``already_in_room``.
        """
        check_free(self.place_of(user))

    def tables(self) -> list[TableSummary]:
        """The tables in play here, as the operator's console lists them (no card)."""
        return [summarize(live.table) for live in self.flow.tables.values()]

    def table_of(self, user: int) -> LiveTable | None:
        """The table ``user`` sits at, if any."""
        player = self.players.get(user)
        if player is None or player.table is None:
            return None
        return self.flow.tables.get(player.table)

    # --- the entry point --------------------------------------------------------------

    def handle(self, command: c.Command, now: float) -> list[Effect]:
        """Apply ``command`` at time ``now``; what the world must do, in order.

        :raises GameError: the command is refused (nothing changed).
        """
        out: Out = []
        self._check_moves(command)
        self._apply(command, out, now)
        if isinstance(command, cc.Join | mc.Register):  # a place taken: he watches no more
            self.watch.moved(command.user, out, now)
        self.watch.follow_up(out)  # whom a spectator followed may have left meanwhile
        return out

    def _apply(self, command: c.Command, out: Out, now: float) -> None:
        """:meth:`handle`'s work, by command (its place checked)."""
        match command:
            case cc.Join(user, room, balance, once):
                self.cash.join(self._known(user), room, balance, out, now, once=once)
            case c.Leave(user):
                self._leave(self._known(user), out, now)
            case tc.Act() | tc.Contribute() | tc.Trustee() | tc.Escape():
                self._seat_command(command, out, now)
            case tc.EscapeCost(user):
                self._escape_cost(user, out)
            case c.Presence(user, connected):
                self._presence(user, connected, out, now)
            case c.Chat(user, phrase, message_id):
                self._chat(user, phrase, message_id, out, now)
            case wc.Spectate() | wc.StopSpectating():
                self._spectate(command, out, now)
            case wc.WatchByName(user, allow):
                self._known(user).watch_by_name = allow
            case c.Resync(user):
                self._resync(command, out, now)
            case c.Resume(user, last):
                self._resume(user, dict(last), out, now)
            case c.Tick():
                self._tick(out, now)
            case cc.Matchmake(rooms):
                self.cash.matchmake(rooms, out, now)
            case cc.BalancesRead(seating, balances):
                self._open_cash(self.cash.balances_read(seating, balances), out, now)
            case cc.SeatingFailed(seating, message):
                self.cash.seating_failed(seating, message, out, now)
            case tc.HandRecorded(table, hand):
                self.flow.recorded(table, hand, out, now)
            case tc.HandSettled(table, hand):
                self._settled(table, hand, out, now)
            case tc.StoreFailed(table, hand, code, message):
                error = IllegalActionError(code, message)
                self.flow.store_failed(table, hand, error, out, now)
            case tc.BotDecided(table, turn, action):
                self.flow.decided(table, turn, action, out, now)
            case c.Shutdown() | tc.CloseTable():
                self._stop(command, out, now)
            case (
                pc.CreatePrivate() | pc.JoinPrivate() | pc.Ready() | pc.StartPrivate()
                | pc.KickPrivate() | pc.ClosePrivate()
            ):  # fmt: skip
                self.private.handle(self._known(command.user), command, out, now)
            case pc.RestorePrivate():
                self._restore(command, out, now)
            # --- matches (hall/match/desk.py) ---
            case (
                mc.StartMatches() | mc.StopMatches() | mc.Register() | mc.Unregister()
                | mc.MatchTick() | mc.EntryHeld() | mc.EntryFailed() | mc.EntryRefunded()
                | mc.RefundFailed() | mc.RunOpened() | mc.RunStarted() | mc.RunCancelled()
                | mc.StepFailed() | mc.RunFinished() | mc.CancelMatch() | mc.Reschedule()
            ):  # fmt: skip
                self.matches.handle(command, out, now)
            case _:
                assert_never(command)

    # --- players ----------------------------------------------------------------------

    def _stop(self, command: c.Shutdown | tc.CloseTable, out: Out, now: float) -> None:
        """The hall stops (:class:`~qipai.hall.commands.Shutdown`), or an operator closes
        one table: it fails as on a crash, its players told why."""
        if isinstance(command, c.Shutdown):
            self._shutdown(command.forget, out, now)
            return
        number, reason = command.table, command.reason
        live = self.flow.tables.get(number)
        if live is None:
            raise IllegalActionError("unknown_table", f"no table {number} in play here")
        self.flow.fail(live, out, now, reason=("closed", reason))

    def _check_moves(self, command: c.Command) -> None:
        """The one check of every command that gives a person a new place: he holds none
        (watching aside, which he leaves).  A registration in the run he is registered in
        is answered by the run itself (``already_registered``).

        :raises IllegalActionError: ``in_match``, ``already_in_room``.
        """
        match command:
            case cc.Join(user) | pc.CreatePrivate(user) | pc.JoinPrivate(user) | wc.Spectate(user):
                self.check_free(user)
            case mc.Register(user, _, match_id):
                open_run = self.matches.open_run(match_id)  # (``unknown_match`` first)
                check_free(self.place_of(user), same=Place(PlaceKind.MATCH, open_run.run.run_id))
            case _:
                pass

    def _restore(self, command: pc.RestorePrivate, out: Out, now: float) -> None:
        """A private table of a node that stopped, opened again here; a person who took
        another place here meanwhile keeps it (his seat there is free)."""
        saved, ours = command.saved, Place(PlaceKind.PRIVATE, command.saved.code)
        seated = {user for user in saved.seats if user is not None}
        elsewhere = {
            user for user in seated
            if (place := self.place_of(user)) is not None and place.is_seat and place != ours
        }  # fmt: skip
        self.private.restore(saved, dict(command.balances), out, now, elsewhere=elsewhere)

    def _known(self, user: int) -> Player:
        """``user``'s record.

        :raises IllegalActionError: ``not_connected`` (gone meanwhile).
        """
        player = self.players.get(user)
        if player is None:
            raise IllegalActionError("not_connected", "the connection closed")
        return player

    def _spectate(self, command: wc.Spectate | wc.StopSpectating, out: Out, now: float) -> None:
        """Watch a table (a private one by its code: :meth:`.PrivateTables.spectate`), or
        stop; a person at a private table watches none (between its hands too).

        :raises IllegalActionError: ``already_in_room``, the spectators' refusals.
        """
        if isinstance(command, wc.Spectate) and command.code is not None:
            if command.table is not None or command.player is not None:
                raise InvalidActionError("bad_message", "name one table, or one player")
            self.private.spectate(command.user, command.code, out, now)
            return
        self.watch.handle(command, out, now)

    def _tick(self, out: Out, now: float) -> None:
        """What is due now: at the tables, the private tables, the spectators."""
        self.flow.tick(out, now)
        self.private.tick(out, now)
        self.watch.tick(out, now)

    def _escape_cost(self, user: int, out: Out) -> None:
        """What leaving his hand now would cost ``user``."""
        live, seat = self._seated(user)
        cost = live.table.escape_cost(seat)
        out.append(Reply((notices.escape_cost(live.number, cost),)))

    def _leave(self, player: Player, out: Out, now: float) -> None:
        """Out of his room, or of his private table."""
        leave = self.cash.leave if player.private is None else self.private.leave
        leave(player, out, now)

    def _settled(self, table: int, hand: str, out: Out, now: float) -> None:
        """A hand is settled: scored first at a private table, which then hears it."""
        scored = self.private.scored(table, hand)
        self.flow.settled(table, hand, out, now)
        if scored is not None:
            self.private.tell_scores(scored, out, now)

    def _seated(self, user: int) -> tuple[LiveTable, int]:
        """``user``'s table and seat.

        :raises IllegalActionError: ``not_seated``.
        """
        live = self.table_of(user)
        if live is None:
            raise IllegalActionError("not_seated", "not at a table")
        return live, live.seat_of(user)

    def _seat_command(self, command: tc.SeatCommand, out: Out, now: float) -> None:
        """A seat's command at its table, then what is due there."""
        _check_fresh(command, self.table_of(command.user))
        live, seat = self._seated(command.user)
        self.flow.guard(live, out, now, partial(self._at_seat, command, live, seat, out, now))

    def _at_seat(
        self,
        command: tc.SeatCommand,
        live: LiveTable,
        seat: int,
        out: Out,
        now: float,
    ) -> None:
        table = live.table
        match command:
            case tc.Act(_, text):
                table.act(seat, text, now)
            case tc.Contribute(_, _, hand, value):
                table.contribute(seat, hand, value, now)
            case tc.Trustee(_, on):
                table.set_trustee(seat, on, now)
            case tc.Escape():
                table.escape(seat, now)
                self.players[command.user].leaving = True  # out of the room after it
        self.flow.after(live, out, now)

    def _presence(self, user: int, connected: bool, out: Out, now: float) -> None:
        """``user`` lost his last connection (托管 at his table, or out of the queue; if
        he is then nowhere, forgotten), or is back."""
        player = self.players.get(user)
        if player is None:
            return
        player.connected = connected
        if not connected:
            self.watch.gone(user, out, now)
        live = self.table_of(user)
        if live is not None:
            posted = Posted.BACK if connected else Posted.AWAY
            self.flow.post(live, live.seat_of(user), posted, out, now)
        elif not connected:
            self.cash.away(player)
        self.private.presence(player, out, now)
        if not connected and not self.holds(user):
            self.cash.forget(user, out)

    def _resync(self, command: c.Resync, out: Out, now: float) -> None:
        """A fresh snapshot for a player of his table (a settling hand's once it is
        settled), or for a spectator of the table he watches."""
        if self.watch.watches(command.user):
            self.watch.handle(command, out, now)
            return
        live, _ = self._seated(command.user)
        frame = self.flow.snapshot(live, command.user)
        out.append(Reply(() if frame is None else (frame,)))

    def _resume(self, user: int, last: dict[str, int], out: Out, now: float) -> None:
        """What a returning player missed at his table, or the room he waits in (his
        table sees him back with ``Presence``, once his frames reach him)."""
        player = self.players.get(user)
        if player is None:
            out.append(Reply(()))
            return
        player.connected = True
        private = self.private.catch_up(player)
        live = self.table_of(user)
        if live is None:
            queued = () if player.room is None else (notices.queued(player.room),)
            out.append(Reply((*private, *queued)))
            return
        out.append(Reply((*private, *_catch_up(live, user, last))))

    def _chat(self, user: int, phrase: str, message_id: int | None, out: Out, now: float) -> None:
        """Quick chat to everyone at his table, himself included; over his allowance the
        answer is ``chat_too_fast``, and nothing is said."""
        live, seat = self._seated(user)
        check_phrase(phrase)
        wait = self.players[user].chat.take(now)
        if wait > 0:
            out.append(Reply((notices.chat_too_fast(wait, message_id),)))
            return
        frame = chat_frame(live.number, seat, phrase)
        out.extend(Send(other, frame) for _, other in live.humans())
        self.watch.frames(live, (frame,), out, now)

    # --- tables -----------------------------------------------------------------------

    def _open(
        self,
        room: Room,
        users: tuple[int | None, ...],
        seats: Sequence[SeatInfo],
        seating: MatchedTable | None,
        *,
        owner: Owner,
        terms: HandTerms | None,
        rng: random.Random,
        out: Out,
        now: float,
    ) -> LiveTable | None:
        """Seat ``users`` at a new table and record its first hand; ``None`` if it was
        refused at once."""
        bot_delay, deal_step, entropy_window = self._pace
        table = Table(
            room, next(self._numbers), seats, now=now, bot_delay=bot_delay,
            deal_step=deal_step, entropy_window=entropy_window, rng=rng, terms=terms,
            bot_wait=self._bot_wait,
        )  # fmt: skip
        live = LiveTable(table, users, seating, owner)
        for _, user in live.humans():
            self.players[user].table = live.number
            self.watch.moved(user, out, now)  # seated: he watches no more
        self.flow.add(live, out, now)
        if live.number not in self.flow.tables:
            return None
        self.watch.seated(live, out, now)  # who followed one of them watches it now
        for seat, user in live.humans():
            if not self.players[user].connected:  # left while his table was being set
                self.flow.post(live, seat, Posted.AWAY, out, now)
        return live

    def _open_cash(self, seated: Seated | None, out: Out, now: float) -> None:
        """A cash table, its balances read (none: that seating was dropped meanwhile)."""
        if seated is None:
            return
        live = self._open(
            seated.room, seated.users, seated.seats, seated.seating,
            owner=self.cash, terms=None, rng=seated.rng, out=out, now=now,
        )  # fmt: skip
        if live is not None:
            self.cash.opened(live, out, now)

    def _open_private(
        self,
        room: Room,
        users: tuple[int | None, ...],
        seats: Sequence[SeatInfo],
        *,
        terms: HandTerms | None,
        rng: random.Random,
        out: Out,
        now: float,
    ) -> LiveTable | None:
        """A private table's live table: it plays on while its people stay."""
        return self._open(
            room, users, seats, None, owner=self.private, terms=terms, rng=rng, out=out, now=now
        )

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
        """A match's table (:mod:`~qipai.hall.match.desk`): one hand of ``run`` by
        ``terms``, then ``done``."""
        rng = random.Random(self._fresh(64))
        owner = MatchTable(self.players, self.watch, done, run)
        self._open(
            room, users, seats, None, owner=owner, terms=terms, rng=rng, out=out, now=now
        )  # fmt: skip

    def close_run_tables(self, run: str, reason: str, out: Out, now: float) -> None:
        """Close every table of the match run ``run`` (an operator cancelled it)."""
        for live in list(self.flow.tables.values()):
            if isinstance(live.owner, MatchTable) and live.owner.run == run:
                self.flow.fail(live, out, now, reason=("closed", reason))

    def _shutdown(self, forget: bool, out: Out, now: float) -> None:
        """Stop every table and void their hands; with ``forget``, drop every queue and
        player too (this node was taken over)."""
        out.extend(VoidHand(hand) for hand in self.flow.stop_all(out, now))
        if not forget:
            return
        users = list(self.players)
        self.cash.reset()
        self.private.reset()
        self.watch.reset()
        for player in self.players.values():
            player.room, player.table = None, None
        self.players.clear()
        out.extend(ReleasePlace(user) for user in users)


def _catch_up(live: LiveTable, user: int, last: dict[str, int]) -> list[OutFrame]:
    """What ``user`` missed at ``live``: the frames after the event number his client last
    had, else a snapshot, or once the hand is over how it ended."""
    table, seat = live.table, live.seat_of(user)
    seen = last.get(str(table.number))
    frames = None if seen is None else table.frames_since(seat, seen)
    if frames is not None:
        return frames
    return table.ending(seat) if table.is_over else [table.snapshot(seat)]


def _check_fresh(command: tc.SeatCommand, live: LiveTable | None) -> None:
    """Refuse a command for a table the player no longer sits at.

    :raises IllegalActionError: ``stale_table``.
    """
    match command:
        case tc.Act(_, _, named) if named is not None and (live is None or live.number != named):
            pass
        case tc.Contribute(_, named) if live is not None and live.number != named:
            pass
        case _:
            return
    raise IllegalActionError("stale_table", f"not at table {named} any more")
