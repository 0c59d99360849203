"""Open private tables 好友房, kept for the node that takes their node over.

Adds ``open_private_tables``: one row per open private table, its code, the node it is
open on (``""``: a hall alone) and the table as it is kept (JSON), so that the node that
takes a stopped node over opens its tables again.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.schema import UTCDateTime

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``open_private_tables``."""
    op.create_table(
        "open_private_tables",
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("saved_json", sa.Text(), nullable=False),
        sa.Column("saved_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_open_private_tables"),
    )
    op.create_index("ix_open_private_tables_node", "open_private_tables", ["node"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_open_private_tables_node", "open_private_tables")
    op.drop_table("open_private_tables")
