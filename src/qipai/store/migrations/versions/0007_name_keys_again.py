"""Name keys recomputed: traditional and simplified Chinese are one name, and digits that
read as letters are those letters.

The keys of :func:`qipai.store.names.name_keys` now put a name's traditional Chinese in
simplified characters first (OpenCC's ``t2s``: ``張三`` is ``张三``, ``遊客`` is ``游客``), and
their case-folded key reads ``0 1 2 5`` as ``o l z s`` (``b0b`` is ``bob``).  Every user's
keys are thrown away and computed again, oldest user first
(:func:`~qipai.store.migrations.name_keys.fill_name_keys`): two existing names that are now
the same name (``张三`` and ``張三``) both stay, and the pair is logged as a WARNING on the
logger ``qipai.store.migrations``; no new name may meet either.

Downgrading keeps the new keys (the old rule's code is gone; the new keys refuse more
names, never fewer).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.migrations.name_keys import fill_name_keys

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

KEY_LENGTH = 256
"""The key column's length in this revision (as ``0002`` made it)."""


def upgrade() -> None:
    """Recompute every user's name keys (oldest first)."""
    connection = op.get_bind()
    connection.execute(sa.delete(sa.table("name_keys")))
    fill_name_keys(connection, KEY_LENGTH)


def downgrade() -> None:
    """Nothing: the keys stay as ``upgrade`` made them."""
