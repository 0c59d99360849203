"""What every HTTP endpoint of the hall is built from: the running hall's :class:`Services`,
:func:`api` (a route whose errors are answered as JSON), the request's JSON :func:`read_body`, its
client's :func:`client_address` and the signed-in :func:`signed_in`.

A feature's routes live in their own module (``routes.py`` gathers them) and use only these.
Every error is ``{"error": CODE, "message": TEXT}`` with a 4xx status (a refusal by the limits
of :mod:`.limits`: ``429``, or ``503 busy``, with ``retry_after`` and ``Retry-After``); a body
the client cut off is one line in the log, no traceback.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from qipai.errors import GameError, IllegalActionError, InvalidActionError
from qipai.hall.economy.settings import EconomySettings
from qipai.jsontypes import Json
from qipai.server.api.answers import ErrorAnswer, JsonAnswer
from qipai.server.run.hall import Database, HallService
from qipai.server.run.matches import MatchHall

from .accounts import Accounts, BannedError, SignedIn
from .gateway import Gateway
from .limits import BusyError, Gate, RateLimitedError
from .params import ascii_number, check_params

log = logging.getLogger(__name__)

MAX_BODY = 4096
"""Largest request body accepted by the JSON API."""


@dataclass
class Services:
    """What the routes use of the running hall, once it has started."""

    db: Database
    """The store, on its threads."""
    hall: HallService
    """The running hall."""
    accounts: Accounts
    """Accounts and sessions."""
    gate: Gate
    """The limits on the account endpoints and on trying codes and names."""
    matches: MatchHall
    """The matches."""
    gateway: Gateway | None = None
    """This node's gateway to the players other nodes hold (``None``: a hall alone)."""
    economy: EconomySettings = field(default_factory=EconomySettings)
    """The economy 福利 (the rooms file's ``[economy]``)."""


Endpoint = Callable[[Request], Awaitable[Response]]
"""An HTTP endpoint."""

Live = Callable[[], Services]
"""The running hall's services (raises ``not_ready`` while it starts)."""

STATUS = {
    "bad_token": 401,
    "bad_credentials": 401,
    "banned": 403,
    "cross_site": 403,
    "forbidden": 403,
    "not_ready": 503,
    "unknown_hand": 404,
    "unknown_code": 404,
    "unknown_path": 404,
    "unknown_player": 404,
}
"""The HTTP status of an error code other than 400 (invalid) and 409 (illegal now)."""


def api(path: str, endpoint: Endpoint, methods: list[str]) -> Route:
    """A route of the JSON API: its parameters checked, its errors answered as JSON."""
    return Route(path, _errors_as_json(endpoint), methods=methods)


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
            status = STATUS.get(error.code, 400 if isinstance(error, InvalidActionError) else 409)
            answer = ErrorAnswer(error=error.code, message=error.message)
            if isinstance(error, BannedError):
                answer.until = None if error.until is None else error.until.isoformat()
            return JsonAnswer(answer, status)
        except ClientDisconnect:  # the body cut off: a line, no traceback, no answer read
            where = f"{request.method} {request.url.path} from {client_address(request)}"
            log.info("%s: the client left before the end of its body", where)
            return Response(status_code=400)

    return guarded


async def read_body(request: Request) -> dict[str, Json]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes, refused before reading
    when its length says more): ``too_large``, ``bad_json``."""
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
        parsed: Json = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested thousands deep
        raise InvalidActionError("bad_json", "the body is not JSON") from None
    if not isinstance(parsed, dict):
        raise InvalidActionError("bad_json", "the body is a JSON object")
    return parsed


def client_address(request: Request) -> str | None:
    """The client's address (``None``: unknown, e.g. a Unix socket): the socket's peer, or
    the one uvicorn took from the X-Forwarded-For of a trusted proxy."""
    return request.client.host if request.client is not None else None


def bearer_token(request: Request) -> str:
    """The session token of ``Authorization: Bearer TOKEN`` (``bad_token`` without one)."""
    header = request.headers.get("authorization", "")
    scheme, _, found = header.partition(" ")
    if scheme.lower() != "bearer" or not found:
        raise IllegalActionError("bad_token", "send Authorization: Bearer TOKEN")
    return found.strip()


async def signed_in(services: Services, request: Request) -> SignedIn:
    """The signed-in user of the request (``bad_token``: none, or an expired session)."""
    found = await services.accounts.user_for_token(bearer_token(request))
    if found is None:
        raise IllegalActionError("bad_token", "unknown or expired session")
    return found


async def maybe_signed_in(services: Services, request: Request) -> SignedIn | None:
    """The signed-in user, if the request names a session at all."""
    if "authorization" not in request.headers:
        return None
    return await signed_in(services, request)
