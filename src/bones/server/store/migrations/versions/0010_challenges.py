"""Challenges: one player's to another, or to whoever opens its link.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("spec", sa.JSON, nullable=False),
        sa.Column("created", MOMENT, nullable=False),
        sa.Column("expires", MOMENT, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("table_id", sa.String(32)),
        sa.Column("seat", sa.JSON),
        sa.Index("challenges_to", "to_id", "state"),
        sa.Index("ix_challenges_from_id", "from_id"))


def downgrade() -> None:
    op.drop_table("challenges")
