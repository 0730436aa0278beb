"""A mail its address's server refused for good is dropped, and the account whose
address it was is told; a notice's mail carries a one-click link that stops them. New
nullable columns: the version before runs on the store as it was.

Revision ID: 0022
Revises: 0021
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as altered:
        altered.add_column(sa.Column("email_refused", sa.DateTime(timezone=True),
                                     nullable=True))
    with op.batch_alter_table("outbox") as altered:
        altered.add_column(sa.Column("dropped", sa.DateTime(timezone=True), nullable=True))
        altered.add_column(sa.Column("unsubscribe", sa.String(300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as altered:
        altered.drop_column("unsubscribe")
        altered.drop_column("dropped")
    with op.batch_alter_table("accounts") as altered:
        altered.drop_column("email_refused")
