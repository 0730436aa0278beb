"""Mail: an account's address and when it was confirmed, the links mails carry (to
confirm an address, to set a new password) and the outbox the senders work through. New
columns and tables: the version before runs on the store as it was.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as altered:
        altered.add_column(sa.Column("email", sa.String(254), nullable=True))
        altered.add_column(sa.Column("email_confirmed", sa.DateTime(timezone=True),
                                     nullable=True))
        altered.create_index("ix_accounts_email", ["email"])
    op.create_table(
        "mail_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False))
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("to", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("error", sa.String(300), nullable=True),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=True))
    op.create_index("outbox_due", "outbox", ["sent", "due"])


def downgrade() -> None:
    op.drop_index("outbox_due", table_name="outbox")
    op.drop_table("outbox")
    op.drop_table("mail_links")
    with op.batch_alter_table("accounts") as altered:
        altered.drop_index("ix_accounts_email")
        altered.drop_column("email_confirmed")
        altered.drop_column("email")
