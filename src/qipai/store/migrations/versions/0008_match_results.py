"""Each player's match result, kept until he has been told it.

Adds to ``match_entries``: ``rank`` (nullable integer: his final rank, written when the
run finishes), ``prize`` (nullable big integer: the coins it paid him, 0 for none) and
``told_at`` (nullable time: when the hall told him the result; NULL while he has not been
told: the next time he connects, on any node, he is sent it).  Entries of runs finished
before this revision keep NULL ranks (their results stay in ``match_runs.standings_json``)
and are never announced again.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.schema import UTCDateTime

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``match_entries.rank``, ``prize`` and ``told_at``."""
    with op.batch_alter_table("match_entries") as batch:
        batch.add_column(sa.Column("rank", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prize", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("told_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("match_entries") as batch:
        batch.drop_column("told_at")
        batch.drop_column("prize")
        batch.drop_column("rank")
