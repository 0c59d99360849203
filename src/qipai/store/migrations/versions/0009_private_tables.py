"""Private tables' final scoreboards 好友房总成绩.

Adds ``private_tables`` (one row per closed private table: its code, game, rules, stakes,
局数, when it closed and its final ``scoreboard`` frame as JSON) and ``private_players``
(who played at it, for his 战绩).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.schema import UTCDateTime

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``private_tables`` and ``private_players``."""
    op.create_table(
        "private_tables",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(16), nullable=False),
        sa.Column("stakes", sa.String(8), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("closed_at", UTCDateTime(), nullable=False),
        sa.Column("scoreboard_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_private_tables"),
    )
    op.create_index("ix_private_tables_code", "private_tables", ["code"])
    op.create_table(
        "private_players",
        sa.Column("table_id", ID, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["private_tables.id"],
            name="fk_private_players_table_id_private_tables",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_private_players_user_id_users"
        ),
        sa.PrimaryKeyConstraint("table_id", "user_id", name="pk_private_players"),
    )  # fmt: skip
    op.create_index("ix_private_players_user_id", "private_players", ["user_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_private_players_user_id", "private_players")
    op.drop_table("private_players")
    op.drop_index("ix_private_tables_code", "private_tables")
    op.drop_table("private_tables")
