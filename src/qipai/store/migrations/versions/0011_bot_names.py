"""The name of each bot at a hand's table.

Adds ``hand_seats.bot_name``: what the table called the bot at that seat (a nickname in a
room, 机器人N in a match), so that the hand's replay names the bots as the players saw
them.  Hands dealt before this revision keep ``NULL`` (the replay then calls a bot by its
seat).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``hand_seats.bot_name`` (nullable)."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.add_column(sa.Column("bot_name", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.drop_column("bot_name")
