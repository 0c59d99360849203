"""The first schema: users, sessions, the ledger (accounts, transactions, entries), hands.

Written out in full rather than built from ``qipai.store.schema``, so that later changes to
the schema module never alter what this revision did.  Every name is final (``op.f``): the
naming convention of the schema's metadata must not rewrite it.  It also opens the system
accounts.

Revision ID: 0001
Revises:
Create Date: 2026-05-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SYSTEM_ACCOUNTS = ("house:rake", "house:fees", "system:grants", "system:bots")


def upgrade() -> None:
    """Create every table and the system accounts."""
    _users()
    _ledger_accounts()
    _hands()
    _ledger()
    accounts = sa.table("accounts", sa.column("name", sa.String), sa.column("balance"))
    op.bulk_insert(accounts, [{"name": name, "balance": 0} for name in SYSTEM_ACCOUNTS])


def downgrade() -> None:
    """Drop every table (and so the whole ledger)."""
    for table in ("entries", "transactions", "hand_seats", "hands", "accounts", "sessions"):
        op.drop_table(table)
    op.drop_table("users")


def _users() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("points", sa.BigInteger(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name", name=op.f("uq_users_name")),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(128), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sessions_user_id_users")),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"])


def _ledger_accounts() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("name", name=op.f("uq_accounts_name")),
        sa.UniqueConstraint("user_id", name=op.f("uq_accounts_user_id")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_accounts_user_id_users")),
        sa.CheckConstraint(
            "user_id IS NULL OR balance >= 0", name=op.f("ck_accounts_user_not_negative")
        ),
    )


def _hands() -> None:
    op.create_table(
        "hands",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(16), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("record_json", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.CheckConstraint(
            "status IN ('playing', 'settled', 'voided')", name=op.f("ck_hands_status")
        ),
    )
    op.create_index(op.f("ix_hands_status"), "hands", ["status"])
    op.create_index(op.f("ix_hands_started_at_id"), "hands", ["started_at", "id"])
    op.create_table(
        "hand_seats",
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("net", sa.BigInteger(), nullable=True),
        sa.Column("points", sa.BigInteger(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.PrimaryKeyConstraint("hand_id", "seat", name=op.f("pk_hand_seats")),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_hand_seats_hand_id_hands")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_hand_seats_user_id_users")
        ),
    )
    op.create_index(op.f("ix_hand_seats_user_id_hand_id"), "hand_seats", ["user_id", "hand_id"])


def _ledger() -> None:
    op.create_table(
        "transactions",
        sa.Column("id", ROW_ID, nullable=False, autoincrement=True),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("hand_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transactions")),
        sa.UniqueConstraint("key", name=op.f("uq_transactions_key")),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_transactions_hand_id_hands")
        ),
        sa.CheckConstraint(
            "kind IN ('grant', 'settle', 'void', 'refund', 'penalty')",
            name=op.f("ck_transactions_kind"),
        ),
    )
    op.create_index(op.f("ix_transactions_hand_id"), "transactions", ["hand_id"])
    op.create_table(
        "entries",
        sa.Column("id", ROW_ID, nullable=False, autoincrement=True),
        sa.Column("transaction_id", ROW_ID, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entries")),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["transactions.id"],
            name=op.f("fk_entries_transaction_id_transactions"),
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_entries_account_id_accounts")
        ),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_entries_amount_not_zero")),
        sa.CheckConstraint(
            "reason IN ('win', 'loss', 'rake', 'fee', 'escape', 'grant', 'refund')",
            name=op.f("ck_entries_reason"),
        ),
    )
    op.create_index(op.f("ix_entries_transaction_id"), "entries", ["transaction_id"])
    op.create_index(op.f("ix_entries_account_id"), "entries", ["account_id"])
