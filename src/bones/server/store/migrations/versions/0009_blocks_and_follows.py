"""Blocks and follows: who blocked whom, who follows whom (each way found by an index).

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
    for table, mine, theirs in (("blocks", "blocker_id", "blocked_id"),
                                ("follows", "follower_id", "followed_id")):
        op.create_table(
            table,
            sa.Column(mine, sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column(theirs, sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
            sa.Index(f"ix_{table}_{theirs}", theirs))


def downgrade() -> None:
    op.drop_table("follows")
    op.drop_table("blocks")
