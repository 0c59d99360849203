"""The operator's console's API, ``/api/admin/…`` (``docs/operations.md``, "The console").

Every route names the least role it needs (:data:`~qipai.store.schema.ROLES`: ``viewer``
reads, ``moderator`` bans and mutes, ``admin`` moves coins and grants roles) and answers
``403 forbidden`` to anybody else — no session, a guest, a player, a lesser role — before
it reads anything.  A console action is a POST with a JSON body (``Content-Type:
application/json``) and the session in ``Authorization: Bearer``; a browser sends neither
across sites by itself, so a page of another site cannot act through an operator's
browser (a POST of another type, or whose ``Origin`` is another host, is refused
``403 cross_site``).  Every action is written to the admin log with its reason, in the
same transaction as the action (:mod:`qipai.store.console`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.match.config import rescheduled
from qipai.hall.match.requests import Cancel, Schedule
from qipai.jsontypes import Json
from qipai.server.api.answers import HistoryAnswer, JsonAnswer, from_row, match_result
from qipai.server.api.console import (
    DashboardAnswer,
    FlagAnswer,
    LiveSessionAnswer,
    LogLineAnswer,
    PasswordAnswer,
    PlayerAnswer,
    PlayerFound,
    PostingAnswer,
    ReportAnswer,
    ReportFiled,
    RunAnswer,
    SanctionAnswer,
    ScheduleAnswer,
    StaffAnswer,
    TableAnswer,
    TakingsAnswer,
)
from qipai.server.run.matches import with_schedules
from qipai.store.audit import audit
from qipai.store.console import Act, Console, LogLine, PlayerPage, Sanction
from qipai.store.console import Schedule as KeptSchedule
from qipai.store.reports import ReportDesk
from qipai.store.schema import ROLES

from .endpoints import Live, Services, api, bearer_token, read_body, signed_in
from .params import int_param
from .privates import private_result

MAX_MUTE_MINUTES = 60 * 24 * 30
"""The longest mute (30 days): a longer silence is a ban."""
SEARCH_LIMIT = 50
"""Players one search lists at most."""
ONE_TIME_BYTES = 9
"""Random bytes of a one-time password (12 characters)."""
GRANT_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A grant's own key (the console's form draws one when it opens)."""
POSTINGS_SHOWN = 50
"""A player's newest ledger entries his console page shows."""
MAX_EXPORTED = 1000
"""The most hands, postings, matches and private tables one export holds."""
ALONE = "hall"
"""The node name of a hall of one process, in a table's id (``hall:17``)."""


@dataclass(frozen=True)
class Staff:
    """The operator behind a console request."""

    id: int
    """His user id."""
    name: str
    """His name (the admin log's ``actor``)."""
    role: str
    """His role."""


Serve = Callable[[Services, Staff, Request], Awaitable[object]]
"""A console endpoint's work, once its operator is known: its answer."""


def admin_routes(live: Live) -> list[Route]:
    """The console's routes, each behind its least role (:data:`LEAST_ROLE`)."""

    def route(method: str, path: str, least: str, serve: Serve) -> Route:
        async def endpoint(request: Request) -> Response:
            services = live()
            operator = await staff(services, request, least)
            answer = await serve(services, operator, request)
            return answer if isinstance(answer, Response) else JsonAnswer(answer)

        return api(path, endpoint, [method])

    return [route(method, path, least, serve) for (method, path), (least, serve) in _ROUTES.items()]


def report_routes(live: Live) -> list[Route]:
    """``POST /api/reports``: a signed-in player reports another (举报), from his player
    card: ``{"name", "reason", "hand"}`` (``hand`` optional); at most
    :data:`~qipai.store.reports.MAX_REPORTS_A_DAY` a day."""

    async def report(request: Request) -> Response:
        services = live()
        reporter = await signed_in(services, request)
        body = await read_body(request)
        name, reason, hand = body.get("name"), body.get("reason"), body.get("hand")
        if not isinstance(name, str):
            raise InvalidActionError("unknown_player", "name: the player reported")
        if not isinstance(reason, str):
            raise InvalidActionError("bad_reason", "reason: why, as text")
        if hand is not None and not isinstance(hand, str):
            raise InvalidActionError("unknown_hand", "hand: a hand id, or null")
        filed = await services.db.run(_desk(services).file, reporter.id, name, reason, hand, _now())
        return JsonAnswer(ReportFiled(id=filed))

    return [api("/api/reports", report, ["POST"])]


def forbidden(why: str = "the operator's console needs a role") -> IllegalActionError:
    """``403 forbidden``."""
    return IllegalActionError("forbidden", why)


async def staff(services: Services, request: Request, least: str) -> Staff:
    """The operator of ``request`` if his role is ``least`` or above (and a POST of his is
    no cross-site one); else ``forbidden`` (``cross_site``) before anything is read."""
    if request.method == "POST":
        _same_site(request)
    try:
        user = await services.accounts.user_for_token(bearer_token(request))
    except IllegalActionError:
        user = None
    if user is None:
        raise forbidden()
    role = await services.db.run(Console(services.db.store).role_of, user.id)
    if role is None or ROLES.index(role) < ROLES.index(least):
        raise forbidden(f"this needs the role {least}")
    return Staff(user.id, user.name, role)


def _same_site(request: Request) -> None:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    origin = request.headers.get("origin")
    if kind != "application/json":
        raise IllegalActionError("cross_site", "a console action is a JSON POST")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
        raise IllegalActionError("cross_site", "a console action comes from the console's page")


def _console(services: Services) -> Console:
    return Console(services.db.store)


def _act(operator: Staff, request: Request, reason: Json) -> Act:
    if not isinstance(reason, str):
        raise InvalidActionError("bad_reason", "say why: a reason is text")
    params = request.path_params
    target = params.get("name", params.get("id", params.get("run", params.get("match"))))
    return Act(operator.name, target, reason, _now())


async def _me(services: Services, operator: Staff, request: Request) -> object:
    return StaffAnswer(name=operator.name, role=operator.role)


async def _find(services: Services, operator: Staff, request: Request) -> object:
    text = request.query_params.get("q", "").strip()
    if not text:
        raise InvalidActionError("bad_query", "q: a part of a name")
    rows = await services.db.run(_console(services).find, text[:64], limit=SEARCH_LIMIT)
    return [from_row(row, PlayerFound) for row in rows]


async def _player(services: Services, operator: Staff, request: Request) -> object:
    page = await services.db.run(_console(services).player, request.path_params["name"], _now())
    return await _player_answer(services, page, int_param(request, "hands", 20, 1, 200))


async def _player_answer(services: Services, page: PlayerPage, hands_shown: int) -> PlayerAnswer:
    """The console's page of a player: ``page`` (his newest postings: at most
    :data:`POSTINGS_SHOWN`), his profile, his newest hands and match runs."""
    db = services.db
    profile = await db.run(db.store.profile, page.id)
    hands = await db.run(db.store.history, page.id, limit=hands_shown)
    runs = await db.run(db.store.match_results, page.id, limit=20)
    titles = {match.id: match.name for match in services.matches.matches}
    return PlayerAnswer(
        id=page.id, name=page.name, created_at=page.created_at.isoformat(),
        coins=profile.coins, hands=profile.hands, wins=profile.wins, role=page.role,
        ban=_sanction(page.ban), mute=_sanction(page.mute), sessions=len(page.sessions),
        sessions_list=[from_row(session, LiveSessionAnswer) for session in page.sessions],
        postings=[from_row(posting, PostingAnswer) for posting in page.postings[:POSTINGS_SHOWN]],
        recent_hands=[from_row(row, HistoryAnswer) for row in hands],
        recent_matches=[match_result(row, titles) for row in runs],
    )  # fmt: skip


async def _grant(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    amount = _whole(body.get("amount"), "bad_amount", "amount: whole coins, negative to deduct")
    act = _act(operator, request, body.get("reason"))
    key = body.get("key")
    if key is not None and not (isinstance(key, str) and GRANT_KEY.fullmatch(key)):
        raise InvalidActionError("bad_key", "key: 1 to 64 letters, digits, - or _")
    return _line(await services.db.run(_console(services).adjust_coins, amount, act, key))


async def _ban(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    act = _act(operator, request, body.get("reason"))
    until = _until(body.get("until"))
    user, line = await services.db.run(_console(services).impose, "ban", until, act)
    _end_sessions(services, user, "ban", line.reason)
    return _line(line)


async def _mute(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    minutes = _whole(body.get("minutes"), "bad_minutes", f"minutes: 1..{MAX_MUTE_MINUTES}")
    if not 1 <= minutes <= MAX_MUTE_MINUTES:
        raise InvalidActionError("bad_minutes", f"minutes: 1..{MAX_MUTE_MINUTES}")
    act = _act(operator, request, body.get("reason"))
    until = act.now + timedelta(minutes=minutes)
    _, line = await services.db.run(_console(services).impose, "mute", until, act)
    return _line(line)


def _lifting(kind: str) -> Serve:
    async def serve(services: Services, operator: Staff, request: Request) -> object:
        body = await read_body(request)
        act = _act(operator, request, body.get("reason"))
        return _line(await services.db.run(_console(services).lift, kind, act))

    return serve


async def _role(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    role = body.get("role")
    if role is not None and not isinstance(role, str):
        raise InvalidActionError("bad_role", f"role: one of {', '.join(ROLES)}, or null")
    act = _act(operator, request, body.get("reason"))
    return _line(await services.db.run(_console(services).set_role, role, act))


async def _log(services: Services, operator: Staff, request: Request) -> object:
    limit = int_param(request, "limit", 100, 1, 500)
    before = request.query_params.get("before")
    start = int(before) if before is not None and before.isdigit() else None
    lines = await services.db.run(_console(services).log, limit=limit, before=start)
    return [_line(line) for line in lines]


async def _tables(services: Services, operator: Staff, request: Request) -> object:
    gateway = services.gateway
    found = {ALONE: services.hall.live_tables()} if gateway is None else await gateway.live_tables()
    return [
        from_row(table, TableAnswer, id=f"{node}:{table.number}", node=node)
        for node, tables in found.items()
        for table in tables
    ]


async def _close_table(services: Services, operator: Staff, request: Request) -> object:
    node, _, number = str(request.path_params["id"]).rpartition(":")
    if not number.isascii() or not number.isdigit() or len(number) > 9:
        raise IllegalActionError("unknown_table", "a table is named node:number")
    body = await read_body(request)
    act = _act(operator, request, body.get("reason"))
    gateway = services.gateway
    if gateway is not None:
        await gateway.close_table(node, int(number), act.reason)
    elif node == ALONE:
        services.hall.close_table(int(number), act.reason)
    else:
        raise IllegalActionError("unknown_table", f"no node {node} in this hall")
    return _line(await services.db.run(_console(services).note, "close_table", {}, act))


async def _runs(services: Services, operator: Staff, request: Request) -> object:
    states = ("registering", "running")
    rows = await services.db.run(services.db.store.match_runs, states, limit=200)
    return [
        RunAnswer(
            run=row.id, match=row.match_id, state=row.state, entry_fee=row.entry_fee,
            registered=row.registered, created_at=row.created_at.isoformat(),
            started_at=None if row.started_at is None else row.started_at.isoformat(),
        )
        for row in rows
    ]  # fmt: skip


async def _cancel_run(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    act = _act(operator, request, body.get("reason"))
    run = str(request.path_params["run"])
    cancel = Cancel(run, act.reason)
    if services.gateway is None:
        await services.matches.serve(cancel, None, "")
    else:
        await services.gateway.ask_matches(cancel, None, "")
    return _line(await services.db.run(_console(services).note, "cancel_match", {}, act))


async def _dashboard(services: Services, operator: Staff, request: Request) -> object:
    console = _console(services)
    recent, runs, days = await services.db.run(console.figures, _now())
    last = await services.db.run(console.last, "audit")
    return DashboardAnswer(
        online=services.hall.online_by_node(ALONE), hands_last_10_minutes=recent,
        runs_in_play=runs, takings=[from_row(day, TakingsAnswer) for day in days],
        last_audit=None if last is None else _line(last),
    )  # fmt: skip


async def _audit(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    act = _act(operator, request, body.get("reason", "from the console"))
    problems = await services.db.run(audit, services.db.store, allow_playing=True)
    detail: dict[str, Json] = {"problems": len(problems), "first": [str(p) for p in problems[:5]]}
    return _line(await services.db.run(_console(services).note, "audit", detail, act))


async def _password(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    act = _act(operator, request, body.get("reason"))
    password = secrets.token_urlsafe(ONE_TIME_BYTES)
    accounts = services.accounts
    encoded = await accounts.hashing.run(accounts.passwords.hash, password)
    user, line = await services.db.run(_console(services).reset_password, encoded, act)
    _end_sessions(services, user, "password", "your password was reset by an operator")
    return PasswordAnswer(password=password, line=_line(line))


async def _export(services: Services, operator: Staff, request: Request) -> object:
    name = str(request.path_params["name"])
    act = Act(operator.name, name, "an export of his data", _now())
    db = services.db
    page = await db.run(_console(services).player, name, act.now, limit=MAX_EXPORTED)
    exported = {
        "player": await _player_answer(services, page, 20),
        "postings": [from_row(p, PostingAnswer) for p in page.postings],
        "hands": await db.run(db.store.history, page.id, limit=MAX_EXPORTED),
        "matches": await db.run(db.store.match_results, page.id, limit=MAX_EXPORTED),
        "private_tables": [
            private_result(row)
            for row in await db.run(db.store.private_results, page.id, limit=MAX_EXPORTED)
        ],
        "friends": [
            {"name": friend.card.name, "state": friend.state}
            for friend in await db.run(db.store.friend_list, page.id)
        ],
    }
    await db.run(_console(services).note, "export", {}, act)
    disposition = f'attachment; filename="qipai-{page.id}.json"'
    return JsonAnswer(exported, headers={"content-disposition": disposition})


async def _delete(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    act = _act(operator, request, body.get("reason"))
    user, line = await services.db.run(_console(services).delete_account, act)
    _end_sessions(services, user, "deleted", "this account was deleted")
    return _line(line)


def _desk(services: Services) -> ReportDesk:
    return ReportDesk(services.db.store)


async def _reports(services: Services, operator: Staff, request: Request) -> object:
    state = request.query_params.get("state", "open")
    rows = await services.db.run(_desk(services).rows, state, limit=200)
    return [from_row(row, ReportAnswer) for row in rows]


async def _resolve(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    act = _act(operator, request, body.get("reason"))
    action = body.get("action")
    if not isinstance(action, str):
        raise InvalidActionError("bad_resolution", "action: dismiss, warn, mute or ban")
    until = _until(body.get("until"))
    if action == "mute":
        minutes = _whole(body.get("minutes"), "bad_minutes", f"minutes: 1..{MAX_MUTE_MINUTES}")
        until = act.now + timedelta(minutes=min(max(minutes, 1), MAX_MUTE_MINUTES))
    number = str(request.path_params["id"])
    report = int(number) if number.isascii() and number.isdigit() and len(number) < 12 else 0
    reported, line = await services.db.run(_desk(services).resolve, report, action, until, act)
    if action == "ban":
        _end_sessions(services, reported, "ban", act.reason)
    return _line(line)


async def _flags(services: Services, operator: Staff, request: Request) -> object:
    found = await services.db.run(_desk(services).flags, _now())
    return [from_row(flag, FlagAnswer) for flag in found]


async def _schedules(services: Services, operator: Staff, request: Request) -> object:
    kept = await services.db.run(_console(services).schedules)
    return [
        ScheduleAnswer(
            match=match.id, name=match.name, kind=match.kind.value,
            every_minutes=match.every_minutes, at_minute=match.at_minute, enabled=match.enabled,
            kept=match.id in kept,
        )
        for match in with_schedules(services.matches.matches, kept)
    ]  # fmt: skip


async def _schedule(services: Services, operator: Staff, request: Request) -> object:
    body = await read_body(request)
    match_id = str(request.path_params["match"])
    known = {match.id: match for match in services.matches.matches}
    if match_id not in known:
        raise InvalidActionError("unknown_match", f"no match {match_id!r}")
    match = known[match_id]
    every = _whole(body.get("every_minutes", match.every_minutes), "bad_match", "every_minutes")
    at = _whole(body.get("at_minute", match.at_minute), "bad_match", "at_minute")
    enabled = body.get("enabled", match.enabled)
    if not isinstance(enabled, bool):
        raise InvalidActionError("bad_match", "enabled: true or false")
    rescheduled(match, every, at, enabled)  # refused here (bad_match) before it is kept
    act = _act(operator, request, body.get("reason"))
    line = await services.db.run(
        _console(services).set_schedule, KeptSchedule(match_id, every, at, enabled), act
    )
    followed = Schedule(match_id, every, at, enabled)
    if services.gateway is None:
        await services.matches.serve(followed, None, "")
    else:
        await services.gateway.ask_matches(followed, None, "")
    return _line(line)


_ROUTES: dict[tuple[str, str], tuple[str, Serve]] = {
    ("GET", "/api/admin/me"): ("viewer", _me),
    ("GET", "/api/admin/players"): ("viewer", _find),
    ("GET", "/api/admin/players/{name}"): ("viewer", _player),
    ("POST", "/api/admin/players/{name}/password"): ("moderator", _password),
    ("GET", "/api/admin/players/{name}/export"): ("admin", _export),
    ("POST", "/api/admin/players/{name}/delete"): ("admin", _delete),
    ("POST", "/api/admin/players/{name}/grant"): ("admin", _grant),
    ("POST", "/api/admin/players/{name}/ban"): ("moderator", _ban),
    ("POST", "/api/admin/players/{name}/unban"): ("moderator", _lifting("ban")),
    ("POST", "/api/admin/players/{name}/mute"): ("moderator", _mute),
    ("POST", "/api/admin/players/{name}/unmute"): ("moderator", _lifting("mute")),
    ("POST", "/api/admin/players/{name}/role"): ("admin", _role),
    ("GET", "/api/admin/log"): ("viewer", _log),
    ("GET", "/api/admin/tables"): ("viewer", _tables),
    ("POST", "/api/admin/tables/{id}/close"): ("moderator", _close_table),
    ("GET", "/api/admin/matches"): ("viewer", _runs),
    ("GET", "/api/admin/dashboard"): ("viewer", _dashboard),
    ("POST", "/api/admin/audit"): ("admin", _audit),
    ("GET", "/api/admin/reports"): ("viewer", _reports),
    ("POST", "/api/admin/reports/{id}/resolve"): ("moderator", _resolve),
    ("GET", "/api/admin/flags"): ("viewer", _flags),
    ("POST", "/api/admin/matches/{run}/cancel"): ("admin", _cancel_run),
    ("GET", "/api/admin/schedules"): ("viewer", _schedules),
    ("POST", "/api/admin/schedules/{match}"): ("admin", _schedule),
}

LEAST_ROLE: dict[tuple[str, str], str] = {where: least for where, (least, _) in _ROUTES.items()}
"""The least role of each console route (method, path): ``viewer`` reads, ``moderator``
moderates players, ``admin`` moves coins and gives roles."""


def _end_sessions(services: Services, user: int, cause: str, why: str) -> None:
    """Close the banned player's connections, on every node."""
    if services.gateway is None:
        services.hall.end_sessions(user, cause, why)
    else:
        services.gateway.end_sessions(user, cause, why)


def _whole(value: Json, code: str, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidActionError(code, what)
    return value


def _until(value: Json) -> datetime | None:
    """A ban's end: ISO 8601 with its zone, or ``null`` for good."""
    if value is None:
        return None
    try:
        until = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        until = None
    if until is None or until.tzinfo is None:
        raise InvalidActionError("bad_until", "until: an ISO 8601 time with its zone, or null")
    return until


def _sanction(sanction: Sanction | None) -> SanctionAnswer | None:
    if sanction is None:
        return None
    until = None if sanction.until is None else sanction.until.isoformat()
    return SanctionAnswer(kind=sanction.kind, until=until, reason=sanction.reason)


def _line(line: LogLine) -> LogLineAnswer:
    return LogLineAnswer(
        id=line.id, at=line.at.isoformat(), actor=line.actor, action=line.action,
        target=line.target, reason=line.reason, detail=line.detail,
    )  # fmt: skip


def _now() -> datetime:
    return datetime.now(UTC)
