"""The running hall: the live hall's core (:mod:`qipai.hall.core`) behind its executor.

:class:`HallService` is what the connections talk to.  Each client message becomes a
command of :mod:`qipai.hall.commands`, handled by the pure
:class:`~qipai.hall.core.HallCore` (its rooms, queues, tables and players) through the
:class:`~.executor.Executor`, which carries out the effects: frames, the store's writes
(every hand written before it is dealt and settled in one transaction when it ends; a
hand still marked in play when the process starts is voided: 本局游戏将自动取消，输赢
结果无效), timers, the cluster's leases.  What the core needs from the world is read here
first and sent in the command: a player's balance, whether he is in a match, whether this
node owns the room.  A matchmaking pass runs every :data:`MATCH_INTERVAL`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Protocol

from qipai.errors import GameError, IllegalActionError
from qipai.hall import commands as c
from qipai.hall.cash import headcounts
from qipai.hall.cash.rooms import CashRoom
from qipai.hall.core import ENTROPY_WINDOW, HAND_PAUSE, HallCore
from qipai.hall.frames import OutFrame
from qipai.hall.notices import voided
from qipai.hall.players import Player
from qipai.hall.private.options import PrivateSettings
from qipai.hall.rooms import Room
from qipai.hall.table.summary import TableSummary
from qipai.hall.table.table import DEAL_STEP_SECONDS
from qipai.hall.watch.settings import WatchSettings
from qipai.jsontypes import Json
from qipai.registry import game_names, game_type
from qipai.server.run.node import ClusterNode

from .bots import BOT_DEADLINE, BotPool
from .bus import Bus
from .database import Database
from .executor import Executor, fresh_bits
from .matchsteps import MatchSteps
from .metrics import Histogram
from .missed import KeptHere, KeptInRedis, MissedFrames, RecentEndings
from .places import Places
from .privatenodes import ALONE, reopen

__all__ = ["ENTROPY_WINDOW", "HAND_PAUSE", "Database", "HallService", "Player"]

log = logging.getLogger(__name__)

MATCH_INTERVAL = 0.1
"""Seconds between two matchmaking passes."""
HOUSEKEEPING_PASSES = 36_000
"""Matchmaking passes between two purges of expired sessions (an hour)."""


class Cuttable(Protocol):
    """A connection the hall may close."""

    @property
    def user_id(self) -> int | None:
        """Whose connection it is (``None``: not signed in yet)."""
        ...

    def cut(self) -> None:
        """Close it (its client connects again)."""
        ...

    def end_session(self, cause: str, why: str) -> None:
        """Close it for good: an operator ended its session (``cause``: ``ban``,
        ``password``, ``deleted``); the client is told ``why``."""
        ...


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
        private: PrivateSettings | None = None,
        watch: WatchSettings | None = None,
        notices: Callable[[int], Awaitable[list[OutFrame]]] | None = None,
    ) -> None:
        self.db = db
        self.bots = bots
        """Where bots decide (``--bot-workers``); ``None``: in the tables' ticks."""
        self.bus = bus
        self.cluster = cluster
        """This process as a node of several (``--redis``): table leases, fences."""
        self.clock = clock
        self.core = HallCore(
            rooms, fresh=fresh_bits, bot_delay=bot_delay, deal_step=deal_step,
            entropy_window=entropy_window, hand_pause=hand_pause,
            bot_wait=None if bots is None else BOT_DEADLINE, private=private, watch=watch,
        )  # fmt: skip
        """The live hall's rules and state."""
        self.places = Places(cluster, self.holds)
        """One place per player (:mod:`.places`): his lock, and his claim in the cluster."""
        self.notices = _no_notices if notices is None else notices
        """What a user is told when he connects beyond :attr:`missed`: the ends of his
        matches he was away for (:func:`~qipai.server.run.matches.untold`: kept in the
        database)."""
        self.recent = RecentEndings()
        """How each connected player's last hand ended, for a client that comes back
        without having had it (:mod:`.missed`)."""
        self.missed: MissedFrames = (
            KeptHere(clock) if cluster is None else KeptInRedis(cluster.players)
        )
        """How the hand ended for each player who was away then, and other frames for the
        absent (:mod:`.missed`): sent when he returns.  A node of a cluster keeps them in
        Redis."""
        steps = MatchSteps(self.core, db, bus, clock=clock, cluster=cluster)
        self.executor = Executor(
            self.core, db, bus, places=self.places, recent=self.recent,
            missed=lambda: self.missed, clock=clock, cluster=cluster, bots=bots, steps=steps,
        )  # fmt: skip
        """Carries out what the core asks."""
        self._matcher: asyncio.Task[None] | None = None
        self.connections = 0
        """Open WebSocket connections (signed in)."""
        self.message_seconds = Histogram(
            "qipai_message_seconds",
            "Time from a client message read to its answer (ack, error or reply) queued.",
        )
        """How long the client messages take here (``/metrics``)."""
        self.sockets: set[Cuttable] = set()
        """Those connections, to be cut when this node was taken over while away."""

    @property
    def rooms(self) -> dict[str, CashRoom]:
        """The rooms, by id."""
        return self.core.cash.rooms

    @property
    def players(self) -> dict[int, Player]:
        """The players held here, by user id."""
        return self.core.players

    @property
    def tables(self) -> int:
        """How many tables are in play here."""
        return len(self.core.flow.tables)

    @property
    def bot_fallbacks(self) -> int:
        """Bots' moves the basic 托管 played, no answer having come in time (tables ended)."""
        return self.core.flow.bot_fallbacks

    @property
    def hands_settled(self) -> int:
        """Hands settled here."""
        return self.executor.hands_settled

    @property
    def settle_transactions(self) -> int:
        """Database transactions that settled hands (fewer than hands under load)."""
        return self.executor.settle_transactions

    # --- life ---------------------------------------------------------------------------

    async def start(self) -> list[str]:
        """Void the hands a previous process left in play, open again the private tables
        it left open (:func:`.privatenodes.reopen`), build the move tables, then start
        matchmaking."""
        await asyncio.to_thread(warm_up)
        node = None if self.cluster is None else self.cluster.node_id
        voided = await self.db.run(self.db.store.void_interrupted, _utcnow(), node)
        if voided:
            log.warning("voided %d hands interrupted by the last shutdown", len(voided))
            await self._tell_voided(voided)
        await reopen(self, ALONE if node is None else node)  # its private tables, if any
        self._matcher = asyncio.get_running_loop().create_task(self._match_forever())
        return voided

    async def recover(self, node: str) -> list[str]:
        """Void the hands ``node`` (another process of the hall, which stopped) left in
        play, and keep the ``hand_voided`` frames for its players (reason ``restart``);
        open its private tables here (:func:`.privatenodes.reopen`)."""
        voided = await self.db.run(self.db.store.void_interrupted, _utcnow(), node)
        if voided:
            log.warning("voided %d hands of node %s, which stopped", len(voided), node)
            await self._tell_voided(voided)
            await self.missed.flush()  # stored before the node is forgotten (and left)
        await reopen(self, node)  # its private tables open here from now on
        return voided

    async def _tell_voided(self, hand_ids: list[str]) -> None:
        """Keep, for each player of the hands voided at start, a ``hand_voided`` frame
        (reason ``restart``) for when he comes back: no coin moved."""
        for seat in await self.db.run(self.db.store.voided_players, hand_ids):
            self.missed.keep(seat.user_id, [voided(seat.hand_id, seat.table, "restart")])

    async def stop(self) -> None:
        """Stop matchmaking and the tables, and void the hands they were playing (a hand
        is never left half-played: its stakes stay where they were)."""
        if self._matcher is not None:
            self._matcher.cancel()
        voided = await self.executor.stop()
        if self.cluster is not None:  # no next start of this node to tell them
            await self._tell_voided(voided)
            await self.missed.flush()

    async def abandon(self) -> None:
        """This node was taken over while away (paused, cut off): its hands were voided
        and its players told; cut its connections (their clients connect again, to nodes
        that know where their players are), drop its tables, queues and players."""
        for socket in list(self.sockets):
            socket.cut()
        await self.executor.stop(forget=True)

    def live_tables(self) -> list[TableSummary]:
        """The tables in play on this process, as the operator's console lists them."""
        return self.core.tables()

    def close_table(self, number: int, reason: str) -> None:
        """An operator closes table ``number`` here: its hand voided, its players told
        ``reason``.

        :raises IllegalActionError: ``unknown_table``.
        """
        self.executor.run(c.CloseTable(number, reason))

    def end_sessions(self, user: int, cause: str, why: str) -> int:
        """Close every connection of ``user`` on this process (an operator ended his
        sessions: ``cause`` ``ban``, ``password`` or ``deleted``); how many there were."""
        ended = [socket for socket in self.sockets if socket.user_id == user]
        for socket in ended:
            socket.end_session(cause, why)
        return len(ended)

    def _owns(self, room_id: str) -> bool:
        """Whether this process seats ``room_id``'s players (always, alone)."""
        return self.cluster is None or self.cluster.owns(room_id)

    # --- players ------------------------------------------------------------------------

    def player(self, user: int, name: str) -> Player:
        """The hall's record of ``user`` (created on first sight)."""
        return self.core.player(user, name, connected=self.bus.is_connected(user))

    def holds(self, user: int) -> bool:
        """Whether ``user`` has a place here that holds him (:mod:`qipai.hall.place`): a
        room (its queue or a table), a private table, a match (registered or playing)."""
        place = self.core.place_of(user)
        return place is not None and place.is_seat

    async def join(self, player: Player, room_id: str, *, once: bool = False) -> None:
        """Queue ``player`` in a room; ``once``: for one hand (:meth:`take_place`).

        :raises InvalidActionError: ``unknown_room``.
        :raises IllegalActionError: ``already_in_room`` (here, or on another node),
            ``in_match``, ``not_enough_coins``, ``cluster_unavailable``.
        """
        cash = self.core.cash
        cash.entry(room_id)

        def check(balance: int) -> None:
            if not self._owns(room_id):
                moved = f"room {room_id!r} moved: try again"
                raise IllegalActionError("cluster_unavailable", moved)
            cash.check_join(player, room_id, balance)

        user = player.user
        await self.take_place(player, lambda coins: c.Join(user, room_id, coins, once), check)

    async def take_place(
        self,
        player: Player,
        command: Callable[[int], c.Command],
        check: Callable[[int], None] | None = None,
    ) -> None:
        """Run ``command(coins)``, the player's balance read first, with his place taken:
        under his lock, refused while he holds one (the core's rule, asked before the
        store is read), ``check(coins)`` passed, his claim taken in the cluster (his
        messages come here, from any node), given back if the core refuses and he holds
        nothing here.

        :raises IllegalActionError: ``in_match``, ``already_in_room``, ``not_connected``
            (his connection closed meanwhile), ``check``'s or the core's refusal.
        """
        user = player.user
        async with self.places.lock(user):
            self.core.check_free(user)
            coins = await self.db.run(self.db.store.balance, user)
            if check is not None:
                check(coins)
            await self.places.claim(user)
            try:
                if self.players.get(user) is not player:  # gone meanwhile: nobody to seat
                    raise IllegalActionError("not_connected", "the connection closed")
                self.executor.run(command(coins))
            except GameError:
                if not self.core.holds(user):
                    await self.places.release(user)
                raise

    def resume(
        self, player: Player, last: dict[str, int], missed: list[OutFrame]
    ) -> list[OutFrame]:
        """Frames that bring a returning player's view up to date: ``missed`` (what was
        kept for him), then where he is; :meth:`present` once his connection is subscribed.

        Called synchronously, before the player's new connection subscribes, so that no
        frame is lost or doubled between the two.
        """
        frames = list(self.executor.run(c.Resume(player.user, tuple(last.items()))))
        if self.core.table_of(player.user) is not None:
            return missed + frames
        self.recent.forget_if_in(player.user, missed)  # told now: never again
        return missed + self.recent.unseen(player.user, last) + frames

    def present(self, player: Player) -> None:
        """The player's new connection is subscribed: his table sees him back."""
        self.executor.run(c.Presence(player.user, True))

    def disconnected(self, player: Player) -> None:
        """The player's last connection closed: 托管 at his table, or out of the queue."""
        self.executor.run(c.Presence(player.user, False))

    def room_idle(self, room_id: str) -> bool:
        """Whether nobody waits or plays in ``room_id`` here (it may move to another node)."""
        return self.core.cash.room_idle(room_id)

    def online(self) -> dict[str, Json]:
        """Who is in the hall (:mod:`qipai.hall.cash.headcounts`): people and bots, in all and
        per room; in a cluster the other nodes as they said at their last beat."""
        if self.cluster is None:
            return self.online_here()
        said = self.cluster.said.items()
        others = [s.get("online") for node, s in sorted(said) if node != self.cluster.node_id]
        return headcounts.merged(self.online_here(), others)

    def online_by_node(self, alone: str) -> dict[str, Json]:
        """Who is in the hall, node by node (the console; ``alone`` names a hall of one
        process): this node now, the others as they said at their last beat."""
        if self.cluster is None:
            return {alone: self.online_here()}
        said = {node: s.get("online") for node, s in self.cluster.said.items()}
        return {**said, self.cluster.node_id: self.online_here()}

    def online_here(self) -> dict[str, Json]:
        """Who is in this process's rooms and tables."""
        core = self.core
        return headcounts.here(core.players, core.flow.tables, core.cash, self._owns)

    # --- tables -------------------------------------------------------------------------

    async def _match_forever(self) -> None:
        passes = 0
        while True:
            try:
                self.match_once()
                if passes % HOUSEKEEPING_PASSES == 0:
                    await self.db.run(self.db.store.delete_expired_sessions, _utcnow())
            except Exception:  # a bug in one pass must not stop the hall
                log.exception("matchmaking pass failed")
            passes += 1
            await asyncio.sleep(MATCH_INTERVAL)

    def match_once(self) -> None:
        """Seat whoever can be seated now (their balances are read, then tables open)."""
        owned = frozenset(room for room in self.rooms if self._owns(room))
        self.executor.run(c.Matchmake(owned))


def warm_up() -> None:
    """Build every game's tables now, not in the first player's turn."""
    for name in game_names():
        game_type(name).warm_up()


async def _no_notices(user: int) -> list[OutFrame]:
    """A hall without matches keeps no notices."""
    del user
    return []


def _utcnow() -> datetime:
    return datetime.now(UTC)
