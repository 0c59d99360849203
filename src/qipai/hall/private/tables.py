"""Private tables 好友房: a code to share, seats in order of arrival, 准备, 局数, 总成绩.

A :class:`FriendsTable` is made by a signed-in person (its owner, seat 0) from one of the
hall's rooms (:mod:`~qipai.hall.private.options`), gets a 6-digit code, and seats whoever comes with
the code, in order of arrival; nobody is seated there by matchmaking.  Its first hand
starts when every seat is taken by a person and all are ready, or when the owner starts it
with bots in the empty seats (where bots are allowed) and every seated person ready.  It
then plays on hand after hand at one live table (:class:`~qipai.hall.table.live.LiveTable`, room
``private:<id>``) as long as the same people stay; when somebody leaves between hands
(or joins a seat a bot held) that live table closes, and the table waits until it is full
and ready again (or the owner starts it).  After its last hand (``hands``; 0: until the
owner closes it) it closes, with the final ``scoreboard`` (:mod:`~qipai.hall.private.scores`).

A person who leaves during a hand escapes (逃跑, :meth:`~qipai.hall.table.table.Table.escape`)
exactly as in the room the table copies; at a ``points`` table his points for that hand are the
escape's.  Ownership passes to the next person in seat order when the owner leaves; a
table with no connected person closes after the hall's ``grace_seconds``.  A person is at
one place at a time: a private table, or a cash room, or a match.

Its code is for the people seated there (and those they give it to): no frame of its live
tables carries it.  Their room id is ``private:<id>``, an opaque id drawn at random when
the table is created (:meth:`PrivateTables.create`), and a spectator's ``private_table``
and ``scoreboard`` frames leave the code (and the link) out, however he came to watch: by
the code, or by the name of a person seated there who lets others watch him by name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from contextlib import suppress
from functools import partial
from typing import assert_never

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall import frames, notices
from qipai.hall.effects import ReleasePlace, Send, WakeAt
from qipai.hall.players import Player
from qipai.hall.private import commands as pc
from qipai.hall.private.book import TableBook
from qipai.hall.private.dealing import (
    Opener,
    can_deal,
    check_coins,
    deals_on,
    live_seats,
)
from qipai.hall.private.effects import KeepScoreboard, SavePrivate
from qipai.hall.private.options import (
    PrivateOptions,
    PrivateSettings,
    check_options,
    private_room,
    stake_of,
    template_of,
)
from qipai.hall.private.saves import SavedPrivate, saved_of
from qipai.hall.private.scores import ScoreSheet
from qipai.hall.private.state import FriendsTable, table_frame
from qipai.hall.rooms import Room
from qipai.hall.table.live import LiveTable, Out, TableFlow, ending
from qipai.hall.watch.settings import TableWatch
from qipai.hall.watch.spectators import Spectators


class TableFullError(IllegalActionError):
    """``table_full``; ``watch``: the table allows spectators (offer to watch)."""

    def __init__(self, code: str, watch: bool) -> None:
        super().__init__("table_full", f"table {code} has no free seat")
        self.watch = watch


class PrivateTables(TableBook):
    """The private tables of one hall process.

    :param rooms: the hall's rooms (the templates).
    :param fresh: random bits (codes, the tables' generators).
    :param opener: opens a live table.
    :param spectators: the hall's spectators (a live table's options are set as it opens;
        its scoreboards go to them too).
    """

    def __init__(
        self,
        rooms: Iterable[Room],
        players: dict[int, Player],
        flow: TableFlow,
        fresh: Callable[[int], int],
        *,
        opener: Opener,
        settings: PrivateSettings | None = None,
        spectators: Spectators | None = None,
    ) -> None:
        super().__init__(fresh)
        self.rooms = tuple(rooms)
        self.settings = settings or PrivateSettings()
        self._players = players
        self._flow = flow
        self._open = opener
        self._watch = spectators or Spectators(players, flow.tables)
        self._watch.greet = self._greet

    # --- queries ------------------------------------------------------------------------

    def spectate(self, user: int, code: str, out: Out, now: float) -> None:
        """``user`` watches private table ``code``: its live table now, or, while it has
        none, he waits for it (told the table, ``private_table`` with ``you`` null, and its
        scoreboard so far).

        :raises IllegalActionError: ``unknown_code``, ``table_closed``, ``not_watchable``,
            ``not_connected``, ``already_in_room``.
        """
        table = self._find(code)
        if not table.options.spectators:
            raise IllegalActionError("not_watchable", f"table {code} cannot be watched")
        if table.live is not None:
            self._watch.spectate(user, table.live.number, None, out, now)
            return
        self._watch.park(user, code, out, now)
        out.append(Send(user, self.frame(table, None)))
        if table.sheet.rows:
            out.append(Send(user, table.sheet.frame(None, over=False, member=False)))

    def _greet(self, user: int, code: str, out: Out) -> None:
        """A newcomer to the live table of ``code`` is told the table first (as a
        spectator sees it: no code), so that he knows its game before its snapshot."""
        table = self.tables.get(code)
        if table is not None:
            out.append(Send(user, self.frame(table, None)))

    def tell_watchers(self, table: FriendsTable, out: Out) -> None:
        """``private_table`` to the spectators waiting for its next hand."""
        frame = self.frame(table, None)
        watchers = self._watch.parked_at(table.code)
        out.extend(Send(user, frame) for user in watchers if user not in table.seats)

    def table_of_code(self, code: str) -> int | None:
        """The number of the live table of private table ``code`` (for spectators).

        :raises IllegalActionError: ``unknown_code``, ``table_closed``.
        """
        live = self._find(code).live
        return None if live is None else live.number

    def frame(self, table: FriendsTable, user: int | None) -> frames.PrivateTable:
        """``private_table`` as ``user`` sees it (``None``: a spectator)."""
        return table_frame(table, self._players, user)

    def saved(self, code: str) -> SavedPrivate | None:
        """Open table ``code`` as the store keeps it (``None``: not open here)."""
        table = self.tables.get(code)
        return None if table is None else saved_of(table, self._players)

    def catch_up(self, player: Player) -> list[frames.PrivateTable | frames.Scoreboard]:
        """What a returning person is told of his private table (none: nothing)."""
        table = None if player.private is None else self.tables.get(player.private)
        if table is None:
            return []
        told: list[frames.PrivateTable | frames.Scoreboard] = [self.frame(table, player.user)]
        if table.sheet.rows:
            told.append(table.sheet.frame(self._number(table), over=False))
        return told

    # --- commands -----------------------------------------------------------------------

    def handle(self, player: Player, command: pc.Private, out: Out, now: float) -> None:
        """One of the private tables' commands from ``player``.

        :raises GameError: refused (nothing changed).
        """
        match command:
            case pc.CreatePrivate(_, options, balance, code):
                self.create(player, options, balance, out, now, code=code)
            case pc.JoinPrivate(_, code, balance):
                self.join(player, code, balance, out, now)
            case pc.Ready(_, ready):
                self.set_ready(player, ready, out, now)
            case pc.StartPrivate():
                self.start(player, out, now)
            case pc.KickPrivate(_, seat):
                self.kick(player, seat, out, now)
            case pc.ClosePrivate():
                self.close(player, out, now)
            case _:
                assert_never(command)
        self._watch.moved(player.user, out, now)  # seated: he watches no more

    def create(
        self,
        player: Player,
        options: PrivateOptions,
        balance: int,
        out: Out,
        now: float,
        *,
        code: str | None = None,
    ) -> FriendsTable:
        """``player`` (holding ``balance`` coins) creates a table of ``options``, of code
        ``code`` if given (else a new one is drawn).

        :raises InvalidActionError: ``bad_private``.
        :raises IllegalActionError: ``insufficient_coins``, ``code_taken`` (``code`` is a
            table's here already); his place is checked by the core (:mod:`.place`).
        """
        check_options(options, self.settings)
        template = template_of(self.rooms, options)
        coins = options.stakes == "coins"
        if coins:
            check_coins(template, balance)
        if code is None:
            code = self._new_code()
        elif not self.is_free(code):
            raise IllegalActionError("code_taken", f"table {code} exists already")
        room, terms = private_room(template, self._new_id(), options, self.settings)
        seats: list[int | None] = [player.user] + [None] * (room.seats - 1)
        sheet = ScoreSheet(code, [""] * room.seats, coins)
        table = FriendsTable(code, player.user, options, room, terms, seats, sheet)
        table.balances[player.user] = balance
        self._add(table)
        player.private = code
        self._tell(table, out)
        return table

    def restore(
        self,
        saved: SavedPrivate,
        balances: dict[int, int],
        out: Out,
        now: float,
        *,
        elsewhere: set[int],
    ) -> FriendsTable:
        """Open again the kept table ``saved`` (:mod:`~qipai.hall.private.saves`), its people
        holding ``balances``: seated as they were (one who is ``elsewhere``, at another place here
        meanwhile as the core says, loses his seat), its owner, hands played and 总成绩
        kept; waiting, nobody ready, its grace time running until one of them connects.
        A table its owner was closing closes now (its hand in play was voided).

        :raises IllegalActionError: ``code_taken`` (a table of that code is open here).
        :raises InvalidActionError: ``bad_private`` (the hall has no room for it any more).
        """
        code, options = saved.code, saved.options
        if code in self.tables:
            raise IllegalActionError("code_taken", f"table {code} is open here already")
        template = template_of(self.rooms, options)
        room, terms = private_room(template, self._new_id(), options, self.settings)
        if len(saved.seats) != room.seats or len(saved.board_names) != room.seats:
            raise InvalidActionError("bad_private", f"table {code} does not fit its room")
        seats = [
            None if user is None or user in elsewhere else self._back(user, saved.names)
            for user in saved.seats
        ]
        people = [user for user in seats if user is not None]
        owner = saved.owner if saved.owner in people else people[0] if people else saved.owner
        sheet = ScoreSheet(
            code, list(saved.board_names), options.stakes == "coins", list(saved.rows)
        )
        table = FriendsTable(
            code, owner, options, room, terms, seats, sheet, played=saved.played,
            closing=saved.closing, members=dict.fromkeys(saved.members),
        )  # fmt: skip
        table.balances.update((user, balances.get(user, 0)) for user in people)
        self._add(table)  # (a new opaque id: its spectators come back by code)
        for user in people:
            self._players[user].private = code
        if table.closing:
            self._finish(table, out)
        else:
            self._changed(table, out, now)
        return table

    def _back(self, user: int, names: dict[int, str]) -> int:
        """``user`` seated again (his record made, away, if he has none here)."""
        if user not in self._players:
            self._players[user] = Player(user, names.get(user, ""), connected=False)
        return user

    def join(self, player: Player, code: str, balance: int, out: Out, now: float) -> None:
        """``player`` (holding ``balance`` coins) sits at the first free seat of ``code``.

        :raises IllegalActionError: ``unknown_code``, ``table_closed``, ``table_full``
            (:class:`TableFullError`), ``insufficient_coins`` (his place
            checked by the core: :mod:`.place`).
        """
        table = self._find(code)
        if None not in table.seats:
            raise TableFullError(code, table.options.spectators)
        if table.coins:
            check_coins(table.room, balance)
        table.seats[table.seats.index(None)] = player.user
        table.balances[player.user] = balance
        player.private = code
        self._changed(table, out, now)

    def set_ready(self, player: Player, ready: bool, out: Out, now: float) -> None:
        """准备 (or not) before the next hand; the hand starts once all are.

        :raises IllegalActionError: ``not_private``, ``started``.
        """
        table = self._mine(player)
        if table.live is not None:
            raise IllegalActionError("started", "the table is playing")
        if ready:
            table.ready.add(player.user)
        else:
            table.ready.discard(player.user)
        people = table.people()
        full = len(people) == len(table.seats)
        if full and all(u in table.ready for _, u in people) and self._deal(table, out, now):
            return
        self._tell(table, out)

    def start(self, player: Player, out: Out, now: float) -> None:
        """The owner starts the table, bots in its empty seats; his 开始 is his 准备.

        :raises IllegalActionError: ``not_private``, ``not_owner``, ``started``,
            ``not_ready`` (another person seated is not ready), ``no_bots``,
            ``insufficient_coins``.
        """
        table = self._owned(player)
        if table.live is not None:
            raise IllegalActionError("started", "the table is playing")
        others = [u for _, u in table.people() if u != player.user]
        waiting = [u for u in others if u not in table.ready]
        if waiting:
            names = ", ".join(self._players[u].name for u in waiting)
            raise IllegalActionError("not_ready", f"not ready: {names}")
        if None in table.seats and not table.options.bots:
            raise IllegalActionError("no_bots", "the table has empty seats and no bots")
        if table.coins:
            for _, user in table.people():
                check_coins(table.room, table.balances[user])
        table.ready.add(player.user)
        self._deal(table, out, now)

    def kick(self, player: Player, seat: object, out: Out, now: float) -> None:
        """The owner removes the person at ``seat`` before the first hand.

        :raises IllegalActionError: ``not_private``, ``not_owner``, ``started``,
            ``empty_seat``, ``own_seat``.
        """
        table = self._owned(player)
        if table.live is not None or table.played > 0:
            raise IllegalActionError("started", "a person is removed before the first hand")
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise IllegalActionError("empty_seat", f"no seat {seat!r}")
        user = table.seats[seat]
        if user is None:
            raise IllegalActionError("empty_seat", f"nobody sits at seat {seat}")
        if user == player.user:
            raise IllegalActionError("own_seat", "the owner leaves, he is not removed")
        self._release(table, self._players[user], out, reason="kicked")
        self._changed(table, out, now)

    def close(self, player: Player, out: Out, now: float) -> None:
        """The owner closes the table (after the hand in play, if any).

        :raises IllegalActionError: ``not_private``, ``not_owner``.
        """
        table = self._owned(player)
        if table.live is None:
            self._finish(table, out)
            return
        table.closing = True
        self._flow.leaving(table.live, out, now)  # a pausing table closes now
        if not table.closed:
            self._tell(table, out)

    def leave(self, player: Player, out: Out, now: float) -> None:
        """``player`` leaves his private table: an escape during a hand (out once it is
        over), else out now."""
        table = self._mine(player)
        live = table.live
        if live is None or player.table != live.number:
            self._release(table, player, out)
            self._changed(table, out, now)
            return
        player.leaving = True
        out.append(Send(player.user, notices.leaving(table.room.id)))
        if live.table.in_hand:
            seat = live.seat_of(player.user)
            self._flow.guard(live, out, now, partial(self._escape, live, seat, out, now))
        if self._flow.tables.get(live.number) is live:
            self._flow.leaving(live, out, now)

    def _escape(self, live: LiveTable, seat: int, out: Out, now: float) -> None:
        with suppress(GameError):  # escaped already: he leaves after the hand all the same
            live.table.escape(seat, now)
        self._flow.after(live, out, now)

    def presence(self, player: Player, out: Out, now: float) -> None:
        """``player`` lost his last connection or is back: his seat shows it; a table with
        no connected person closes after the grace time."""
        table = None if player.private is None else self.tables.get(player.private)
        if table is not None:
            self._changed(table, out, now)

    # --- the live table -----------------------------------------------------------------

    def plays_on(self, live: LiveTable) -> bool:
        """Whether ``live`` deals its next hand (the :class:`~qipai.hall.table.live.Owner`
        of a private table's live tables): :func:`~qipai.hall.private.dealing.deals_on`."""
        table = self.of(live)
        return table is not None and deals_on(table, live, self._players)

    def closed(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` closed (the :class:`~qipai.hall.table.live.Owner`): its last
        scoreboard to its spectators too (:meth:`table_closed`), its spectators told; while
        the table stays open they wait for its next live table, dealt at once if this
        hand could not be settled (voided)."""
        table = self.of(live)
        if table is not None:
            self.table_closed(table, live, out, now)
        self._watch.closed(live, out, now)
        if table is None or table.closed:
            return
        self.tell_watchers(table, out)
        if live.unsettled and not live.stopped:
            self.deal_again(table, out, now)

    def scored(self, number: int, hand: str) -> tuple[FriendsTable, LiveTable] | None:
        """The hand ``hand`` at table ``number`` is settled: its row (before the table
        plays on or closes); the private table, if it is one and the hand not voided."""
        live = self._flow.tables.get(number)
        table = None if live is None else self.of(live)
        if live is None or table is None or live.table.hand_id != hand:
            return None
        outcome = live.table.outcome
        if outcome is None or live.table.is_over is False:
            return None
        if outcome.voided:  # dealt again: no row
            return None
        table.played += 1
        table.sheet.add(outcome, [seat.name for seat in live.table.seats])
        return table, live

    def tell_scores(self, scored: tuple[FriendsTable, LiveTable], out: Out, now: float) -> None:
        """After a hand at ``live``: the scoreboard to the table's people and spectators,
        the table to its people (unless it closed: then they had the final one)."""
        table, live = scored
        if table.closed:
            return
        frame = table.sheet.frame(live.number, over=False)
        out.extend(Send(user, frame) for _, user in table.people())
        watched = table.sheet.frame(live.number, over=False, member=False)
        waiting = self._watch.parked_at(table.code)  # its live table closed just now
        out.extend(Send(user, watched) for user in waiting)
        self._watch.frames(live, (watched,), out, now)
        self._tell(table, out)

    def table_closed(self, table: FriendsTable, live: LiveTable, out: Out, now: float) -> None:
        """``live`` closed: its people stay (those leaving go), and the table waits for
        them to be ready again, or closes (its last hand played, or closed by its owner)."""
        table.live = None
        table.ready.clear()
        for seat, user in live.humans():
            player = self._players.get(user)
            if player is None or player.table != live.number:
                continue
            player.table = None
            out.extend(ending(live, player))
            table.balances[user] = live.table.seats[seat].balance
            if live.refusal is not None:  # not dealt (the store down, say): all stay
                player.leaving = False
            if player.leaving and player.private == table.code:
                self._release(table, player, out)
        if table.closing or table.over:
            self._finish(table, out)
            watched = table.sheet.frame(None, over=True, member=False)
            self._watch.frames(live, (watched,), out, now)
        else:
            self._changed(table, out, now)

    def tick(self, out: Out, now: float) -> None:
        """Close the tables whose grace time passed with nobody connected."""
        for table in list(self.tables.values()):
            if table.grace_at is not None and table.grace_at <= now:
                table.grace_at = None
                if self._connected(table):
                    continue
                if table.live is None:
                    self._finish(table, out)
                else:
                    table.closing = True
                    self._flow.leaving(table.live, out, now)
        self._wake(out)

    # --- inside -------------------------------------------------------------------------

    def _mine(self, player: Player) -> FriendsTable:
        table = None if player.private is None else self.tables.get(player.private)
        if table is None:
            raise IllegalActionError("not_private", "not at a private table")
        return table

    def _owned(self, player: Player) -> FriendsTable:
        table = self._mine(player)
        if table.owner != player.user:
            raise IllegalActionError("not_owner", "only the table's owner may")
        return table

    def _number(self, table: FriendsTable) -> int | None:
        return None if table.live is None else table.live.number

    def _connected(self, table: FriendsTable) -> bool:
        return any(self._players[user].connected for _, user in table.people())

    def _tell(self, table: FriendsTable, out: Out) -> None:
        """Its people and those waiting to watch told how it is; it is kept so."""
        out.extend(Send(user, self.frame(table, user)) for _, user in table.people())
        self.tell_watchers(table, out)
        out.append(SavePrivate(table.code))

    def _changed(self, table: FriendsTable, out: Out, now: float) -> None:
        """Its people told; the grace time started if nobody connected is left."""
        if self._connected(table):
            table.grace_at = None
        elif table.grace_at is None:
            table.grace_at = now + self.settings.grace_seconds
            out.append(WakeAt(table.grace_at))
        self._tell(table, out)

    def _wake(self, out: Out) -> None:
        dues = [t.grace_at for t in self.tables.values() if t.grace_at is not None]
        if dues:
            out.append(WakeAt(min(dues)))

    def _release(
        self, table: FriendsTable, player: Player, out: Out, *, reason: str | None = None
    ) -> None:
        """``player`` is out of ``table``: his seat free, the ownership passed on."""
        table.seats[table.seats.index(player.user)] = None
        table.ready.discard(player.user)
        player.private, player.leaving = None, False
        out.append(ReleasePlace(player.user))
        out.append(Send(player.user, notices.left(table.room.id, reason)))
        if table.owner == player.user:
            people = table.people()
            if people:
                table.owner = people[0][1]

    def _deal(self, table: FriendsTable, out: Out, now: float) -> bool:
        """Open its live table (bots in its empty seats); whether it opened."""
        if not can_deal(table):
            return False
        rng = random.Random(self._fresh(64))
        seats = live_seats(table, self._players, rng)
        for _, user in table.people():
            self._players[user].leaving = False
            table.members[user] = None
        users = tuple(table.seats)
        table.live = self._open(
            table.room, users, seats, terms=table.terms, rng=rng, out=out, now=now
        )
        if table.live is None:
            return False
        watch = TableWatch(table.options.spectators, float(table.options.delay))
        self._watch.configure(table.live, watch, out, now, table.code)
        self._tell(table, out)
        return True

    def deal_again(self, table: FriendsTable, out: Out, now: float) -> None:
        """The hand in play could not be settled (voided): its people were playing, so
        the next hand is dealt at once, nobody asked to be ready again (a table that cannot
        deal now waits for them as after any hand)."""
        if table.live is not None or table.closing or table.over or not table.people():
            return
        table.ready.update(user for _, user in table.people())
        if not self._deal(table, out, now):
            table.ready.clear()

    def _finish(self, table: FriendsTable, out: Out) -> None:
        """The table closes: its final scoreboard to everyone, kept; its people out."""
        table.closed = True
        final = table.sheet.frame(None, over=True)
        people = table.people()
        for _, user in people:
            out.extend((Send(user, final), Send(user, self.frame(table, user))))
        watched = table.sheet.frame(None, over=True, member=False)
        for user in self._watch.parked_at(table.code):
            out.extend((Send(user, watched), Send(user, self.frame(table, None))))
        self._watch.ended(table.code, out)
        for _, user in people:
            player = self._players[user]
            table.seats[table.seats.index(user)] = None
            player.private = None
            out.append(ReleasePlace(user))
        self._closed(table, final)
        out.append(SavePrivate(table.code))  # (forgotten there)
        options = table.options
        users = tuple({**table.members, **{user: None for _, user in people}})
        keep = KeepScoreboard(
            table.code, options.game, options.rules, options.stakes, options.hands,
            users, final, stake_of(table.room),
        )  # fmt: skip
        out.append(keep)
