"""The ASGI application: the HTTP JSON API, the WebSocket endpoint, and the hall's life.

:func:`create_app` builds a Starlette app from a :class:`ServerConfig`.  On start it opens
the store (creating and migrating the database), voids the hands a crash interrupted, and
starts matchmaking; ``GET /healthz`` answers 200 from then on.  The routes, listed in
``docs/protocol.md``, are :mod:`.routes`'s (:func:`~.routes.http_routes`), over the running
hall's :class:`~.endpoints.Services` built here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware

from qipai.cluster.buckets import HallBuckets, RedisBuckets
from qipai.errors import IllegalActionError
from qipai.hall.economy.settings import EconomySettings, default_economy
from qipai.hall.match.config import MatchConfig, default_matches
from qipai.hall.private.options import PrivateSettings
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import DEAL_STEP_SECONDS
from qipai.hall.watch.settings import WatchSettings
from qipai.server.run.bots import BotPool
from qipai.server.run.bus import LocalBus
from qipai.server.run.hall import ENTROPY_WINDOW, HAND_PAUSE, Database, HallService
from qipai.server.run.heap import freeze_start_up_heap
from qipai.server.run.matches import MatchHall, untold
from qipai.server.run.node import ClusterNode
from qipai.store import Store

from .accounts import Accounts
from .auth import Passwords
from .endpoints import Services
from .gateway import Gateway
from .headers import SecurityHeaders
from .limits import Gate, HashGate, Limits, MemoryBuckets
from .logs import quiet_client_noise
from .routes import http_routes
from .socialnodes import node_handlers

log = logging.getLogger(__name__)



@dataclass(frozen=True)
class ServerConfig:
    """Everything ``qipai serve`` decides."""

    db_url: str | None = None
    """The database URL; ``None``: SQLite in the user's data folder."""
    rooms: tuple[Room, ...] = field(default_factory=default_rooms)
    """The rooms (the shipped defaults unless a config file names others)."""
    private: PrivateSettings = field(default_factory=PrivateSettings)
    """The rules for private tables 好友房 (the rooms file's ``[private]``)."""
    bot_delay: float = 1.0
    """Seconds a bot takes to act (0 in tests and load runs)."""
    deal_step: float = DEAL_STEP_SECONDS
    """Seconds between the steps of a paced deal (明牌 windows)."""
    hand_pause: float = HAND_PAUSE
    """Seconds between two hands of a table that plays on (a room with ``regroup =
    false``)."""
    entropy_window: float = ENTROPY_WINDOW
    """The longest a hand waits for its players' entropy before it is dealt (0: no
    entropy, dealt at once from the house seed alone; ``docs/records.md``)."""
    passwords: Passwords = field(default_factory=Passwords)
    """Password hashing and session lifetime."""
    limits: Limits = field(default_factory=Limits)
    """Sign-ins, new accounts and guests per address and per name, and password hashes in
    flight (``docs/operations.md``, "Limits on accounts"); ``Limits.off()`` for load runs."""
    watch: WatchSettings = field(default_factory=WatchSettings)
    """The rules for spectators 观战 (the rooms file's ``[watch]``)."""
    matches: tuple[MatchConfig, ...] = field(default_factory=default_matches)
    """The matches (the shipped ones unless ``--matches`` names a file)."""
    redis_url: str | None = None
    """The Redis shared with the hall's other processes (``--redis``); ``None``: alone."""
    node_id: str | None = None
    """This process's id among them (``--node-id``; default: host name and process id)."""
    redis_prefix: str = "qipai"
    """The prefix of the hall's keys in Redis (``--redis-prefix``: several halls, or
    tests, sharing one Redis)."""
    bot_workers: int = 0
    """Worker processes where bots decide (``--bot-workers``; ``qipai serve`` sizes them
    from the machine); 0: inside the tables' ticks, on the event loop (``docs/bots.md``)."""
    economy: EconomySettings = field(default_factory=default_economy)
    """The economy 福利: check-ins, relief, daily tasks (the rooms file's ``[economy]``)."""
    freeze_heap: bool = False
    """Once started, keep the heap built so far (modules, rooms, move tables) out of the
    garbage collector's passes (:mod:`qipai.server.run.heap`; ``qipai serve`` does, a
    test's in-process hall does not)."""


def _cluster_node(config: ServerConfig) -> ClusterNode | None:
    """This process as a node of the hall's cluster (started once the hall is); ``None``
    alone."""
    if config.redis_url is None:
        return None
    node_id = config.node_id or f"{socket.gethostname()}-{os.getpid()}"
    cluster = ClusterNode.connect(config.redis_url, node_id, prefix=config.redis_prefix)
    cluster.rooms = tuple(room.id for room in config.rooms)
    return cluster


def _gate(config: ServerConfig, cluster: ClusterNode | None) -> Gate:
    """The hall's limits, counted in this process's memory, or, on a node of a cluster,
    in the hall's Redis (in this node's memory while Redis does not answer)."""
    alone = MemoryBuckets(max_keys=config.limits.max_keys)
    if cluster is None:
        return Gate(config.limits, alone)
    shared = RedisBuckets(cluster.redis, prefix=config.redis_prefix)
    return Gate(config.limits, HallBuckets(shared, alone))


def _cluster_gateway(
    cluster: ClusterNode | None, hall: HallService, matches: MatchHall
) -> Gateway | None:
    """Wire the hall into its cluster (a node of several): its rooms, its kept frames in
    Redis, the matches when this node takes them, what to do when a node stops; the
    gateway to players held elsewhere."""
    if cluster is None:
        return None

    async def taken_over() -> None:
        await matches.stop()
        await hall.abandon()

    cluster.info = lambda: {
        "tables": hall.tables, "players": len(hall.players), "online": hall.online_here()
    }  # fmt: skip
    cluster.on_stopped = hall.recover
    cluster.on_taken_over = taken_over
    cluster.on_matches = matches.start
    cluster.room_idle = hall.room_idle
    cluster.private_codes = hall.core.private.tables.keys
    gateway = Gateway(hall, cluster, node_handlers(hall))  # friends: presence, invitations
    gateway.matches = matches
    matches.steps.hold = gateway.hold_here
    return gateway


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The hall as an ASGI app."""
    config = config or ServerConfig()
    services: dict[str, Services] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        quiet_client_noise()
        store = Store.open(config.db_url)
        db = Database(store)
        cluster = _cluster_node(config)
        bots = BotPool(config.bot_workers) if config.bot_workers > 0 else None
        hall = HallService(
            db,
            config.rooms,
            LocalBus(),
            bot_delay=config.bot_delay,
            deal_step=config.deal_step,
            hand_pause=config.hand_pause,
            entropy_window=config.entropy_window,
            cluster=cluster,
            bots=bots,
            private=config.private,
            watch=config.watch,
            notices=functools.partial(untold, db),
        )
        matches = MatchHall(hall, config.matches)
        gateway = _cluster_gateway(cluster, hall, matches)
        await hall.start()  # its own hands left in play voided first
        if cluster is None:
            await matches.start()
        else:  # it beats, takes its rooms, and the matches if they fall to it
            await cluster.start()
        if config.freeze_heap:
            log.info("heap frozen after start-up: %d objects", freeze_start_up_heap())
        hashing = HashGate(config.limits.hash_slots, config.limits.hash_waiting)
        accounts = Accounts(db, config.passwords, hashing=hashing)
        services["live"] = Services(
            db, hall, accounts, _gate(config, cluster), matches, gateway, config.economy
        )
        app.state.hall = hall
        app.state.matches = matches
        app.state.gateway = gateway
        try:
            yield
        finally:
            services.clear()
            try:
                await matches.stop()
                await hall.stop()
            finally:
                if cluster is not None:  # its private tables open: taken over by another
                    await cluster.stop(leave=not hall.core.private.tables)
                db.close()
                store.close()
                if bots is not None:
                    await asyncio.to_thread(bots.close)

    def live() -> Services:
        found = services.get("live")
        if found is None:
            raise IllegalActionError("not_ready", "the hall is starting")
        return found

    routes = http_routes(live)
    # HTTP answers over 1 KiB are gzipped for clients that accept it (the page's modules,
    # a replay's tens of KiB of JSON shrink 2-3× and 30-40×); the WebSocket is left alone
    middleware = [Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=1024)]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
