"""Blocks: who blocked whom (each way found by an index).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_blocks_blocked_id", "blocked_id"))


def downgrade() -> None:
    op.drop_table("blocks")
