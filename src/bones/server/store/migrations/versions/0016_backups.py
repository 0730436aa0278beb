"""The backups made of the store (``bones backup``): when, into which file, how big. The
app serves the last one's age at /metrics, which alerts when the nightly one failed or
did not run. A new table: the version before runs on it as it was.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "backups",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("file", sa.String(500), nullable=False),
        sa.Column("bytes", sa.BigInteger, nullable=False))


def downgrade() -> None:
    op.drop_table("backups")
