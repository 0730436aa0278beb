"""The browsers and addresses a banned account used (``marks``), and the end of the
limits of a guest made from one (``accounts.limited_until``). New: the version before
runs on the store as it was (its bans mark nothing).

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "marks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("value", sa.String(64), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False))
    op.create_index("marks_by_value", "marks", ["kind", "value"])
    with op.batch_alter_table("accounts") as altered:
        altered.add_column(sa.Column("limited_until", sa.DateTime(timezone=True),
                                     nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as altered:
        altered.drop_column("limited_until")
    op.drop_index("marks_by_value", table_name="marks")
    op.drop_table("marks")
