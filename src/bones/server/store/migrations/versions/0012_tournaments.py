"""Tournaments, their entrants and the games their pairings made.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("spec", sa.JSON, nullable=False),
        sa.Column("starts", MOMENT, nullable=False),
        sa.Column("minutes", sa.Integer),
        sa.Column("rounds", sa.Integer),
        sa.Column("boards", sa.Integer),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("created", MOMENT, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("least_rating", sa.Integer),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Index("tournaments_by_start", "state", "starts"))
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("joined", MOMENT, nullable=False),
        sa.Column("withdrawn", MOMENT),
        sa.Index("ix_tournament_entries_account_id", "account_id"))
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  nullable=False),
        sa.Column("accounts", sa.JSON, nullable=False),
        sa.Column("tokens", sa.JSON, nullable=False),
        sa.Column("created", MOMENT, nullable=False),
        sa.Column("places", sa.JSON),
        sa.Column("settled", MOMENT),
        sa.Index("ix_tournament_games_tournament_id", "tournament_id"))


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
