"""The store: one object the server calls (from a worker thread) for everything it keeps.

Each method is one database transaction: it either happens entirely or, when it raises,
changes nothing.  The methods are synchronous and thread-safe (each takes a connection
from the engine's pool).

>>> from datetime import UTC, datetime
>>> store = Store.open("sqlite://")
>>> now = datetime(2026, 5, 10, 12, 0, tzinfo=UTC)
>>> ann = store.register("ann", "argon2-hash", grant=1000, now=now)
>>> bob = store.register("bob", "argon2-hash", grant=1000, now=now)
>>> store.start_hand(HandStart("h1", "doudizhu-yifa", "doudizhu", "yifa", table=1,
...     commitment="c" * 64, players=(ann, bob, None), started_at=now))
>>> outcome = HandSettlement("h1", net=(114, -60, -60), rake=(6, 0, 0), fees=(0, 0, 0),
...     points=(2, -1, -1), winners=(0,), record_json="{}", ended_at=now)
>>> store.settle_hand(outcome), store.settle_hand(outcome)
(True, False)
>>> store.balance(ann), store.balance(bob)
(1114, 940)
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine

from qipai.errors import InvalidActionError
from qipai.store import accounts, database, fences, friends, hands, matches, privates
from qipai.store.ledger import Fault, SystemAccounts, no_fault
from qipai.store.models import (
    Fence,
    HandSettlement,
    HandStart,
    HistoryRow,
    LeaderRow,
    MatchResultRow,
    MatchRunRow,
    Profile,
    User,
)


class Store:
    """Accounts, sessions, the coin ledger, the hands and the match runs, in one database.

    Open it with :meth:`open`; close it with :meth:`close` (or use it as a context manager).
    """

    url: str
    """The database URL, driver made explicit (it may hold a password: log
    :attr:`display_url` instead)."""

    def __init__(self, url: str, engine: Engine, system: SystemAccounts) -> None:
        """Wrap an engine whose database is migrated; use :meth:`open` instead."""
        self.url = url
        self._engine = engine
        self._writer = database.writer(engine)
        self._snapshot = database.snapshot(engine)
        self._system = system

    @classmethod
    def open(cls, url: str | None = None, *, migrate: bool = True) -> Store:
        """Connect, and create or upgrade the schema to the newest revision (Alembic).

        ``url`` ``None`` is the SQLite file ``qipai.db`` in the user's data folder.
        ``migrate=False`` (the audit) leaves the schema as it is.

        :raises InvalidActionError: ``bad_database_url``; ``not_migrated`` if
            ``migrate=False`` and the database is not at the newest revision.
        """
        normalized = database.normalize_url(url or database.default_url())
        engine = database.create(normalized)
        try:
            if migrate:
                database.migrate(engine)
            else:
                _check_revision(engine)
            with engine.connect() as connection:
                system = SystemAccounts.load(connection)
        except BaseException:
            engine.dispose()
            raise
        return cls(normalized, engine, system)

    @property
    def system(self) -> SystemAccounts:
        """The ids of the system accounts (``system:grants``…)."""
        return self._system

    @property
    def display_url(self) -> str:
        """The URL with any password hidden."""
        return database.display(self.url)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._engine.dialect.name

    def close(self) -> None:
        """Close every pooled connection."""
        self._engine.dispose()

    def __enter__(self) -> Store:
        """The store itself."""
        return self

    def __exit__(self, *_exc: object) -> None:
        """Close it."""
        self.close()

    # --- raw connections: for the audit, the tests and maintenance, not for the server ----

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in a read transaction (PostgreSQL: ``READ COMMITTED``)."""
        with self._engine.begin() as connection:
            yield connection

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read transaction that sees one state of the whole database, however long it runs.

        PostgreSQL ``REPEATABLE READ``; an SQLite read transaction in WAL mode already does.
        """
        with self._snapshot.begin() as connection:
            yield connection

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed at the end, rolled back on error.

        On SQLite it holds the write lock from the start (``BEGIN IMMEDIATE``).
        """
        with self._writer.begin() as connection:
            yield connection

    # --- accounts and sessions ---------------------------------------------------------

    def register(self, name: str, password_hash: str, *, grant: int, now: datetime) -> int:
        """Create a user with his account and starting grant ``grant:signup:<id>``.

        :raises IllegalActionError: ``name_taken``.
        :raises InvalidActionError: ``bad_name``, ``bad_amount``, ``naive_datetime``.
        """
        with self.write() as connection:
            return accounts.register(
                connection, self._system, name, password_hash, grant=grant, now=now
            )

    def user_by_name(self, name: str) -> User | None:
        """The user of that name, if any."""
        with self.read() as connection:
            return accounts.user_by_name(connection, name)

    def create_session(
        self, user_id: int, token_hash: str, expires_at: datetime, address: str | None = None
    ) -> None:
        """Remember a session token's hash until ``expires_at`` (``address``: the client's).

        :raises InvalidActionError: ``unknown_user``, ``bad_token``, ``naive_datetime``.
        :raises IllegalActionError: ``session_exists``.
        """
        with self.write() as connection:
            accounts.create_session(connection, user_id, token_hash, expires_at, address)

    def session_user(self, token_hash: str, now: datetime) -> int | None:
        """The session's user, or ``None`` if the session is unknown or expired at ``now``."""
        with self.read() as connection:
            return accounts.session_user(connection, token_hash, now)

    def delete_session(self, token_hash: str) -> None:
        """Forget a session (sign out)."""
        with self.write() as connection:
            accounts.delete_session(connection, token_hash)

    def delete_expired_sessions(self, now: datetime) -> int:
        """Forget every session expired at ``now``; returns how many."""
        with self.write() as connection:
            return accounts.delete_expired_sessions(connection, now)

    def profile(self, user_id: int) -> Profile:
        """Name, coins, points, hands and wins.

        :raises InvalidActionError: ``unknown_user``.
        """
        with self.read() as connection:
            return accounts.profile(connection, user_id)

    def balance(self, user_id: int) -> int:
        """The user's coins.

        :raises InvalidActionError: ``unknown_user``.
        """
        with self.read() as connection:
            return accounts.balance(connection, user_id)

    def grant(self, user_id: int, amount: int, key: str, *, now: datetime | None = None) -> bool:
        """Give coins once per ``key`` (transaction ``grant:<key>``); ``False`` if done before.

        :raises InvalidActionError: ``bad_amount``, ``bad_key``, ``unknown_user``,
            ``naive_datetime``.
        """
        when = now or datetime.now(UTC)
        with self.write() as connection:
            return accounts.give(connection, self._system, user_id, amount, key, now=when)

    def leaderboard(self, by: str, *, limit: int = 20) -> list[LeaderRow]:
        """The best players by ``coins``, ``wins`` or ``points``.

        :raises InvalidActionError: ``bad_leaderboard``, ``bad_limit``.
        """
        with self.read() as connection:
            return accounts.leaderboard(connection, by, limit=limit)

    # --- hands -------------------------------------------------------------------------

    def start_hand(self, hand: HandStart) -> None:
        """Record a dealt hand, status ``playing`` (no coins move yet).

        :raises IllegalActionError: ``hand_exists``.
        :raises InvalidActionError: ``unknown_user``.
        """
        self.start_hands([hand])

    def start_hands(self, batch: Sequence[HandStart]) -> None:
        """Record several dealt hands in one transaction (all or none).

        :raises IllegalActionError: ``hand_exists``.
        :raises InvalidActionError: ``unknown_user``.
        """
        with self.write() as connection:
            hands.start(connection, batch)

    def settle_hand(self, hand: HandSettlement, *, fault: Fault | None = None) -> bool:
        """Settle a hand in one transaction keyed ``settle:<hand>``; ``False`` if done before.

        ``fault(step)`` runs after each step (``transaction``, ``entries``, ``balances``,
        ``hand``, ``stats``); if it raises, everything is rolled back and the error
        propagates.  The hand's ``fence`` (several hall processes) is checked in the same
        transaction (:mod:`qipai.store.fences`).

        :raises InvalidActionError: ``unknown_hand``, ``bad_settlement``.
        :raises IllegalActionError: ``hand_voided``, ``insufficient_coins``, ``stale_lease``.
        """
        return self.settle_hands([hand], fault=fault)[0]

    def settle_hands(
        self, batch: Sequence[HandSettlement], *, fault: Fault | None = None
    ) -> list[bool]:
        """Settle several hands in one database transaction, in a fixed number of statements.

        All or none: if one hand is refused, nothing is written (settle the hands one by one
        then: ``insufficient_coins`` does not say which hand it was).  Per hand, ``True`` if
        settled now, ``False`` if it already was (or appears earlier in the batch).  Errors,
        ``fault`` and the fences as :meth:`settle_hand`.
        """
        with self.write() as connection:
            fences.check_all(connection, (hand.fence for hand in batch))
            return hands.settle(connection, self._system, batch, fault or no_fault)

    def ping(self) -> None:
        """Ask the database for nothing (``SELECT 1``): raises if it does not answer."""
        with self.read() as connection:
            connection.exec_driver_sql("SELECT 1")

    def fence_token(self, resource: str) -> int | None:
        """The newest fencing token a settlement recorded for ``resource``, if any."""
        with self.read() as connection:
            return fences.recorded(connection, resource)

    def void_hand(self, hand_id: str, now: datetime) -> bool:
        """Void one hand still ``playing`` (a table that failed); ``False`` if it was not.

        :raises InvalidActionError: ``naive_datetime``.
        """
        with self.write() as connection:
            return bool(hands.void_playing(connection, now, only=hand_id))

    def void_interrupted(self, now: datetime, node: str | None = None) -> list[str]:
        """Void every hand still ``playing`` (call once at start, before any table runs);
        with ``node``, only the hands that hall process was playing (its peers' go on).

        Each gets a ``void:<hand>`` transaction without entries: stakes are never taken
        before settlement, so every stake is returned by construction.  Returns the ids.

        :raises InvalidActionError: ``naive_datetime``.
        """
        with self.write() as connection:
            return hands.void_playing(connection, now, node=node)

    def voided_players(self, hand_ids: Sequence[str]) -> list[hands.VoidedSeat]:
        """The players of the hands ``hand_ids`` (bots left out), with each hand's table
        number: whom to tell that a hand was voided."""
        with self.read() as connection:
            return hands.voided_players(connection, hand_ids)

    def history(
        self, user_id: int, *, limit: int = 50, before: str | None = None
    ) -> list[HistoryRow]:
        """The user's hands, newest first; pass the last hand id seen as ``before`` to page.

        :raises InvalidActionError: ``bad_limit``, ``unknown_hand``.
        """
        with self.read() as connection:
            return hands.history(connection, user_id, limit=limit, before=before)

    def keep_match_points(self, hand_id: str, points: Sequence[int]) -> None:
        """Keep what the match hand ``hand_id`` moved each seat's match score by (战绩
        lists it in match points).

        :raises InvalidActionError: ``unknown_hand``.
        """
        with self.write() as connection:
            hands.keep_match_points(connection, hand_id, points)

    def hand_record(self, hand_id: str) -> str | None:
        """The record JSON of a settled hand, ``None`` otherwise."""
        with self.read() as connection:
            return hands.record(connection, hand_id)

    def hand_seats(self, hand_id: str) -> list[str | None]:
        """Who sat at each seat of a hand: a player's name, ``None`` for a bot."""
        with self.read() as connection:
            return hands.seat_names(connection, hand_id)

    # --- match runs 比赛 ----------------------------------------------------------------

    def open_match_run(self, run_id: str, match_id: str, entry_fee: int, now: datetime) -> None:
        """Open a run of the match ``match_id`` for registration, with its escrow account
        ``match:<run id>``.

        :raises InvalidActionError: ``bad_run`` (empty or over 58 characters),
            ``bad_match``, ``bad_amount``, ``naive_datetime``.
        :raises IllegalActionError: ``run_exists``.
        """
        with self.write() as connection:
            matches.open_run(connection, run_id, match_id, entry_fee, now)

    def register_for_match(
        self, run_id: str, user_id: int, now: datetime, *, fault: Fault | None = None
    ) -> int:
        """Register the user, holding the entry fee in the run's escrow
        (``match_entry:<run>:<number>``); returns the registration number (1, 2, …).

        ``fault(step)`` runs after each step (:data:`qipai.store.matches.STEPS`); if it
        raises, nothing is written and the error propagates.

        :raises InvalidActionError: ``unknown_run``, ``unknown_user``, ``naive_datetime``.
        :raises IllegalActionError: ``match_closed``, ``already_registered``,
            ``insufficient_coins``.
        """
        with self.write() as connection:
            return matches.register(connection, run_id, user_id, now, fault or no_fault)

    def unregister_from_match(
        self, run_id: str, user_id: int, now: datetime, *, fault: Fault | None = None
    ) -> None:
        """Withdraw the user's registration, refunding his fee
        (``match_refund:<run>:<number>``); ``fault`` as :meth:`register_for_match`.

        :raises InvalidActionError: ``unknown_run``, ``naive_datetime``.
        :raises IllegalActionError: ``match_closed``, ``not_registered``.
        """
        with self.write() as connection:
            matches.unregister(connection, run_id, user_id, now, fault or no_fault)

    def match_registrations(self, run_id: str) -> list[tuple[int, int]]:
        """The run's current registrations, ``(user id, number)`` in registration order.

        :raises InvalidActionError: ``unknown_run``.
        """
        with self.read() as connection:
            return matches.registrations(connection, run_id)

    def start_match_run(self, run_id: str, now: datetime, *, fence: Fence | None = None) -> None:
        """Close registration and start the run (``registering`` → ``running``), under the
        matches' ``fence`` where several halls share the database.

        :raises InvalidActionError: ``unknown_run``, ``naive_datetime``.
        :raises IllegalActionError: ``match_closed``, ``stale_lease``.
        """
        with self.write() as connection:
            matches.start(connection, run_id, now, fence)

    def save_match_snapshot(
        self, run_id: str, snapshot_json: str, *, fence: Fence | None = None
    ) -> bool:
        """Keep a running run's state after its last finished hand (``False``: the run is
        no longer running, nothing kept); ``fence`` as :meth:`start_match_run`.

        :raises IllegalActionError: ``stale_lease``.
        """
        with self.write() as connection:
            return matches.save_snapshot(connection, run_id, snapshot_json, fence)

    def match_snapshots(self) -> dict[str, tuple[str, str]]:
        """The running runs that have a snapshot: run id → (match id, snapshot JSON)."""
        with self.read() as connection:
            return matches.snapshots(connection)

    def finish_match_run(
        self,
        run_id: str,
        prizes: Mapping[int, int],
        standings_json: str,
        now: datetime,
        *,
        fault: Fault | None = None,
        fence: Fence | None = None,
        ranks: Mapping[int, int] | None = None,
        told: Collection[int] = (),
    ) -> bool:
        """Pay ``prizes`` (user id → coins) from the escrow, ``house:matches`` covering a
        shortfall and keeping the rest (``match_payout:<run>``), and finish the run with
        its standings.  ``False``, paying nothing, if it was finished before; ``fault`` as
        :meth:`register_for_match`, ``fence`` as :meth:`start_match_run`.

        Each registration keeps its user's rank (``ranks``) and prize; the users in
        ``told`` were told them now (the others are, when they next connect:
        :meth:`take_untold_match_results`).

        :raises InvalidActionError: ``unknown_run``, ``bad_amount``, ``naive_datetime``.
        :raises IllegalActionError: ``match_not_running``, ``match_cancelled``,
            ``not_registered``, ``stale_lease``.
        """
        with self.write() as connection:
            return matches.finish(
                connection, self._system, run_id, prizes, standings_json, now=now,
                fault=fault or no_fault, fence=fence, ranks=ranks, told=told,
            )  # fmt: skip

    def match_results(self, user_id: int, *, limit: int = 50) -> list[MatchResultRow]:
        """The runs the user played, newest first, with his rank and prize (战绩).

        :raises InvalidActionError: ``bad_limit``.
        """
        with self.read() as connection:
            return matches.results(connection, user_id, limit=limit)

    def take_untold_match_results(
        self, user_id: int, now: datetime
    ) -> list[tuple[MatchResultRow, str]]:
        """The user's finished runs' results he was not told yet, each with the run's
        standings JSON; marked told now (each one taken once, by one connection).

        :raises InvalidActionError: ``naive_datetime``.
        """
        with self.read() as connection:
            found = matches.untold(connection, user_id)
        if not found:  # the usual case: no write for a connection
            return []
        with self.write() as connection:
            marked = matches.mark_told(connection, user_id, [r.run_id for r, _ in found], now)
        return [(result, text) for result, text in found if result.run_id in marked]

    def cancel_match_run(self, run_id: str, now: datetime, *, fault: Fault | None = None) -> bool:
        """Cancel a run, refunding every current registration (``match_cancel:<run>``).
        ``False`` if it was cancelled before; ``fault`` as :meth:`register_for_match`.

        :raises InvalidActionError: ``unknown_run``, ``naive_datetime``.
        :raises IllegalActionError: ``match_finished``.
        """
        with self.write() as connection:
            return matches.cancel(connection, run_id, now, fault or no_fault)

    def cancel_interrupted_matches(
        self,
        now: datetime,
        *,
        keep: Collection[str] = (),
        match_ids: Collection[str] | None = None,
        fault: Fault | None = None,
        fence: Fence | None = None,
    ) -> list[str]:
        """Cancel, with refunds, every run still registering or running (of the
        matches ``match_ids`` names, if given: the hall's own) but the running ones in ``keep``
        (carried on from their snapshots): what the hall that takes the matches does
        first; returns their ids, sorted.  ``fence`` as :meth:`start_match_run`.

        :raises InvalidActionError: ``naive_datetime``.
        :raises IllegalActionError: ``stale_lease``.
        """
        with self.write() as connection:
            return matches.cancel_open(
                connection, now, fault or no_fault, keep=keep, match_ids=match_ids, fence=fence
            )

    def match_run(self, run_id: str) -> MatchRunRow | None:
        """The run, with its count of current registrations; ``None`` if there is none."""
        with self.read() as connection:
            return matches.run_row(connection, run_id)

    def match_runs(
        self,
        states: Collection[str] | None = None,
        *,
        match_id: str | None = None,
        limit: int = 100,
    ) -> list[MatchRunRow]:
        """Runs in ``states`` (``None``: any), of one match if ``match_id`` is given,
        newest first.

        :raises InvalidActionError: ``bad_state``, ``bad_limit``.
        """
        with self.read() as connection:
            return matches.run_rows(connection, states, match_id=match_id, limit=limit)

    # --- private tables -------------------------------------------------------------

    def keep_private(self, row: privates.PrivateRow, users: Sequence[int]) -> None:
        """Store a closed private table's final scoreboard, for each of ``users``."""
        with self.write() as connection:
            privates.keep(connection, row, users)

    def save_open_private(self, code: str, node: str, saved_json: str, now: datetime) -> bool:
        """Keep open private table ``code`` of ``node``; ``False`` if another node took
        it over (nothing written)."""
        with self.write() as connection:
            return privates.save_open(connection, code, node, saved_json, now)

    def drop_open_private(self, code: str, node: str) -> None:
        """Forget ``node``'s open private table ``code`` (it closed)."""
        with self.write() as connection:
            privates.drop_open(connection, code, node)

    def adopt_open_privates(self, old: str, new: str) -> list[tuple[str, str]]:
        """Node ``old``'s open private tables, now ``new``'s: (code, saved JSON) each."""
        with self.write() as connection:
            return privates.adopt_open(connection, old, new)

    def open_private_node(self, code: str) -> str | None:
        """The node open private table ``code`` is kept for, if any."""
        with self.read() as connection:
            return privates.open_node(connection, code)

    def private_table(self, code: str) -> privates.PrivateRow | None:
        """The last closed private table of ``code``."""
        with self.read() as connection:
            return privates.latest(connection, code)

    def private_results(self, user_id: int, *, limit: int = 50) -> list[privates.PrivateRow]:
        """The closed private tables the user played at, newest first (战绩).

        :raises InvalidActionError: ``bad_limit``.
        """
        with self.read() as connection:
            return privates.of_user(connection, user_id, limit=limit)

    # --- friends 好友, and what a player chooses of himself (:mod:`.friends`) ---------

    def card(self, user_id: int) -> friends.Card:
        """The player's card. :raises InvalidActionError: ``unknown_user``."""
        with self.read() as connection:
            return friends.card(connection, user_id)

    def card_by_name(self, name: str) -> friends.Card | None:
        """The card of the player of that name, if any."""
        with self.read() as connection:
            return friends.card_by_name(connection, name)

    def password_hash(self, user_id: int) -> str:
        """The user's password hash (``""``: a guest)."""
        with self.read() as connection:
            return friends.password_hash(connection, user_id)

    def rename(self, user_id: int, name: str) -> None:
        """A new name (:func:`.friends.rename`: ``name_taken``, ``bad_name``)."""
        with self.write() as connection:
            friends.rename(connection, user_id, name)

    def bind(self, user_id: int, name: str, encoded: str, *, keep: str | None) -> None:
        """A guest becomes an account (:func:`.friends.bind`: ``not_guest``, ``name_taken``)."""
        with self.write() as connection:
            friends.bind(connection, user_id, name, encoded, keep=keep)

    def set_password(self, user_id: int, encoded: str, *, keep: str | None) -> int:
        """A new password; every session but ``keep`` ends (how many: returned)."""
        with self.write() as connection:
            return friends.set_password(connection, user_id, encoded, keep=keep)

    def set_looks(self, user_id: int, *, avatar: int | None, show_where: bool | None) -> None:
        """The avatar and the friends' view of where he is (``bad_avatar``)."""
        with self.write() as connection:
            friends.set_looks(connection, user_id, avatar=avatar, show_where=show_where)

    def friend_state(self, me: int, other: int) -> str | None:
        """How ``me`` stands with ``other`` (:func:`.friends.state`)."""
        with self.read() as connection:
            return friends.state(connection, me, other)

    def ask_friend(self, me: int, other: int, *, now: datetime) -> str:
        """Ask, or accept a request (:func:`.friends.ask`)."""
        with self.write() as connection:
            return friends.ask(connection, me, other, now=now)

    def remove_friend(self, me: int, other: int) -> None:
        """End a friendship or a request (``not_friends``)."""
        with self.write() as connection:
            friends.remove(connection, me, other)

    def friend_list(self, me: int) -> list[friends.Friend]:
        """His friends and open requests, by name."""
        with self.read() as connection:
            return friends.friends(connection, me)


def _check_revision(engine: Engine) -> None:
    current, head = database.current_revision(engine), database.head_revision()
    if current != head:
        raise InvalidActionError(
            "not_migrated", f"the database is at revision {current}, not {head}"
        )
