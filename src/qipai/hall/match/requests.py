"""The match API's requests: a closed union of small typed values, read strictly.

The HTTP routes build them (``GET /api/matches``, ``POST /api/matches/<id>/register`` and
``/unregister``, ``GET /api/runs/<run>``; the operator's console its cancel and
schedule), the cluster carries them to the node that holds the matches as
``{"op": <name>, "a": <argument>}``, and :meth:`MatchHall.serve
<qipai.server.run.matches.MatchHall.serve>` answers each kind exhaustively.  A name that
is not one of the six is refused (``bad_request``), so nothing unknown is ever taken for
another request (an unregistration least of all).

>>> parse_request("register", "tiyan-9")
Register(match='tiyan-9')
>>> wire_of(Standings("tiyan-9#3"))
('standings', 'tiyan-9#3')
>>> parse_request("unregisterx", "tiyan-9")
Traceback (most recent call last):
    ...
qipai.errors.InvalidActionError: bad_request: no match request 'unregisterx'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import assert_never

from qipai.errors import InvalidActionError

__all__ = [
    "Cancel",
    "ListMatches",
    "MatchRequest",
    "Register",
    "Schedule",
    "Standings",
    "Unregister",
    "parse_request",
    "wire_of",
]


@dataclass(frozen=True, slots=True)
class ListMatches:
    """The list of matches, with the asker's registrations."""


@dataclass(frozen=True, slots=True)
class Standings:
    """A run's standings."""

    run: str


@dataclass(frozen=True, slots=True)
class Register:
    """Register the asker for the match's open run (his entry fee held)."""

    match: str


@dataclass(frozen=True, slots=True)
class Unregister:
    """Withdraw the asker's registration from the match's open run (his fee refunded)."""

    match: str


@dataclass(frozen=True, slots=True)
class Cancel:
    """An operator cancels ``run`` (registering or in play), saying ``reason``: every fee
    refunded.  Only the console builds it, for an operator with the role."""

    run: str
    reason: str


@dataclass(frozen=True, slots=True)
class Schedule:
    """An operator's schedule of ``match`` (kept in the database first): a scheduled
    match's period and minute, and whether new runs open.  Only the console builds it."""

    match: str
    every_minutes: int
    at_minute: int
    enabled: bool


MatchRequest = ListMatches | Standings | Register | Unregister | Cancel | Schedule
"""Every request of the match API."""


def wire_of(request: MatchRequest) -> tuple[str, str]:
    """The request's name and argument, as the cluster carries it."""
    match request:
        case ListMatches():
            return "list", ""
        case Standings(run):
            return "standings", run
        case Register(match):
            return "register", match
        case Unregister(match):
            return "unregister", match
        case Cancel(run, reason):
            return "cancel", json.dumps([run, reason], ensure_ascii=False)
        case Schedule(match, every, at, enabled):
            return "schedule", json.dumps([match, every, at, enabled])
        case _:
            assert_never(request)


def parse_request(name: object, argument: object) -> MatchRequest:
    """The request a name and argument carried between nodes stand for.

    :raises InvalidActionError: ``bad_request``: an unknown name, or an argument that is
        not text.
    """
    if not isinstance(argument, str):
        raise InvalidActionError("bad_request", f"a match request's argument is text: {argument!r}")
    if name == "list":
        return ListMatches()
    if name == "standings":
        return Standings(argument)
    if name == "register":
        return Register(argument)
    if name == "unregister":
        return Unregister(argument)
    if name == "cancel":
        return _cancel(argument)
    if name == "schedule":
        return _schedule(argument)
    raise InvalidActionError("bad_request", f"no match request {name!r}")


def _cancel(argument: str) -> Cancel:
    try:
        run, reason = json.loads(argument)
    except (ValueError, TypeError):
        raise InvalidActionError("bad_request", "a cancel names its run and reason") from None
    if not isinstance(run, str) or not isinstance(reason, str):
        raise InvalidActionError("bad_request", "a cancel names its run and reason")
    return Cancel(run, reason)


def _schedule(argument: str) -> Schedule:
    try:
        match, every, at, enabled = json.loads(argument)
    except (ValueError, TypeError):
        raise InvalidActionError("bad_request", "a schedule names its match and times") from None
    if not (isinstance(match, str) and isinstance(every, int) and isinstance(at, int)):
        raise InvalidActionError("bad_request", "a schedule names its match and times")
    return Schedule(match, every, at, bool(enabled))
