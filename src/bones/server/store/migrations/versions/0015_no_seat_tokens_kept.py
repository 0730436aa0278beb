"""No seat token kept in the clear: a tournament's games and entries and an accepted
challenge kept their players' seat tokens, which now follow the account instead (a
member's seat is theirs on any device signed in). The tokens kept are emptied; the
tables' seats keep their hashes, as every other seat does. The two columns stay a
release, empty (the version before still writes them while a site is upgraded process
by process: docs/operating.md), and go with the next migration.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

CHALLENGES = sa.table("challenges", sa.column("id", sa.String), sa.column("seat", sa.JSON))


def upgrade() -> None:
    with op.batch_alter_table("tournament_games") as altered:
        altered.alter_column("tokens", existing_type=sa.JSON, nullable=True)
    op.execute("UPDATE tournament_games SET tokens = NULL")
    op.execute("UPDATE tournament_entries SET token = NULL")
    bind = op.get_bind()
    for key, seat in bind.execute(sa.select(CHALLENGES.c.id, CHALLENGES.c.seat)
                                  .where(CHALLENGES.c.seat.is_not(None))).all():
        if "token" in seat:
            bind.execute(CHALLENGES.update().where(CHALLENGES.c.id == key).values(
                seat={k: v for k, v in seat.items() if k != "token"}))


def downgrade() -> None:
    op.execute("UPDATE tournament_games SET tokens = '[]' WHERE tokens IS NULL")
    with op.batch_alter_table("tournament_games") as altered:
        altered.alter_column("tokens", existing_type=sa.JSON, nullable=False)
