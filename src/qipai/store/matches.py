"""Match runs 比赛 in the ledger: entry fees held in escrow, then prizes or refunds.

A run is opened (``registering``) with its own escrow account ``match:<run id>`` (a system
account: no user).  Each registration holds the entry fee there (``match_entry``), a
withdrawal returns it (``match_refund``); the run starts (``running``) and ends one of two
ways, each one ledger transaction that leaves the escrow at exactly zero:

- **finished**: ``match_payout:<run>`` (kind ``match_prize``) pays each prize out of the
  escrow; ``house:matches`` pays what the escrow lacks (the guarantee) or takes what is
  left over (the surplus);
- **cancelled** (too few players, a failure, or a hall that stopped while the run was
  registering or running): ``match_cancel:<run>`` (kind ``match_refund``) returns every
  current registration's fee.

Every one of those transactions is built by the pure :mod:`qipai.hall.match.coins` (what
moves between which accounts, and why); this module locks the run, checks its state and
registrations, reads the accounts and the escrow's balance, and writes what it is given.

Registrations are rows of ``match_entries``, one per registration, kept when withdrawn:
``number`` counts them per run from 1 and is never reused, and is the ``seat`` of the
registration's entries in the ledger, so every coin of a run can be traced to one
registration (the audit checks that none is refunded twice).  A user has at most one
current registration per run (checked here under the run's lock, and by a partial unique
index).

A running run keeps its state after its last finished hand (``snapshot_json``,
:func:`save_snapshot`): the hall that runs the matches next carries it on from there
(:func:`snapshots`) and cancels only the runs it cannot (:func:`cancel_open`).  With
several hall processes the calls that drive a run (start, save, finish, cancel at start)
carry the matches' lease :class:`~qipai.store.models.Fence`, checked in their own
transaction (:mod:`qipai.store.fences`): a process that lost the matches can change no run.

Every function works on a connection inside a transaction the caller opened, and the
caller rolls the whole back when one raises.  Those that change a run lock its row first
(PostgreSQL ``FOR NO KEY UPDATE``; an SQLite writer holds the whole database): calls on
one run queue, and always take the run before the accounts, so they never deadlock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeAlias

from sqlalchemy import Connection, Select, func, insert, select, true, update
from sqlalchemy.exc import IntegrityError

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.match import coins as matchcoins
from qipai.hall.match.coins import Entrant, Escrow, MatchPosting
from qipai.store import accounts as players
from qipai.store import fences, hands, ledger
from qipai.store.ledger import Entry, Fault, Posting, SystemAccounts
from qipai.store.models import (
    NAME_LENGTH,
    Fence,
    MatchResultRow,
    MatchRunRow,
    check_aware,
    check_text,
)
from qipai.store.schema import MATCH_STATES, accounts, match_entries, match_runs

ESCROW_PREFIX = "match:"
"""An escrow account is named ``match:<run id>``."""
RUN_ID_LENGTH = NAME_LENGTH - len(ESCROW_PREFIX)
"""The longest run id: its escrow's name must fit the accounts' 64 characters."""
OPEN_STATES = ("registering", "running")
"""A run in these states holds entry fees; a hall that stops leaves them to be carried on
(running, with a snapshot) or cancelled."""
STEPS = ("transaction", "entries", "balances", "match")
"""The steps of a call that moves coins, as its fault hook sees them: the ledger's three
(:func:`qipai.store.ledger.post`), then ``match`` (the registration or the run's state)."""

ResultsQuery: TypeAlias = (
    "Select[str, str, str, int, int, int, int | None, int | None, datetime | None, datetime | None]"
)
"""A user's results: the run, its match and state, his number, the fee, the entrants, his
rank and prize, the times (:class:`~qipai.store.models.MatchResultRow`)."""
RunsQuery: TypeAlias = (
    "Select[str, str, str, int, int, datetime, datetime | None, datetime | None, str | None]"
)
"""Runs: id, match, state, fee, registered, the times, the final standings
(:class:`~qipai.store.models.MatchRunRow`)."""


def escrow_name(run_id: str) -> str:
    """``match:<run id>``: the name of the run's escrow account."""
    return f"{ESCROW_PREFIX}{run_id}"


@dataclass(frozen=True)
class _Run:
    """A run's row as the functions that change it need it."""

    id: str
    state: str
    entry_fee: int
    account: int
    """The escrow account's id."""

    @property
    def escrow(self) -> Escrow:
        """The run's escrow, as :mod:`qipai.hall.match.coins` builds its postings."""
        return Escrow(self.id, self.account, self.entry_fee)


@dataclass(frozen=True)
class _Registration:
    """A current registration, with the user's ledger account."""

    user: int
    number: int
    account: int

    @property
    def entrant(self) -> Entrant:
        """The registration as :mod:`qipai.hall.match.coins` builds its postings."""
        return Entrant(self.number, self.account)


def open_run(
    connection: Connection, run_id: str, match_id: str, entry_fee: int, now: datetime
) -> None:
    """Create the run, ``registering``, with its empty escrow account ``match:<run id>``.

    :raises InvalidActionError: ``bad_run`` (empty, or longer than :data:`RUN_ID_LENGTH`),
        ``bad_match`` (empty or too long), ``bad_amount`` (a negative fee),
        ``naive_datetime``.
    :raises IllegalActionError: ``run_exists``.
    """
    check_text(run_id, "run_id", "bad_run", limit=RUN_ID_LENGTH)
    check_text(match_id, "match_id", "bad_match")
    if entry_fee < 0:
        raise InvalidActionError("bad_amount", f"an entry fee is never negative: {entry_fee}")
    check_aware(now, "now")
    taken = connection.execute(select(match_runs.c.id).where(match_runs.c.id == run_id))
    if taken.first() is not None:
        raise IllegalActionError("run_exists", f"run {run_id} was opened before")
    try:
        account: int = connection.execute(
            insert(accounts).values(name=escrow_name(run_id), balance=0).returning(accounts.c.id)
        ).scalar_one()
        connection.execute(
            insert(match_runs).values(
                id=run_id, match_id=match_id, state="registering", entry_fee=entry_fee,
                account_id=account, created_at=now,
            )
        )  # fmt: skip
    except IntegrityError as error:  # opened meanwhile by another process
        raise IllegalActionError("run_exists", f"run {run_id} was opened before") from error


def register(connection: Connection, run_id: str, user_id: int, now: datetime, fault: Fault) -> int:
    """Register the user: hold the entry fee in the escrow; returns the registration number.

    :raises InvalidActionError: ``unknown_run``, ``unknown_user``, ``naive_datetime``.
    :raises IllegalActionError: ``match_closed`` (the run is not registering),
        ``already_registered``, ``already_in_room`` (a seat in a hand in play: his
        coins are the table's), ``insufficient_coins``.
    """
    check_aware(now, "now")
    run = _lock(connection, run_id)
    if run.state != "registering":
        raise IllegalActionError("match_closed", f"run {run_id} is {run.state}")
    account = players.account_of(connection, user_id)
    if any(r.user == user_id for r in _current(connection, [run_id])[run_id]):
        raise IllegalActionError("already_registered", f"user {user_id} is in run {run_id}")
    if hands.in_play(connection, user_id):  # (the hall refuses it first: one place each)
        raise IllegalActionError("already_in_room", f"user {user_id} plays a hand")
    last = connection.execute(
        select(func.max(match_entries.c.number)).where(match_entries.c.run_id == run_id)
    ).scalar_one()
    number = (last or 0) + 1
    _post(connection, matchcoins.fee_held(run.escrow, Entrant(number, account)), now, fault)
    connection.execute(
        insert(match_entries).values(
            run_id=run_id, number=number, user_id=user_id, registered_at=now
        )
    )
    fault("match")
    return number


def unregister(
    connection: Connection, run_id: str, user_id: int, now: datetime, fault: Fault
) -> None:
    """Withdraw the user's registration and return his entry fee from the escrow.

    :raises InvalidActionError: ``unknown_run``, ``naive_datetime``.
    :raises IllegalActionError: ``match_closed`` (the run is not registering),
        ``not_registered``.
    """
    check_aware(now, "now")
    run = _lock(connection, run_id)
    if run.state != "registering":
        raise IllegalActionError("match_closed", f"run {run_id} is {run.state}")
    found = [r for r in _current(connection, [run_id])[run_id] if r.user == user_id]
    if not found:
        raise IllegalActionError("not_registered", f"user {user_id} is not in run {run_id}")
    registration = found[0]
    _post(connection, matchcoins.fee_refunded(run.escrow, registration.entrant), now, fault)
    connection.execute(
        update(match_entries)
        .where(match_entries.c.run_id == run_id, match_entries.c.number == registration.number)
        .values(withdrawn_at=now)
    )
    fault("match")


def registrations(connection: Connection, run_id: str) -> list[tuple[int, int]]:
    """The current registrations, ``(user id, number)`` in registration order.

    :raises InvalidActionError: ``unknown_run``.
    """
    found = connection.execute(select(match_runs.c.id).where(match_runs.c.id == run_id))
    if found.first() is None:
        raise InvalidActionError("unknown_run", f"no run {run_id}")
    return [(r.user, r.number) for r in _current(connection, [run_id])[run_id]]


def start(connection: Connection, run_id: str, now: datetime, fence: Fence | None = None) -> None:
    """``registering`` → ``running`` (no coins move), under ``fence`` if given.

    :raises InvalidActionError: ``unknown_run``, ``naive_datetime``.
    :raises IllegalActionError: ``match_closed`` (not registering), ``stale_lease``.
    """
    check_aware(now, "now")
    fences.check_all(connection, [fence])
    run = _lock(connection, run_id)
    if run.state != "registering":
        raise IllegalActionError("match_closed", f"run {run_id} is {run.state}")
    connection.execute(
        update(match_runs).where(match_runs.c.id == run_id).values(state="running", started_at=now)
    )


def finish(
    connection: Connection,
    system: SystemAccounts,
    run_id: str,
    prizes: Mapping[int, int],
    standings_json: str,
    *,
    now: datetime,
    fault: Fault,
    fence: Fence | None = None,
    ranks: Mapping[int, int] | None = None,
    told: Collection[int] = (),
) -> bool:
    """Pay the prizes and close the escrow: one transaction ``match_payout:<run>``.

    Each prize goes from the escrow to its user (``prize``, the registration's number as
    the seat); ``house:matches`` pays the escrow what it lacks (``guarantee``) or takes
    what is left (``surplus``), so the escrow ends at 0.  The run becomes ``finished``
    with the standings; each registration keeps its user's final rank (``ranks``) and
    prize, told now for the users in ``told`` (the others when they next come:
    :func:`untold`).  Returns ``False``, paying nothing, if it already was.

    :raises InvalidActionError: ``unknown_run``, ``bad_amount`` (a prize not above 0),
        ``naive_datetime``.
    :raises IllegalActionError: ``match_not_running`` (still registering),
        ``match_cancelled``, ``not_registered`` (a prize for a user not currently
        registered in the run), ``stale_lease`` (``fence`` is not the newest).
    """
    check_aware(now, "now")
    if any(coins <= 0 for coins in prizes.values()):
        raise InvalidActionError("bad_amount", f"prizes are positive: {dict(prizes)}")
    fences.check_all(connection, [fence])
    run = _lock(connection, run_id)
    if run.state == "finished":
        return False
    if run.state == "cancelled":
        raise IllegalActionError("match_cancelled", f"run {run_id} was cancelled")
    if run.state != "running":
        raise IllegalActionError("match_not_running", f"run {run_id} is {run.state}")
    current = {r.user: r for r in _current(connection, [run_id])[run_id]}
    strangers = sorted(set(prizes) - set(current))
    if strangers:
        raise IllegalActionError("not_registered", f"users {strangers} are not in run {run_id}")
    pool = connection.execute(
        select(accounts.c.balance).where(accounts.c.id == run.account)
    ).scalar_one()
    won = [(current[user].entrant, prizes[user]) for user in prizes]
    payout = matchcoins.prizes_paid(run.escrow, house=system.matches, pool=pool, prizes=won)
    _post(connection, payout, now, fault)
    connection.execute(
        update(match_runs)
        .where(match_runs.c.id == run_id)
        .values(state="finished", ended_at=now, standings_json=standings_json)
    )
    _keep_results(
        connection, run_id, entries=list(current.values()), prizes=prizes, ranks=ranks or {},
        told=told, now=now,
    )  # fmt: skip
    fault("match")
    return True


def _keep_results(
    connection: Connection,
    run_id: str,
    *,
    entries: Sequence[_Registration],
    prizes: Mapping[int, int],
    ranks: Mapping[int, int],
    told: Collection[int],
    now: datetime,
) -> None:
    """Each registration's rank, prize and whether its user was told them now."""
    for entry in entries:
        connection.execute(
            update(match_entries)
            .where(match_entries.c.run_id == run_id, match_entries.c.number == entry.number)
            .values(
                rank=ranks.get(entry.user),
                prize=prizes.get(entry.user, 0),
                told_at=now if entry.user in told else None,
            )
        )


def results(connection: Connection, user_id: int, *, limit: int) -> list[MatchResultRow]:
    """The runs the user played (registered and not withdrawn, started), newest first,
    with his rank and prize once known (战绩).

    :raises InvalidActionError: ``bad_limit``.
    """
    players.check_limit(limit)
    query = _results_query().where(match_entries.c.user_id == user_id)
    query = query.order_by(match_runs.c.started_at.desc(), match_runs.c.id.desc()).limit(limit)
    return [MatchResultRow(*row) for row in connection.execute(query)]


def untold(connection: Connection, user_id: int) -> list[tuple[MatchResultRow, str]]:
    """The user's results of finished runs he has not been told (with each run's
    standings JSON), oldest first."""
    query = (
        _results_query()
        .add_columns(match_runs.c.standings_json)
        .where(match_entries.c.user_id == user_id, match_runs.c.state == "finished",
               match_entries.c.rank.is_not(None), match_entries.c.told_at.is_(None))
        .order_by(match_runs.c.ended_at, match_runs.c.id)
    )  # fmt: skip
    return [(MatchResultRow(*row[:-1]), row[-1]) for row in connection.execute(query)]


def mark_told(
    connection: Connection, user_id: int, run_ids: Collection[str], now: datetime
) -> set[str]:
    """Mark the user told of those runs' results; the runs he had not been told before
    (another connection may have taken one meanwhile).

    :raises InvalidActionError: ``naive_datetime``.
    """
    check_aware(now, "now")
    marked = set()
    for run_id in run_ids:
        done = connection.execute(
            update(match_entries)
            .where(match_entries.c.run_id == run_id, match_entries.c.user_id == user_id,
                   match_entries.c.withdrawn_at.is_(None), match_entries.c.told_at.is_(None))
            .values(told_at=now)
        )  # fmt: skip
        if done.rowcount:
            marked.add(run_id)
    return marked


def _results_query() -> ResultsQuery:
    """A user's registrations in runs that started (not withdrawn), as result rows."""
    others = match_entries.alias("others")
    entrants = (
        select(func.count())
        .where(others.c.run_id == match_runs.c.id, others.c.withdrawn_at.is_(None))
        .scalar_subquery()
    )
    return (
        select(match_runs.c.id, match_runs.c.match_id, match_runs.c.state,
               match_entries.c.number, match_runs.c.entry_fee, entrants,
               match_entries.c.rank, match_entries.c.prize, match_runs.c.started_at,
               match_runs.c.ended_at)
        .join_from(match_entries, match_runs, match_runs.c.id == match_entries.c.run_id)
        .where(match_entries.c.withdrawn_at.is_(None), match_runs.c.started_at.is_not(None))
    )  # fmt: skip


def cancel(connection: Connection, run_id: str, now: datetime, fault: Fault) -> bool:
    """Cancel a run that has not finished: refund every current registration in one
    transaction ``match_cancel:<run>``.  ``False`` (nothing done) if already cancelled.

    :raises InvalidActionError: ``unknown_run``, ``naive_datetime``.
    :raises IllegalActionError: ``match_finished``.
    """
    check_aware(now, "now")
    run = _lock(connection, run_id)
    if run.state == "cancelled":
        return False
    if run.state == "finished":
        raise IllegalActionError("match_finished", f"run {run_id} has finished")
    _cancel(connection, [run], now, fault)
    return True


def cancel_open(
    connection: Connection,
    now: datetime,
    fault: Fault,
    *,
    keep: Collection[str] = (),
    match_ids: Collection[str] | None = None,
    fence: Fence | None = None,
) -> list[str]:
    """Cancel, with refunds, every run still registering or running (of the matches
    ``match_ids`` names, if given) but those in ``keep``; their ids, sorted.

    What the hall that takes the matches does (at its start, or on taking them over):
    ``keep`` holds the running runs it carries on from their snapshots, ``match_ids``
    the matches it runs (another hall on the same database may run others).

    :raises IllegalActionError: ``stale_lease`` (``fence`` is not the newest).
    """
    check_aware(now, "now")
    fences.check_all(connection, [fence])
    rows = connection.execute(
        select(match_runs.c.id, match_runs.c.state, match_runs.c.entry_fee,
               match_runs.c.account_id)
        .where(match_runs.c.state.in_(OPEN_STATES), match_runs.c.id.not_in(list(keep)),
               true() if match_ids is None else match_runs.c.match_id.in_(list(match_ids)))
        .order_by(match_runs.c.id)
        .with_for_update(key_share=True)
    ).all()  # fmt: skip
    runs = [_Run(*row) for row in rows]
    _cancel(connection, runs, now, fault)
    return [run.id for run in runs]


def save_snapshot(
    connection: Connection, run_id: str, snapshot_json: str, fence: Fence | None = None
) -> bool:
    """Keep ``snapshot_json`` as the running run's state; ``False`` (nothing kept) if the
    run is not running (finished or cancelled meanwhile).

    :raises IllegalActionError: ``stale_lease`` (``fence`` is not the newest).
    """
    fences.check_all(connection, [fence])
    saved = connection.execute(
        update(match_runs)
        .where(match_runs.c.id == run_id, match_runs.c.state == "running")
        .values(snapshot_json=snapshot_json)
    )
    return bool(saved.rowcount)


def snapshots(connection: Connection) -> dict[str, tuple[str, str]]:
    """The running runs that have a snapshot: run id → (match id, snapshot JSON)."""
    rows = connection.execute(
        select(match_runs.c.id, match_runs.c.match_id, match_runs.c.snapshot_json)
        .where(match_runs.c.state == "running", match_runs.c.snapshot_json.is_not(None))
        .order_by(match_runs.c.id)
    )
    return {run_id: (match_id, data) for run_id, match_id, data in rows}


def _cancel(connection: Connection, runs: Sequence[_Run], now: datetime, fault: Fault) -> None:
    """Refund the runs' current registrations (one transaction per run), mark them cancelled."""
    if not runs:
        return
    current = _current(connection, [run.id for run in runs])
    postings = [
        matchcoins.run_cancelled(r.escrow, [e.entrant for e in current[r.id]]) for r in runs
    ]
    _post_all(connection, postings, now, fault)
    connection.execute(
        update(match_runs)
        .where(match_runs.c.id.in_([run.id for run in runs]))
        .values(state="cancelled", ended_at=now)
    )
    fault("match")


def run_row(connection: Connection, run_id: str) -> MatchRunRow | None:
    """The run, with its count of current registrations (``None``: no such run)."""
    rows = connection.execute(_rows_query().where(match_runs.c.id == run_id))
    row = rows.first()
    return None if row is None else MatchRunRow(*row)


def run_rows(
    connection: Connection,
    states: Collection[str] | None = None,
    *,
    match_id: str | None = None,
    limit: int = 100,
) -> list[MatchRunRow]:
    """Runs, newest first (by ``created_at``, then id), of the given states (``None``: all)
    and match.

    :raises InvalidActionError: ``bad_state``, ``bad_limit``.
    """
    players.check_limit(limit)
    query = _rows_query()
    if states is not None:
        unknown = sorted(set(states) - set(MATCH_STATES))
        if unknown:
            raise InvalidActionError("bad_state", f"states are {MATCH_STATES}, not {unknown}")
        query = query.where(match_runs.c.state.in_(sorted(states)))
    if match_id is not None:
        query = query.where(match_runs.c.match_id == match_id)
    query = query.order_by(match_runs.c.created_at.desc(), match_runs.c.id.desc()).limit(limit)
    return [MatchRunRow(*row) for row in connection.execute(query)]


def _rows_query() -> RunsQuery:
    registered = (
        select(func.count())
        .where(match_entries.c.run_id == match_runs.c.id, match_entries.c.withdrawn_at.is_(None))
        .scalar_subquery()
    )
    return select(
        match_runs.c.id, match_runs.c.match_id, match_runs.c.state, match_runs.c.entry_fee,
        registered, match_runs.c.created_at, match_runs.c.started_at, match_runs.c.ended_at,
        match_runs.c.standings_json,
    )  # fmt: skip


def _lock(connection: Connection, run_id: str) -> _Run:
    """The run's row, locked until commit (PostgreSQL ``FOR NO KEY UPDATE``: it does not
    block the key-share locks that inserting rows which refer to it takes).

    :raises InvalidActionError: ``unknown_run``.
    """
    row = connection.execute(
        select(match_runs.c.id, match_runs.c.state, match_runs.c.entry_fee,
               match_runs.c.account_id)
        .where(match_runs.c.id == run_id)
        .with_for_update(key_share=True)
    ).first()  # fmt: skip
    if row is None:
        raise InvalidActionError("unknown_run", f"no run {run_id}")
    return _Run(*row)


def _current(connection: Connection, run_ids: Sequence[str]) -> dict[str, list[_Registration]]:
    """Each run's current registrations, in registration order, with the users' accounts."""
    rows = connection.execute(
        select(match_entries.c.run_id, match_entries.c.user_id, match_entries.c.number,
               accounts.c.id)
        .join_from(match_entries, accounts, accounts.c.user_id == match_entries.c.user_id)
        .where(match_entries.c.run_id.in_(run_ids), match_entries.c.withdrawn_at.is_(None))
        .order_by(match_entries.c.run_id, match_entries.c.number)
    )  # fmt: skip
    found: defaultdict[str, list[_Registration]] = defaultdict(list)
    for run_id, user, number, account in rows:
        found[run_id].append(_Registration(user, number, account))
    return {run_id: found[run_id] for run_id in run_ids}


def _post(connection: Connection, posting: MatchPosting, now: datetime, fault: Fault) -> None:
    _post_all(connection, [posting], now, fault)


def _post_all(
    connection: Connection, postings: Sequence[MatchPosting], now: datetime, fault: Fault
) -> None:
    """Write the run's transactions as :mod:`qipai.hall.match.coins` built them, at ``now``;
    their keys must be new: the run's lock and state say they are.

    :raises RuntimeError: a key already in the ledger (a ledger edited behind the store's
        back; the caller's transaction is rolled back).
    """
    recorded = ledger.post(connection, [_ledger_posting(p, now) for p in postings], fault=fault)
    if not all(recorded):
        used = [p.key for p, ok in zip(postings, recorded, strict=True) if not ok]
        raise RuntimeError(f"the ledger already has {used}, which the runs' states deny")


def _ledger_posting(posting: MatchPosting, now: datetime) -> Posting:
    """The ledger's transaction of a run's posting, recorded at ``now``."""
    moves = tuple(Entry(m.account, m.amount, m.reason, m.number) for m in posting.moves)
    return Posting(posting.key, posting.kind, moves, now, run_id=posting.run_id)
