"""Friends 好友 and what a player chose of himself.

Adds ``friendships`` (one row per pair of players, the lower id first: who asked, when,
and when the other accepted; ``accepted_at`` NULL: a request still open), and two columns
of ``users``: ``avatar`` (the index of the look he chose in the browser's avatar set; NULL:
drawn from his name, as before) and ``show_where`` (whether his friends see where he is;
on by default).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.schema import UTCDateTime

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``friendships``; add ``users.avatar`` and ``users.show_where``."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("avatar", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("show_where", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    op.create_table(
        "friendships",
        sa.Column("low_id", sa.Integer(), nullable=False),
        sa.Column("high_id", sa.Integer(), nullable=False),
        sa.Column("asker_id", sa.Integer(), nullable=False),
        sa.Column("asked_at", UTCDateTime(), nullable=False),
        sa.Column("accepted_at", UTCDateTime(), nullable=True),
        sa.CheckConstraint("low_id < high_id", name=op.f("ck_friendships_ordered")),
        sa.CheckConstraint(
            "asker_id = low_id OR asker_id = high_id", name=op.f("ck_friendships_asker_in_pair")
        ),
        sa.ForeignKeyConstraint(["low_id"], ["users.id"], name="fk_friendships_low_id_users"),
        sa.ForeignKeyConstraint(["high_id"], ["users.id"], name="fk_friendships_high_id_users"),
        sa.PrimaryKeyConstraint("low_id", "high_id", name="pk_friendships"),
    )
    op.create_index("ix_friendships_high_id", "friendships", ["high_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_friendships_high_id", table_name="friendships")
    op.drop_table("friendships")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("show_where")
        batch.drop_column("avatar")
