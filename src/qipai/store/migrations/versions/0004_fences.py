"""Fences: the newest fencing token each leased resource has settled with.

Creates the table ``fences`` (``resource`` the primary key, ``token``).  A hall node that
owns a table or a match through a lease (several hall processes on one database) settles
its hands with the lease's fencing token; the settlement's transaction records the token
here and is refused if a newer one was recorded first (:mod:`qipai.store.fences`).  So a
node that lost its lease while paused or cut off can never settle again.  A hall of one
process never writes to it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``fences``."""
    op.create_table(
        "fences",
        sa.Column("resource", sa.String(128), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("resource", name=op.f("pk_fences")),
    )


def downgrade() -> None:
    """Drop ``fences``."""
    op.drop_table("fences")
