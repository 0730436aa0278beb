"""Notifications: each player's list of challenges, their answers and rematch offers.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read", sa.Boolean, nullable=False),
        sa.Column("by_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("challenge_id", sa.String(24)),
        sa.Column("table_id", sa.String(32)),
        sa.Column("tournament_id", sa.String(16)),
        sa.Column("spec", sa.JSON),
        sa.Index("notifications_of", "account_id", "id"))


def downgrade() -> None:
    op.drop_table("notifications")
