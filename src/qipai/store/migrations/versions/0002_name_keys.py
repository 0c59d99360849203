"""Name keys: a name's confusable skeletons, unique, so look-alike names are refused.

Creates the table ``name_keys`` (``key`` the primary key, ``user_id``) and fills it for
every existing user, oldest first, with the keys of :func:`qipai.store.names.name_keys`.
A key already held by an older user is not given to a younger one: two existing names that
look alike (``"alice"`` and ``"alice\\n"``, ``"Bob"`` and ``"bob"``) both stay, as they are
how their players sign in, and each such pair is logged as a WARNING on the logger
``qipai.store.migrations`` for the operator to look at.  From then on no new name may meet
any key.

The table is written out in full (never built from ``qipai.store.schema``).  The keys are
computed by the current :mod:`qipai.store.names`: a later change to how keys are made needs a
revision of its own that recomputes them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from qipai.store.names import name_keys

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

KEY_LENGTH = 256
"""The key column's length in this revision."""

log = logging.getLogger("qipai.store.migrations")


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
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String))
    keys = sa.table("name_keys", sa.column("key", sa.String), sa.column("user_id", sa.Integer))
    connection = op.get_bind()
    holders: dict[str, tuple[int, str]] = {}
    rows = []
    for user_id, name in connection.execute(
        sa.select(users.c.id, users.c.name).order_by(users.c.id)
    ):
        alike = set()
        for key in sorted({key[:KEY_LENGTH] for key in name_keys(name)}):
            if key in holders:
                alike.add(holders[key])
            else:
                holders[key] = (user_id, name)
                rows.append({"key": key, "user_id": user_id})
        for older, older_name in sorted(alike):
            log.warning(
                "user %d %r looks like user %d %r: both keep their names",
                user_id, name, older, older_name,
            )  # fmt: skip
    if rows:
        connection.execute(sa.insert(keys), rows)


def downgrade() -> None:
    """Drop ``name_keys``."""
    op.drop_index(op.f("ix_name_keys_user_id"), table_name="name_keys")
    op.drop_table("name_keys")
