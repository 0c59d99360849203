"""Each seat's role in a hand, for the history.

Adds ``hand_seats.role`` (nullable, up to 16 characters): Dou Dizhu's ``landlord`` or
``farmer``, written when the hand is settled (:meth:`qipai.registry.GameType.roles`);
NULL for games without roles, for hands still in play, voided, or settled before this
revision (the history then shows no role: nothing is guessed from old records).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``hand_seats.role``."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop ``hand_seats.role``."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.drop_column("role")
