"""The operator's console in the store: roles, the append-only admin log, bans and mutes,
and coins given or taken by an operator.

Every action is one database transaction that does it *and* writes its line of the admin
log (who, when, what, on whom, why), so the log never misses an action that happened nor
lists one that did not.  Coins move through the ledger like every other coin: a grant is a
``grant`` transaction from ``system:grants`` keyed ``grant:admin:<log id>``, a deduction a
``penalty`` transaction back into it keyed ``penalty:admin:<log id>``; a deduction that
would take the account below zero is refused (``insufficient_coins``) and nothing is
written.  A ban ends every session of the account in the same transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import (
    ColumnElement,
    Connection,
    Row,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.jsontypes import Json
from qipai.store import ledger
from qipai.store.accounts import account_of
from qipai.store.ledger import Entry, Posting, SystemAccounts
from qipai.store.models import check_aware, check_text
from qipai.store.names import DELETED_PREFIX
from qipai.store.schema import (
    ROLES,
    SANCTION_KINDS,
    admin_log,
    entries,
    friendships,
    hands,
    match_runs,
    match_schedules,
    name_keys,
    roles,
    sanctions,
    sessions,
    transactions,
    users,
)

if TYPE_CHECKING:
    from qipai.store.store import Store

MAX_REASON = 500
"""The longest reason an operator may give."""
MAX_ADJUSTMENT = 100_000_000
"""The most coins one grant or deduction moves (a typo's guard)."""


@dataclass(frozen=True)
class LogLine:
    """One line of the admin log."""

    id: int
    """Its number, in the order written."""
    at: datetime
    """When (aware, UTC)."""
    actor: str
    """Who: an operator's name, or ``cli:<login>`` from the command line."""
    action: str
    """What: ``role``, ``grant``, ``deduct``, ``ban``, ``unban``, ``mute``, ``unmute``…"""
    target: str | None
    """On whom (a player's name), or what (a table), if anyone."""
    reason: str
    """Why, as the operator wrote it."""
    detail: dict[str, Json]
    """The action's figures (amount, until, role…)."""


@dataclass(frozen=True)
class Sanction:
    """A ban or a mute in force."""

    kind: str
    """``ban`` or ``mute``."""
    until: datetime | None
    """When it ends (``None``: for good)."""
    reason: str
    """Why, as the operator wrote it."""


@dataclass(frozen=True)
class Act:
    """Who does a console action on whom, when and why: what its log line says."""

    actor: str
    """An operator's name, or ``cli:<login>`` from the command line."""
    target: str | None
    """On whom (a player's name), or what (a table), if anyone."""
    reason: str
    """Why (1..:data:`MAX_REASON` characters)."""
    now: datetime
    """When (aware)."""


def role_of(connection: Connection, user_id: int) -> str | None:
    """The console role of ``user_id`` (``None``: a player, no console)."""
    found: str | None = connection.execute(
        select(roles.c.role).where(roles.c.user_id == user_id)
    ).scalar()
    return found


def set_role(connection: Connection, user_id: int, role: str | None, act: Act) -> LogLine:
    """Give ``user_id`` the console role ``role`` (``None``: take it away), logged.

    :raises InvalidActionError: ``bad_role``, ``bad_reason``.
    """
    if role is not None and role not in ROLES:
        raise InvalidActionError("bad_role", f"a role is one of {', '.join(ROLES)}, not {role!r}")
    line = log_action(connection, "role", {"role": role}, act)
    connection.execute(delete(roles).where(roles.c.user_id == user_id))
    if role is not None:
        row = {"user_id": user_id, "role": role, "granted_at": act.now, "granted_by": act.actor}
        connection.execute(insert(roles).values(row))
    return line


def log_action(connection: Connection, action: str, detail: dict[str, Json], act: Act) -> LogLine:
    """Write a line of the admin log (in the caller's transaction, beside the action).

    :raises InvalidActionError: ``bad_reason`` (empty or over :data:`MAX_REASON`),
        ``naive_datetime``.
    """
    reason = act.reason.strip()
    check_text(reason, "reason", "bad_reason", limit=MAX_REASON)
    check_aware(act.now, "now")
    values = {
        "at": act.now, "actor": act.actor, "action": action, "target": act.target,
        "reason": reason, "detail_json": json.dumps(detail, ensure_ascii=False),
    }  # fmt: skip
    line_id = connection.execute(insert(admin_log).values(values)).inserted_primary_key
    assert line_id is not None
    return LogLine(int(line_id[0]), act.now, act.actor, action, act.target, reason, detail)


def log_lines(connection: Connection, *, limit: int, before: int | None = None) -> list[LogLine]:
    """The newest ``limit`` lines of the admin log (before line ``before``), newest first."""
    query = select(admin_log).order_by(admin_log.c.id.desc()).limit(limit)
    if before is not None:
        query = query.where(admin_log.c.id < before)
    return [_line_of(row) for row in connection.execute(query)]


def _line_of(row: Row[tuple[int, datetime, str, str, str | None, str, str]]) -> LogLine:
    detail = json.loads(row.detail_json)
    return LogLine(row.id, row.at, row.actor, row.action, row.target, row.reason, detail)


def adjust_coins(
    connection: Connection, system: SystemAccounts, user_id: int, amount: int, act: Act,
    *, key: str | None = None,
) -> LogLine:  # fmt: skip
    """Give (``amount`` > 0) or take (< 0) coins, logged; never below zero.  ``key`` (the
    operator's form's own): the same key twice moves the coins once (the ledger's key
    ``grant|penalty:admin:key:<key>``; else the log line's number).

    :raises InvalidActionError: ``bad_amount``, ``bad_reason``, ``unknown_user``.
    :raises IllegalActionError: ``insufficient_coins`` (a deduction beyond the balance),
        ``already_done`` (that key moved coins already: nothing written again).
    """
    if amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise InvalidActionError(
            "bad_amount", f"an adjustment is 1..{MAX_ADJUSTMENT} coins either way, not {amount}"
        )
    account = account_of(connection, user_id)
    line = log_action(connection, "grant" if amount > 0 else "deduct", {"amount": amount}, act)
    kind = "grant" if amount > 0 else "penalty"
    moves = (Entry(system.grants, -amount, "grant"), Entry(account, amount, "grant"))
    named = f"key:{key}" if key is not None else str(line.id)
    [posted] = ledger.post(connection, [Posting(f"{kind}:admin:{named}", kind, moves, act.now)])
    if not posted:  # (the caller's transaction is rolled back: no second log line)
        raise IllegalActionError("already_done", "this grant was made already")
    return line


def impose(
    connection: Connection, user_id: int, kind: str, until: datetime | None, act: Act
) -> LogLine:
    """Ban or mute ``user_id`` until ``until`` (``None``: for good), logged; a ban ends
    every session of the account at once.  One in force of the same kind is replaced.

    :raises InvalidActionError: ``bad_sanction``, ``bad_until`` (not after now),
        ``bad_reason``.
    """
    if kind not in SANCTION_KINDS:
        raise InvalidActionError("bad_sanction", f"a sanction is one of {SANCTION_KINDS}")
    if until is not None:
        check_aware(until, "until")
        if until <= act.now:
            raise InvalidActionError("bad_until", "a ban or mute ends after now")
    detail: dict[str, Json] = {"until": None if until is None else until.isoformat()}
    line = log_action(connection, kind, detail, act)
    _lift(connection, user_id, kind, act.now)
    row = {
        "user_id": user_id, "kind": kind, "starts_at": act.now, "until": until,
        "reason": line.reason,
    }  # fmt: skip
    connection.execute(insert(sanctions).values(row))
    if kind == "ban":
        connection.execute(delete(sessions).where(sessions.c.user_id == user_id))
    return line


def lift(connection: Connection, user_id: int, kind: str, act: Act) -> LogLine:
    """End ``user_id``'s ``kind`` (ban or mute) now, logged.

    :raises IllegalActionError: ``not_banned`` / ``not_muted`` (none in force).
    """
    if in_force(connection, user_id, kind, act.now) is None:
        code = "not_banned" if kind == "ban" else "not_muted"
        raise IllegalActionError(code, f"no {kind} in force")
    line = log_action(connection, f"un{kind}", {}, act)
    _lift(connection, user_id, kind, act.now)
    return line


def _lift(connection: Connection, user_id: int, kind: str, now: datetime) -> None:
    connection.execute(update(sanctions).where(_current(user_id, kind, now)).values(lifted_at=now))


def _current(user_id: int, kind: str, now: datetime) -> ColumnElement[bool]:
    return and_(
        sanctions.c.user_id == user_id,
        sanctions.c.kind == kind,
        sanctions.c.lifted_at.is_(None),
        or_(sanctions.c.until.is_(None), sanctions.c.until > now),
    )


def in_force(connection: Connection, user_id: int, kind: str, now: datetime) -> Sanction | None:
    """``user_id``'s ban or mute in force at ``now``, if any."""
    row = connection.execute(
        select(sanctions.c.kind, sanctions.c.until, sanctions.c.reason)
        .where(_current(user_id, kind, now))
        .order_by(sanctions.c.id.desc())
        .limit(1)
    ).first()
    return None if row is None else Sanction(row.kind, row.until, row.reason)


@dataclass(frozen=True)
class PlayerRow:
    """A player as the console's search lists him."""

    id: int
    """The user id."""
    name: str
    """His name."""
    created_at: datetime
    """When the account was made."""
    hands: int
    """Hands settled."""


def find_players(connection: Connection, text: str, *, limit: int) -> list[PlayerRow]:
    """Players whose name contains ``text`` (case-insensitive), the closest first: the
    exact name, then the names that begin with it, then the rest by name."""
    pattern = "%" + text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    lowered = func.lower(users.c.name)
    rank = (lowered == text.lower()).desc(), lowered.like(text.lower() + "%", escape="\\").desc()
    rows = connection.execute(
        select(users.c.id, users.c.name, users.c.created_at, users.c.hands)
        .where(lowered.like(pattern, escape="\\"))
        .order_by(*rank, users.c.name)
        .limit(limit)
    )
    return [PlayerRow(row.id, row.name, row.created_at, row.hands) for row in rows]


@dataclass(frozen=True)
class LedgerLine:
    """One ledger entry of a player's account, as the console lists it."""

    at: datetime
    """When."""
    key: str
    """The transaction's key (``settle:<hand>``, ``grant:admin:7``…)."""
    kind: str
    """The transaction's kind."""
    amount: int
    """Coins in (+) or out (−)."""
    reason: str
    """The entry's reason."""


def postings(connection: Connection, user_id: int, *, limit: int) -> list[LedgerLine]:
    """The newest ``limit`` ledger entries of ``user_id``'s account, newest first."""
    account = account_of(connection, user_id)
    rows = connection.execute(
        select(transactions.c.created_at, transactions.c.key, transactions.c.kind,
               entries.c.amount, entries.c.reason)
        .join(transactions, transactions.c.id == entries.c.transaction_id)
        .where(entries.c.account_id == account)
        .order_by(entries.c.id.desc())
        .limit(limit)
    )  # fmt: skip
    return [LedgerLine(r.created_at, r.key, r.kind, r.amount, r.reason) for r in rows]


@dataclass(frozen=True)
class SessionRow:
    """A session alive: until when, and the client's address when it began."""

    expires_at: datetime
    """When it ends by itself."""
    address: str | None
    """The client's address (``None``: unknown)."""


def live_sessions(connection: Connection, user_id: int, now: datetime) -> list[SessionRow]:
    """``user_id``'s sessions alive at ``now``, the newest ending last."""
    rows = connection.execute(
        select(sessions.c.expires_at, sessions.c.address)
        .where(sessions.c.user_id == user_id, sessions.c.expires_at > now)
        .order_by(sessions.c.expires_at)
    )
    return [SessionRow(row.expires_at, row.address) for row in rows]




def reset_password(connection: Connection, user_id: int, password_hash: str, act: Act) -> LogLine:
    """Give ``user_id`` a new password (its hash), logged; every session of his ends.

    :raises IllegalActionError: ``guest_account`` (a guest has no password to reset).
    """
    current = connection.execute(
        select(users.c.password_hash).where(users.c.id == user_id)
    ).scalar_one()
    if not current:
        raise IllegalActionError("guest_account", "a guest signs in by his token only")
    line = log_action(connection, "password", {}, act)
    mine = users.c.id == user_id
    connection.execute(update(users).where(mine).values(password_hash=password_hash))
    connection.execute(delete(sessions).where(sessions.c.user_id == user_id))
    return line


def delete_account(connection: Connection, user_id: int, act: Act) -> LogLine:
    """Remove ``user_id``'s personal data, logged: his name becomes ``已注销<id>`` (his
    name's keys freed), his password, sessions, role, friendships and chosen look go; his
    ledger rows, hands and matches stay under the same anonymous id, so that the audit
    still holds."""
    line = log_action(connection, "delete", {"id": user_id}, act)
    either = or_(friendships.c.low_id == user_id, friendships.c.high_id == user_id)
    connection.execute(delete(friendships).where(either))
    connection.execute(delete(sessions).where(sessions.c.user_id == user_id))
    connection.execute(delete(roles).where(roles.c.user_id == user_id))
    connection.execute(delete(name_keys).where(name_keys.c.user_id == user_id))
    anonymous = {"name": f"{DELETED_PREFIX}{user_id}", "password_hash": "", "avatar": None}
    connection.execute(update(users).where(users.c.id == user_id).values(anonymous))
    return line


@dataclass(frozen=True)
class PlayerPage:
    """What the console shows of one player (never his cards: only what the ledger, his
    hands' records and his sessions say)."""

    id: int
    """The user id."""
    name: str
    """His name."""
    created_at: datetime
    """When the account was made."""
    role: str | None
    """His console role, if any."""
    ban: Sanction | None
    """A ban in force."""
    mute: Sanction | None
    """A mute in force."""
    sessions: list[SessionRow]
    """Sessions alive now."""
    postings: list[LedgerLine]
    """His account's newest ledger entries."""


@dataclass(frozen=True)
class DayTakings:
    """What the house took and gave on one day (UTC): every sum is the house's gain."""

    day: str
    """``YYYY-MM-DD`` (UTC)."""
    rake: int
    """Rake taken from winners (``house:rake``)."""
    fees: int
    """Per-hand fees (``house:fees``)."""
    matches: int
    """The matches' surplus kept less the guarantees paid (``house:matches``)."""
    given: dict[str, int]
    """Coins given out by ``system:grants`` (negative: paid out; an operator's deduction
    comes back positive), by kind of posting: ``signup``, ``admin``, the economy's…"""


def takings(connection: Connection, system: SystemAccounts, since: datetime) -> list[DayTakings]:
    """The house's takings per day since ``since``, newest day first."""
    day = func.date(transactions.c.created_at)
    kept = (system.rake, system.fees, system.matches)
    sums = connection.execute(
        select(day, entries.c.account_id, func.sum(entries.c.amount))
        .join(transactions, transactions.c.id == entries.c.transaction_id)
        .where(transactions.c.created_at >= since, entries.c.account_id.in_(kept))
        .group_by(day, entries.c.account_id)
    ).all()
    found: dict[str, dict[int, int]] = {}
    for when, account, amount in sums:
        found.setdefault(str(when), {})[account] = int(amount)
    given: dict[str, dict[str, int]] = {}
    grants = connection.execute(
        select(transactions.c.created_at, transactions.c.key, entries.c.amount)
        .join(transactions, transactions.c.id == entries.c.transaction_id)
        .where(transactions.c.created_at >= since, entries.c.account_id == system.grants)
    )
    for created, key, amount in grants:
        day_given = given.setdefault(created.date().isoformat(), {})
        kind = _grant_kind(key)
        day_given[kind] = day_given.get(kind, 0) + int(amount)
    days = sorted(set(found) | set(given), reverse=True)
    return [
        DayTakings(
            day=when, rake=found.get(when, {}).get(system.rake, 0),
            fees=found.get(when, {}).get(system.fees, 0),
            matches=found.get(when, {}).get(system.matches, 0), given=given.get(when, {}),
        )
        for when in days
    ]  # fmt: skip


def _grant_kind(key: str) -> str:
    """``grant:signup:7`` → ``signup``, ``penalty:admin:3`` → ``admin``, ``checkin:…`` →
    ``checkin``."""
    parts = key.split(":")
    return parts[1] if parts[0] in ("grant", "penalty") and len(parts) > 2 else parts[0]


def hands_since(connection: Connection, since: datetime) -> int:
    """Hands settled since ``since``."""
    count: int = connection.execute(
        select(func.count())
        .select_from(hands)
        .where(hands.c.status == "settled", hands.c.ended_at >= since)
    ).scalar_one()
    return count


def runs_in_play(connection: Connection) -> int:
    """Match runs in play now."""
    count: int = connection.execute(
        select(func.count()).select_from(match_runs).where(match_runs.c.state == "running")
    ).scalar_one()
    return count


@dataclass(frozen=True)
class Schedule:
    """An operator's schedule of a configured match."""

    match_id: str
    """The match."""
    every_minutes: int
    """A scheduled match starts every so many minutes…"""
    at_minute: int
    """…at this minute of the period."""
    enabled: bool
    """Whether new runs open."""


def schedules(connection: Connection) -> dict[str, Schedule]:
    """Every schedule an operator set, by match."""
    rows = connection.execute(select(match_schedules))
    return {
        row.match_id: Schedule(row.match_id, row.every_minutes, row.at_minute, row.enabled)
        for row in rows
    }


def set_schedule(connection: Connection, schedule: Schedule, act: Act) -> LogLine:
    """Keep ``schedule`` (replacing the match's last), logged."""
    detail: dict[str, Json] = {
        "every_minutes": schedule.every_minutes, "at_minute": schedule.at_minute,
        "enabled": schedule.enabled,
    }  # fmt: skip
    line = log_action(connection, "schedule", detail, act)
    mine = match_schedules.c.match_id == schedule.match_id
    connection.execute(delete(match_schedules).where(mine))
    row = {**detail, "match_id": schedule.match_id, "updated_at": act.now, "updated_by": act.actor}
    connection.execute(insert(match_schedules).values(row))
    return line


class Console:
    """The console's store calls, each one transaction (an action with its log line); a
    player is named as the console names him, by his name (``unknown_player``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def role_of(self, user_id: int) -> str | None:
        """The console role of ``user_id`` (``None``: none)."""
        with self.store.read() as connection:
            return role_of(connection, user_id)

    def in_force(self, user_id: int, kind: str, now: datetime) -> Sanction | None:
        """``user_id``'s ban or mute in force at ``now``."""
        with self.store.read() as connection:
            return in_force(connection, user_id, kind, now)

    def set_role(self, role: str | None, act: Act) -> LogLine:
        """:func:`set_role` for the player ``act.target``."""
        with self.store.write() as connection:
            return set_role(connection, _user_id(connection, act.target), role, act)

    def adjust_coins(self, amount: int, act: Act, key: str | None = None) -> LogLine:
        """:func:`adjust_coins` for the player ``act.target``."""
        with self.store.write() as connection:
            user = _user_id(connection, act.target)
            return adjust_coins(connection, self.store.system, user, amount, act, key=key)

    def impose(self, kind: str, until: datetime | None, act: Act) -> tuple[int, LogLine]:
        """:func:`impose` on the player ``act.target``: his user id and the log line."""
        with self.store.write() as connection:
            user = _user_id(connection, act.target)
            return user, impose(connection, user, kind, until, act)

    def lift(self, kind: str, act: Act) -> LogLine:
        """:func:`lift` for the player ``act.target``."""
        with self.store.write() as connection:
            return lift(connection, _user_id(connection, act.target), kind, act)

    def schedules(self) -> dict[str, Schedule]:
        """:func:`schedules`."""
        with self.store.read() as connection:
            return schedules(connection)

    def set_schedule(self, schedule: Schedule, act: Act) -> LogLine:
        """:func:`set_schedule`."""
        with self.store.write() as connection:
            return set_schedule(connection, schedule, act)

    def note(self, action: str, detail: dict[str, Json], act: Act) -> LogLine:
        """Write the log line of an action done outside the database (a table closed in a
        hall's memory), once it was done."""
        with self.store.write() as connection:
            return log_action(connection, action, detail, act)

    def figures(self, now: datetime, *, days: int = 7) -> tuple[int, int, list[DayTakings]]:
        """Hands settled in the last 10 minutes, runs in play, and the house's takings of
        the last ``days`` days (the dashboard)."""
        with self.store.snapshot() as connection:
            recent = hands_since(connection, now - timedelta(minutes=10))
            since = (now - timedelta(days=days)).replace(hour=0, minute=0, second=0, microsecond=0)
            return recent, runs_in_play(connection), takings(connection, self.store.system, since)

    def last(self, action: str) -> LogLine | None:
        """The newest line of the admin log for ``action`` (the last audit…)."""
        with self.store.read() as connection:
            row = connection.execute(
                select(admin_log).where(admin_log.c.action == action)
                .order_by(admin_log.c.id.desc()).limit(1)
            ).first()  # fmt: skip
        return None if row is None else _line_of(row)

    def reset_password(self, password_hash: str, act: Act) -> tuple[int, LogLine]:
        """:func:`reset_password` for the player ``act.target``: his id and the line."""
        with self.store.write() as connection:
            user = _user_id(connection, act.target)
            return user, reset_password(connection, user, password_hash, act)

    def delete_account(self, act: Act) -> tuple[int, LogLine]:
        """:func:`delete_account` for the player ``act.target``: his id and the line."""
        with self.store.write() as connection:
            user = _user_id(connection, act.target)
            return user, delete_account(connection, user, act)

    def log(self, *, limit: int, before: int | None = None) -> list[LogLine]:
        """:func:`log_lines`."""
        with self.store.read() as connection:
            return log_lines(connection, limit=limit, before=before)

    def find(self, text: str, *, limit: int) -> list[PlayerRow]:
        """:func:`find_players`."""
        with self.store.read() as connection:
            return find_players(connection, text, limit=limit)

    def player(self, name: str, now: datetime, *, limit: int = 50) -> PlayerPage:
        """The console's page of the player called ``name``."""
        with self.store.read() as connection:
            user = _user_id(connection, name)
            row = connection.execute(
                select(users.c.name, users.c.created_at).where(users.c.id == user)
            ).one()
            return PlayerPage(
                id=user, name=row.name, created_at=row.created_at,
                role=role_of(connection, user), ban=in_force(connection, user, "ban", now),
                mute=in_force(connection, user, "mute", now),
                sessions=live_sessions(connection, user, now),
                postings=postings(connection, user, limit=limit),
            )  # fmt: skip


def _user_id(connection: Connection, name: str | None) -> int:
    found: int | None = connection.execute(select(users.c.id).where(users.c.name == name)).scalar()
    if found is None:
        raise InvalidActionError("unknown_player", f"no player called {name!r}")
    return found
