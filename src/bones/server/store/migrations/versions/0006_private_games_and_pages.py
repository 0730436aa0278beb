"""Finished games say whether they were private (the public list shows only the others,
and a player's list shows their private games to them alone); the games list pages by
an index on when a game finished; an account's seats are found by an index.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("public", sa.Boolean, nullable=False,
                                     server_default=sa.true()))
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("config", sa.JSON))
    games = sa.table("games", sa.column("table_id", sa.String),
                     sa.column("public", sa.Boolean))
    connection = op.get_bind()
    private = [row.id for row in connection.execute(
        sa.select(tables.c.id, tables.c.config).join(games, games.c.table_id == tables.c.id))
        if (row.config or {}).get("invite") is not None]
    for start in range(0, len(private), 500):
        connection.execute(games.update().where(games.c.table_id.in_(private[start:start + 500]))
                           .values(public=False))
    op.create_index("games_by_finished", "games", ["finished", "table_id"])
    op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", table_name="seats")
    op.drop_index("games_by_finished", table_name="games")
    op.drop_column("games", "public")
