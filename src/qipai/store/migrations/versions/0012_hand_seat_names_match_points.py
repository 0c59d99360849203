"""The name of each bot at a hand's table, and a match hand's match points.

Adds ``hand_seats.bot_name``: what the table called the bot at that seat (a nickname in a
room, 机器人N in a match), so that the hand's replay names the bots as the players saw
them; and ``hand_seats.match_points``: what a match hand moved each seat's match score by
(× the base, 积分最小化), so that 战绩 lists it in the match's points.  Hands dealt before
this revision keep ``NULL`` in both (the replay then calls a bot by its seat; 战绩 shows
the game's points).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``hand_seats.bot_name`` and ``hand_seats.match_points`` (nullable)."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.add_column(sa.Column("bot_name", sa.String(32), nullable=True))
        batch.add_column(sa.Column("match_points", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("hand_seats") as batch:
        batch.drop_column("match_points")
        batch.drop_column("bot_name")
