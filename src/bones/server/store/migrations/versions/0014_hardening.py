"""Names kept after a rename, a closing or a ban; the distinct opponents behind each
rating (a leaderboard lists those who met several), counted from the rating history
(every account across a rated table); an account's games list walked by one index in
its order (finished, then table).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

OPPONENTS = """
UPDATE ratings SET opponents = (
    SELECT COUNT(DISTINCT other.account_id)
    FROM rating_history AS mine JOIN rating_history AS other
      ON other.table_id = mine.table_id AND other.account_id != mine.account_id
    WHERE mine.account_id = ratings.account_id AND mine.variant = ratings.variant
      AND mine.players = ratings.players)
"""


def upgrade() -> None:
    op.create_table(
        "kept_names",
        sa.Column("skeleton", sa.String(96), primary_key=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("why", sa.String(8), nullable=False))
    with op.batch_alter_table("ratings") as altered:
        altered.add_column(sa.Column("opponents", sa.Integer, nullable=False,
                                     server_default="0"))
    op.execute(OPPONENTS)
    op.create_index("plays_by_account_page", "plays", ["account_id", "finished", "table_id"])
    op.drop_index("plays_by_account", table_name="plays")


def downgrade() -> None:
    op.create_index("plays_by_account", "plays", ["account_id", "finished"])
    op.drop_index("plays_by_account_page", table_name="plays")
    with op.batch_alter_table("ratings") as altered:
        altered.drop_column("opponents")
    op.drop_table("kept_names")
