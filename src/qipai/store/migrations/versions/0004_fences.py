"""Several hall processes: fences, and the node that plays each hand.

Creates the table ``fences`` (``resource`` the primary key, ``token``): the newest fencing
token each leased resource has settled with.  A hall node that
owns a table or a match through a lease (several hall processes on one database) settles
its hands with the lease's fencing token; the settlement's transaction records the token
here and is refused if a newer one was recorded first (:mod:`qipai.store.fences`).  So a
node that lost its lease while paused or cut off can never settle again.  A hall of one
process never writes to it.  Adds ``hands.node`` (nullable): the hall process that played
the hand when several share the database, so that a process starting again voids only
the hands it left in play, not those its peers are playing.

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
    """Create ``fences``; add ``hands.node``."""
    op.create_table(
        "fences",
        sa.Column("resource", sa.String(128), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("resource", name=op.f("pk_fences")),
    )
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("node", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``fences`` and ``hands.node``."""
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("node")
    op.drop_table("fences")
