"""Tournaments played in rounds: each round's pairings, a duplicate's sealed deck; an
entrant's partner (Kozel), pair, games missed in a row and latest seat (its table, seat
and token: a player's game found by one row); a game's round and board and each side's
result on it; a chat line's tournament (its room ``tournament``).

Revision ID: 0013
Revises: 0012
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

ADDED: dict[str, list[sa.Column[Any]]] = {
    "tournaments": [sa.Column("fair", sa.JSON), sa.Column("pairings", sa.JSON)],
    "tournament_entries": [sa.Column("partner", sa.Integer),
                           sa.Column("team", sa.Integer),
                           sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
                           sa.Column("table_id", sa.String(32)),
                           sa.Column("seat", sa.Integer),
                           sa.Column("token", sa.String(64))],
    "tournament_games": [sa.Column("round", sa.Integer), sa.Column("board", sa.Integer),
                         sa.Column("results", sa.JSON)],
    "chat": [sa.Column("tournament_id", sa.String(16))],
}


def upgrade() -> None:
    for table, columns in ADDED.items():
        with op.batch_alter_table(table) as altered:
            for column in columns:
                altered.add_column(column)
    op.create_index("chat_by_tournament", "chat", ["tournament_id", "id"])


def downgrade() -> None:
    op.drop_index("chat_by_tournament", table_name="chat")
    for table, columns in ADDED.items():
        with op.batch_alter_table(table) as altered:
            for column in columns:
                altered.drop_column(column.name)
