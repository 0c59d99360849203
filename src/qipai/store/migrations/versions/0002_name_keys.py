"""Name keys: a name's confusable skeletons, unique, so look-alike names are refused.

Creates the table ``name_keys`` (``key`` the primary key, ``user_id``) and fills it for
every existing user, oldest first, with the keys of :func:`qipai.store.names.name_keys`
(:func:`~qipai.store.migrations.name_keys.fill_name_keys`: two existing names that look
alike both stay, and are logged).

The table is written out in full (never built from ``qipai.store.schema``).  The keys are
computed by the current :mod:`qipai.store.names`: a later change to how keys are made needs a
revision of its own that recomputes them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.migrations.name_keys import fill_name_keys

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

KEY_LENGTH = 256
"""The key column's length in this revision."""


def upgrade() -> None:
    """Create ``name_keys`` and give every user the keys of his name (oldest first)."""
    op.create_table(
        "name_keys",
        sa.Column("key", sa.String(KEY_LENGTH), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_name_keys")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_name_keys_user_id_users")),
    )
    op.create_index(op.f("ix_name_keys_user_id"), "name_keys", ["user_id"])
    fill_name_keys(op.get_bind(), KEY_LENGTH)


def downgrade() -> None:
    """Drop ``name_keys``."""
    op.drop_index(op.f("ix_name_keys_user_id"), table_name="name_keys")
    op.drop_table("name_keys")
