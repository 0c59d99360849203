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
from qipai.store.ledger import SystemAccounts
from qipai.store.schema import accounts, entries, hand_seats, hands, transactions, users
from qipai.store.store import Store


@dataclass(frozen=True)
class Problem:
    """One discrepancy: a stable ``code`` and what exactly is wrong."""

    code: str
    """``unbalanced``, ``balance_mismatch``, ``negative_balance``, ``not_conserved``,
    ``bad_key``, ``void_with_entries``, ``missing_settlement``, ``duplicate_settlement``,
    ``missing_void``, ``duplicate_void``, ``two_outcomes``, ``status_mismatch``,
    ``unfinished``, ``seat_mismatch`` or ``stats_mismatch``."""
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
        _outcomes, _seats, _stats,
    ]  # fmt: skip
    if not allow_playing:
        checks.append(_unfinished)
    return [problem for check in checks for problem in check(connection)]


def summary(store: Store) -> str:
    """``ok: N transactions, M hands (…), K users, C coins held by players``."""
    with store.snapshot() as connection:
        count = connection.execute(select(func.count()).select_from(transactions)).scalar_one()
        by_status: dict[str, int] = dict(
            connection.execute(
                select(hands.c.status, func.count()).group_by(hands.c.status)
            ).all()
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


def audit_main(url: str, *, allow_playing: bool = False, out: TextIO | None = None) -> int:
    """Audit the database at ``url`` and print the report; returns the exit status.

    0: no discrepancy (prints ``ok: …``); 1: discrepancies (one line each, then a count);
    2: the audit could not run (bad URL, no such SQLite file, unreachable server, a
    database that is not at the newest revision: it is never migrated by the audit).
    """
    stream = out or sys.stdout
    try:
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
