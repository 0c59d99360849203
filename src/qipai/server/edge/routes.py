"""The HTTP routes of the hall (``docs/protocol.md``, "HTTP API"): accounts, rooms, hands
and replays, the leaderboard, the matches, private tables, health and metrics; and the
WebSocket endpoint, which hands each socket to a :class:`~.connection.PlayerSocket`.

:func:`http_routes` builds them over the running hall's :class:`~.endpoints.Services`
(:func:`~.app.create_app` starts it), each with :func:`~.endpoints.api` (errors answered as
JSON); a feature's routes may live in a module of their own built from :mod:`.endpoints`
and be gathered here.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
from collections.abc import Awaitable, Callable
from datetime import datetime

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from qipai.errors import GameError, InvalidActionError
from qipai.hall.levels import level_for
from qipai.hall.match.requests import ListMatches, MatchRequest, Register, Standings, Unregister
from qipai.hall.records import HandRecord, verify
from qipai.hall.rooms import Room
from qipai.hall.watch.replays import replay_json
from qipai.jsontypes import Json
from qipai.registry import Payout
from qipai.server.api.answers import (
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
from qipai.server.run.hall import HallService
from qipai.server.run.metrics import CONTENT_TYPE, Metric, prometheus_text
from qipai.store import MatchResultRow

from .accounts import Session
from .connection import PlayerSocket
from .console import admin_routes, report_routes
from .economy import economy_routes
from .endpoints import (
    Endpoint,
    Services,
    api,
    bearer_token,
    client_address,
    maybe_signed_in,
    read_body,
    signed_in,
)
from .limits import BusyError
from .params import int_param
from .privates import private_info, private_result
from .social import social_routes

log = logging.getLogger(__name__)

REPLAYS_CACHED = 128
"""Replays kept built (per hand and seat), the most recently asked for."""


def http_routes(live: Callable[[], Services]) -> list[Route | WebSocketRoute | Mount]:
    """The hall's routes: the JSON API, the WebSocket, the browser client's files;
    ``live()`` gives the running hall's services (``not_ready`` while it starts)."""
    async def register(request: Request) -> Response:
        return _session(await _register(live(), request))

    async def sign_in(request: Request) -> Response:
        return _session(await _sign_in(live(), request))

    async def guest(request: Request) -> Response:
        services = live()
        address = client_address(request)
        await services.gate.guest(address)
        return _session(await services.accounts.guest(address=address))

    async def sign_out(request: Request) -> Response:
        await live().accounts.sign_out(bearer_token(request))
        return JsonAnswer(Ok(ok=True))

    async def me(request: Request) -> Response:
        user = await signed_in(live(), request)
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
        user = await signed_in(live(), request)
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
        *admin_routes(live),
        *report_routes(live),
        *economy_routes(live),
        *social_routes(live),
        api("/api/{rest:path}", _unknown_path, ["GET", "POST"]),  # the API answers in JSON
        WebSocketRoute("/ws", websocket),
        Mount("/", StaticFiles(packages=[("qipai.web", "static")], html=True), name="web"),
    ]


# The limits are asked before any work (before the body is even read, when the address is
# over its rate).  The client's address is the socket's peer, or the one uvicorn took from
# the X-Forwarded-For of a trusted proxy (its --forwarded-allow-ips).


async def _register(services: Services, request: Request) -> Session:
    address = client_address(request)
    await services.gate.register(address)
    body = await read_body(request)
    return await services.accounts.register(body.get("name"), body.get("password"), address=address)


async def _sign_in(services: Services, request: Request) -> Session:
    await services.gate.sign_in(client_address(request))
    body = await read_body(request)
    name = body.get("name")
    await services.gate.sign_in_name(name)  # a try spent, given back on success
    try:
        password = body.get("password")
        session = await services.accounts.sign_in(name, password, address=client_address(request))
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


def _peek(live: Callable[[], Services]) -> dict[str, Services]:
    try:
        return {"live": live()}
    except GameError:
        return {}


async def _unknown_path(request: Request) -> Response:
    """Every other path under ``/api``: a JSON error like every answer of the API (not the
    static files' plain-text 404)."""
    raise InvalidActionError("unknown_path", f"no API endpoint {request.url.path!r}")


def _match_routes(live: Callable[[], Services]) -> list[Route]:
    """The matches' API: the list, register / unregister, a run's standings (answered by
    the node that holds the matches, in a cluster)."""

    def asking(ask: Callable[[Request], MatchRequest], needs_user: bool) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            services = live()
            user = await (signed_in if needs_user else maybe_signed_in)(services, request)
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
        user = await signed_in(live(), request)
        limit = int_param(request, "limit", 50, 1, 200)
        rows = await live().db.run(live().db.store.match_results, user.id, limit=limit)
        titles = {match.id: match.name for match in live().matches.matches}
        return JsonAnswer([_match_result(row, titles) for row in rows])

    return [
        api("/api/me/matches", results, ["GET"]),
        api("/api/matches", asking(lambda _: ListMatches(), False), ["GET"]),
        api(
            "/api/matches/{match}/register",
            asking(lambda r: Register(r.path_params["match"]), True),
            ["POST"],
        ),
        api(
            "/api/matches/{match}/unregister",
            asking(lambda r: Unregister(r.path_params["match"]), True),
            ["POST"],
        ),
        api("/api/runs/{run}", asking(lambda r: Standings(r.path_params["run"]), False), ["GET"]),
    ]


def _private_routes(live: Callable[[], Services]) -> list[Route]:
    """Private tables 好友房: one by its code (its tries limited like ``private_join``), and
    the player's closed ones (战绩)."""

    async def private_table(request: Request) -> Response:
        services = live()
        user = await maybe_signed_in(services, request)
        user_id = None if user is None else user.id
        await services.gate.code_try(client_address(request), user_id)
        code = request.path_params["code"]
        gateway = services.gateway  # a node of several: asked of the table's node
        info = await (
            private_info(services.hall, code) if gateway is None else gateway.private_info(code)
        )
        return JsonAnswer(info)

    async def private_results(request: Request) -> Response:
        user = await signed_in(live(), request)
        limit = int_param(request, "limit", 50, 1, 200)
        rows = await live().db.run(live().db.store.private_results, user.id, limit=limit)
        return JsonAnswer([private_result(row) for row in rows])

    return [
        api("/api/private/{code}", private_table, ["GET"]),
        api("/api/me/private", private_results, ["GET"]),
    ]


def _health_routes(live: Callable[[], Services]) -> list[Route]:
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
        api("/metrics", metrics, ["GET"]),
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
