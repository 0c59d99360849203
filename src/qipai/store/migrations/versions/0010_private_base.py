"""A closed private table's stake 底分.

Adds ``private_tables.base``: the table's stake (its 房间系数 in the points games, its
base in the betting games), so that ``GET /api/private/{code}`` and 战绩 still say it once
the table has closed.  Tables closed before this revision keep ``NULL`` (not known).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``private_tables.base`` (nullable)."""
    with op.batch_alter_table("private_tables") as batch:
        batch.add_column(sa.Column("base", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("private_tables") as batch:
        batch.drop_column("base")
