"""The operator's console: roles, the admin log, bans and mutes.

Adds ``roles`` (who may use the console: ``viewer``, ``moderator`` or ``admin``),
``admin_log`` (every console action, append-only: who, when, what, on whom, why) and
``sanctions`` (bans and mutes, kept when they end); and ``sessions.address``, the client's
address when a session began; ``reports``, players' reports 举报 of other players;
``match_schedules``, an operator's schedule of a configured match.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qipai.store.schema import UTCDateTime

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``roles``, ``admin_log`` and ``sanctions``."""
    op.create_table(
        "roles",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("granted_at", UTCDateTime(), nullable=False),
        sa.Column("granted_by", sa.String(64), nullable=False),
        sa.CheckConstraint("role IN ('viewer', 'moderator', 'admin')", name=op.f("ck_roles_role")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_roles_user_id_users"),
        sa.PrimaryKeyConstraint("user_id", name="pk_roles"),
    )
    op.create_table(
        "admin_log",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(64), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("detail_json", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_admin_log"),
    )
    op.create_index("ix_admin_log_at", "admin_log", ["at"])
    op.create_table(
        "sanctions",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("starts_at", UTCDateTime(), nullable=False),
        sa.Column("until", UTCDateTime(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("lifted_at", UTCDateTime(), nullable=True),
        sa.CheckConstraint("kind IN ('ban', 'mute')", name=op.f("ck_sanctions_kind")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_sanctions_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_sanctions"),
    )
    op.create_index("ix_sanctions_user_id", "sanctions", ["user_id"])
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reported_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("hand_id", sa.String(64), nullable=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("resolution", sa.String(16), nullable=True),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolved_at", UTCDateTime(), nullable=True),
        sa.CheckConstraint("state IN ('open', 'closed')", name=op.f("ck_reports_state")),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], name="fk_reports_reporter_id_users"),
        sa.ForeignKeyConstraint(["reported_id"], ["users.id"], name="fk_reports_reported_id_users"),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name="fk_reports_hand_id_hands"),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    for column in ("reporter_id", "reported_id", "state"):
        op.create_index(f"ix_reports_{column}", "reports", [column])
    op.create_table(
        "match_schedules",
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("every_minutes", sa.Integer(), nullable=False),
        sa.Column("at_minute", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.Column("updated_by", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_match_schedules"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("match_schedules")
    for column in ("reporter_id", "reported_id", "state"):
        op.drop_index(f"ix_reports_{column}", "reports")
    op.drop_table("reports")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("address")
    op.drop_index("ix_sanctions_user_id", "sanctions")
    op.drop_table("sanctions")
    op.drop_index("ix_admin_log_at", "admin_log")
    op.drop_table("admin_log")
    op.drop_table("roles")
