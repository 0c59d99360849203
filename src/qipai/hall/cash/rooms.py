"""The cash rooms: their queues, matchmaking, and what follows each table's hand.

One :class:`~qipai.hall.cash.matchmaking.Lobby` per room.  ``Matchmake`` seats whoever can be
seated (bots filling seats where the room allows, after its wait); each seating's balances
are read from the store (:class:`~qipai.hall.cash.effects.ReadBalances`) before its table
opens.  After every hand the table's players wait again and are regrouped with everyone
else waiting (分组规则), except those leaving; in a room that keeps its tables
(``regroup = false``) the same table deals its next hand instead, after the pause, as
long as none of its players leaves, is out of coins or is disconnected.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall import notices
from qipai.hall.cash.effects import ReadBalances
from qipai.hall.cash.matchmaking import Lobby, MatchedTable
from qipai.hall.effects import Log, ReleasePlace, Send
from qipai.hall.players import Player
from qipai.hall.rooms import Room, check_join
from qipai.hall.table.botseats import bot_seats
from qipai.hall.table.live import LiveTable, Out, Posted, TableFlow, ending
from qipai.hall.table.table import SeatInfo
from qipai.hall.watch.spectators import Spectators


@dataclass(frozen=True, slots=True)
class Seated:
    """A cash table to open: its room, who sits where, its seating, its generator."""

    room: Room
    users: tuple[int | None, ...]
    seats: tuple[SeatInfo, ...]
    seating: MatchedTable
    rng: random.Random


@dataclass
class CashRoom:
    """A room and its queue."""

    room: Room
    lobby: Lobby


class CashRooms:
    """The rooms of one hall process.

    :param fresh: random bits (the matchmaking's generator and each table's are seeded
        from them).
    """

    def __init__(
        self,
        rooms: Sequence[Room],
        players: dict[int, Player],
        flow: TableFlow,
        fresh: Callable[[int], int],
        watch: Spectators,
    ) -> None:
        self.rooms = {room.id: CashRoom(room, Lobby(room.seating)) for room in rooms}
        self._players = players
        self._watch = watch
        self._flow = flow
        self._fresh = fresh
        self._rng = random.Random(fresh(64))
        self._pending: dict[int, tuple[CashRoom, MatchedTable]] = {}
        self._seatings = itertools.count(1)

    # --- joining and leaving --------------------------------------------------------

    def entry(self, room_id: str) -> CashRoom:
        """The room ``room_id``.

        :raises InvalidActionError: ``unknown_room``.
        """
        entry = self.rooms.get(room_id)
        if entry is None:
            raise InvalidActionError("unknown_room", f"no room {room_id!r}")
        return entry

    def check_join(self, player: Player, room_id: str, balance: int | None) -> None:
        """Refuse what :meth:`join` would refuse (``balance``: if read already).

        :raises InvalidActionError: ``unknown_room``.
        :raises IllegalActionError: ``not_enough_coins`` (his place is checked by the core:
            :mod:`.place`).
        """
        entry = self.entry(room_id)
        if balance is not None:
            check_join(entry.room, balance)

    def join(
        self, player: Player, room_id: str, balance: int, out: Out, now: float, *, once: bool
    ) -> None:
        """Queue ``player`` holding ``balance`` coins in ``room_id``; ``once``: for one
        hand, in a room that regroups (he leaves it with the table)."""
        self.check_join(player, room_id, balance)
        entry = self.rooms[room_id]
        entry.lobby.join(player.pid, now)
        player.room, player.leaving = room_id, False
        player.one_hand = once and entry.room.regroup
        out.append(Send(player.user, notices.queued(room_id)))

    def leave(self, player: Player, out: Out, now: float) -> None:
        """Stop waiting now, or leave once the hand in play is over; in a room with
        ``escape_before_start`` leaving a table whose hand is not dealt yet is an escape.

        :raises IllegalActionError: ``not_in_room``.
        """
        if player.room is None:
            raise IllegalActionError("not_in_room", "not in a room")
        entry = self.rooms[player.room]
        live = None if player.table is None else self._flow.tables.get(player.table)
        if live is not None or not entry.lobby.is_queued(player.pid):
            # at a table, or being seated at one right now: out after its hand
            player.leaving = True
            out.append(Send(player.user, notices.leaving(player.room)))
            if live is not None:
                self._leave_early(live, player, entry.room, out, now)
                self._flow.leaving(live, out, now)
            return
        entry.lobby.leave(player.pid)
        self.left(player, out)

    def _leave_early(
        self, live: LiveTable, player: Player, room: Room, out: Out, now: float
    ) -> None:
        """ "在系统撮合成功后、游戏开始前玩家如果退出游戏一律视为逃跑" where the room says so."""
        if room.escape_before_start:
            self._flow.post(live, live.seat_of(player.user), Posted.LEAVE_EARLY, out, now)

    def left(self, player: Player, out: Out) -> None:
        """``player`` is out of his room: told, his place given back."""
        room, player.room, player.leaving, player.one_hand = player.room, None, False, False
        assert room is not None
        out.append(ReleasePlace(player.user))  # in no room: held nowhere (unless in a match)
        out.append(Send(player.user, notices.left(room)))

    def away(self, player: Player) -> None:
        """``player`` lost his last connection: out of the queue if he waits there."""
        if player.room is not None and player.table is None:
            lobby = self.rooms[player.room].lobby
            if lobby.is_queued(player.pid):
                lobby.leave(player.pid)
                player.room = None

    def forget(self, user: int, out: Out) -> None:
        """Nothing more to keep for ``user`` here (in a cluster: he is not held here)."""
        self._players.pop(user, None)
        out.append(ReleasePlace(user))

    # --- matchmaking ----------------------------------------------------------------

    def matchmake(self, owned: frozenset[str], out: Out, now: float) -> None:
        """Seat whoever can be seated in the rooms ``owned``: each seating's balances are
        read first."""
        for room_id, entry in self.rooms.items():
            if not entry.lobby.queue or room_id not in owned:
                continue
            for seating in entry.lobby.match(now, self._rng):
                number = next(self._seatings)
                self._pending[number] = (entry, seating)
                users = tuple(None if pid is None else int(pid) for pid in seating.seats)
                out.append(ReadBalances(number, users))

    def balances_read(self, number: int, balances: tuple[int, ...]) -> Seated | None:
        """Seating ``number``'s table to open: its players with their coins, bots drawn."""
        pending = self._pending.pop(number, None)
        if pending is None:
            return None
        entry, seating = pending
        users = tuple(None if pid is None else int(pid) for pid in seating.seats)
        rng = random.Random(self._fresh(64))  # the table's: its bots are drawn from it
        names = [self._players[user].name for user in users if user is not None]
        count = users.count(None)
        bots = iter(bot_seats(rng, min_coins=entry.room.min_coins, count=count, taken=names))
        seats = []
        for user, balance in zip(users, balances, strict=True):
            if user is None:
                bot = next(bots)
                seats.append(SeatInfo(None, bot.name, bot.balance))
            else:
                seats.append(SeatInfo(str(user), self._players[user].name, balance))
        return Seated(entry.room, users, tuple(seats), seating, rng)

    def opened(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` is open: who asked to leave meanwhile leaves it early."""
        for _, user in live.humans():
            player = self._players[user]
            if player.leaving and player.table == live.number:
                self._leave_early(live, player, live.table.room, out, now)

    def seating_failed(self, number: int, message: str, out: Out, now: float) -> None:
        """A seating whose table could not be opened (the store does not answer): its
        players are told why and leave the room (out of the queue, at no table: waiting
        for nothing)."""
        pending = self._pending.pop(number, None)
        if pending is None:
            return
        entry, seating = pending
        text = f"room {entry.room.id}: no table, the database failed: {message}"
        out.append(Log("warning", text))
        entry.lobby.finish(seating, now, leaving=seating.humans)
        for pid in seating.humans:
            player = self._players.get(int(pid))
            if player is not None and player.room == entry.room.id and player.table is None:
                refusal = notices.error("database_unavailable", "the database does not answer")
                out.append(Send(player.user, refusal))
                self.left(player, out)

    # --- after a hand ---------------------------------------------------------------

    def leavers(self, live: LiveTable) -> list[Player]:
        """The players of ``live`` who go once its hand is over: leaving, there for one
        hand, disconnected, or below the room's minimum."""
        seats, room = live.table.seats, live.table.room
        found = []
        for seat, user in live.humans():
            player = self._players.get(user)
            if player is None:
                continue
            if (
                player.leaving
                or player.one_hand
                or not player.connected
                or seats[seat].balance < room.min_coins
            ):
                found.append(player)
        return found

    def plays_on(self, live: LiveTable) -> bool:
        """Whether ``live``, its hand over, deals the next one to the same players."""
        assert live.seating is not None
        lobby = self.rooms[live.table.room.id].lobby
        leaving = [player.pid for player in self.leavers(live)]
        return lobby.plays_on(live.seating, leaving=leaving)

    def closed(self, live: LiveTable, out: Out, now: float) -> None:
        """``live`` closed (the :class:`~qipai.hall.table.live.Owner` of the cash tables):
        its spectators told; its players wait again (regrouped), or leave the room."""
        assert live.seating is not None
        self._watch.closed(live, out, now)
        entry = self.rooms[live.table.room.id]
        players = [p for _, user in live.humans() if (p := self._players.get(user)) is not None]
        leaving = self.leavers(live)
        entry.lobby.finish(live.seating, now, leaving=[player.pid for player in leaving])
        for player in players:
            player.table = None
            if player in leaving:
                self.left(player, out)
            else:
                out.append(Send(player.user, notices.queued(entry.room.id)))
            out.extend(ending(live, player))
            if not player.connected:
                self.forget(player.user, out)  # nothing else to keep for him

    # --- the rooms as a whole -------------------------------------------------------

    def room_idle(self, room_id: str) -> bool:
        """Whether nobody waits or plays in ``room_id`` here."""
        players = self._players.values()
        tables = self._flow.tables.values()
        return not any(player.room == room_id for player in players) and not any(
            live.table.room.id == room_id for live in tables
        )

    def reset(self) -> None:
        """Empty every queue (the hall was taken over)."""
        for entry in self.rooms.values():
            entry.lobby = Lobby(entry.room.seating)
        self._pending.clear()
