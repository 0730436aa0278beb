"""Ratings: each account's OpenSkill rating per variant and player count, the rating
history (one row per rated game and account), and which games were rated and how.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False))
    op.create_table(
        "rating_history",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("games.table_id"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("rating_history_by_account", "account_id", "at"))
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("rating", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("rating")
    op.drop_table("rating_history")
    op.drop_table("ratings")
