"""Accounts, sessions and API tokens; seats and games name their accounts; plays and
totals are kept per account.

The plays and totals of before were keyed by whatever name was typed, which anyone
could type: they belong to nobody and are dropped (they were a summary of the games,
which are all kept, with their records). Statistics count from here on, per account.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password", sa.String(128)),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("created", MOMENT, nullable=False))
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("created", MOMENT, nullable=False),
        sa.Column("expires", MOMENT, nullable=False))
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created", MOMENT, nullable=False),
        sa.Column("used", MOMENT),
        sa.Column("revoked", MOMENT))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        seats.create_foreign_key("seats_account", "accounts", ["account_id"], ["id"])
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("accounts", sa.JSON, nullable=True))
    op.drop_table("plays")
    op.drop_table("totals")
    op.create_table(
        "plays",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("games.table_id"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("finished", MOMENT, nullable=False),
        sa.Index("plays_by_account", "account_id", "finished"))
    op.create_table(
        "totals",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("grouping", sa.String(8), primary_key=True),
        sa.Column("group", sa.String(16), primary_key=True),
        *[sa.Column(n, sa.Integer, nullable=False)
          for n in ("games", "wins", "losses", "points")])


def downgrade() -> None:
    raise NotImplementedError("accounts cannot be taken out of a store that has them")
