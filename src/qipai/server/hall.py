"""The running hall: rooms, their queues, the tables in play, and the database behind them.

:class:`HallService` is what the connections talk to.  It keeps one
:class:`~qipai.hall.matchmaking.Lobby` per room, a matchmaking task that seats waiting
players (bots filling seats where the room allows, after its wait), and one
:class:`~qipai.server.tables.TableRunner` per table.  Every hand is written to the store
before it is dealt (with the commitment of its seed) and settled in one transaction when it
ends (hands that end together share that transaction: :mod:`.batching`); a hand still
marked in play when the process starts is voided (本局游戏将自动取消，输赢结果无效).
After every hand the table's players wait again and are regrouped with everyone else
waiting (分组规则), except those leaving; in a room that keeps its tables (``regroup =
false``) the same table deals its next hand instead, after :data:`HAND_PAUSE`, as
long as none of its players leaves, is out of coins or is disconnected.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import ParamSpec, Protocol, TypeVar

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall import matchmaking
from qipai.hall.botseats import BotSeat, bot_seats
from qipai.hall.chat import ChatLimit, chat_frame, check_phrase
from qipai.hall.frames import EscapeCost as EscapeCostFrame
from qipai.hall.frames import HandVoided, OutFrame, Queued
from qipai.hall.frames import Leaving as LeavingFrame
from qipai.hall.records import SEED_BITS, commitment
from qipai.hall.rooms import Room, check_join
from qipai.hall.table import DEAL_STEP_SECONDS, HandOutcome, HandTerms, SeatInfo, Table
from qipai.registry import game_names, game_type
from qipai.server.cluster import ClusterNode
from qipai.store import Fence, HandSettlement, HandStart, Store

from . import protocol
from .batching import Batcher
from .bots import BOT_DEADLINE, BotPool
from .bus import Bus
from .metrics import Histogram
from .missed import KeptHere, MissedFrames, RecentEndings
from .places import Places
from .tables import (
    Command,
    Contribute,
    LeaveEarly,
    Leaving,
    Presence,
    SeatAct,
    SeatEscape,
    SetTrustee,
    TableRunner,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
P = ParamSpec("P")

HAND_PAUSE = 3.0
"""Seconds between two hands of a table that plays on (a room with ``regroup = false``):
its players read the result, and may leave."""
ENTROPY_WINDOW = 1.0
"""Seconds a hand waits, at most, for its players' entropy before it is dealt (it is dealt
as soon as every connected player's has come: on a good connection, one round trip)."""
MATCH_INTERVAL = 0.1
"""Seconds between two matchmaking passes."""
VOID_RETRY = 2.0
"""Seconds between two tries to void a failed table's hand while the database is down."""
HOUSEKEEPING_PASSES = 36_000
"""Matchmaking passes between two purges of expired sessions (an hour)."""


class Cuttable(Protocol):
    """A connection the hall may close."""

    def cut(self) -> None:
        """Close it (its client connects again)."""
        ...


@dataclass
class Player:
    """A signed-in player as the hall knows him."""

    user: int
    name: str
    room: str | None = None
    runner: TableRunner | None = None
    leaving: bool = False
    one_hand: bool = False
    """Joined for one hand (``join`` with ``once``, in a room that regroups): out of the
    room after it, as if he had asked to leave, but with no escape before its start."""
    chat: ChatLimit = field(default_factory=ChatLimit)
    """His quick-chat allowance (:meth:`HallService.chat`)."""


@dataclass
class _Room:
    room: Room
    lobby: matchmaking.Lobby


@dataclass(frozen=True)
class _Seated:
    """A table in play: its room, and either the room's lobby and matchmaking table (a
    cash table, regrouped after its hand) or what to call when its hand is over (a match
    table: :mod:`qipai.server.matches`)."""

    room: Room
    entry: _Room | None = None
    seating: matchmaking.MatchedTable | None = None
    done: Callable[[TableRunner], None] | None = None


class Database:
    """Runs the synchronous store in worker threads, so the event loop never waits on I/O.

    SQLite gets one thread (one writer at a time anyway); PostgreSQL a few.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        threads = 1 if store.dialect == "sqlite" else 4
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qipai-db")

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``function(*args, **kwargs)`` in a database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, partial(function, *args, **kwargs))

    def close(self) -> None:
        """Finish the queued calls and stop the threads."""
        self._pool.shutdown(wait=True)


class HallService:
    """Rooms, matchmaking and tables of one hall process."""

    def __init__(
        self,
        db: Database,
        rooms: Sequence[Room],
        bus: Bus,
        *,
        bot_delay: float = 1.0,
        deal_step: float = DEAL_STEP_SECONDS,
        hand_pause: float = HAND_PAUSE,
        entropy_window: float = ENTROPY_WINDOW,
        clock: Callable[[], float] = time.time,
        cluster: ClusterNode | None = None,
        bots: BotPool | None = None,
    ) -> None:
        self.db = db
        self.bots = bots
        """Where bots decide (``--bot-workers``); ``None``: in the tables' ticks."""
        self.bot_fallbacks = 0
        """Bots' moves the basic 托管 played, no answer having come in time (tables ended)."""
        self.bus = bus
        self.cluster = cluster
        """This process as a node of several (``--redis``): table leases, fences."""
        self.bot_delay = bot_delay
        self.deal_step = deal_step
        self.entropy_window = entropy_window
        """The longest a hand waits for its players' entropy (0: dealt at once, straight
        from the house seed)."""
        self.hand_pause = hand_pause
        """Seconds between two hands of a table that plays on."""
        self.clock = clock
        self.rooms = {room.id: _Room(room, matchmaking.Lobby(room.seating)) for room in rooms}
        self.players: dict[int, Player] = {}
        self.runners: dict[TableRunner, _Seated] = {}
        """The tables in play, with their room and matchmaking table."""
        self._fences: dict[TableRunner, Fence] = {}
        """The fence of each table's lease (several nodes)."""
        self._unstarted: set[str] = set()
        """Hands whose start is being written and not dealt yet: voided if their table
        stops meanwhile (:meth:`_stop_tables`), for the write may land after it."""
        self._voiding: set[asyncio.Task[None]] = set()
        self._rng = random.Random(secrets.randbits(64))
        self._table_numbers = itertools.count(1)  # hall-wide: a client keys tables by number
        store = db.store
        self._starts = Batcher(db.run, store.start_hands, store.start_hand)
        self._settles = Batcher(db.run, store.settle_hands, store.settle_hand)
        self._matcher: asyncio.Task[None] | None = None
        self.hands_settled = 0
        self.connections = 0
        """Open WebSocket connections (signed in)."""
        self.message_seconds = Histogram(
            "qipai_message_seconds",
            "Time from a client message read to its answer (ack, error or reply) queued.",
        )
        """How long the client messages take here (``/metrics``)."""
        self.sockets: set[Cuttable] = set()
        """Those connections, to be cut when this node was taken over while away."""
        self.in_match: Callable[[int], bool] = lambda user: False
        """Whether a user is registered in or playing a match (set by the match hall):
        he may not join a room meanwhile."""
        self.places = Places(cluster, self.holds)
        """One place per player (:mod:`.places`): his lock, and his claim in the cluster."""
        self.notices: Callable[[int], Awaitable[list[OutFrame]]] = _no_notices
        """What a user is told when he connects beyond :attr:`missed`: the ends of his
        matches he was away for (set by the match hall: kept in the database)."""
        self.recent = RecentEndings()
        """How each connected player's last hand ended, for a client that comes back
        without having had it (:mod:`.missed`)."""
        self.missed: MissedFrames = KeptHere(clock)
        """How the hand ended (a snapshot, ``hand_over``) for each player who was away
        then, and other frames for the absent (:mod:`.missed`): sent when he returns
        (:meth:`resume`).  A node of a cluster keeps them in Redis."""

    # --- life ---------------------------------------------------------------------------

    async def start(self) -> list[str]:
        """Void the hands a previous process left in play, build the move tables, then
        start matchmaking."""
        await asyncio.to_thread(warm_up)
        node = None if self.cluster is None else self.cluster.node_id
        voided = await self.db.run(self.db.store.void_interrupted, _utcnow(), node)
        if voided:
            log.warning("voided %d hands interrupted by the last shutdown", len(voided))
            await self._tell_voided(voided)
        self._matcher = asyncio.get_running_loop().create_task(self._match_forever())
        return voided

    async def recover(self, node: str) -> list[str]:
        """Void the hands ``node`` (another process of the hall, which stopped) left in
        play, and keep the ``hand_voided`` frames for its players (reason ``restart``:
        for them the hall stopped during the hand)."""
        voided = await self.db.run(self.db.store.void_interrupted, _utcnow(), node)
        if voided:
            log.warning("voided %d hands of node %s, which stopped", len(voided), node)
            await self._tell_voided(voided)
            await self.missed.flush()  # stored before the node is forgotten (and left)
        return voided

    async def _tell_voided(self, hand_ids: list[str]) -> None:
        """Keep, for each player of the hands voided at start, a ``hand_voided`` frame
        (reason ``restart``) for when he comes back (:meth:`resume`): his hand was
        cancelled, no coin moved (本局游戏将自动取消，输赢结果无效)."""
        for seat in await self.db.run(self.db.store.voided_players, hand_ids):
            self.missed.keep(seat.user_id, [voided_frame(seat.hand_id, seat.table, "restart")])

    async def stop(self) -> None:
        """Stop matchmaking and the tables, and void the hands they were playing (a hand
        is never left half-played: its stakes stay where they were)."""
        if self._matcher is not None:
            self._matcher.cancel()
        voided = await self._stop_tables()
        if self.cluster is not None:  # no next start of this node to tell them
            await self._tell_voided(voided)
            await self.missed.flush()

    async def _stop_tables(self) -> list[str]:
        """Cancel every table, let the writes they asked for land, then void the hands
        they were playing, and those whose start was being written as their table was
        cancelled (before, these stayed ``playing`` for ever: seen when a paused node
        found itself taken over); their ids.  A hand the database does not let void now
        is voided as soon as it answers (while this process lives; else at its start)."""
        runners = list(self.runners)
        tasks = [runner.task for runner in runners if runner.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._starts.close()
        await self._settles.close()
        in_play = [r.table.hand_id for r in runners if r.table.outcome is None]
        hand_ids = [hand for hand in in_play if hand is not None] + sorted(self._unstarted)
        self._unstarted.clear()
        voided = []
        for hand_id in hand_ids:
            try:
                if await self.db.run(self.db.store.void_hand, hand_id, _utcnow()):
                    voided.append(hand_id)
            except Exception as error:
                log.warning("could not void hand %s yet: %s", hand_id, error)
                self._void_soon(hand_id)
        return voided

    def _owns(self, room_id: str) -> bool:
        """Whether this process seats ``room_id``'s players (always, alone)."""
        return self.cluster is None or self.cluster.owns(room_id)

    @property
    def settle_transactions(self) -> int:
        """Database transactions that settled hands (fewer than hands under load)."""
        return self._settles.batches

    # --- players ------------------------------------------------------------------------

    def player(self, user: int, name: str) -> Player:
        """The hall's record of ``user`` (created on first sight)."""
        player = self.players.get(user)
        if player is None:
            player = self.players[user] = Player(user, name)
        return player

    async def join(self, player: Player, room_id: str, *, once: bool = False) -> None:
        """Queue ``player`` in a room; ``once``: for one hand (in a room that regroups after
        every hand: he leaves it with the table instead of waiting again).  His place is
        checked and taken under his lock, his claim taken in the cluster (:mod:`.places`).

        :raises InvalidActionError: ``unknown_room``.
        :raises IllegalActionError: ``already_in_room`` (here, or on another node),
            ``in_match``, ``not_enough_coins``, ``cluster_unavailable``.
        """
        entry = self.rooms.get(room_id)
        if entry is None:
            raise InvalidActionError("unknown_room", f"no room {room_id!r}")
        async with self.places.lock(player.user):
            if player.room is not None:
                raise IllegalActionError("already_in_room", f"already in room {player.room!r}")
            if self.in_match(player.user):
                raise IllegalActionError("in_match", "registered in a match: play it first")
            if not self._owns(room_id):
                moved = f"room {room_id!r} moved: try again"
                raise IllegalActionError("cluster_unavailable", moved)
            balance = await self.db.run(self.db.store.balance, player.user)
            check_join(entry.room, balance)
            await self.places.claim(player.user)  # his messages come here, from any node
            if self.players.get(player.user) is not player:  # gone meanwhile: nobody to seat
                await self.places.release(player.user)
                raise IllegalActionError("not_connected", "the connection closed")
            entry.lobby.join(_pid(player.user), self.clock())
            player.room, player.leaving = room_id, False
            player.one_hand = once and entry.room.regroup
        self.bus.publish(player.user, Queued(room=room_id))

    def holds(self, user: int) -> bool:
        """Whether ``user`` has a place here: a room (its queue or a table), a match table,
        or a match."""
        player = self.players.get(user)
        seated = player is not None and (player.room is not None or player.runner is not None)
        return seated or self.in_match(user)

    def leave(self, player: Player) -> None:
        """Stop waiting now, or leave once the hand in play is over; in a room with
        ``escape_before_start`` leaving a table whose hand has not started yet
        is an escape (:class:`~qipai.server.tables.LeaveEarly`).

        :raises IllegalActionError: ``not_in_room``.
        """
        if player.room is None:
            raise IllegalActionError("not_in_room", "not in a room")
        entry = self.rooms[player.room]
        if player.runner is not None or not entry.lobby.is_queued(_pid(player.user)):
            # at a table, or being seated at one right now: out after its hand
            player.leaving = True
            self.bus.publish(player.user, LeavingFrame(room=player.room))
            if player.runner is not None:
                self._leave_early(player.runner, player.user, entry.room)
                player.runner.post(Leaving(player.runner.seat_of(player.user)))
            return
        entry.lobby.leave(_pid(player.user))
        self._left(player)

    @staticmethod
    def _leave_early(runner: TableRunner, user: int, room: Room) -> None:
        """ "在系统撮合成功后、游戏开始前玩家如果退出游戏一律视为逃跑" where the room says so."""
        if room.escape_before_start:
            runner.post(LeaveEarly(runner.seat_of(user)))

    def _left(self, player: Player) -> None:
        room, player.room, player.leaving, player.one_hand = player.room, None, False, False
        assert room is not None
        self.places.release_soon(player.user)  # in no room: held nowhere (unless in a match)
        self.bus.publish(player.user, protocol.left(room))

    async def command(self, player: Player, make: Callable[[int], Command]) -> None:
        """Apply a seat command (built from the player's seat) at his table.

        :raises IllegalActionError: ``not_seated`` or the table's own error.
        """
        runner = _runner_of(player)
        await runner.submit(make(runner.seat_of(player.user)))

    async def act(self, player: Player, text: str, table: int | None = None) -> None:
        """The player's action in text form (at ``table``, if named).

        :raises IllegalActionError: ``stale_table`` when ``table`` is not his table now.
        """
        runner = player.runner
        if table is not None and (runner is None or runner.table.number != table):
            raise IllegalActionError("stale_table", f"not at table {table} any more")
        await self.command(player, lambda seat: SeatAct(seat, text))

    async def contribute(self, player: Player, table: int, hand: str, value: str) -> None:
        """The player's entropy for ``hand`` at ``table`` (mixed into its seed).

        :raises IllegalActionError: ``not_seated``, ``stale_table`` (not his table now),
            or the table's own error (``wrong_hand``, ``entropy_closed``,
            ``already_contributed``).
        :raises InvalidActionError: ``bad_entropy``.
        """
        runner = player.runner
        if runner is not None and runner.table.number != table:
            raise IllegalActionError("stale_table", f"not at table {table} any more")
        await self.command(player, lambda seat: Contribute(seat, hand, value))

    async def trustee(self, player: Player, on: bool) -> None:
        """托管 on or off."""
        await self.command(player, lambda seat: SetTrustee(seat, on))

    async def escape(self, player: Player) -> None:
        """Leave the hand on purpose; the player leaves the room when it is over."""
        await self.command(player, SeatEscape)
        player.leaving = True

    def escape_cost(self, player: Player) -> EscapeCostFrame:
        """What leaving his hand now would cost the player, from his view alone (an
        ``escape_cost`` frame): at most ``points`` and ``coins``, at least the ``least_`` ones
        (equal but where the price depends on what he may not see); all null where 托管
        would play his seat to the end.

        :raises IllegalActionError: ``not_seated``, or the table's ``no_hand`` /
            ``hand_over``.
        """
        runner = _runner_of(player)
        cost = runner.table.escape_cost(runner.seat_of(player.user))
        points, coins = (None, None) if cost is None else cost
        return EscapeCostFrame(
            table=runner.table.number,
            points=None if points is None else points.most,
            coins=None if coins is None else coins.most,
            least_points=None if points is None else points.least,
            least_coins=None if coins is None else coins.least,
        )

    def chat(self, player: Player, phrase: str, message_id: int | None = None) -> OutFrame | None:
        """Quick chat: the player says ``phrase`` (an id of :mod:`qipai.hall.chat`) to
        everyone seated at his table, himself included; no event of the hand, no record.
        Over his allowance the answer is ``chat_too_fast`` (with ``retry_after``), and
        nothing is said.

        :raises IllegalActionError: ``not_seated``.
        :raises InvalidActionError: ``unknown_phrase``.
        """
        runner = _runner_of(player)
        check_phrase(phrase)
        wait = player.chat.take(self.clock())
        if wait > 0:
            return protocol.chat_too_fast(wait, message_id)
        number, seat = runner.table.number, runner.seat_of(player.user)
        for user in runner.users:
            if user is not None:
                self.bus.publish(user, chat_frame(number, seat, phrase))
        return None

    def resume(
        self, player: Player, last: dict[str, int], missed: list[OutFrame]
    ) -> list[OutFrame]:
        """Frames that bring a returning player's view up to date (and mark him present):
        ``missed`` (what was kept for him: :attr:`missed`), then where he is.

        Called synchronously, before the player's new connection subscribes, so that no
        frame is lost or doubled between the two.
        """
        runner = player.runner
        if runner is None:
            queued: list[OutFrame] = [] if player.room is None else [Queued(room=player.room)]
            self.recent.forget_if_in(player.user, missed)  # told now: never again
            return missed + self.recent.unseen(player.user, last) + queued
        frames = _catch_up(runner, player.user, last)
        runner.post(Presence(runner.seat_of(player.user), True))
        return missed + frames

    async def resync(self, player: Player) -> OutFrame:
        """A full snapshot of the player's table, taken once every frame the table
        produced is published (never ahead of the events it reflects: its ``n`` is the
        last event the player has been sent).

        :raises IllegalActionError: ``not_seated``.
        """
        runner = _runner_of(player)
        await runner.published()  # (the table, finished, may have let him go meanwhile)
        return runner.table.snapshot(runner.seat_of(player.user))

    def disconnected(self, player: Player) -> None:
        """The player's last connection closed: 托管 at his table, or out of the queue."""
        if player.runner is not None:
            player.runner.post(Presence(player.runner.seat_of(player.user), False))
        elif player.room is not None:
            lobby = self.rooms[player.room].lobby
            if lobby.is_queued(_pid(player.user)):
                lobby.leave(_pid(player.user))
                player.room = None
        if player.room is None and player.runner is None:
            self._forget(player.user)  # nothing to keep for him

    def _forget(self, user: int) -> None:
        """Nothing more to keep for ``user`` here (in a cluster: he is not held here)."""
        self.players.pop(user, None)
        self.places.release_soon(user)

    def room_idle(self, room_id: str) -> bool:
        """Whether nobody waits or plays in ``room_id`` here (it may move to another
        node)."""
        return not any(player.room == room_id for player in self.players.values()) and not any(
            seated.room.id == room_id for seated in self.runners.values()
        )

    def online(self) -> dict[str, int]:
        """How many players are in each room (its queue and its tables, bots not counted):
        a room another node owns as that node said at its last beat (at most a beat old)."""
        if self.cluster is None:
            return self.online_here()
        elsewhere: dict[str, int] = {}
        for node, said in sorted(self.cluster.said.items()):
            if node != self.cluster.node_id:
                elsewhere.update(said.get("online", {}))
        return {**elsewhere, **self.online_here()}

    def online_here(self) -> dict[str, int]:
        """How many players are in each room this process seats (a room another node owns
        is left out: its count is there)."""
        return {
            room_id: entry.lobby.headcount
            for room_id, entry in self.rooms.items()
            if self._owns(room_id)
        }

    async def abandon(self) -> None:
        """This node was taken over while away (paused, cut off): its hands were voided
        and its players told; cut its connections (their clients connect again, to nodes
        that know where their players are), drop its tables, queues and players."""
        for socket in list(self.sockets):
            socket.cut()
        users = list(self.players)
        await self._stop_tables()
        for entry in self.rooms.values():
            entry.lobby = matchmaking.Lobby(entry.room.seating)
        for player in list(self.players.values()):
            player.room, player.runner = None, None
        self.players.clear()
        for user in users:  # (their claims: void for the other nodes, given back)
            self.places.release_soon(user)

    # --- matchmaking --------------------------------------------------------------------

    async def _match_forever(self) -> None:
        passes = 0
        while True:
            try:
                await self.match_once()
                if passes % HOUSEKEEPING_PASSES == 0:
                    await self.db.run(self.db.store.delete_expired_sessions, _utcnow())
            except Exception:  # a bug in one pass must not stop the hall
                log.exception("matchmaking pass failed")
            passes += 1
            await asyncio.sleep(MATCH_INTERVAL)

    async def match_once(self) -> int:
        """Seat whoever can be seated now; returns the number of tables started."""
        started = 0
        for room_id, entry in self.rooms.items():
            if not entry.lobby.queue or not self._owns(room_id):
                continue
            for seating in entry.lobby.match(self.clock(), self._rng):
                try:
                    await self._open_table(entry, seating)
                except Exception as error:  # the database does not answer
                    self._not_seated(entry, seating, error)
                    continue
                started += 1
        return started

    def _not_seated(
        self, entry: _Room, seating: matchmaking.MatchedTable, error: Exception
    ) -> None:
        """A table that could not be opened (the database does not answer): its players
        are told why and leave the room, as from a table whose hand was refused (they were
        out of the queue, at no table: waiting for nothing)."""
        log.warning("room %s: no table, the database failed: %r", entry.room.id, error)
        entry.lobby.finish(seating, self.clock(), leaving=seating.humans)
        for pid in seating.humans:
            player = self.players.get(int(pid))
            if player is not None and player.room == entry.room.id and player.runner is None:
                refusal = protocol.error("database_unavailable", "the database does not answer")
                self.bus.publish(player.user, refusal)
                self._left(player)

    async def _open_table(self, entry: _Room, seating: matchmaking.MatchedTable) -> None:
        users = tuple(None if pid is None else int(pid) for pid in seating.seats)
        balances = await self.db.run(self._balances, users)
        rng = random.Random(secrets.randbits(64))  # the table's: its bots are drawn from it
        names = [self.players[user].name for user in users if user is not None]
        bots = iter(
            bot_seats(rng, min_coins=entry.room.min_coins, count=users.count(None), taken=names)
        )
        seats = [
            SeatInfo(_pid(user), self.players[user].name, balance)
            if user is not None
            else _bot_seat(next(bots))
            for user, balance in zip(users, balances, strict=True)
        ]
        runner = self.open_table(
            entry.room, users, seats, seated=_Seated(entry.room, entry, seating), rng=rng
        )
        for user in users:
            if user is not None and self.players[user].leaving:
                self._leave_early(runner, user, entry.room)

    def open_table(
        self,
        room: Room,
        users: tuple[int | None, ...],
        seats: Sequence[SeatInfo],
        *,
        terms: HandTerms | None = None,
        done: Callable[[TableRunner], None] | None = None,
        seated: _Seated | None = None,
        rng: random.Random | None = None,
    ) -> TableRunner:
        """Seat ``users`` (``None``: a bot) at a new table of ``room`` and start its task:
        a cash table (``seated``: its lobby regroups it), or a match's (``terms``: its
        rules and payout; ``done`` is called once its hand is over).  ``rng`` is the
        table's randomness (a fresh one when not given)."""
        table = Table(
            room,
            next(self._table_numbers),
            seats,
            now=self.clock(),
            bot_delay=self.bot_delay,
            deal_step=self.deal_step,
            entropy_window=self.entropy_window,
            rng=rng or random.Random(secrets.randbits(64)),
            terms=terms,
            bot_wait=None if self.bots is None else BOT_DEADLINE,
        )
        cash = seated is not None and seated.entry is not None
        runner = TableRunner(
            table,
            users,
            self.bus,
            clock=self.clock,
            start=self._start_hand,
            finish=self._end_hand,
            again=self._plays_on if cash else lambda runner: False,
            pause=self.hand_pause,
            bots=self.bots,
        )
        for user in users:
            if user is not None:
                self.players[user].runner = runner
        self.runners[runner] = seated or _Seated(room, done=done)
        runner.launch().add_done_callback(partial(self._runner_done, runner))
        for seat, user in enumerate(users):
            if user is not None and not self.bus.is_connected(user):
                runner.post(Presence(seat, False))  # left while his table was being set
        return runner

    def _balances(self, users: tuple[int | None, ...]) -> list[int]:
        """Each player's coins (0 for a bot: :func:`.botseats.bot_seats` draws its own)."""
        return [0 if user is None else self.db.store.balance(user) for user in users]

    async def _start_hand(self, runner: TableRunner) -> None:
        """Lease the table (several nodes), record the hand, deal it.

        :raises HandRefusedError: ``cluster_unavailable`` (no lease: Redis does not answer),
            ``database_unavailable`` (the hand could not be recorded): no hand.
        """
        try:
            if self.cluster is not None:  # no hand without the table's lease
                lease = await self.cluster.lease(self.cluster.table_resource(runner.table.number))
                self._fences[runner] = lease.fence
            await self._record_start(runner)
        except GameError as error:
            raise HandRefusedError(error.code, error.message) from None
        except Exception as error:  # the database does not answer
            number = runner.table.number
            log.warning("table %d: no hand, the database failed: %s", number, error)
            raise HandRefusedError("database_unavailable", "the database does not answer") from None

    async def _record_start(self, runner: TableRunner) -> None:
        """Record the hand, then start it at the table: what the table would refuse is
        refused before anything is recorded; a hand recorded (or perhaps recorded: the
        write failed) that the table did not start is voided, at once on a failure, by
        :meth:`stop` if the table is stopped meanwhile (:attr:`_unstarted`)."""
        seed = secrets.randbits(SEED_BITS)
        hand_id = new_hand_id()
        table = runner.table
        room = self.runners[runner].room
        table.check_start()
        for seat, user in enumerate(runner.users):
            if user is not None and table.hands_started == 0:  # seated: the table, no hand
                self.bus.publish(user, table.snapshot(seat))
        self._unstarted.add(hand_id)
        try:
            await self._starts.submit(
                HandStart(
                    id=hand_id,
                    room_id=room.id,
                    game=room.game,
                    rules=room.rules,
                    table=table.number,
                    commitment=commitment(seed),
                    players=runner.users,
                    started_at=_utcnow(),
                    node=None if self.cluster is None else self.cluster.node_id,
                ),
            )
        except asyncio.CancelledError:
            raise  # its table stopped: the stop voids it, whether the write landed or not
        except Exception:
            self._unstarted.discard(hand_id)
            self._void_soon(hand_id)  # its write failed, or seemed to: never left in play
            raise
        self._unstarted.discard(hand_id)
        try:
            table.start_hand(hand_id, seed, self.clock())
        except Exception:
            self._void_soon(hand_id)  # recorded, not dealt: never left in play
            raise

    async def _end_hand(self, runner: TableRunner) -> None:
        outcome = runner.table.outcome
        assert outcome is not None
        if outcome.voided:
            await self.db.run(self.db.store.void_hand, outcome.hand_id, _utcnow())
            return
        await self._settles.submit(settlement_of(outcome, self._fence(runner)))
        self.hands_settled += 1

    def _fence(self, runner: TableRunner) -> Fence | None:
        """The fence of the lease ``runner``'s hand was played under (several nodes; a
        lease lost meanwhile still gives its fence, which the store refuses if the table
        was leased again since)."""
        return self._fences.get(runner)

    def _leavers(self, runner: TableRunner, room: Room) -> list[Player]:
        """The players of ``runner``'s table who go once its hand is over: leaving, there
        for one hand, disconnected, or below the room's minimum."""
        seats = runner.table.seats
        return [
            self.players[user]
            for seat, user in enumerate(runner.users)
            if user is not None
            and (
                self.players[user].leaving
                or self.players[user].one_hand
                or not self.bus.is_connected(user)
                or seats[seat].balance < room.min_coins
            )
        ]

    def _plays_on(self, runner: TableRunner) -> bool:
        """Whether ``runner``'s table, its hand over, deals the next one to the same
        players (:meth:`~qipai.hall.matchmaking.Lobby.plays_on`)."""
        seated = self.runners[runner]
        assert seated.entry is not None and seated.seating is not None  # a cash table
        leaving = self._leavers(runner, seated.room)
        return seated.entry.lobby.plays_on(seated.seating, leaving=[_pid(p.user) for p in leaving])

    def _runner_done(self, runner: TableRunner, task: asyncio.Task[None]) -> None:
        seated = self.runners.pop(runner)
        self.bot_fallbacks += runner.table.unanswered
        self._fences.pop(runner, None)
        if self.cluster is not None:
            self.cluster.release_soon(self.cluster.table_resource(runner.table.number))
        refused = _refusal(task)
        if refused is not None:
            self._refused(runner, refused)
        elif task.cancelled() or task.exception() is not None:
            self._failed(runner, task)
        if seated.done is not None:
            self._match_table_done(runner, seated.done)
            return
        entry, seating = seated.entry, seated.seating
        assert entry is not None and seating is not None  # a cash table
        players = [self.players[user] for user in runner.users if user is not None]
        leaving = self._leavers(runner, entry.room)
        entry.lobby.finish(seating, self.clock(), leaving=[_pid(p.user) for p in leaving])
        for player in players:
            player.runner = None
            if player in leaving:
                self._left(player)
            else:
                self.bus.publish(player.user, Queued(room=entry.room.id))
            away = not self.bus.is_connected(player.user)
            self._keep_ending(player.user, runner, away)
            if away:
                self._forget(player.user)  # nothing else to keep for him

    def _match_table_done(self, runner: TableRunner, done: Callable[[TableRunner], None]) -> None:
        """A match table's hand is over: its players leave it (the match seats them
        again), then the match moves on."""
        for user in runner.users:
            player = None if user is None else self.players.get(user)
            if player is not None and player.runner is runner:
                player.runner = None
                self._keep_ending(player.user, runner, not self.bus.is_connected(player.user))
        if not (runner.task is not None and runner.task.cancelled()):
            done(runner)

    def _keep_ending(self, user: int, runner: TableRunner, away: bool) -> None:
        """Keep how ``user``'s hand at ``runner`` ended: for when he comes back if he is
        ``away``, else in case his connection was already dead (:class:`RecentEndings`)."""
        table, task = runner.table, runner.task
        failed = task is not None and task.done() and (task.cancelled() or task.exception())
        if table.outcome is None or failed:  # no hand, or voided: no result to show
            return
        ending = table.ending(runner.seat_of(user))
        if away:
            self.missed.keep(user, ending)
        # noted here too: a connection may be dead before anybody knows, and kept frames
        # may still be on their way to Redis when he comes back (resume shows it once)
        self.recent.note(user, ending)

    def _refused(self, runner: TableRunner, error: GameError) -> None:
        """A table that could not start its hand (Redis or the database does not answer):
        its players are told why, and leave the room (nothing was staked)."""
        log.warning("table %d: hand refused: %s", runner.table.number, error.message)
        for user in runner.users:
            player = None if user is None else self.players.get(user)
            if player is not None and player.runner is runner:
                self.bus.publish(player.user, protocol.error(error.code, error.message))
                player.leaving = True

    def _failed(self, runner: TableRunner, task: asyncio.Task[None]) -> None:
        """A table that stopped without settling: its hand is voided, its players told."""
        hand_id = runner.table.hand_id
        if not task.cancelled():
            log.error("table %s failed", runner.table.number, exc_info=task.exception())
        if hand_id is None:
            return
        frame = voided_frame(hand_id, runner.table.number, "table_failed")
        for user in runner.users:
            if user is not None and self.bus.is_connected(user):
                self.bus.publish(user, frame)
            elif user is not None:  # away: told when he comes back (not its hand_over)
                self.missed.keep(user, [frame])
        if not task.cancelled():
            self._void_soon(hand_id)

    def _void_soon(self, hand_id: str) -> None:
        """:meth:`_void_until_done` in a task of its own."""
        task = asyncio.get_running_loop().create_task(self._void_until_done(hand_id))
        self._voiding.add(task)
        task.add_done_callback(self._voiding.discard)

    async def _void_until_done(self, hand_id: str) -> None:
        """Void ``hand_id``, again every :data:`VOID_RETRY` seconds while the database
        does not answer (a hand never stays in play: its stakes are where they were)."""
        while True:
            try:
                await self.db.run(self.db.store.void_hand, hand_id, _utcnow())
                return
            except Exception as error:
                log.warning("could not void hand %s yet: %s", hand_id, error)
            await asyncio.sleep(VOID_RETRY)


class HandRefusedError(IllegalActionError):
    """A table could not start its hand: nothing was dealt or staked."""


def _refusal(task: asyncio.Task[None]) -> HandRefusedError | None:
    """The refusal that ended ``task`` before its hand started, if that is what did."""
    if task.cancelled():
        return None
    error = task.exception()
    return error if isinstance(error, HandRefusedError) else None


def _catch_up(runner: TableRunner, user: int, last: dict[str, int]) -> list[OutFrame]:
    """What ``user`` missed at ``runner``'s table: the frames after the event number his
    client last had (``last``), else a snapshot, or once the hand is over how it ended
    (the snapshot's view alone does not show the result)."""
    table, seat = runner.table, runner.seat_of(user)
    seen = last.get(str(table.number))
    frames = None if seen is None else table.frames_since(seat, seen)
    if frames is not None:
        return frames
    return table.ending(seat) if table.is_over else [table.snapshot(seat)]


def warm_up() -> None:
    """Build every game's tables now (:meth:`~qipai.registry.GameType.warm_up`), not
    in the first player's turn."""
    for name in game_names():
        game_type(name).warm_up()


def voided_frame(hand_id: str, table: int, reason: str) -> HandVoided:
    """The frame telling a player that his hand was voided: cancelled, no coin moved (the
    stakes are only taken at settlement), ``reason`` ``restart`` (the hall stopped during
    the hand) or ``table_failed``."""
    return HandVoided(hand=hand_id, table=table, reason=reason)


def _runner_of(player: Player) -> TableRunner:
    """The runner of the player's table.

    :raises IllegalActionError: ``not_seated``.
    """
    if player.runner is None:
        raise IllegalActionError("not_seated", "not at a table")
    return player.runner


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
        fence=fence,
    )


def new_hand_id() -> str:
    """A unique, time-ordered hand id: 13 hex digits of microseconds, 6 random."""
    return f"{time.time_ns() // 1000:013x}{secrets.token_hex(3)}"


async def _no_notices(user: int) -> list[OutFrame]:
    """A hall without matches keeps no notices."""
    del user
    return []


def _bot_seat(bot: BotSeat) -> SeatInfo:
    return SeatInfo(None, bot.name, bot.balance)


def _pid(user: int) -> str:
    return str(user)


def _utcnow() -> datetime:
    return datetime.now(UTC)
