"""Helpers of the store tests: a fixed clock, hands to deal and settle, a dump of every row,
SQL that tampers with the ledger."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select, text

from qipai.store import HandSettlement, HandStart, Store
from qipai.store.audit import Problem, audit_connection
from qipai.store.schema import accounts, entries, metadata, transactions

NOW = datetime(2026, 5, 10, 12, 0, tzinfo=UTC)
"""The tests' clock."""
GRANT = 1_000_000
"""Starting coins of the tests' players: enough that random hands never run out."""
STEPS = ("transaction", "entries", "balances", "hand", "stats")
"""The settlement's steps, in order, as the fault hook sees them."""
AT = "'2026-05-10 12:00:00'"
"""A timestamp literal both databases take."""


def players(store: Store, count: int, *, grant: int = GRANT) -> list[int]:
    """Register ``p0``, ``p1``… with ``grant`` coins each; their ids."""
    return [store.register(f"p{i}", "hash", grant=grant, now=NOW) for i in range(count)]


def deal(hand_id: str, seats: Sequence[int | None], *, minute: int = 0) -> HandStart:
    """A Dou Dizhu hand with these players (``None``: a bot)."""
    return HandStart(
        hand_id, "doudizhu-yifa", "doudizhu", "yifa", table=1, commitment="0" * 64,
        players=tuple(seats), started_at=NOW + timedelta(minutes=minute),
    )  # fmt: skip


def outcome(
    hand_id: str,
    net: Sequence[int],
    *,
    rake: Sequence[int] | None = None,
    fees: Sequence[int] | None = None,
    escaper: int | None = None,
) -> HandSettlement:
    """A settlement: winners are the seats with a positive net, points follow the net's sign."""
    zero = (0,) * len(net)
    return HandSettlement(
        hand_id, tuple(net), tuple(rake or zero), tuple(fees or zero),
        points=tuple((n > 0) - (n < 0) for n in net),
        winners=tuple(seat for seat, n in enumerate(net) if n > 0),
        record_json=f'{{"hand":"{hand_id}"}}', ended_at=NOW + timedelta(minutes=1),
        escaper=escaper,
    )  # fmt: skip


def random_hand(
    rng: random.Random, hand_id: str, users: Sequence[int]
) -> tuple[HandStart, HandSettlement]:
    """A hand of 2 to 6 seats (some bots) with a random zero-sum result, rake and fee."""
    seats = rng.randint(2, 6)
    humans = rng.sample(list(users), rng.randint(1, min(seats, len(users))))
    seated: list[int | None] = [*humans, *[None] * (seats - len(humans))]
    rng.shuffle(seated)
    gross = [rng.randint(-500, 500) for _ in range(seats - 1)]
    gross.append(-sum(gross))
    rake = [g * rng.choice((0, 5)) // 100 if g > 0 else 0 for g in gross]
    fees = [rng.choice((0, 0, 10, 50))] * seats
    net = [g - r - f for g, r, f in zip(gross, rake, fees, strict=True)]
    escaper = rng.choice([None, None, None, *range(seats)])
    settlement = outcome(hand_id, net, rake=rake, fees=fees, escaper=escaper)
    return deal(hand_id, seated, minute=rng.randint(0, 10_000)), settlement


def dump(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a fixed order: equal dumps mean nothing changed."""
    with store.read() as connection:
        return {
            table.name: [
                tuple(row)
                for row in connection.execute(select(table).order_by(*table.primary_key.columns))
            ]
            for table in metadata.sorted_tables
        }


def execute(store: Store, *statements: str) -> None:
    """Run raw SQL in one transaction (tampering with the ledger behind the store's back)."""
    with store.write() as connection:
        for statement in statements:
            connection.execute(text(statement))


def entry(key: str, account: str, amount: int, reason: str, seat: int | None = None) -> str:
    """SQL adding one entry to a transaction, by key and account name."""
    number = "NULL" if seat is None else str(seat)
    return (
        "INSERT INTO entries (transaction_id, account_id, amount, reason, seat) VALUES ("
        f"(SELECT id FROM transactions WHERE key = '{key}'), "
        f"(SELECT id FROM accounts WHERE name = '{account}'), {amount}, '{reason}', {number})"
    )


def moved(account: str, amount: int) -> str:
    """SQL changing an account's stored balance."""
    return f"UPDATE accounts SET balance = balance + {amount} WHERE name = '{account}'"


def transaction(key: str, kind: str, hand: str | None = None, *, run: str | None = None) -> str:
    """SQL adding a transaction row (about a hand, or a match run)."""
    hand_id = "NULL" if hand is None else f"'{hand}'"
    run_id = "NULL" if run is None else f"'{run}'"
    return (
        "INSERT INTO transactions (key, kind, hand_id, run_id, created_at) "
        f"VALUES ('{key}', '{kind}', {hand_id}, {run_id}, {AT})"
    )


def crash_child(script: str, url: str, step: str) -> subprocess.Popen[str]:
    """Start ``script`` (a child beside this file) on ``url``, set to die at ``step``
    (``QIPAI_CRASH_STEP``), with the sources and this folder on its path."""
    here = Path(__file__).resolve().parent
    environment = {**os.environ, "QIPAI_CRASH_STEP": step}
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(here.parents[1] / "src"), str(here), environment.get("PYTHONPATH")])
    )
    return subprocess.Popen(
        [sys.executable, str(here / script), url],
        env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


class CrashError(Exception):
    """What the fault hook raises."""


def crash_at(chosen: str, seen: list[str] | None = None) -> Callable[[str], None]:
    """A fault hook that raises :class:`CrashError` at the chosen step (recording those it
    sees)."""

    def hook(step: str) -> None:
        if seen is not None:
            seen.append(step)
        if step == chosen:
            raise CrashError(step)

    return hook


def balances(store: Store) -> dict[str, int]:
    """Every account's balance by name."""
    with store.read() as connection:
        return dict(connection.execute(select(accounts.c.name, accounts.c.balance)).all())


def entries_of(store: Store, key: str) -> list[tuple[str, int, str, int | None]]:
    """The entries of one transaction: (account, amount, reason, seat), in order."""
    with store.read() as connection:
        rows = connection.execute(
            select(accounts.c.name, entries.c.amount, entries.c.reason, entries.c.seat)
            .join_from(entries, transactions, transactions.c.id == entries.c.transaction_id)
            .join(accounts, accounts.c.id == entries.c.account_id)
            .where(transactions.c.key == key)
            .order_by(entries.c.id)
        )
        return [tuple(row) for row in rows]


def codes(problems: list[Problem]) -> set[str]:
    """The distinct codes reported."""
    return {problem.code for problem in problems}


def missed_tampering(
    store: Store, cases: Mapping[str, tuple[Sequence[str], set[str]]]
) -> dict[str, set[str]]:
    """Each case whose statements, run in a transaction that is then rolled back, did not
    make the audit (of what that transaction sees) report exactly the expected codes: what
    it reported instead."""
    wrong = {}
    for case, (statements, expected) in cases.items():
        with store.write() as connection:
            for statement in statements:
                connection.execute(text(statement))
            found = codes(audit_connection(connection))
            connection.rollback()
        if found != expected:
            wrong[case] = found
    return wrong
