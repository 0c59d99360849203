"""Reports 举报 and the fair-play flags: what starts a moderator's queue.

A player reports another (why, and the hand it is about, if any); a moderator resolves
each report with an action (``dismiss``, ``warn``, ``mute``, ``ban``), the report closed
and the action logged in one transaction (:mod:`qipai.store.console`).  The flags are
read from the hands themselves, never stored: pairs of accounts that share an address and
sit at one table often, and, in the betting games, one account that keeps folding to the
same other account after raising (chip dumping); ``docs/operations.md`` says what each
measures.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations
from typing import TYPE_CHECKING

from sqlalchemy import Connection, and_, func, insert, select, update
from sqlalchemy.orm import aliased

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.registry.gametype import FOLD_AFTER_RAISE
from qipai.store.console import MAX_REASON, Act, LogLine, impose, log_action
from qipai.store.models import check_text
from qipai.store.schema import hand_seats, hands, reports, sessions, users

if TYPE_CHECKING:
    from qipai.store.store import Store

MAX_REPORTS_A_DAY = 20
"""Reports one player may file in 24 hours (``too_many_reports`` past it)."""
RESOLUTIONS = ("dismiss", "warn", "mute", "ban")
"""What a moderator may do with a report."""
FLAG_DAYS = 7
"""The flags look at the hands of the last days."""
FLAG_LEAST = 3
"""Hands together (or folds to the same winner) before a pair is flagged."""


@dataclass(frozen=True)
class ReportRow:
    """A report, as the queue lists it."""

    id: int
    """Its number."""
    at: datetime
    """When it was filed."""
    reporter: str
    """Who filed it."""
    reported: str
    """Whom it is about."""
    reason: str
    """Why, in the reporter's words."""
    hand: str | None
    """The hand it is about, if any (its replay: ``/api/hands/{hand}/replay``)."""
    seat: int | None
    """The reported player's seat in that hand (the replay's point of view)."""
    state: str
    """``open`` or ``closed``."""
    resolution: str | None
    """What the moderator did (``dismiss``, ``warn``, ``mute``, ``ban``)."""
    resolved_by: str | None
    """Who resolved it."""


@dataclass(frozen=True)
class Flag:
    """A pair of accounts the hands themselves point at."""

    kind: str
    """``shared_address`` or ``chip_dumping``."""
    players: tuple[str, ...]
    """The accounts (for chip dumping: the one who folded, then the one he folded to)."""
    count: int
    """Hands together (or folds after raising to that winner) in the last days."""
    hands: tuple[str, ...]
    """Those hands, newest first (at most ten)."""


def file_report(
    connection: Connection,
    reporter: int,
    name: str,
    reason: str,
    hand: str | None,
    *,
    now: datetime,
) -> int:  # fmt: skip
    """A new report by ``reporter`` of the player called ``name``; its number.

    :raises InvalidActionError: ``unknown_player``, ``bad_reason``, ``unknown_hand`` (no
        such hand, or one the reported player did not play).
    :raises IllegalActionError: ``not_yourself``, ``too_many_reports``.
    """
    reported = connection.execute(select(users.c.id).where(users.c.name == name)).scalar()
    if reported is None:
        raise InvalidActionError("unknown_player", f"no player called {name!r}")
    if reported == reporter:
        raise IllegalActionError("not_yourself", "a player does not report himself")
    check_text(reason.strip(), "reason", "bad_reason", limit=MAX_REASON)
    if hand is not None and _seat(connection, hand, reported) is None:
        raise InvalidActionError("unknown_hand", f"{name} did not play hand {hand!r}")
    filed = connection.execute(
        select(func.count())
        .select_from(reports)
        .where(reports.c.reporter_id == reporter, reports.c.at > now - timedelta(days=1))
    ).scalar_one()
    if filed >= MAX_REPORTS_A_DAY:
        raise IllegalActionError("too_many_reports", f"{MAX_REPORTS_A_DAY} reports a day at most")
    row = {
        "at": now, "reporter_id": reporter, "reported_id": reported, "reason": reason.strip(),
        "hand_id": hand, "state": "open",
    }  # fmt: skip
    key = connection.execute(insert(reports).values(row)).inserted_primary_key
    assert key is not None
    return int(key[0])


def _seat(connection: Connection, hand: str, user: int) -> int | None:
    seat: int | None = connection.execute(
        select(hand_seats.c.seat).where(hand_seats.c.hand_id == hand, hand_seats.c.user_id == user)
    ).scalar()
    return seat


def report_rows(connection: Connection, state: str, *, limit: int) -> list[ReportRow]:
    """The reports in ``state``, the oldest open first (closed: the newest first).

    :raises InvalidActionError: ``bad_state``.
    """
    if state not in ("open", "closed"):
        raise InvalidActionError("bad_state", "state: open or closed")
    reporter, reported = aliased(users), aliased(users)
    order = reports.c.id if state == "open" else reports.c.id.desc()
    seat = (
        select(hand_seats.c.seat)
        .where(
            hand_seats.c.hand_id == reports.c.hand_id, hand_seats.c.user_id == reports.c.reported_id
        )
        .scalar_subquery()
    )
    rows = connection.execute(
        select(reports.c.id, reports.c.at, reporter.c.name, reported.c.name, reports.c.reason,
               reports.c.hand_id, seat, reports.c.state, reports.c.resolution,
               reports.c.resolved_by)
        .join(reporter, reporter.c.id == reports.c.reporter_id)
        .join(reported, reported.c.id == reports.c.reported_id)
        .where(reports.c.state == state)
        .order_by(order)
        .limit(limit)
    )  # fmt: skip
    return [
        ReportRow(
            id=row[0], at=row[1], reporter=row[2], reported=row[3], reason=row[4], hand=row[5],
            seat=row[6], state=row[7], resolution=row[8], resolved_by=row[9],
        )
        for row in rows
    ]  # fmt: skip


def resolve(
    connection: Connection, report: int, action: str, until: datetime | None, act: Act
) -> tuple[int, LogLine]:
    """Close report ``report`` with ``action``, logged; ``mute`` and ``ban`` impose it on
    the reported player until ``until`` (a ban: ``None`` for good) in the same transaction.
    The reported player's id, and the log line.

    :raises InvalidActionError: ``unknown_report``, ``bad_resolution``, ``bad_until``.
    :raises IllegalActionError: ``report_closed``.
    """
    if action not in RESOLUTIONS:
        raise InvalidActionError("bad_resolution", f"an action is one of {', '.join(RESOLUTIONS)}")
    row = connection.execute(
        select(reports.c.state, reports.c.reported_id).where(reports.c.id == report)
    ).first()
    if row is None:
        raise InvalidActionError("unknown_report", f"no report {report}")
    if row.state != "open":
        raise IllegalActionError("report_closed", f"report {report} is resolved already")
    if action in ("mute", "ban"):
        if action == "mute" and until is None:
            raise InvalidActionError("bad_until", "a mute ends: give its minutes")
        impose(connection, row.reported_id, action, until, act)
    line = log_action(connection, "report", {"report": report, "action": action}, act)
    connection.execute(
        update(reports)
        .where(reports.c.id == report)
        .values(state="closed", resolution=action, resolved_by=act.actor, resolved_at=act.now)
    )
    reported: int = row.reported_id
    return reported, line


def flags(connection: Connection, now: datetime) -> list[Flag]:
    """The fair-play flags over the hands of the last :data:`FLAG_DAYS` days: each pair
    seen in at least :data:`FLAG_LEAST` hands, the most first."""
    seats = _recent_seats(connection, now - timedelta(days=FLAG_DAYS))
    found = [*_shared_addresses(connection, seats), *_chip_dumping(connection, seats)]
    return sorted(found, key=lambda flag: (-flag.count, flag.kind, flag.players))


def _names(connection: Connection, ids: set[int]) -> dict[int, str]:
    rows = connection.execute(select(users.c.id, users.c.name).where(users.c.id.in_(ids)))
    return {row.id: row.name for row in rows}


Seats = list[tuple[str, int, bool, str | None]]
"""(hand, user, won, feats) of every person's seat in the hands looked at, newest first."""


def _recent_seats(connection: Connection, since: datetime) -> Seats:
    """(hand, user, won, feats) of every person's seat in the hands settled since."""
    rows = connection.execute(
        select(hand_seats.c.hand_id, hand_seats.c.user_id, hand_seats.c.won, hand_seats.c.feats)
        .join(hands, hands.c.id == hand_seats.c.hand_id)
        .where(and_(hands.c.status == "settled", hands.c.ended_at >= since,
                    hand_seats.c.user_id.is_not(None)))
        .order_by(hands.c.ended_at.desc())
    )  # fmt: skip
    return [(row.hand_id, row.user_id, bool(row.won), row.feats) for row in rows]


def _shared_addresses(connection: Connection, seats: Seats) -> list[Flag]:
    """Pairs of accounts whose sessions came from one address and who sat at one table in
    at least :data:`FLAG_LEAST` hands."""
    by_address: defaultdict[str, set[int]] = defaultdict(set)
    for address, user in connection.execute(
        select(sessions.c.address, sessions.c.user_id).where(sessions.c.address.is_not(None))
    ):
        by_address[address].add(user)
    sharing = {
        pair for users_of in by_address.values() for pair in combinations(sorted(users_of), 2)
    }
    if not sharing:
        return []
    at_hand: defaultdict[str, set[int]] = defaultdict(set)
    order: list[str] = []
    for hand, user, _, _ in seats:
        if hand not in at_hand:
            order.append(hand)
        at_hand[hand].add(user)
    together: defaultdict[tuple[int, int], list[str]] = defaultdict(list)
    for hand in order:
        for pair in combinations(sorted(at_hand[hand]), 2):
            if pair in sharing:
                together[pair].append(hand)
    return _flagged(connection, "shared_address", together)


def _chip_dumping(connection: Connection, seats: Seats) -> list[Flag]:
    """(loser, winner) pairs: the loser raised then folded, and the winner won that hand,
    in at least :data:`FLAG_LEAST` hands."""
    winners: defaultdict[str, set[int]] = defaultdict(set)
    for hand, user, won, _ in seats:
        if won:
            winners[hand].add(user)
    folds: defaultdict[tuple[int, int], list[str]] = defaultdict(list)
    for hand, user, _, feats in seats:
        if feats is not None and FOLD_AFTER_RAISE in feats.split(","):
            for winner in winners[hand] - {user}:
                folds[user, winner].append(hand)
    return _flagged(connection, "chip_dumping", folds)


def _flagged(
    connection: Connection, kind: str, pairs: dict[tuple[int, int], list[str]]
) -> list[Flag]:
    kept = {pair: found for pair, found in pairs.items() if len(found) >= FLAG_LEAST}
    names = _names(connection, {user for pair in kept for user in pair})
    counted = Counter({pair: len(found) for pair, found in kept.items()})
    return [
        Flag(kind, (names[a], names[b]), count, tuple(kept[a, b][:10]))
        for (a, b), count in counted.most_common()
    ]


class ReportDesk:
    """The reports' store calls, each one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def file(self, reporter: int, name: str, reason: str, hand: str | None, now: datetime) -> int:
        """:func:`file_report`."""
        with self.store.write() as connection:
            return file_report(connection, reporter, name, reason, hand, now=now)

    def rows(self, state: str, *, limit: int) -> list[ReportRow]:
        """:func:`report_rows`."""
        with self.store.read() as connection:
            return report_rows(connection, state, limit=limit)

    def resolve(
        self, report: int, action: str, until: datetime | None, act: Act
    ) -> tuple[int, LogLine]:
        """:func:`resolve`: the reported player's id, and the log line."""
        with self.store.write() as connection:
            return resolve(connection, report, action, until, act)

    def flags(self, now: datetime) -> list[Flag]:
        """:func:`flags`."""
        with self.store.snapshot() as connection:
            return flags(connection, now)
