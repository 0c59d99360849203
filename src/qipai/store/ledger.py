"""The coin ledger: double-entry, append-only, integer coins, each transaction at most once.

A transaction is a row with a unique ``key`` (``settle:<hand>``, ``grant:signup:<user>``…)
and entries that move coins between accounts, summing to zero.  :func:`post` writes the
transaction, its entries and the new balances on a connection already inside a database
transaction; the caller commits or rolls back the whole.  Nothing here (nor anywhere in the
store) updates or deletes a transaction or an entry: a correction is a new transaction.

A user account's balance never goes below zero: the database refuses it with a CHECK
constraint and :func:`post` turns that into ``IllegalActionError("insufficient_coins")``.
System accounts (``house:rake``, ``house:fees``, ``system:grants``, ``system:bots``,
``house:matches``) may go negative: grants are paid out of ``system:grants``, bots lose
into ``system:bots`` and ``house:matches`` pays the matches' guarantees.  A match run's
escrow ``match:<run>`` is a system account too (no user), kept at or above zero by
:mod:`qipai.store.matches` and back at zero when the run ends (the audit checks both).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import BigInteger, Connection, Insert, Integer, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.store.bulk import update_rows
from qipai.store.schema import accounts, entries, transactions

Fault = Callable[[str], None]
"""A hook called between the steps of a settlement (crash-injection tests raise from it)."""

RAKE, FEES, GRANTS, BOTS = "house:rake", "house:fees", "system:grants", "system:bots"
MATCHES = "house:matches"
SYSTEM_NAMES = (RAKE, FEES, GRANTS, BOTS, MATCHES)
"""The system accounts the migrations open (``house:matches``: migration ``0003``)."""


def no_fault(_step: str) -> None:
    """The hook used when the caller injects nothing."""


def user_account_name(user_id: int) -> str:
    """``user:<id>``: the name of a user's account."""
    return f"user:{user_id}"


@dataclass(frozen=True)
class Entry:
    """Coins into (+) or out of (−) one account, with why, and the seat it concerns."""

    account: int
    """The account id."""
    amount: int
    """Coins, never zero."""
    reason: str
    """``win``, ``loss``, ``rake``, ``fee``, ``escape``, ``grant``, ``refund``, or for match
    runs ``entry``, ``prize``, ``guarantee``, ``surplus`` (and ``refund``)."""
    seat: int | None = None
    """The hand's seat this entry is about, or in a match run the registration's number
    (``None`` otherwise)."""


@dataclass(frozen=True)
class SystemAccounts:
    """The ids of the system accounts, read once when the store opens."""

    rake: int
    """``house:rake``: the rake taken from winners."""
    fees: int
    """``house:fees``: per-hand fees."""
    grants: int
    """``system:grants``: where granted coins come from (goes negative)."""
    bots: int
    """``system:bots``: the one account of every bot seat."""
    matches: int
    """``house:matches``: pays the matches' guarantees, keeps their surplus (goes negative)."""

    @classmethod
    def load(cls, connection: Connection) -> SystemAccounts:
        """Read the ids.

        :raises InvalidActionError: ``not_migrated`` when an account is missing.
        """
        rows = connection.execute(
            select(accounts.c.name, accounts.c.id).where(accounts.c.name.in_(SYSTEM_NAMES))
        )
        ids: dict[str, int] = dict(rows.all())
        if set(ids) != set(SYSTEM_NAMES):
            raise InvalidActionError("not_migrated", "the system accounts are missing")
        return cls(ids[RAKE], ids[FEES], ids[GRANTS], ids[BOTS], ids[MATCHES])


@dataclass(frozen=True)
class Posting:
    """One transaction to record: its unique key, kind, entries and time."""

    key: str
    """Unique over the whole ledger: ``settle:<hand>``, ``void:<hand>``, ``grant:<key>``,
    ``match_entry:<run>:<number>``…"""
    kind: str
    """``grant``, ``settle``, ``void``, ``refund``, ``penalty``, ``match_entry``,
    ``match_refund`` or ``match_prize``."""
    moves: tuple[Entry, ...]
    """The entries, summing to zero (none for a void)."""
    created_at: datetime
    """When it happened (aware)."""
    hand_id: str | None = None
    """The hand it settles or voids."""
    run_id: str | None = None
    """The match run of a ``match_*`` transaction."""


def post(
    connection: Connection, postings: Sequence[Posting], *, fault: Fault = no_fault
) -> list[bool]:
    """Record transactions: their rows, their entries, the new balances, in a few statements.

    Returns, per posting, whether it was recorded: ``False`` (and nothing written for it)
    when its key was already used.  Calls ``fault("transaction")``, ``fault("entries")``
    and ``fault("balances")`` after each step.

    :raises InvalidActionError: ``unbalanced`` if a posting's entries do not sum to zero or
        one is zero; ``duplicate_key`` for one key twice in ``postings``.
    :raises IllegalActionError: ``insufficient_coins`` if a user balance would go negative
        (the caller must roll back: rows and entries are written by then).
    """
    for posting in postings:
        moves = posting.moves
        if sum(move.amount for move in moves) or any(move.amount == 0 for move in moves):
            problem = "entries must sum to 0, none be 0"
            raise InvalidActionError("unbalanced", f"{posting.key}: {problem}")
    if len({posting.key for posting in postings}) != len(postings):
        raise InvalidActionError("duplicate_key", "each posting needs its own key")
    ids = _insert_transactions(connection, postings)
    fault("transaction")
    recorded = [posting for posting in postings if posting.key in ids]
    rows = [_entry_row(ids[p.key], move) for p in recorded for move in p.moves]
    if rows:
        connection.execute(insert(entries), rows)
    fault("entries")
    apply_balances(connection, [move for posting in recorded for move in posting.moves])
    fault("balances")
    return [posting.key in ids for posting in postings]


def _insert_transactions(connection: Connection, postings: Sequence[Posting]) -> dict[str, int]:
    """Insert the rows whose key is new; their ids by key."""
    if not postings:
        return {}
    rows = [
        {"key": p.key, "kind": p.kind, "hand_id": p.hand_id, "run_id": p.run_id,
         "created_at": p.created_at}
        for p in postings
    ]  # fmt: skip
    result = connection.execute(_insert_new(connection), rows)
    return {key: int(row_id) for row_id, key in result.all()}


def _insert_new(connection: Connection) -> Insert:
    """``INSERT … ON CONFLICT (key) DO NOTHING RETURNING id, key`` in the connection's dialect."""
    statement: Insert
    if connection.dialect.name == "postgresql":
        statement = postgresql.insert(transactions).on_conflict_do_nothing(index_elements=["key"])
    else:
        statement = sqlite.insert(transactions).on_conflict_do_nothing(index_elements=["key"])
    return statement.returning(transactions.c.id, transactions.c.key)


def _entry_row(transaction_id: int, move: Entry) -> dict[str, object]:
    return {
        "transaction_id": transaction_id,
        "account_id": move.account,
        "amount": move.amount,
        "reason": move.reason,
        "seat": move.seat,
    }


def apply_balances(connection: Connection, moves: Iterable[Entry]) -> None:
    """Add each account's total to its balance (locked in account order: no deadlock).

    :raises IllegalActionError: ``insufficient_coins`` when the CHECK refuses a balance.
    """
    totals: defaultdict[int, int] = defaultdict(int)
    for move in moves:
        totals[move.account] += move.amount
    changes = [{"b_account": a, "b_delta": d} for a, d in sorted(totals.items()) if d]
    try:
        update_rows(
            connection, accounts, {"b_account": Integer(), "b_delta": BigInteger()}, changes,
            match=lambda row: [accounts.c.id == row["b_account"]],
            changes=lambda row: {"balance": accounts.c.balance + row["b_delta"]},
            lock=(accounts.c.id, "b_account"),
        )  # fmt: skip
    except IntegrityError as error:
        raise IllegalActionError(
            "insufficient_coins", "a player's coins may not go below zero"
        ) from error
