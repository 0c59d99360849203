"""The audit of the whole ledger: every rule the store keeps, checked from the rows alone.

:func:`audit` reads one consistent snapshot and returns a :class:`Problem` per discrepancy;
:func:`audit_main` is ``qipai audit --db URL``: it prints them, or ``ok: …``, and returns
the exit status (0 clean, 1 discrepancies, 2 the audit could not run).  The checks and
their codes are listed in ``docs/ledger.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from sqlalchemy import ColumnElement, Connection, and_, case, func, literal, or_, select
from sqlalchemy.exc import SQLAlchemyError

from qipai.errors import GameError
from qipai.store import database
from qipai.store.economy import paid_per_day, zone_of
from qipai.store.ledger import SystemAccounts
from qipai.store.matches import OPEN_STATES
from qipai.store.schema import (
    accounts,
    entries,
    hand_seats,
    hands,
    match_entries,
    match_runs,
    transactions,
    users,
)
from qipai.store.store import Store


@dataclass(frozen=True)
class Problem:
    """One discrepancy: a stable ``code`` and what exactly is wrong."""

    code: str
    """``unbalanced``, ``balance_mismatch``, ``negative_balance``, ``not_conserved``,
    ``bad_key``, ``void_with_entries``, ``missing_settlement``, ``duplicate_settlement``,
    ``missing_void``, ``duplicate_void``, ``two_outcomes``, ``status_mismatch``,
    ``unfinished``, ``seat_mismatch``, ``stats_mismatch``, ``match_escrow_not_empty``,
    ``match_escrow_mismatch``, ``match_double_refund`` or ``match_outcome_mismatch``."""
    message: str
    """The rows concerned and the figures that disagree."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


Check = Callable[[Connection], Iterable[Problem]]


def audit(store: Store, *, allow_playing: bool = False) -> list[Problem]:
    """Every discrepancy in the store, from one snapshot of the database.

    ``allow_playing`` accepts hands still ``playing`` (auditing a running hall); otherwise
    each is reported as ``unfinished`` (the server voids them when it starts).
    """
    with store.snapshot() as connection:
        return audit_connection(connection, allow_playing=allow_playing)


def audit_connection(connection: Connection, *, allow_playing: bool = False) -> list[Problem]:
    """:func:`audit` on a connection the caller holds (it sees what that transaction sees)."""
    checks: list[Check] = [
        _unbalanced, _balances, _negative, _conservation, _keys, _void_entries,
        _outcomes, _seats, _stats, _match_escrows, _match_refunds, _match_outcomes,
    ]  # fmt: skip
    if not allow_playing:
        checks.append(_unfinished)
    return [problem for check in checks for problem in check(connection)]


def summary(store: Store) -> str:
    """``ok: N transactions, M hands (…), K users, C coins held by players``."""
    with store.snapshot() as connection:
        count = connection.execute(select(func.count()).select_from(transactions)).scalar_one()
        by_status: dict[str, int] = dict(
            connection.execute(select(hands.c.status, func.count()).group_by(hands.c.status)).all()
        )
        players = connection.execute(select(func.count()).select_from(users)).scalar_one()
        coins = connection.execute(
            select(func.coalesce(func.sum(accounts.c.balance), 0)).where(
                accounts.c.user_id.is_not(None)
            )
        ).scalar_one()
    statuses = ", ".join(f"{by_status.get(s, 0)} {s}" for s in ("settled", "voided", "playing"))
    return (
        f"ok: {count} transactions, {sum(by_status.values())} hands ({statuses}), "
        f"{players} users, {coins} coins held by players"
    )


def payouts(store: Store, timezone: str = "Asia/Shanghai") -> list[str]:
    """What the house paid out of ``system:grants`` per day (in ``timezone``) and reason,
    one line each, ``paid DAY REASON COINS``, then ``paid DAY total COINS`` per day:
    ``signup`` (the starting coins), ``checkin``, ``relief``, ``task``
    (:mod:`qipai.store.economy`), the other grants by their key's first part.

    :raises InvalidActionError: ``bad_room`` (an unknown zone).
    """
    with store.snapshot() as connection:
        rows = paid_per_day(connection, timezone)
    lines: list[str] = []
    for index, (day, reason, coins) in enumerate(rows):
        lines.append(f"paid {day} {reason} {coins}")
        if index + 1 == len(rows) or rows[index + 1][0] != day:
            lines.append(f"paid {day} total {sum(c for d, _, c in rows if d == day)}")
    return lines


def audit_main(
    url: str, *, allow_playing: bool = False, out: TextIO | None = None,
    timezone: str = "Asia/Shanghai",
) -> int:  # fmt: skip
    """Audit the database at ``url`` and print the report; returns the exit status.

    0: no discrepancy (prints ``ok: …``, then what the house paid out per day and reason,
    :func:`payouts`, its days in ``timezone``); 1: discrepancies (one line each, then a count);
    2: the audit could not run (bad URL, no such SQLite file, unreachable server, a
    database that is not at the newest revision: it is never migrated by the audit).
    """
    stream = out or sys.stdout
    try:
        zone_of(timezone)
        store = _open_existing(url)
    except (GameError, SQLAlchemyError, OSError) as error:
        print(f"error: cannot audit {database.display(url)}: {error}", file=sys.stderr)
        return 2
    with store:
        problems = audit(store, allow_playing=allow_playing)
        for problem in problems:
            print(problem, file=stream)
        if problems:
            print(f"failed: {len(problems)} discrepancies", file=stream)
            return 1
        print(summary(store), file=stream)
        for line in payouts(store, timezone):
            print(line, file=stream)
        return 0


def _open_existing(url: str) -> Store:
    path = database.sqlite_path(database.normalize_url(url))
    if path is not None and not path.is_file():
        raise OSError(f"no database file {path}")
    return Store.open(url, migrate=False)


# --- the checks ---------------------------------------------------------------------------


def _unbalanced(connection: Connection) -> Iterator[Problem]:
    total = func.sum(entries.c.amount)
    rows = connection.execute(
        select(transactions.c.key, total)
        .join_from(transactions, entries, entries.c.transaction_id == transactions.c.id)
        .group_by(transactions.c.id, transactions.c.key)
        .having(total != 0)
        .order_by(transactions.c.id)
    )
    for key, amount in rows:
        yield Problem("unbalanced", f"transaction {key} sums to {amount}, not 0")


def _balances(connection: Connection) -> Iterator[Problem]:
    total = func.coalesce(func.sum(entries.c.amount), 0)
    rows = connection.execute(
        select(accounts.c.name, accounts.c.balance, total)
        .join_from(accounts, entries, entries.c.account_id == accounts.c.id, isouter=True)
        .group_by(accounts.c.id, accounts.c.name, accounts.c.balance)
        .having(accounts.c.balance != total)
        .order_by(accounts.c.id)
    )
    for name, stored, summed in rows:
        yield Problem("balance_mismatch", f"account {name} holds {stored}, its entries {summed}")


def _negative(connection: Connection) -> Iterator[Problem]:
    rows = connection.execute(
        select(accounts.c.name, accounts.c.balance)
        .where(accounts.c.user_id.is_not(None), accounts.c.balance < 0)
        .order_by(accounts.c.id)
    )
    for name, stored in rows:
        yield Problem("negative_balance", f"account {name} holds {stored}")


def _conservation(connection: Connection) -> Iterator[Problem]:
    held = connection.execute(select(func.coalesce(func.sum(accounts.c.balance), 0))).scalar()
    if held:
        yield Problem("not_conserved", f"the balances of all accounts sum to {held}, not 0")


def _keys(connection: Connection) -> Iterator[Problem]:
    expected = {
        "settle": literal("settle:") + transactions.c.hand_id,
        "void": literal("void:") + transactions.c.hand_id,
    }
    wrong = or_(
        *(
            and_(transactions.c.kind == kind,
                 or_(transactions.c.hand_id.is_(None), transactions.c.key != key))
            for kind, key in expected.items()
        ),
        and_(transactions.c.kind == "grant", transactions.c.key.not_like("grant:%")),
    )  # fmt: skip
    rows = connection.execute(
        select(transactions.c.key, transactions.c.kind, transactions.c.hand_id)
        .where(wrong)
        .order_by(transactions.c.id)
    )
    for key, kind, hand in rows:
        yield Problem("bad_key", f"{kind} transaction {key} is about hand {hand}")
    yield from _match_keys(connection)


def _match_keys(connection: Connection) -> Iterator[Problem]:
    """``match_*`` transactions keyed for their run; no other kind names a run."""
    run, key = transactions.c.run_id, transactions.c.key

    def numbered(prefix: str) -> ColumnElement[bool]:  # prefix, run id, ":", a number
        begun = literal(prefix) + run + literal(":")
        return and_(func.substr(key, 1, func.length(begun)) == begun,
                    func.length(key) > func.length(begun))  # fmt: skip

    right = or_(
        and_(transactions.c.kind == "match_entry", numbered("match_entry:")),
        and_(transactions.c.kind == "match_refund",
             or_(key == literal("match_cancel:") + run, numbered("match_refund:"))),
        and_(transactions.c.kind == "match_prize", key == literal("match_payout:") + run),
    )  # fmt: skip
    is_match = transactions.c.kind.in_(("match_entry", "match_refund", "match_prize"))
    wrong = or_(and_(is_match, or_(run.is_(None), ~right)), and_(~is_match, run.is_not(None)))
    rows = connection.execute(
        select(key, transactions.c.kind, run).where(wrong).order_by(transactions.c.id)
    )
    for found, kind, run_id in rows:
        yield Problem("bad_key", f"{kind} transaction {found} is about match run {run_id}")


def _void_entries(connection: Connection) -> Iterator[Problem]:
    rows = connection.execute(
        select(transactions.c.key, func.count())
        .join_from(transactions, entries, entries.c.transaction_id == transactions.c.id)
        .where(transactions.c.kind == "void")
        .group_by(transactions.c.id, transactions.c.key)
        .order_by(transactions.c.id)
    )
    for key, count in rows:
        yield Problem("void_with_entries", f"void transaction {key} moves coins ({count} entries)")


def _count(kind: str) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((transactions.c.kind == kind, 1), else_=0)), 0)


def _outcomes(connection: Connection) -> Iterator[Problem]:
    rows = connection.execute(
        select(hands.c.id, hands.c.status, _count("settle"), _count("void"))
        .join_from(hands, transactions, transactions.c.hand_id == hands.c.id, isouter=True)
        .group_by(hands.c.id, hands.c.status)
        .order_by(hands.c.id)
    )
    for hand, status, settles, voids in rows:
        yield from _outcome_problems(hand, status, int(settles), int(voids))


def _outcome_problems(hand: str, status: str, settles: int, voids: int) -> Iterator[Problem]:
    """What is wrong with one hand's status and its settle and void transactions."""
    if settles > 1:
        yield Problem("duplicate_settlement", f"hand {hand} has {settles} settlements")
    if voids > 1:
        yield Problem("duplicate_void", f"hand {hand} has {voids} void transactions")
    if settles and voids:
        yield Problem("two_outcomes", f"hand {hand} was both settled and voided")
    if status == "settled" and not settles:
        yield Problem("missing_settlement", f"hand {hand} is settled without a settlement")
    if status == "voided" and not voids:
        yield Problem("missing_void", f"hand {hand} is voided without a void transaction")
    if (settles and status != "settled") or (voids and status != "voided"):
        yield Problem(
            "status_mismatch", f"hand {hand} is {status} with {settles} settle, {voids} void"
        )


def _unfinished(connection: Connection) -> Iterator[Problem]:
    rows = connection.execute(
        select(hands.c.id).where(hands.c.status == "playing").order_by(hands.c.id)
    )
    for hand in rows.scalars():
        yield Problem("unfinished", f"hand {hand} is still playing")


def _seats(connection: Connection) -> Iterator[Problem]:
    """Each finished seat's ``net`` against its entries on its own account in the settlement."""
    system = SystemAccounts.load(connection)
    booked = (
        select(transactions.c.hand_id, entries.c.seat, entries.c.account_id,
               func.sum(entries.c.amount).label("total"))
        .join_from(entries, transactions, transactions.c.id == entries.c.transaction_id)
        .where(transactions.c.kind == "settle")
        .group_by(transactions.c.hand_id, entries.c.seat, entries.c.account_id)
        .subquery()
    )  # fmt: skip
    seat_account = case((hand_seats.c.user_id.is_(None), system.bots), else_=accounts.c.id)
    total = func.coalesce(booked.c.total, 0)
    query = (
        select(hand_seats.c.hand_id, hand_seats.c.seat, hand_seats.c.net, total)
        .join_from(hand_seats, hands, hands.c.id == hand_seats.c.hand_id)
        .join(accounts, accounts.c.user_id == hand_seats.c.user_id, isouter=True)
        .join(booked,
              and_(booked.c.hand_id == hand_seats.c.hand_id, booked.c.seat == hand_seats.c.seat,
                   booked.c.account_id == seat_account),
              isouter=True)
        .where(hands.c.status != "playing",
               or_(hand_seats.c.net.is_(None), hand_seats.c.net != total))
        .order_by(hand_seats.c.hand_id, hand_seats.c.seat)
    )  # fmt: skip
    for hand, seat, net, summed in connection.execute(query):
        yield Problem("seat_mismatch", f"hand {hand} seat {seat}: net {net}, entries {summed}")


def _stats(connection: Connection) -> Iterator[Problem]:
    """Each user's hands, wins and points against his seats in settled hands."""
    played = (
        select(
            hand_seats.c.user_id.label("user_id"),
            func.count().label("hands"),
            func.sum(case((hand_seats.c.won, 1), else_=0)).label("wins"),
            func.sum(hand_seats.c.points).label("points"),
        )
        .join_from(hand_seats, hands, hands.c.id == hand_seats.c.hand_id)
        .where(hands.c.status == "settled", hand_seats.c.user_id.is_not(None))
        .group_by(hand_seats.c.user_id)
        .subquery()
    )
    counted = [func.coalesce(played.c[name], 0) for name in ("hands", "wins", "points")]
    stored = [users.c.hands, users.c.wins, users.c.points]
    rows = connection.execute(
        select(users.c.name, *stored, *counted)
        .join_from(users, played, played.c.user_id == users.c.id, isouter=True)
        .where(or_(*(s != c for s, c in zip(stored, counted, strict=True))))
        .order_by(users.c.id)
    )
    for name, *figures in rows:
        yield Problem(
            "stats_mismatch",
            f"user {name}: hands/wins/points {tuple(figures[:3])}, hands show {tuple(figures[3:])}",
        )


def _match_escrows(connection: Connection) -> Iterator[Problem]:
    """A run's escrow: ``entry_fee`` × its current registrations while the run is open,
    0 once it has finished or been cancelled."""
    current = (
        select(match_entries.c.run_id, func.count().label("registered"))
        .where(match_entries.c.withdrawn_at.is_(None))
        .group_by(match_entries.c.run_id)
        .subquery()
    )
    registered = func.coalesce(current.c.registered, 0)
    is_open = match_runs.c.state.in_(OPEN_STATES)
    held = case((is_open, match_runs.c.entry_fee * registered), else_=0)
    rows = connection.execute(
        select(match_runs.c.id, match_runs.c.state, match_runs.c.entry_fee, registered,
               accounts.c.name, accounts.c.balance)
        .join_from(match_runs, accounts, accounts.c.id == match_runs.c.account_id)
        .join(current, current.c.run_id == match_runs.c.id, isouter=True)
        .where(accounts.c.balance != held)
        .order_by(match_runs.c.id)
    )  # fmt: skip
    for run, state, fee, count, name, balance in rows:
        if state in OPEN_STATES:
            yield Problem(
                "match_escrow_mismatch",
                f"run {run} ({state}): {name} holds {balance}, not {count} × {fee}",
            )
        else:
            yield Problem("match_escrow_not_empty", f"run {run} ({state}): {name} holds {balance}")


def _match_refunds(connection: Connection) -> Iterator[Problem]:
    """No registration refunded twice: coins go back to a user, per run and registration
    number (the entries' seat), in at most one ``match_refund`` transaction."""
    rows = connection.execute(
        select(transactions.c.run_id, entries.c.seat, func.count(), func.sum(entries.c.amount))
        .join_from(entries, transactions, transactions.c.id == entries.c.transaction_id)
        .join(accounts, accounts.c.id == entries.c.account_id)
        .where(
            transactions.c.kind == "match_refund",
            entries.c.amount > 0,
            accounts.c.user_id.is_not(None),
        )
        .group_by(transactions.c.run_id, entries.c.seat)
        .having(func.count() > 1)
        .order_by(transactions.c.run_id, entries.c.seat)
    )
    for run, number, count, amount in rows:
        yield Problem(
            "match_double_refund",
            f"run {run} registration {number} was refunded {count} times ({amount} coins)",
        )


def _match_outcomes(connection: Connection) -> Iterator[Problem]:
    """A finished run has one payout and no cancellation, a cancelled one the reverse, an
    open one neither."""
    payouts = func.coalesce(func.sum(case((transactions.c.kind == "match_prize", 1), else_=0)), 0)
    cancels = func.coalesce(
        func.sum(case((transactions.c.key == literal("match_cancel:") + match_runs.c.id, 1),
                      else_=0)), 0,
    )  # fmt: skip
    rows = connection.execute(
        select(match_runs.c.id, match_runs.c.state, payouts, cancels)
        .join_from(match_runs, transactions, transactions.c.run_id == match_runs.c.id,
                   isouter=True)
        .group_by(match_runs.c.id, match_runs.c.state)
        .order_by(match_runs.c.id)
    )  # fmt: skip
    expected = {"finished": (1, 0), "cancelled": (0, 1)}
    for run, state, paid, cancelled in rows:
        if (int(paid), int(cancelled)) != expected.get(state, (0, 0)):
            yield Problem(
                "match_outcome_mismatch",
                f"run {run} is {state} with {paid} payouts, {cancelled} cancellations",
            )
