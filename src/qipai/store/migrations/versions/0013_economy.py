"""The economy 福利: the feats of each settled seat, and the check-ins.

Adds ``hand_seats.feats`` (what the seat did, :meth:`qipai.registry.GameType.feats`,
comma-separated; NULL for hands settled before: the 每日任务 count them as plain hands) and
the table ``checkins`` (one row per person and hall day, with the streak reached).  The
economy's grants are ledger ``grant`` transactions keyed ``grant:checkin:…``,
``grant:relief:…`` and ``grant:task:…``: no change to the ledger's tables.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``hand_seats.feats`` (nullable) and create ``checkins``."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.add_column(sa.Column("feats", sa.String(128), nullable=True))
    op.create_table(
        "checkins",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_checkins_user_id_users"),
        sa.PrimaryKeyConstraint("user_id", "day", name="pk_checkins"),
    )


def downgrade() -> None:
    """Drop them (the check-ins' grants stay in the ledger)."""
    op.drop_table("checkins")
    with op.batch_alter_table("hand_seats") as batch:
        batch.drop_column("feats")
