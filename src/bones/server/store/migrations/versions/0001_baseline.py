"""The store as bones kept it before migrations: tables, seats, events, games, plays and
totals. A store written then has these already (each is made only where it is missing),
so it adopts the migrations from here on.

Revision ID: 0001
"""

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    tables: dict[str, Callable[[], object]] = {
        "tables": lambda: op.create_table(
            "tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created", MOMENT, nullable=False),
            sa.Column("config", sa.JSON, nullable=False),
            sa.Column("finished", MOMENT)),
        "seats": lambda: op.create_table(
            "seats",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("level", sa.String(16)),
            sa.Column("name", sa.String(64), index=True),
            sa.Column("token_hash", sa.String(64), index=True)),
        "events": lambda: op.create_table(
            "events",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False,
                      index=True),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("seat", sa.Integer),
            sa.Column("data", sa.JSON, nullable=False),
            sa.Column("at", MOMENT, nullable=False),
            sa.UniqueConstraint("table_id", "seq")),
        "games": lambda: op.create_table(
            "games",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("variant", sa.String(16), nullable=False),
            sa.Column("finished", MOMENT, nullable=False),
            sa.Column("names", sa.JSON, nullable=False),
            sa.Column("sides", sa.JSON, nullable=False),
            sa.Column("scores", sa.JSON, nullable=False),
            sa.Column("winner", sa.Integer),
            sa.Column("loser", sa.Integer),
            sa.Column("record", sa.JSON, nullable=False)),
        "plays": lambda: op.create_table(
            "plays",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("games.table_id"),
                      primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("name_key", sa.String(64), nullable=False),
            sa.Column("finished", MOMENT, nullable=False),
            sa.Index("plays_by_name", "name_key", "finished")),
        "totals": lambda: op.create_table(
            "totals",
            sa.Column("name_key", sa.String(64), primary_key=True),
            sa.Column("grouping", sa.String(8), primary_key=True),
            sa.Column("group", sa.String(16), primary_key=True),
            *[sa.Column(n, sa.Integer, nullable=False)
              for n in ("games", "wins", "losses", "points")]),
    }
    for name, create in tables.items():
        if name not in have:
            create()


def downgrade() -> None:
    for name in ("totals", "plays", "games", "events", "seats", "tables"):
        op.drop_table(name)
