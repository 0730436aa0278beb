"""Chat: every message said at a table (players' and spectators' rooms) or in the
lobby, and the reports players made of them, for moderators.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id")),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.Index("chat_by_table", "table_id", "id"))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("chat.id"), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.UniqueConstraint("message_id", "reporter_id"))


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("chat")
