"""The answers of the operator's console's API (``/api/admin/…``, ``docs/operations.md``,
"The console"), msgspec structs like every answer (:mod:`.answers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .answers import Answer, HistoryAnswer

if TYPE_CHECKING:
    from qipai.jsontypes import Json as JsonValue
else:  # msgspec cannot read the recursive alias: any JSON value, unchecked, at run time
    JsonValue = object


class StaffAnswer(Answer):
    """``GET /api/admin/me``: the signed-in operator and his role."""

    name: str
    role: str


class PlayerFound(Answer):
    """A player of ``GET /api/admin/players?q=``."""

    id: int
    name: str
    created_at: str
    hands: int


class SanctionAnswer(Answer):
    """A ban or a mute in force: until when (``None``: for good), and why."""

    kind: str
    until: str | None
    reason: str


class PostingAnswer(Answer):
    """One ledger entry of a player's account."""

    at: str
    key: str
    kind: str
    amount: int
    reason: str


class LiveSessionAnswer(Answer):
    """A session alive: until when, and the client's address when it began."""

    expires_at: str
    address: str | None


class PasswordAnswer(Answer):
    """``POST /api/admin/players/{name}/password``: the one-time password to hand over, and
    the log line."""

    password: str
    line: LogLineAnswer


class PlayerAnswer(Answer):
    """``GET /api/admin/players/{name}``: his account, role, ban and mute, live sessions,
    his newest ledger entries and hands (his history's rows, each with its replay)."""

    id: int
    name: str
    created_at: str
    coins: int
    hands: int
    wins: int
    role: str | None
    ban: SanctionAnswer | None
    mute: SanctionAnswer | None
    sessions: int
    sessions_list: list[LiveSessionAnswer]
    postings: list[PostingAnswer]
    recent_hands: list[HistoryAnswer]


class LogLineAnswer(Answer):
    """A line of ``GET /api/admin/log`` (and the answer of every console action: the
    line it wrote)."""

    id: int
    at: str
    actor: str
    action: str
    target: str | None
    reason: str
    detail: dict[str, JsonValue]


class SeatAnswer(Answer):
    """A seat of a table in play, as a spectator sees it."""

    name: str
    bot: bool
    coins: int
    trustee: bool
    connected: bool


class TableAnswer(Answer):
    """A table of ``GET /api/admin/tables``: ``id`` (``node:number``: what closing it
    names), its node, number, room, game, rules, stake, hand in play, hands dealt, seats."""

    id: str
    node: str
    number: int
    room: str
    room_name: str
    game: str
    rules: str
    base: int
    hand: str | None
    hands: int
    seats: list[SeatAnswer]


class RunAnswer(Answer):
    """A run of ``GET /api/admin/matches``: its id, match, state, fee, registrations and
    times."""

    run: str
    match: str
    state: str
    entry_fee: int
    registered: int
    created_at: str
    started_at: str | None


class TakingsAnswer(Answer):
    """The house's takings of one day (UTC): ``rake``, ``fees``, ``matches`` (surplus kept
    less guarantees paid), ``given`` (coins given out by kind: ``signup``, ``admin``, the
    economy's; negative: paid out)."""

    day: str
    rake: int
    fees: int
    matches: int
    given: dict[str, int]


class DashboardAnswer(Answer):
    """``GET /api/admin/dashboard``: people and bots online per node (and per room), hands
    settled in the last 10 minutes, match runs in play, the takings of the last 7 days,
    the last audit run from the console."""

    online: dict[str, JsonValue]
    hands_last_10_minutes: int
    runs_in_play: int
    takings: list[TakingsAnswer]
    last_audit: LogLineAnswer | None


class ReportAnswer(Answer):
    """A report of ``GET /api/admin/reports``: who reported whom, why, the hand (its replay
    from the reported player's ``seat``: ``GET /api/hands/{hand}/replay?seat=K``), its
    state and resolution."""

    id: int
    at: str
    reporter: str
    reported: str
    reason: str
    hand: str | None
    seat: int | None
    state: str
    resolution: str | None
    resolved_by: str | None


class FlagAnswer(Answer):
    """A fair-play flag of ``GET /api/admin/flags``: its kind (``shared_address``,
    ``chip_dumping``), the two accounts, how many hands, the newest ten."""

    kind: str
    players: list[str]
    count: int
    hands: list[str]


class ReportFiled(Answer):
    """``POST /api/reports``: the report's number."""

    id: int


class ScheduleAnswer(Answer):
    """A configured match of ``GET /api/admin/schedules``: its kind, its schedule (a
    scheduled match: every so many minutes, at this minute), whether new runs open, and
    ``kept`` (an operator set it from the console; else the matches file's)."""

    match: str
    name: str
    kind: str
    every_minutes: int
    at_minute: int
    enabled: bool
    kept: bool
