"""Matches 比赛: match runs, their registrations, the ``match_*`` ledger kinds, ``house:matches``.

Creates the tables ``match_runs`` and ``match_entries`` and opens the system account
``house:matches`` (the operator's match account: it pays the guarantee when the entry fees
do not cover the prizes, and keeps what is left over).  The ledger learns the transaction
kinds ``match_entry``, ``match_refund`` and ``match_prize`` and the entry reasons
``entry``, ``prize``, ``guarantee`` and ``surplus``: ``transactions.kind`` and
``entries.reason`` widen from 8 to 16 characters with new CHECK lists, and
``transactions`` gains ``run_id`` (the match run a ``match_*`` transaction is about).

PostgreSQL alters the two tables in place.  SQLite cannot change a CHECK constraint, so
Alembic's batch mode rebuilds ``transactions`` and ``entries`` (copy, drop, rename), from
the definitions of revision ``0001`` written out below rather than from a reflection; the
store runs migrations with SQLite's foreign keys off and checks them all before the commit
(:func:`qipai.store.database.migrating`), as SQLite's procedure for such changes asks.
That copies the whole ledger once: a few seconds per million entries.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import TypeAlias

import sqlalchemy as sa
from alembic import op
from sqlalchemy.sql.base import ReadOnlyColumnCollection

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TableType: TypeAlias = "sa.Table[ReadOnlyColumnCollection[str, sa.Column[object]]]"
"""A table whatever its columns' types (a bare ``sa.Table`` takes its type variable's
default, which mypy reads as an explicit ``Column`` of anything)."""
MATCHES = "house:matches"
"""The system account this revision opens."""
OLD_KINDS = "kind IN ('grant', 'settle', 'void', 'refund', 'penalty')"
NEW_KINDS = (
    "kind IN ('grant', 'settle', 'void', 'refund', 'penalty', 'match_entry', 'match_refund', "
    "'match_prize')"
)
OLD_REASONS = "reason IN ('win', 'loss', 'rake', 'fee', 'escape', 'grant', 'refund')"
NEW_REASONS = (
    "reason IN ('win', 'loss', 'rake', 'fee', 'escape', 'grant', 'refund', 'entry', 'prize', "
    "'guarantee', 'surplus')"
)


def upgrade() -> None:
    """Create the match tables, open ``house:matches``, teach the ledger the match kinds."""
    op.create_table(
        "match_runs",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("entry_fee", sa.BigInteger(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("standings_json", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_runs")),
        sa.UniqueConstraint("account_id", name=op.f("uq_match_runs_account_id")),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_match_runs_account_id_accounts")
        ),
        sa.CheckConstraint(
            "state IN ('registering', 'running', 'finished', 'cancelled')",
            name=op.f("ck_match_runs_state"),
        ),
        sa.CheckConstraint("entry_fee >= 0", name=op.f("ck_match_runs_entry_fee_not_negative")),
    )
    op.create_index(op.f("ix_match_runs_state"), "match_runs", ["state"])
    op.create_index(
        op.f("ix_match_runs_match_id_created_at"), "match_runs", ["match_id", "created_at"]
    )
    op.create_table(
        "match_entries",
        sa.Column("run_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("registered_at", sa.DateTime(), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("run_id", "number", name=op.f("pk_match_entries")),
        sa.ForeignKeyConstraint(
            ["run_id"], ["match_runs.id"], name=op.f("fk_match_entries_run_id_match_runs")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_match_entries_user_id_users")
        ),
    )
    current = sa.text("withdrawn_at IS NULL")
    op.create_index(
        op.f("ix_match_entries_current"), "match_entries", ["run_id", "user_id"], unique=True,
        sqlite_where=current, postgresql_where=current,
    )  # fmt: skip
    op.create_index(op.f("ix_match_entries_user_id"), "match_entries", ["user_id"])
    accounts = sa.table("accounts", sa.column("name", sa.String), sa.column("balance"))
    op.bulk_insert(accounts, [{"name": MATCHES, "balance": 0}])
    with op.batch_alter_table("transactions", copy_from=_transactions_0001()) as batch:
        batch.alter_column(
            "kind", existing_type=sa.String(8), type_=sa.String(16), existing_nullable=False
        )
        batch.drop_constraint(op.f("ck_transactions_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_transactions_kind"), sa.text(NEW_KINDS))
        batch.add_column(sa.Column("run_id", sa.String(64), nullable=True))
        batch.create_foreign_key(
            op.f("fk_transactions_run_id_match_runs"), "match_runs", ["run_id"], ["id"]
        )
        batch.create_index(op.f("ix_transactions_run_id"), ["run_id"])
    with op.batch_alter_table("entries", copy_from=_entries_0001()) as batch:
        batch.alter_column(
            "reason", existing_type=sa.String(8), type_=sa.String(16), existing_nullable=False
        )
        batch.drop_constraint(op.f("ck_entries_reason"), type_="check")
        batch.create_check_constraint(op.f("ck_entries_reason"), sa.text(NEW_REASONS))


def downgrade() -> None:
    """Undo the upgrade, on a ledger that has never seen a match run.

    :raises RuntimeError: when a match run exists: its coins (entry fees held, prizes, the
        house's guarantee and surplus) would lose their transactions' kinds.
    """
    connection = op.get_bind()
    runs = connection.execute(sa.text("SELECT count(*) FROM match_runs")).scalar_one()
    if runs:
        raise RuntimeError(f"{runs} match runs are recorded: cannot go below revision 0003")
    with op.batch_alter_table("entries", copy_from=_entries_0003()) as batch:
        batch.drop_constraint(op.f("ck_entries_reason"), type_="check")
        batch.alter_column(
            "reason", existing_type=sa.String(16), type_=sa.String(8), existing_nullable=False
        )
        batch.create_check_constraint(op.f("ck_entries_reason"), sa.text(OLD_REASONS))
    with op.batch_alter_table("transactions", copy_from=_transactions_0003()) as batch:
        batch.drop_index(op.f("ix_transactions_run_id"))
        batch.drop_constraint(op.f("fk_transactions_run_id_match_runs"), type_="foreignkey")
        batch.drop_column("run_id")
        batch.drop_constraint(op.f("ck_transactions_kind"), type_="check")
        batch.alter_column(
            "kind", existing_type=sa.String(16), type_=sa.String(8), existing_nullable=False
        )
        batch.create_check_constraint(op.f("ck_transactions_kind"), sa.text(OLD_KINDS))
    op.drop_table("match_entries")  # with their indexes
    op.drop_table("match_runs")
    accounts = sa.table("accounts", sa.column("name", sa.String))
    connection.execute(sa.delete(accounts).where(accounts.c.name == MATCHES))


# --- the two ledger tables as revisions 0001 and 0003 leave them (batch mode copies these) ---


def _transactions_0001(kind: int = 8, kinds: str = OLD_KINDS) -> TableType:
    return sa.Table(
        "transactions",
        sa.MetaData(),
        sa.Column("id", ROW_ID, nullable=False, autoincrement=True),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(kind), nullable=False),
        sa.Column("hand_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_transactions"),
        sa.UniqueConstraint("key", name="uq_transactions_key"),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name="fk_transactions_hand_id_hands"),
        sa.CheckConstraint(kinds, name="ck_transactions_kind"),
        sa.Index("ix_transactions_hand_id", "hand_id"),
    )


def _transactions_0003() -> TableType:
    table = _transactions_0001(16, NEW_KINDS)
    table.append_column(sa.Column("run_id", sa.String(64), nullable=True))
    table.append_constraint(
        sa.ForeignKeyConstraint(
            ["run_id"], ["match_runs.id"], name="fk_transactions_run_id_match_runs"
        )
    )
    sa.Index("ix_transactions_run_id", table.c.run_id)
    return table


def _entries_0001(reason: int = 8, reasons: str = OLD_REASONS) -> TableType:
    return sa.Table(
        "entries",
        sa.MetaData(),
        sa.Column("id", ROW_ID, nullable=False, autoincrement=True),
        sa.Column("transaction_id", ROW_ID, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(reason), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_entries"),
        sa.ForeignKeyConstraint(
            ["transaction_id"], ["transactions.id"],
            name="fk_entries_transaction_id_transactions",
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_entries_account_id_accounts"
        ),
        sa.CheckConstraint("amount <> 0", name="ck_entries_amount_not_zero"),
        sa.CheckConstraint(reasons, name="ck_entries_reason"),
        sa.Index("ix_entries_transaction_id", "transaction_id"),
        sa.Index("ix_entries_account_id", "account_id"),
    )  # fmt: skip


def _entries_0003() -> TableType:
    return _entries_0001(16, NEW_REASONS)
