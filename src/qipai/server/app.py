"""The ASGI application: the HTTP JSON API, the WebSocket endpoint, and the hall's life.

:func:`create_app` builds a Starlette app from a :class:`ServerConfig`.  On start it opens
the store (creating and migrating the database), voids the hands a crash interrupted, and
starts matchmaking; ``GET /healthz`` answers 200 from then on.  The routes are listed in
``docs/protocol.md``; every error is ``{"error": CODE, "message": TEXT}`` with a 4xx status
(a refusal by the limits of :mod:`.limits`: ``429``, or ``503 busy``, with ``retry_after``
and ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from qipai.cluster.buckets import HallBuckets, RedisBuckets
from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall.levels import level_for
from qipai.hall.match.config import MatchConfig, default_matches
from qipai.hall.match.requests import ListMatches, MatchRequest, Register, Standings, Unregister
from qipai.hall.private.options import PrivateSettings
from qipai.hall.records import HandRecord, verify
from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.table import DEAL_STEP_SECONDS
from qipai.hall.watch.replays import replay_json
from qipai.hall.watch.spectators import WatchSettings
from qipai.jsontypes import Json
from qipai.registry import Payout
from qipai.store import MatchResultRow, Store

from .accounts import Accounts, Session, SignedIn
from .answers import (
    ErrorAnswer,
    HandAnswer,
    HistoryAnswer,
    JsonAnswer,
    LeaderAnswer,
    LevelAnswer,
    MatchResult,
    Me,
    Ok,
    Readiness,
    RoomAnswer,
    SessionAnswer,
    SessionUser,
    Stats,
    from_row,
)
from .auth import Passwords
from .bots import BotPool
from .bus import LocalBus
from .cluster import ClusterNode
from .connection import PlayerSocket
from .gateway import Gateway
from .hall import ENTROPY_WINDOW, HAND_PAUSE, Database, HallService
from .headers import SecurityHeaders
from .heap import freeze_start_up_heap
from .limits import BusyError, Gate, HashGate, Limits, MemoryBuckets, RateLimitedError
from .logs import quiet_client_noise
from .matches import MatchHall, untold
from .metrics import CONTENT_TYPE, Metric, prometheus_text
from .params import ascii_number, check_params, int_param
from .privates import private_info, private_result

log = logging.getLogger(__name__)

MAX_BODY = 4096
"""Largest request body accepted by the JSON API."""
REPLAYS_CACHED = 128
"""Replays kept built (per hand and seat), the most recently asked for."""


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
    freeze_heap: bool = False
    """Once started, keep the heap built so far (modules, rooms, move tables) out of the
    garbage collector's passes (:mod:`.heap`; ``qipai serve`` does, a test's in-process
    hall does not)."""


@dataclass
class _Services:
    db: Database
    hall: HallService
    accounts: Accounts
    gate: Gate
    matches: MatchHall
    gateway: Gateway | None = None


Endpoint = Callable[[Request], Awaitable[Response]]


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
    gateway = Gateway(hall, cluster)
    gateway.matches = matches
    matches.steps.hold = gateway.hold_here
    return gateway


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The hall as an ASGI app."""
    config = config or ServerConfig()
    services: dict[str, _Services] = {}

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
        services["live"] = _Services(db, hall, accounts, _gate(config, cluster), matches, gateway)
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

    def live() -> _Services:
        found = services.get("live")
        if found is None:
            raise IllegalActionError("not_ready", "the hall is starting")
        return found

    routes = _routes(live)
    # HTTP answers over 1 KiB are gzipped for clients that accept it (the page's modules,
    # a replay's tens of KiB of JSON shrink 2-3× and 30-40×); the WebSocket is left alone
    middleware = [Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=1024)]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


def _routes(live: Callable[[], _Services]) -> list[Route | WebSocketRoute | Mount]:
    async def register(request: Request) -> Response:
        return _session(await _register(live(), request))

    async def sign_in(request: Request) -> Response:
        return _session(await _sign_in(live(), request))

    async def guest(request: Request) -> Response:
        services = live()
        await services.gate.guest(_address(request))
        return _session(await services.accounts.guest())

    async def sign_out(request: Request) -> Response:
        await live().accounts.sign_out(_token(request))
        return JsonAnswer(Ok(ok=True))

    async def me(request: Request) -> Response:
        user = await _user(live(), request)
        profile = await live().db.run(live().db.store.profile, user.id)
        level = level_for(profile.wins)
        rank = LevelAnswer(title=level.title, rank=level.rank, next_wins=level.next_wins)
        return JsonAnswer(
            Me(
                id=profile.id,
                name=profile.name,
                coins=profile.coins,
                points=profile.points,
                hands=profile.hands,
                wins=profile.wins,
                level=rank,
            )
        )

    async def rooms(request: Request) -> Response:
        return JsonAnswer([_room_answer(entry.room) for entry in live().hall.rooms.values()])

    async def online(request: Request) -> Response:
        return JsonAnswer(live().hall.online())

    async def history(request: Request) -> Response:
        user = await _user(live(), request)
        limit = int_param(request, "limit", 50, 1, 200)
        before = request.query_params.get("before")
        rows = await live().db.run(live().db.store.history, user.id, limit=limit, before=before)
        return JsonAnswer([from_row(row, HistoryAnswer) for row in rows])

    async def finished(hand_id: str) -> str:
        text = await live().db.run(live().db.store.hand_record, hand_id)
        if text is None:
            raise InvalidActionError("unknown_hand", f"no finished hand {hand_id!r}")
        return text

    async def hand(request: Request) -> Response:
        hand_id = request.path_params["hand"]
        text = await finished(hand_id)
        check = await asyncio.to_thread(verify, HandRecord.from_json(text))
        names = await live().db.run(live().db.store.hand_seats, hand_id)
        record: Json = json.loads(text)
        return JsonAnswer(
            HandAnswer(record=record, seats=names, verified=check.ok, reason=check.reason)
        )

    async def replay(request: Request) -> Response:
        text = await finished(request.path_params["hand"])
        seats = len(HandRecord.from_json(text).result)
        seat = int_param(request, "seat", 0, 0, seats - 1)
        body = await asyncio.to_thread(_replay_body, text, seat)
        return Response(body, media_type="application/json")

    async def leaderboard(request: Request) -> Response:
        by = request.query_params.get("by", "coins")
        limit = int_param(request, "limit", 20, 1, 100)
        rows = await live().db.run(live().db.store.leaderboard, by, limit=limit)
        return JsonAnswer([from_row(row, LeaderAnswer) for row in rows])

    async def stats(request: Request) -> Response:
        return JsonAnswer(_stats(live().hall))

    async def websocket(socket: WebSocket) -> None:
        services = _peek(live).get("live")
        if services is None:
            await socket.close(1013)
            return
        gate = services.gate
        await PlayerSocket(socket, services.hall, services.accounts, services.gateway, gate).serve()

    api = _api
    return [
        *_health_routes(live),
        api("/api/register", register, ["POST"]),
        api("/api/login", sign_in, ["POST"]),
        api("/api/guest", guest, ["POST"]),
        api("/api/logout", sign_out, ["POST"]),
        api("/api/me", me, ["GET"]),
        api("/api/rooms", rooms, ["GET"]),
        api("/api/rooms/online", online, ["GET"]),
        api("/api/history", history, ["GET"]),
        api("/api/hands/{hand}", hand, ["GET"]),
        api("/api/hands/{hand}/replay", replay, ["GET"]),
        api("/api/leaderboard", leaderboard, ["GET"]),
        api("/api/stats", stats, ["GET"]),
        *_match_routes(live),
        *_private_routes(live),
        api("/api/{rest:path}", _unknown_path, ["GET", "POST"]),  # the API answers in JSON
        WebSocketRoute("/ws", websocket),
        Mount("/", StaticFiles(packages=[("qipai.web", "static")], html=True), name="web"),
    ]


# The limits are asked before any work (before the body is even read, when the address is
# over its rate).  The client's address is the socket's peer, or the one uvicorn took from
# the X-Forwarded-For of a trusted proxy (its --forwarded-allow-ips).


async def _register(services: _Services, request: Request) -> Session:
    await services.gate.register(_address(request))
    body = await _body(request)
    return await services.accounts.register(body.get("name"), body.get("password"))


async def _sign_in(services: _Services, request: Request) -> Session:
    await services.gate.sign_in(_address(request))
    body = await _body(request)
    name = body.get("name")
    await services.gate.sign_in_name(name)  # a try spent, given back on success
    try:
        session = await services.accounts.sign_in(name, body.get("password"))
    except BusyError:
        await services.gate.not_tried(name)
        raise
    await services.gate.signed_in(name)
    return session


@functools.lru_cache(maxsize=REPLAYS_CACHED)
def _replay_body(record_text: str, seat: int) -> bytes:
    """The replay's JSON (a few ms to build, tens of KiB): the hands watched most are
    built once (a finished hand's record never changes)."""
    replay = replay_json(HandRecord.from_json(record_text), seat)
    return json.dumps(replay, ensure_ascii=False, separators=(",", ":")).encode()


def _peek(live: Callable[[], _Services]) -> dict[str, _Services]:
    try:
        return {"live": live()}
    except GameError:
        return {}


_STATUS = {
    "bad_token": 401,
    "bad_credentials": 401,
    "not_ready": 503,
    "unknown_hand": 404,
    "unknown_code": 404,
    "unknown_path": 404,
}


async def _unknown_path(request: Request) -> Response:
    """Every other path under ``/api``: a JSON error like every answer of the API (not the
    static files' plain-text 404)."""
    raise InvalidActionError("unknown_path", f"no API endpoint {request.url.path!r}")


def _errors_as_json(endpoint: Endpoint) -> Endpoint:
    async def guarded(request: Request) -> Response:
        try:
            check_params(request)
            return await endpoint(request)
        except (RateLimitedError, BusyError) as error:
            status = 429 if isinstance(error, RateLimitedError) else 503
            body = ErrorAnswer(
                error=error.code, message=error.message, retry_after=error.retry_after
            )
            return JsonAnswer(body, status, headers={"Retry-After": str(error.retry_after)})
        except GameError as error:
            status = _STATUS.get(error.code, 400 if isinstance(error, InvalidActionError) else 409)
            return JsonAnswer(ErrorAnswer(error=error.code, message=error.message), status)
        except ClientDisconnect:  # the body cut off: a line, no traceback, no answer read
            where = f"{request.method} {request.url.path} from {_address(request)}"
            log.info("%s: the client left before the end of its body", where)
            return Response(status_code=400)

    return guarded


async def _body(request: Request) -> dict[str, Json]:
    too_large = InvalidActionError("too_large", f"a request body is at most {MAX_BODY} bytes")
    declared = ascii_number(request.headers.get("content-length", "0"))
    if declared is None or declared > MAX_BODY:
        raise too_large  # refused before reading: nobody makes the hall buffer a huge body
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise too_large
    try:
        body: Json = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested thousands deep
        raise InvalidActionError("bad_json", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise InvalidActionError("bad_json", "the body is a JSON object")
    return body


def _address(request: Request) -> str | None:
    """The client's address (``None``: unknown, e.g. a Unix socket)."""
    return request.client.host if request.client is not None else None


def _token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise IllegalActionError("bad_token", "send Authorization: Bearer TOKEN")
    return token.strip()


def _match_routes(live: Callable[[], _Services]) -> list[Route]:
    """The matches' API: the list, register / unregister, a run's standings (answered by
    the node that holds the matches, in a cluster)."""

    def asking(ask: Callable[[Request], MatchRequest], signed_in: bool) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            services = live()
            user = await (_user if signed_in else _maybe_user)(services, request)
            user_id, name = (None, "") if user is None else (user.id, user.name)
            asked = ask(request)
            if services.gateway is None:
                answer = await services.matches.serve(asked, user_id, name)
            else:
                answer = await services.gateway.ask_matches(asked, user_id, name)
            return JsonAnswer(answer)

        return endpoint

    async def results(request: Request) -> Response:
        """战绩 of matches: every run the player played, with his rank and prize."""
        user = await _user(live(), request)
        limit = int_param(request, "limit", 50, 1, 200)
        rows = await live().db.run(live().db.store.match_results, user.id, limit=limit)
        titles = {match.id: match.name for match in live().matches.matches}
        return JsonAnswer([_match_result(row, titles) for row in rows])

    return [
        _api("/api/me/matches", results, ["GET"]),
        _api("/api/matches", asking(lambda _: ListMatches(), False), ["GET"]),
        _api(
            "/api/matches/{match}/register",
            asking(lambda r: Register(r.path_params["match"]), True),
            ["POST"],
        ),
        _api(
            "/api/matches/{match}/unregister",
            asking(lambda r: Unregister(r.path_params["match"]), True),
            ["POST"],
        ),
        _api("/api/runs/{run}", asking(lambda r: Standings(r.path_params["run"]), False), ["GET"]),
    ]


def _private_routes(live: Callable[[], _Services]) -> list[Route]:
    """Private tables 好友房: one by its code (its tries limited like ``private_join``), and
    the player's closed ones (战绩)."""

    async def private_table(request: Request) -> Response:
        services = live()
        user = await _maybe_user(services, request)
        user_id = None if user is None else user.id
        await services.gate.code_try(_address(request), user_id)
        code = request.path_params["code"]
        gateway = services.gateway  # a node of several: asked of the table's node
        info = await (
            private_info(services.hall, code) if gateway is None else gateway.private_info(code)
        )
        return JsonAnswer(info)

    async def private_results(request: Request) -> Response:
        user = await _user(live(), request)
        limit = int_param(request, "limit", 50, 1, 200)
        rows = await live().db.run(live().db.store.private_results, user.id, limit=limit)
        return JsonAnswer([private_result(row) for row in rows])

    return [
        _api("/api/private/{code}", private_table, ["GET"]),
        _api("/api/me/private", private_results, ["GET"]),
    ]


def _api(path: str, endpoint: Endpoint, methods: list[str]) -> Route:
    return Route(path, _errors_as_json(endpoint), methods=methods)


def _health_routes(live: Callable[[], _Services]) -> list[Route]:
    """``/healthz`` (the hall started), ``/readyz`` (its database, and Redis for a node of
    several, answer now) and ``/metrics`` (Prometheus)."""

    async def healthz(request: Request) -> Response:
        ready = "live" in _peek(live)
        return JsonAnswer(Ok(ok=ready), status_code=200 if ready else 503)

    async def readyz(request: Request) -> Response:
        services = _peek(live).get("live")
        database = services is not None and await _answers(services.db.run(services.db.store.ping))
        cluster = None if services is None else services.hall.cluster
        redis = None if cluster is None else await cluster.ping()
        ready = database and redis is not False
        body = Readiness(ok=ready, database=database, redis=redis)
        return JsonAnswer(body, status_code=200 if ready else 503)

    async def metrics(request: Request) -> Response:
        services = live()
        hall, gateway = services.hall, services.gateway
        node = "single" if hall.cluster is None else hall.cluster.node_id
        figures = msgspec.structs.asdict(_stats(hall))
        if hall.bots is not None:
            figures["bot_decisions"] = hall.bots.answered
            figures["bot_fallbacks"] = hall.bot_fallbacks
        histograms = [hall.message_seconds]
        if gateway is not None:
            mailbox = gateway.cluster.mailbox
            figures["node_messages_sent"] = mailbox.sent
            figures["node_messages_received"] = mailbox.received
            histograms.append(gateway.call_seconds)
        metrics = [Metric(*_METRICS[key], value) for key, value in figures.items()]
        text = prometheus_text(metrics, node, histograms)
        return Response(text, media_type=CONTENT_TYPE)

    return [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        _api("/metrics", metrics, ["GET"]),
    ]


async def _answers(call: Awaitable[object]) -> bool:
    """Whether ``call`` (a database ping) completes without an error."""
    try:
        await call
    except Exception:
        return False
    return True


def _stats(hall: HallService) -> Stats:
    """The hall's live figures (``/api/stats``; ``/metrics`` exports the same)."""
    return Stats(
        connections=hall.connections,
        players=len(hall.players),
        tables=hall.tables,
        hands_settled=hall.hands_settled,
        settle_transactions=hall.settle_transactions,
        rss_bytes=resident_bytes(),
    )


_METRICS: dict[str, tuple[str, str, str]] = {
    "connections": ("qipai_connections", "gauge", "WebSocket connections open."),
    "players": ("qipai_players", "gauge", "Players seen since the start."),
    "tables": ("qipai_tables", "gauge", "Tables with a hand in play."),
    "hands_settled": ("qipai_hands_settled_total", "counter", "Hands settled."),
    "settle_transactions": (
        "qipai_settle_transactions_total",
        "counter",
        "Database transactions that settled hands.",
    ),
    "rss_bytes": ("qipai_resident_bytes", "gauge", "Resident memory."),
    "bot_decisions": (
        "qipai_bot_decisions_total",
        "counter",
        "Bots' decisions answered by the worker processes (--bot-workers).",
    ),
    "bot_fallbacks": (
        "qipai_bot_fallbacks_total",
        "counter",
        "Bots' moves played by the basic trustee, the workers' answer late (tables ended).",
    ),
    "node_messages_sent": (
        "qipai_node_messages_sent_total",
        "counter",
        "Messages sent to other nodes (through Redis).",
    ),
    "node_messages_received": (
        "qipai_node_messages_received_total",
        "counter",
        "Messages received from other nodes.",
    ),
}
"""Each figure of :func:`_stats` as a Prometheus metric: name, kind, help."""


async def _maybe_user(services: _Services, request: Request) -> SignedIn | None:
    """The signed-in user, if the request names a session at all."""
    if "authorization" not in request.headers:
        return None
    return await _user(services, request)


async def _user(services: _Services, request: Request) -> SignedIn:
    user = await services.accounts.user_for_token(_token(request))
    if user is None:
        raise IllegalActionError("bad_token", "unknown or expired session")
    return user


def _session(session: Session) -> Response:
    user = session.user
    return JsonAnswer(
        SessionAnswer(
            token=session.token,
            expires_at=session.expires_at.isoformat(),
            user=SessionUser(id=user.id, name=user.name, coins=user.coins),
        )
    )


def _room_answer(room: Room) -> RoomAnswer:
    """A room of ``GET /api/rooms``: its fields, its game's browser module (``web_module``:
    the page loads ``js/games/<web_module>.js`` to play it), and whether its hands move no
    coin (``points_only``: the lobby tags it 积分场)."""
    points_only = room.payout is Payout.POINTS_ONLY
    return from_row(room, RoomAnswer, web_module=room.game_type.web_module, points_only=points_only)


def _match_result(row: MatchResultRow, titles: dict[str, str]) -> MatchResult:
    """A row of ``GET /api/me/matches``: the run, its match (and title where this hall
    is configured with it), its state, the player's rank and prize, the field, the times."""
    return MatchResult(
        run=row.run_id,
        match=row.match_id,
        title=titles.get(row.match_id, row.match_id),
        state=row.state,
        number=row.number,
        entry_fee=row.entry_fee,
        entrants=row.entrants,
        rank=row.rank,
        prize=row.prize,
        started_at=_iso(row.started_at),
        ended_at=_iso(row.ended_at),
    )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def resident_bytes() -> int:
    """The process's resident memory now (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")
