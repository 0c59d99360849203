"""Spectators 观战: who watches which table, and the frames each is sent.

A spectator sits at no seat.  He asks to watch a table by its number, a private table by
its code (:meth:`qipai.hall.private.tables.PrivateTables.spectate`: below) or by the name
of a player who sits at it (:meth:`Spectators.spectate`) and lets others watch him by his
name (:attr:`~qipai.hall.players.Player.watchable_by_name`: as he chose, else yes but at a
private table; refused, ``not_playing`` as for a name that plays nowhere), and gets a
``snapshot`` with
``seat`` ``null`` built from the game's spectator view (``view(SPECTATOR)``: never a card a player
holds unseen), then every frame of the table that the public may see, made for
:data:`~qipai.games.events.SPECTATOR` by the table itself (:attr:`Table.watched
<qipai.hall.table.table.Table.watched>`): ``hand_start``, each ``event`` (a ``hidden``
placeholder for one a spectator may not see), ``turn`` without ``legal``/``options``,
``hand_over``, ``chat``.

A table may hold its spectators' frames back (:attr:`TableWatch.delay
<qipai.hall.watch.settings.TableWatch.delay>`, a private table's option: a cash table's is
0): they are released that many seconds later (:class:`~qipai.hall.effects.WakeAt`, then
``Tick``), with the spectators' snapshot of that moment.  The frames released to a
spectator at once are bounded (:attr:`WatchSettings.backlog
<qipai.hall.watch.settings.WatchSettings.backlog>`): more, and he gets that one snapshot
instead.  The players
and spectators of a table are told how many watch (``spectator_count``) when the number
changes, at most once a second.  A spectator stops watching when he asks
(``spectate_ended`` ``stopped``), when he goes anywhere else (``moved``), when his last
connection closes (nothing to tell), or when the table closes (``table_closed``, after
the delayed frames).

A spectator who came by a player's name at a cash table follows him
(:attr:`Spectators.following`): when the table closes after its hand he is told
``following`` and waits for that player's next table (:attr:`Spectators.trailing`,
:meth:`Spectators.seated`), or is told ``player_left`` once the player is no longer in a
cash room (:meth:`Spectators.follow_up`).

A private table's spectator is told the table first (:attr:`Spectators.greet`: its
``private_table`` as spectators see it, without its code) and watches the private table,
not one live table of it
(:meth:`Spectators.park`, :meth:`Spectators.configure` with its ``code``): while it has no
live table (before its first hand, and whenever its people change) he waits for it (its
``private_table`` frames come from :mod:`~qipai.hall.private.tables`); when a live table opens for
it he is attached to it (a ``snapshot``); when that live table closes and the private table
goes on he waits again; only the private table's close (:meth:`Spectators.ended`) ends
his watch (``spectate_ended`` ``table_closed``, ``table`` ``null`` while he waited).

The hall's settings (:class:`~qipai.hall.watch.settings.WatchSettings`) and a table's own
(:class:`~qipai.hall.watch.settings.TableWatch`) are :mod:`~qipai.hall.watch.settings`'s.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.commands import Resync
from qipai.hall.effects import Effect, Reply, Send, WakeAt
from qipai.hall.frames import OutFrame, Snapshot, SpectateEnded, SpectatorCount
from qipai.hall.players import Player
from qipai.hall.table.live import LiveTable
from qipai.hall.watch.commands import Spectate, StopSpectating
from qipai.hall.watch.settings import TableWatch, WatchSettings

Out = list[Effect]

COUNT_INTERVAL = 1.0
"""Seconds between two ``spectator_count`` frames of one table, at least."""


@dataclass(frozen=True, slots=True)
class _Batch:
    """Frames of one change at a table, held until ``due``; ``snapshot``: the
    spectators' snapshot right after them; ``ends``: the table closed then."""

    due: float
    frames: tuple[OutFrame, ...]
    snapshot: Snapshot | None
    ends: bool = False


@dataclass(eq=False)
class Audience:
    """The spectators of one table, and its frames on their way to them."""

    number: int
    options: TableWatch
    code: str | None = None
    """The private table it plays for, if any (its spectators then stay with it)."""
    users: dict[int, bool] = field(default_factory=dict)
    """Each spectator, and whether he has had his snapshot (a delayed table's newcomer
    waits for its first released one)."""
    line: deque[_Batch] = field(default_factory=deque)
    """Frames held back (a delayed table's)."""
    released: Snapshot | None = None
    """The last snapshot released (a delayed table's)."""
    told: int = 0
    """The count last told."""
    told_at: float = -math.inf
    count_due: float | None = None
    """When the count is next told (a change within a second of the last)."""

    def next_due(self) -> float | None:
        """Its earliest wake-up, if any."""
        dues = [self.count_due] if self.count_due is not None else []
        if self.line:
            dues.append(self.line[0].due)
        return min(dues, default=None)


class Spectators:
    """Who watches which table, and what each is sent.

    :param players: the hall's players.
    :param tables: the tables in play, by number.
    :param settings: the hall's spectator rules.
    """

    def __init__(
        self,
        players: Mapping[int, Player],
        tables: Mapping[int, LiveTable],
        settings: WatchSettings | None = None,
    ) -> None:
        self.settings = settings or WatchSettings()
        """The hall's spectator rules."""
        self.audiences: dict[int, Audience] = {}
        """The audience of each watched (or delayed) table, by number."""
        self.watching: dict[int, int] = {}
        """The table each spectator watches, by user."""
        self.parked: dict[int, str] = {}
        """The private table each waiting spectator watches (it has no live table now),
        by user."""
        self.privates: dict[str, int | None] = {}
        """The live table of each open private table watched or configured (``None``:
        none now), by code."""
        self.following: dict[int, int] = {}
        """The player each spectator watches by name (``spectate`` with ``player``), by
        user: his watch follows that player from table to table."""
        self.trailing: dict[int, int] = {}
        """The table each spectator left when it closed while the player he follows was
        still in the hall (in its room's queue, at another table), by user: he waits for
        that player's next table."""
        self.greet: Callable[[int, str, Out], None] | None = None
        """``greet(user, code, out)``: what a newcomer to a private table's live table is
        told before its snapshot (its ``private_table`` frame:
        :mod:`~qipai.hall.private.tables`)."""
        self._players = players
        self._tables = tables

    # --- queries ------------------------------------------------------------------------

    def count(self, table: int) -> int:
        """How many watch ``table``."""
        audience = self.audiences.get(table)
        return 0 if audience is None else len(audience.users)

    def watches(self, user: int) -> bool:
        """Whether ``user`` watches a table, or waits for a private table's next hand, or
        for the next table of the player he follows."""
        return user in self.watching or user in self.parked or user in self.trailing

    def watched_by(self, user: int) -> str | None:
        """What ``user`` watches: a table's number, or the code of the private table whose
        next hand he waits for (``None``: nothing)."""
        number = self.watching.get(user, self.trailing.get(user))
        return str(number) if number is not None else self.parked.get(user)

    def parked_at(self, code: str) -> list[int]:
        """The spectators waiting for private table ``code``'s next hand."""
        return [user for user, parked in self.parked.items() if parked == code]

    def watchers(self, code: str) -> int:
        """How many watch private table ``code`` (at its live table, or waiting)."""
        number = self.privates.get(code)
        return len(self.parked_at(code)) + (0 if number is None else self.count(number))

    def _player_named(self, name: str) -> int | None:
        """The user of the player named ``name`` seated at a table here, if any."""
        for user, player in self._players.items():
            if player.name == name and player.table is not None:
                return user
        return None

    def table_of(self, name: str) -> LiveTable | None:
        """The table the player named ``name`` sits at here, if any and if he lets others
        watch it by his name (:attr:`Player.watchable_by_name
        <qipai.hall.players.Player.watchable_by_name>`)."""
        for player in self._players.values():
            if player.name == name and player.table is not None:
                return self._tables.get(player.table) if player.watchable_by_name else None
        return None

    def _check_watchable(self, live: LiveTable) -> None:
        """:raises IllegalActionError: ``not_watchable``."""
        audience = self.audiences.get(live.number)
        if audience is not None:
            allowed = audience.options.allowed
        else:
            allowed = live.seating is not None and self.settings.cash_tables
        if not allowed:
            raise IllegalActionError("not_watchable", f"table {live.number} cannot be watched")

    # --- a table's options --------------------------------------------------------------

    def configure(
        self, live: LiveTable, options: TableWatch, out: Out, now: float, code: str | None = None
    ) -> None:
        """``live``'s own options (a private table's, set as it opens): whether it may be
        watched, and how long its spectators' frames are held back (from now on: a
        delayed table keeps its spectators' frames even while nobody watches); ``code``:
        the private table it plays for, whose waiting spectators now watch it.

        :raises InvalidActionError: ``bad_delay`` (negative).
        """
        if not options.delay >= 0:
            raise InvalidActionError("bad_delay", "a delay is >= 0 seconds")
        audience = self.audiences.setdefault(live.number, Audience(live.number, options))
        audience.options, audience.code = options, code
        if options.delay > 0:
            live.table.watched = True
            snapshot = live.table.spectator_snapshot()
            audience.line.append(_Batch(now + options.delay, (), snapshot))
            out.append(WakeAt(now + options.delay))
        if code is not None:
            self.privates[code] = live.number
            self._unpark(code, out, now)

    def _unpark(self, code: str, out: Out, now: float) -> None:
        """Private table ``code``'s waiting spectators watch its live table, if it has one."""
        number = self.privates.get(code)
        live = None if number is None else self._tables.get(number)
        audience = None if number is None else self.audiences.get(number)
        if live is None or audience is None:
            return
        for user in self.parked_at(code):
            del self.parked[user]
            self._attach(user, live, audience, out)
        self._counted(audience, out, now)

    def ended(self, code: str, out: Out) -> None:
        """Private table ``code`` closed: its waiting spectators are told (``table_closed``,
        ``table`` null); those of its last live table, when it closes."""
        self.privates.pop(code, None)
        frame = SpectateEnded(table=None, reason="table_closed")
        for user in self.parked_at(code):
            del self.parked[user]
            out.append(Send(user, frame))

    # --- spectators come and go -------------------------------------------------------

    def handle(self, command: Spectate | StopSpectating | Resync, out: Out, now: float) -> None:
        """A spectator's command (:meth:`spectate`, :meth:`stop`, a snapshot asked by
        ``Resync``: answered with the spectators' snapshot, a delayed table's last
        released one).

        :raises GameError: refused (nothing changed).
        """
        match command:
            case Spectate(user, table, name):
                self.spectate(user, table, name, out, now)
            case StopSpectating(user):
                self.stop(user, out, now)
            case Resync(user):
                out.append(Reply(self._resync(user)))

    def _resync(self, user: int) -> tuple[OutFrame, ...]:
        """The snapshot a spectator asked for (none yet: a delayed table's newcomer)."""
        if user in self.parked:
            return ()
        audience = self.audiences[self.watching[user]]
        live = self._tables.get(audience.number)
        if audience.options.delay > 0 or live is None:
            return () if audience.released is None else (audience.released,)
        return (live.table.spectator_snapshot(),)

    def spectate(
        self, user: int, table: int | None, name: str | None, out: Out, now: float
    ) -> None:
        """``user`` watches table number ``table``, or the one the player named ``name``
        sits at (exactly one of the two); whatever he watched before, he leaves.

        :raises InvalidActionError: ``bad_message`` (neither or both named).
        :raises IllegalActionError: ``not_connected``, ``already_in_room`` (he has a place:
            a room, a table), ``table_closed`` (no such table now), ``not_playing`` (the
            player named sits at no table here, or does not let others watch him by his
            name: one answer for both, so that it does not tell whether he plays),
            ``not_watchable``.
        """
        live = self._target(user, table, name)
        if self.watches(user) and self.watching.get(user) != live.number:
            self._drop(user, out, now, reason="moved")
        friend = None if name is None else self._player_named(name)
        if friend is None or live.seating is None:  # a cash table's player is followed
            self.following.pop(user, None)
        else:
            self.following[user] = friend
        audience = self.audiences.setdefault(live.number, Audience(live.number, TableWatch()))
        if audience.code is not None and self.greet is not None:
            self.greet(user, audience.code, out)
        self._attach(user, live, audience, out)
        self._counted(audience, out, now)

    def park(self, user: int, code: str, out: Out, now: float) -> None:
        """``user`` watches private table ``code`` while it has no live table: he waits
        for its next one (whatever he watched before, he leaves).

        :raises IllegalActionError: ``not_connected``, ``already_in_room``.
        """
        self._check_free(user)
        if self.parked.get(user) == code:
            return
        if self.watches(user):
            self._drop(user, out, now, reason="moved")
        self.privates.setdefault(code, None)
        self.parked[user] = code

    def _attach(self, user: int, live: LiveTable, audience: Audience, out: Out) -> None:
        """``user`` watches ``live``: its snapshot now (a delayed table's newcomer waits
        for its first one released)."""
        live.table.watched = True
        self.watching[user] = live.number
        first = audience.options.delay == 0 or audience.released is not None
        audience.users[user] = first
        if first:
            snapshot = audience.released or live.table.spectator_snapshot()
            out.append(Send(user, snapshot))

    def _target(self, user: int, table: int | None, name: str | None) -> LiveTable:
        """The table ``user`` asks to watch (checked: see :meth:`spectate`)."""
        if (table is None) == (name is None):
            raise InvalidActionError("bad_message", "name one table, or one player")
        self._check_free(user)
        if name is not None:
            live = self.table_of(name)
            if live is None:
                raise IllegalActionError("not_playing", f"{name!r} plays at no table here")
        else:
            found = self._tables.get(table) if type(table) is int else None
            if found is None:
                raise IllegalActionError("table_closed", f"table {table} is not in play")
            live = found
        self._check_watchable(live)
        return live

    def _check_free(self, user: int) -> None:
        """:raises IllegalActionError: ``not_connected`` (his place was checked by the
        core: :mod:`.place`)."""
        if user not in self._players:
            raise IllegalActionError("not_connected", "the connection closed")

    def stop(self, user: int, out: Out, now: float) -> None:
        """``user`` stops watching (told ``spectate_ended`` ``stopped``).

        :raises IllegalActionError: ``not_spectating``.
        """
        if not self.watches(user):
            raise IllegalActionError("not_spectating", "not watching a table")
        self._drop(user, out, now, reason="stopped")

    def moved(self, user: int, out: Out, now: float) -> None:
        """``user`` went elsewhere (a room, a table): if he watched, he stops (told
        ``spectate_ended`` ``moved``)."""
        if self.watches(user):
            self._drop(user, out, now, reason="moved")

    def gone(self, user: int, out: Out, now: float) -> None:
        """``user``'s last connection closed: if he watched, he stops (nobody to tell)."""
        if self.watches(user):
            self._drop(user, out, now, reason=None)

    def _drop(self, user: int, out: Out, now: float, *, reason: str | None) -> None:
        """``user`` stops watching; told why (``reason``) unless ``None``."""
        self.following.pop(user, None)
        if self.trailing.pop(user, None) is not None or self.parked.pop(user, None) is not None:
            if reason is not None:
                out.append(Send(user, SpectateEnded(table=None, reason=reason)))
            return
        number = self.watching.pop(user)
        audience = self.audiences[number]
        del audience.users[user]
        if reason is not None:
            out.append(Send(user, SpectateEnded(table=number, reason=reason)))
        live = self._tables.get(number)
        if not audience.users and audience.options.delay == 0 and live is not None:
            live.table.watched = False  # the table makes no spectator frame for nobody
        self._counted(audience, out, now)

    # --- following a player by name ------------------------------------------------------

    def seated(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` opened: whoever waits for one of its players' next table (he watched
        him by name) watches it now (its snapshot), if it may be watched and the player
        still lets others watch him by his name; if not, he is told ``player_left`` (the
        answer a name that plays nowhere gets)."""
        users = {user for _, user in live.humans()}
        trailers = [u for u in self.trailing if self.following.get(u) in users]
        if not trailers:
            return
        audience = self.audiences.setdefault(live.number, Audience(live.number, TableWatch()))
        for user in trailers:
            number = self.trailing.pop(user)
            friend = self._players[self.following[user]]
            allowed = audience.options.allowed and self.settings.cash_tables
            if not allowed or live.seating is None or not friend.watchable_by_name:
                self._left(user, number, out)
                continue
            self._attach(user, live, audience, out)
        if not audience.users and audience.options.delay == 0:
            del self.audiences[live.number]
            return
        self._counted(audience, out, now)

    def follow_up(self, out: Out) -> None:
        """Whoever waits for the next table of a player who is no longer in the hall's
        cash rooms (he left the room, his connection closed, he went to a private table or
        a match) is told ``player_left``."""
        for user, number in list(self.trailing.items()):
            player = self._players.get(self.following.get(user, -1))
            if player is None or not player.connected or player.room is None:
                del self.trailing[user]
                self._left(user, number, out)

    def _left(self, user: int, number: int, out: Out) -> None:
        """``user`` no longer follows: the player he followed left (``player_left``)."""
        self.following.pop(user, None)
        out.append(Send(user, SpectateEnded(table=number, reason="player_left")))

    # --- frames -------------------------------------------------------------------------

    def frames(self, live: LiveTable, frames: tuple[OutFrame, ...], out: Out, now: float) -> None:
        """The frames of one change at ``live`` made for spectators: to each now, or held
        back by the table's delay."""
        audience = self.audiences.get(live.number)
        if audience is None or not frames:
            return
        delay = audience.options.delay
        if delay == 0:
            self._deliver(audience, frames, live.table.spectator_snapshot, out)
            return
        if audience.line and audience.line[-1].ends:  # closed: they go out before its end
            end = audience.line.pop()
            audience.line.extend((_Batch(end.due, frames, end.snapshot), end))
            return
        if not audience.line:
            out.append(WakeAt(now + delay))
        audience.line.append(_Batch(now + delay, frames, live.table.spectator_snapshot()))

    def _deliver(
        self,
        audience: Audience,
        frames: tuple[OutFrame, ...],
        snapshot: Callable[[], Snapshot],
        out: Out,
    ) -> None:
        """``frames`` to each spectator who has his snapshot and would not pass the bound
        with them; the others get ``snapshot()`` (made once) instead."""
        fresh: Snapshot | None = None
        bounded = len(frames) <= self.settings.backlog
        for user, started in audience.users.items():
            if started and bounded:
                out.extend(Send(user, frame) for frame in frames)
                continue
            fresh = fresh or snapshot()
            out.append(Send(user, fresh))
            audience.users[user] = True

    def closed(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` closed: its spectators are told (after its delayed frames); a private
        table's, if it goes on, wait for its next live table instead."""
        audience = self.audiences.get(live.number)
        if audience is None:
            return
        if audience.code is not None and self.privates.get(audience.code) == live.number:
            self.privates[audience.code] = None
        if audience.line:
            last = audience.line[-1]
            audience.line.append(_Batch(last.due, (), last.snapshot, ends=True))
            return
        self._end(audience, out, now)

    def _end(self, audience: Audience, out: Out, now: float) -> None:
        """The table's watch is over: each spectator told ``table_closed``, or, its
        private table going on, waiting for (or watching) its next live table."""
        del self.audiences[audience.number]
        code = audience.code
        frame = SpectateEnded(table=audience.number, reason="table_closed")
        following = SpectateEnded(table=audience.number, reason="following")
        for user in audience.users:
            del self.watching[user]
            if code is not None and code in self.privates:
                self.parked[user] = code
            elif user in self.following:  # he waits for that player's next table
                self.trailing[user] = audience.number
                out.append(Send(user, following))
            else:
                out.append(Send(user, frame))
        if code is not None:  # a delayed table's end: the next one may be open already
            self._unpark(code, out, now)

    # --- the count and the clock ---------------------------------------------------------

    def _counted(self, audience: Audience, out: Out, now: float) -> None:
        """The number watching may have changed: told now, or a second after the last."""
        if len(audience.users) == audience.told:
            return
        if now >= audience.told_at + COUNT_INTERVAL:
            self._tell(audience, out, now)
        elif audience.count_due is None:
            audience.count_due = audience.told_at + COUNT_INTERVAL
            out.append(WakeAt(audience.count_due))

    def _tell(self, audience: Audience, out: Out, now: float) -> None:
        """``spectator_count`` to the table's players and spectators."""
        count = len(audience.users)
        audience.told, audience.told_at, audience.count_due = count, now, None
        frame = SpectatorCount(table=audience.number, count=count)
        live = self._tables.get(audience.number)
        players = () if live is None else (user for _, user in live.humans())
        out.extend(Send(user, frame) for user in (*players, *audience.users))

    def tick(self, out: Out, now: float) -> None:
        """Release what is due at ``now`` (held frames, counts); name the next wake-up."""
        for audience in list(self.audiences.values()):
            if audience.count_due is not None and audience.count_due <= now:
                audience.count_due = None
                if len(audience.users) != audience.told:
                    self._tell(audience, out, now)
            self._release(audience, out, now)
        dues = [due for a in self.audiences.values() if (due := a.next_due()) is not None]
        if dues:
            out.append(WakeAt(min(dues)))

    def _release(self, audience: Audience, out: Out, now: float) -> None:
        """The held frames of ``audience`` due at ``now``, at once (one snapshot instead
        for whoever would pass the bound)."""
        due: list[_Batch] = []
        while audience.line and audience.line[0].due <= now:
            due.append(audience.line.popleft())
        if not due:
            return
        frames = tuple(frame for batch in due for frame in batch.frames)
        snapshots = [batch.snapshot for batch in due if batch.snapshot is not None]
        if snapshots:
            audience.released = snapshots[-1]
        if frames or any(not started for started in audience.users.values()):
            released = audience.released
            if released is not None:
                self._deliver(audience, frames, lambda: released, out)
        if due[-1].ends:
            self._end(audience, out, now)

    def reset(self) -> None:
        """Forget every spectator (the hall forgets its players)."""
        self.audiences.clear()
        self.watching.clear()
        self.parked.clear()
        self.privates.clear()
        self.following.clear()
        self.trailing.clear()
