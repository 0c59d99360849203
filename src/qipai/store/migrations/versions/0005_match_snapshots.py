"""Matches carried on: each running match run keeps its last saved state.

Adds ``match_runs.snapshot_json`` (nullable text): the run's state after its last finished
hand (:meth:`qipai.hall.match.match.MatchRun.snapshot`, with the players' names), written by the
hall process that runs the matches, under the matches' fence when several processes share
the database.  The process that runs the matches next (the same hall started again, or
another node that took over) carries the run on from it instead of cancelling it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``match_runs.snapshot_json``."""
    with op.batch_alter_table("match_runs") as batch:
        batch.add_column(sa.Column("snapshot_json", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop ``match_runs.snapshot_json``."""
    with op.batch_alter_table("match_runs") as batch:
        batch.drop_column("snapshot_json")
