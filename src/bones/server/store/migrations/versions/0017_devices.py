"""Where each session and API token was last seen from and when (address, browser):
the account page lists them and signs any one out. New nullable columns: the version
before runs on the store as it was, and its sessions are stamped when next seen.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as altered:
        altered.add_column(sa.Column("seen", sa.DateTime(timezone=True), nullable=True))
        altered.add_column(sa.Column("address", sa.String(45), nullable=True))
        altered.add_column(sa.Column("browser", sa.String(40), nullable=True))
    with op.batch_alter_table("api_tokens") as altered:
        altered.add_column(sa.Column("address", sa.String(45), nullable=True))
        altered.add_column(sa.Column("browser", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("api_tokens") as altered:
        altered.drop_column("browser")
        altered.drop_column("address")
    with op.batch_alter_table("sessions") as altered:
        altered.drop_column("browser")
        altered.drop_column("address")
        altered.drop_column("seen")
