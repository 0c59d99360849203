"""The tables of the hall's database, as SQLAlchemy Core objects.

This module describes the *current* schema for the queries; the migrations under
``migrations/versions`` create it, each written out in full so that a later change here
never rewrites history (a test compares the migrated database with this metadata).  The
layout is explained in ``docs/ledger.md``.

Coins are integers (``BIGINT``); times are stored as naive UTC and read back as aware UTC
(:class:`UTCDateTime`), the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    text,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from qipai.store.names import KEY_LENGTH

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names, fixed so that migrations can name what they alter."""

TRANSACTION_KINDS = (
    "grant", "settle", "void", "refund", "penalty", "match_entry", "match_refund", "match_prize",
)  # fmt: skip
"""What a ledger transaction may be (``refund`` and ``penalty`` are reserved, unused yet;
the ``match_*`` kinds since migration ``0003``)."""
ENTRY_REASONS = (
    "win", "loss", "rake", "fee", "escape", "grant", "refund", "entry", "prize", "guarantee",
    "surplus",
)  # fmt: skip
"""Why an entry moves coins (``entry`` … ``surplus``: match runs, migration ``0003``)."""
HAND_STATUSES = ("playing", "settled", "voided")
"""A hand's life: dealt, then exactly one of settled or voided."""
MATCH_STATES = ("registering", "running", "finished", "cancelled")
"""A match run's life: registering, running, then finished; or cancelled before it ends."""

ID = BigInteger().with_variant(Integer(), "sqlite")
"""Row ids of the tables that grow with play (SQLite only auto-increments ``INTEGER``)."""


class UTCDateTime(TypeDecorator[datetime]):
    """An aware datetime, stored as naive UTC so both databases compare it the same way."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Aware → naive UTC (naive values are taken as UTC already)."""
        if value is None or value.tzinfo is None:
            return value
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Naive UTC from the database → aware UTC."""
        if value is None:
            return None
        stamp: datetime = value
        return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    listed = ", ".join(f"'{value}'" for value in values)
    return f"{column} IN ({listed})"


metadata = MetaData(naming_convention=NAMING)
"""Every table of the store."""

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("password_hash", Text, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("hands", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("points", BigInteger, nullable=False, server_default="0"),
    Column("avatar", Integer, nullable=True),
    Column("show_where", Boolean, nullable=False, server_default=true()),
)
"""Players, with their play counters (updated by each settlement); a guest's
``password_hash`` is empty.  ``avatar``: the look he chose in the browser's set (NULL:
drawn from his name) and ``show_where``: whether his friends see where he is (migration
``0014``)."""

friendships = Table(
    "friendships",
    metadata,
    Column("low_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("high_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("asker_id", Integer, nullable=False),
    Column("asked_at", UTCDateTime, nullable=False),
    Column("accepted_at", UTCDateTime, nullable=True),
    PrimaryKeyConstraint("low_id", "high_id"),
    CheckConstraint("low_id < high_id", name="ordered"),
    CheckConstraint("asker_id = low_id OR asker_id = high_id", name="asker_in_pair"),
)
"""Friends 好友 (migration ``0014``): one row per pair, the lower user id first; who asked
and when; ``accepted_at`` once the other accepted (NULL: a request still open)."""

name_keys = Table(
    "name_keys",
    metadata,
    Column("key", String(KEY_LENGTH), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
)
"""What makes a name unique (:mod:`qipai.store.names`): its skeleton and its case-folded
skeleton, each held by one user only, so a look-alike of a name is refused by the key."""

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(128), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("address", String(64)),
)
"""Sign-in sessions, by a hash of the token (the token itself is never stored), with the
client's address when it began (migration ``0015``; ``NULL`` before it, or unknown): the
console shows it, and the fair-play flags compare it."""

ROLES = ("viewer", "moderator", "admin")
"""The operator's console's roles, least first (each may do what those before it may)."""
SANCTION_KINDS = ("ban", "mute")
"""What an operator may impose on a player: no sign-in, or no chat (migration ``0015``)."""

roles = Table(
    "roles",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("role", String(16), nullable=False),
    Column("granted_at", UTCDateTime, nullable=False),
    Column("granted_by", String(64), nullable=False),
    CheckConstraint(_in("role", ROLES), name="role"),
)
"""Who may use the operator's console, and how far (migration ``0015``)."""

admin_log = Table(
    "admin_log",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("at", UTCDateTime, nullable=False, index=True),
    Column("actor", String(64), nullable=False),
    Column("action", String(32), nullable=False),
    Column("target", String(64)),
    Column("reason", Text, nullable=False),
    Column("detail_json", Text, nullable=False),
)
"""Every action of the operator's console, append-only: who (a user's name, or
``cli:<login>`` from the command line), when, what, on whom, why (migration ``0015``)."""

sanctions = Table(
    "sanctions",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("kind", String(8), nullable=False),
    Column("starts_at", UTCDateTime, nullable=False),
    Column("until", UTCDateTime),
    Column("reason", Text, nullable=False),
    Column("lifted_at", UTCDateTime),
    CheckConstraint(_in("kind", SANCTION_KINDS), name="kind"),
)
"""Bans and mutes (migration ``0015``): in force from ``starts_at`` until ``until``
(``NULL``: for good) unless ``lifted_at``; rows are kept when they end."""

match_schedules = Table(
    "match_schedules",
    metadata,
    Column("match_id", String(64), primary_key=True),
    Column("every_minutes", Integer, nullable=False),
    Column("at_minute", Integer, nullable=False),
    Column("enabled", Boolean, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", String(64), nullable=False),
)
"""An operator's schedule of a configured match, set from the console (migration
``0015``): it replaces the matches file's ``every_minutes`` and ``at_minute`` and says
whether new runs open; a match without a row follows the file."""

REPORT_STATES = ("open", "closed")
"""A report 举报 waits in the queue (``open``) until a moderator resolves it."""

reports = Table(
    "reports",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("at", UTCDateTime, nullable=False),
    Column("reporter_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("reported_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("reason", Text, nullable=False),
    Column("hand_id", String(64), ForeignKey("hands.id")),
    Column("state", String(8), nullable=False, index=True),
    Column("resolution", String(16)),
    Column("resolved_by", String(64)),
    Column("resolved_at", UTCDateTime),
    CheckConstraint(_in("state", REPORT_STATES), name="state"),
)
"""Players' reports 举报 of other players (migration ``0015``): why, and the hand they are
about; a moderator resolves each (``resolution``: ``dismiss``, ``warn``, ``mute``, ``ban``)."""

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("user_id", Integer, ForeignKey("users.id"), unique=True),
    Column("balance", BigInteger, nullable=False, server_default="0"),
    CheckConstraint("user_id IS NULL OR balance >= 0", name="user_not_negative"),
)
"""Ledger accounts: one per user (``user:<id>``) and the system ones (``user_id`` NULL)."""

hands = Table(
    "hands",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("room_id", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("rules", String(16), nullable=False),
    Column("table_number", Integer, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(8), nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("ended_at", UTCDateTime),
    Column("record_json", Text),
    Column("node", String(64)),
    CheckConstraint(_in("status", HAND_STATUSES), name="status"),
    Index(None, "status"),
    Index(None, "started_at", "id"),
)
"""Hands, from the deal to their one outcome; ``node``: the hall process that played it
when several share the database (migration ``0004``), else NULL."""

hand_seats = Table(
    "hand_seats",
    metadata,
    Column("hand_id", String(64), ForeignKey("hands.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("user_id", Integer, ForeignKey("users.id")),
    Column("net", BigInteger),
    Column("points", BigInteger),
    Column("won", Boolean),
    Column("role", String(16)),
    Column("bot_name", String(32)),
    Column("match_points", BigInteger),
    Column("feats", String(128)),
    PrimaryKeyConstraint("hand_id", "seat"),
    Index(None, "user_id", "hand_id"),
)
"""Who sat where (``user_id`` NULL: a bot, called ``bot_name`` at its table: NULL for hands
dealt before migration ``0012``) and, once the hand is over, what each seat got and its
role (``landlord`` / ``farmer`` in Dou Dizhu; NULL elsewhere, and for hands settled before
migration ``0006``); a match hand's ``match_points``, what it moved the seat's match score
by (NULL outside matches, and before ``0012``; ``points`` stays the game's); ``feats``,
what the seat did (:meth:`~qipai.registry.GameType.feats`, comma-separated; NULL: none, or
settled before migration ``0013``), counted by the 每日任务."""

match_runs = Table(
    "match_runs",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("match_id", String(64), nullable=False),
    Column("state", String(16), nullable=False),
    Column("entry_fee", BigInteger, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, unique=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("started_at", UTCDateTime),
    Column("ended_at", UTCDateTime),
    Column("standings_json", Text),
    Column("snapshot_json", Text),
    CheckConstraint(_in("state", MATCH_STATES), name="state"),
    CheckConstraint("entry_fee >= 0", name="entry_fee_not_negative"),
    Index(None, "state"),
    Index(None, "match_id", "created_at"),
)
"""Runs of matches 比赛 (migration ``0003``): each holds its entry fees in its own escrow
account ``match:<run id>`` until it finishes (prizes) or is cancelled (refunds).  A running
run keeps its state after its last finished hand in ``snapshot_json`` (migration
``0005``), from which a hall carries it on after a stop or a lost node."""

match_entries = Table(
    "match_entries",
    metadata,
    Column("run_id", String(64), ForeignKey("match_runs.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("registered_at", UTCDateTime, nullable=False),
    Column("withdrawn_at", UTCDateTime),
    Column("rank", Integer),
    Column("prize", BigInteger),
    Column("told_at", UTCDateTime),
    PrimaryKeyConstraint("run_id", "number"),
    Index(
        "ix_match_entries_current", "run_id", "user_id", unique=True,
        sqlite_where=text("withdrawn_at IS NULL"), postgresql_where=text("withdrawn_at IS NULL"),
    ),
    Index(None, "user_id"),
)  # fmt: skip
"""Registrations for match runs, one row each, kept when withdrawn: ``number`` counts a
run's registrations from 1 and is never reused; a user has at most one current (not
withdrawn) registration per run (the partial unique index).  Once the run finishes, the
player's final ``rank`` and ``prize``, and ``told_at`` once the hall has told him
(migration ``0008``)."""

private_tables = Table(
    "private_tables",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("code", String(8), nullable=False, index=True),
    Column("game", String(16), nullable=False),
    Column("rules", String(16), nullable=False),
    Column("stakes", String(8), nullable=False),
    Column("hands", Integer, nullable=False),
    Column("closed_at", UTCDateTime, nullable=False),
    Column("scoreboard_json", Text, nullable=False),
    Column("base", Integer, nullable=True),
)
"""Closed private tables 好友房 (migration ``0009``): each one's final ``scoreboard``
frame as JSON, and its stake ``base`` (migration ``0010``; ``NULL`` for the tables closed
before it).  A code is unique among open tables only: the newest row of a code is its
last table."""

open_private_tables = Table(
    "open_private_tables",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("node", String(64), nullable=False, index=True),
    Column("saved_json", Text, nullable=False),
    Column("saved_at", UTCDateTime, nullable=False),
)
"""Open private tables 好友房 (migration ``0011``), one row each while it is open: the
node it is open on (``""``: a hall alone) and the table as it is kept
(:mod:`qipai.hall.private.saves`, JSON), so that the node that takes that node over (or
the node itself, started again) opens it again.  Its row goes when it closes."""

private_players = Table(
    "private_players",
    metadata,
    Column("table_id", ID, ForeignKey("private_tables.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    PrimaryKeyConstraint("table_id", "user_id"),
)
"""Who played at each closed private table (his 战绩 lists its scoreboard)."""

fences = Table(
    "fences",
    metadata,
    Column("resource", String(128), primary_key=True),
    Column("token", BigInteger, nullable=False),
)
"""The newest fencing token each leased resource (a table, a match run) settled with
(migration ``0004``, :mod:`qipai.store.fences`)."""

transactions = Table(
    "transactions",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("key", String(128), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    Column("hand_id", String(64), ForeignKey("hands.id"), index=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("run_id", String(64), ForeignKey("match_runs.id"), index=True),
    CheckConstraint(_in("kind", TRANSACTION_KINDS), name="kind"),
)
"""Ledger transactions; the unique ``key`` makes each one happen at most once.  ``hand_id``
names the hand a ``settle`` or ``void`` is about, ``run_id`` the match run of a ``match_*``."""

entries = Table(
    "entries",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("transaction_id", ID, ForeignKey("transactions.id"), nullable=False, index=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("amount", BigInteger, nullable=False),
    Column("reason", String(16), nullable=False),
    Column("seat", Integer),
    CheckConstraint("amount <> 0", name="amount_not_zero"),
    CheckConstraint(_in("reason", ENTRY_REASONS), name="reason"),
)
"""Ledger entries: coins into (+) or out of (−) an account; each transaction's sum to zero.
``seat`` is the hand's seat the entry is about or, in a ``match_*`` transaction, the
registration's ``number`` (``NULL``: the house's guarantee or surplus, a grant)."""

checkins = Table(
    "checkins",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("day", String(10), nullable=False),
    Column("streak", Integer, nullable=False),
    PrimaryKeyConstraint("user_id", "day"),
)
"""每日签到: one row per person and hall day (``YYYY-MM-DD`` in the hall's time zone), with
the streak it reached, written in the transaction that pays it (``grant:checkin:…``;
migration ``0013``)."""
