"""The HTTP API's answers: :class:`msgspec.Struct` s, like the frames of the WebSocket.

Each answer of ``docs/protocol.md``'s "HTTP API" table that the server builds is a struct
here, named in that table; its fields are written in the order declared (the order on
the wire), ``None`` as ``null``, and a field an answer carries only sometimes is
:data:`~msgspec.UNSET` otherwise, then absent.  :class:`JsonAnswer` turns one (or a list
of them) into the response.  What the hall's core builds as JSON (the people online, the
matches' list, a run's standings) and the records inside answers (a hand's record, a
scoreboard) stay plain JSON values (:data:`~qipai.jsontypes.Json`).

>>> JsonAnswer(Ok(ok=True)).body
b'{"ok":true}'
>>> JsonAnswer(ErrorAnswer(error="bad_token", message="sign in")).body
b'{"error":"bad_token","message":"sign in"}'
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import msgspec
from msgspec import UNSET, UnsetType
from starlette.responses import Response

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from qipai.jsontypes import Json as JsonValue
else:  # msgspec cannot read the recursive alias: any JSON value, unchecked, at run time
    JsonValue = object

Number: TypeAlias = int | float
"""A number kept as it was given (an int stays an int, as the rooms file wrote it)."""
AnswerT = TypeVar("AnswerT", bound=msgspec.Struct)

_ENCODER = msgspec.json.Encoder()


class JsonAnswer(Response):
    """An answer of the API as JSON (UTF-8 kept, no spaces: what Starlette's
    ``JSONResponse`` wrote of the same values)."""

    media_type = "application/json"

    def render(self, content: object) -> bytes:
        """``content`` (a struct, a list of them, a JSON value) as JSON."""
        return _ENCODER.encode(content)


class _Answer(msgspec.Struct, forbid_unknown_fields=True):
    """What every answer shares: read back (from another node, a row), a key too many is
    an error, not a key silently dropped."""


Answer = _Answer
"""The base of every answer, for the answers kept in modules of their own."""


# --- every answer's -------------------------------------------------------------------


class Ok(_Answer):
    """``{"ok": true}``: done (``/api/logout``, ``/healthz``, a withdrawal)."""

    ok: bool


class ErrorAnswer(_Answer):
    """Every refusal: ``{"error": CODE, "message": TEXT}``, with ``retry_after`` (whole
    seconds) for a refusal by the limits (429, ``503 busy``), ``until`` for ``banned`` (the
    ban's end, ``null``: for good)."""

    error: str
    message: str
    retry_after: int | UnsetType = UNSET
    until: str | UnsetType | None = UNSET


class Readiness(_Answer):
    """``GET /readyz``: whether the database answers now, and Redis (``None``: alone)."""

    ok: bool
    database: bool
    redis: bool | None


# --- accounts -------------------------------------------------------------------------


class SessionUser(_Answer):
    """The user of a :class:`SessionAnswer`."""

    id: int
    name: str
    coins: int


class SessionAnswer(_Answer):
    """``POST /api/register``, ``/api/login``, ``/api/guest``: the session's token, when
    it expires (ISO 8601) and its user."""

    token: str
    expires_at: str
    user: SessionUser


class LevelAnswer(_Answer):
    """The level 等级 of a :class:`Me`: its title, rank and the wins to the next one."""

    title: str
    rank: int
    next_wins: int | None


class Me(_Answer):
    """``GET /api/me``: the player's profile."""

    id: int
    name: str
    coins: int
    points: int
    hands: int
    wins: int
    level: LevelAnswer


class Account(_Answer):
    """``GET /api/me/account`` and the answer of every change to it: the player's name,
    whether he is a guest, his chosen ``avatar`` (``null``: drawn from his name) and
    whether his friends see where he is (``show_where``)."""

    id: int
    name: str
    guest: bool
    avatar: int | None
    show_where: bool


class PlayerCard(_Answer):
    """``GET /api/players/{name}``: a player's card 名片; ``friend``: how the asker stands
    with him (``friends``, ``asked``, ``asking``; ``null``: none, or not signed in, or
    himself)."""

    name: str
    avatar: int | None
    guest: bool
    level: LevelAnswer
    hands: int
    wins: int
    friend: str | None


class Where(_Answer):
    """Where a friend is: ``kind`` (``lobby``, ``room``, ``private``, ``match``,
    ``watching``) and, in a cash room, its ``room`` id (``null`` elsewhere)."""

    kind: str
    room: str | None


class FriendAnswer(_Answer):
    """One row of ``GET /api/friends``: his ``name`` and ``avatar``; ``state``
    (``friends``, ``asked``: I asked him, ``asking``: he asked me); for a friend, whether
    he is ``online``, ``where`` he is (``null``: offline, hidden by him, or not known on
    this node) and whether I may watch him by his name now (``watchable``)."""

    name: str
    avatar: int | None
    state: str
    online: bool
    where: Where | None
    watchable: bool


class Friendship(_Answer):
    """``POST /api/friends/{name}``: the state after (``asked`` or ``friends``)."""

    name: str
    state: str


# --- the hall -------------------------------------------------------------------------


class RoomAnswer(_Answer):
    """A room of ``GET /api/rooms``: the fields of :class:`~qipai.hall.rooms.Room`, its
    game's browser module and whether its hands move no coin."""

    id: str
    name: str
    game: str
    rules: str
    level: str
    seats: int
    coefficient: int
    base: int
    ante: int | None
    top_bet: int | None
    cap: int | None
    rake_percent: int
    fee: int
    doubling_threshold: int | None
    min_coins: int
    decision_seconds: Number
    grace_seconds: Number
    bots: bool
    bot_wait: Number
    regroup: bool
    escape_before_start: bool
    trustee: str
    card_counter: bool
    tasks: list[str]
    web_module: str
    points_only: bool


class Stats(_Answer):
    """``GET /api/stats``: the hall's live figures (``/metrics`` exports the same)."""

    connections: int
    players: int
    tables: int
    hands_settled: int
    settle_transactions: int
    rss_bytes: int


# --- the store's rows -----------------------------------------------------------------


class HistoryAnswer(_Answer):
    """A hand of ``GET /api/history`` (:class:`~qipai.store.HistoryRow`)."""

    hand_id: str
    room_id: str
    game: str
    rules: str
    seat: int
    net: int | None
    points: int | None
    started_at: str
    ended_at: str | None
    status: str
    won: bool | None
    role: str | None
    match_points: int | None


class LeaderAnswer(_Answer):
    """A row of ``GET /api/leaderboard``."""

    rank: int
    user_id: int
    name: str
    value: int


class HandAnswer(_Answer):
    """``GET /api/hands/{hand}``: the finished hand's record, who sat where, and the
    server's own check of the record."""

    record: JsonValue
    seats: list[str | None]
    verified: bool
    reason: str | None


class MatchResult(_Answer):
    """A run of ``GET /api/me/matches`` (战绩 of matches)."""

    run: str
    match: str
    title: str
    state: str
    number: int
    entry_fee: int
    entrants: int
    rank: int | None
    prize: int | None
    started_at: str | None
    ended_at: str | None


# --- matches and private tables --------------------------------------------------------


class Registered(_Answer):
    """``POST /api/matches/{name}/register``: the run and the registration number."""

    match: str
    run: str
    number: int


class PrivateInfo(_Answer):
    """``GET /api/private/{code}``: a private table 好友房, open or closed."""

    code: str
    game: str
    rules: str
    hands: int
    played: int
    stakes: str
    base: int | None
    state: str
    seats: list[str | None]
    spectators: bool
    watchers: int
    full: bool
    scoreboard: JsonValue


class PrivateResult(_Answer):
    """A closed table of ``GET /api/me/private`` (战绩 of private tables)."""

    code: str
    game: str
    rules: str
    stakes: str
    base: int | None
    hands: int
    closed_at: str
    scoreboard: JsonValue


def from_row(row: DataclassInstance, answer: type[AnswerT], **more: object) -> AnswerT:
    """The answer ``answer`` of a row (a dataclass: the store's, a room), its times as
    ISO 8601 text, with the fields ``more`` added.

    :raises msgspec.ValidationError: the row and the answer disagree (a field of one the
        other lacks).
    """
    fields = dataclasses.asdict(row) | more
    plain = {key: _iso(value) for key, value in fields.items()}
    return msgspec.convert(plain, answer)


def _iso(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value


# --- the economy 福利 (docs/hall.md, "The economy") ---------------------------------------


class TaskAnswer(_Answer):
    """One of the day's 每日任务 (``GET /api/me/tasks``, ``GET /api/me/economy``)."""

    id: str
    name: str
    english: str
    target: int
    progress: int
    coins: int
    claimed: bool


class EconomyAnswer(_Answer):
    """``GET /api/me/economy``: the person's 福利 today."""

    day: str
    coins: int
    checked_in: bool
    streak: int
    next_checkin: int
    relief_left: int
    relief_coins: int
    broke_line: int
    broke: bool
    tasks: list[TaskAnswer]


class TasksAnswer(_Answer):
    """``GET /api/me/tasks``: the day's tasks."""

    day: str
    tasks: list[TaskAnswer]


class GrantAnswer(_Answer):
    """What a check-in, a relief or a task's claim paid (``POST /api/me/checkin``,
    ``/api/me/relief``, ``/api/me/tasks/{id}/claim``)."""

    paid: int
    coins: int
    streak: int | UnsetType = UNSET
    relief_left: int | UnsetType = UNSET
    task: TaskAnswer | UnsetType = UNSET
