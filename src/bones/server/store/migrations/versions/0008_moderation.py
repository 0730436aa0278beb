"""Moderation: the roles the operator grants, the sanctions in force on an account and
the history of them, every moderator's action in an audit log; reports of players,
names and games beside chat lines, each open until resolved; a chat line a moderator
deleted is kept, marked; a speaker's lines found by an index; one-time links to set a
new password.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("roles", sa.String(64), nullable=False,
                                      server_default=""))
        for column in ("muted_until", "suspended_until", "banned_until"):
            accounts.add_column(sa.Column(column, MOMENT))
    with op.batch_alter_table("chat") as chat:
        chat.add_column(sa.Column("removed", MOMENT))
        chat.create_index("chat_by_account", ["account_id", "id"])
    with op.batch_alter_table("reports") as reports:
        reports.add_column(sa.Column("kind", sa.String(8), nullable=False,
                                     server_default="chat"))
        reports.alter_column("message_id", existing_type=sa.Integer, nullable=True)
        reports.add_column(sa.Column("account_id", sa.Integer,
                                     sa.ForeignKey("accounts.id", name="fk_reports_account")))
        reports.add_column(sa.Column("table_id", sa.String(32),
                                     sa.ForeignKey("tables.id", name="fk_reports_table")))
        reports.add_column(sa.Column("note", sa.String(500)))
        reports.add_column(sa.Column("resolved", MOMENT))
        reports.add_column(sa.Column("resolved_by", sa.String(24)))
        reports.add_column(sa.Column("resolution", sa.String(200)))
        reports.create_index("reports_open", ["resolved", "id"])
        reports.create_index("ix_reports_reporter_id", ["reporter_id"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("by", sa.String(24), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.Column("until", MOMENT),
        sa.Column("lifted", MOMENT),
        sa.Index("sanctions_by_account", "account_id", "id"))
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", MOMENT, nullable=False),
        sa.Column("by", sa.String(24), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("detail", sa.JSON),
        sa.Index("ix_audit_account_id", "account_id"))
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires", MOMENT, nullable=False),
        sa.Index("ix_password_resets_account_id", "account_id"))


def downgrade() -> None:
    op.drop_table("password_resets")
    op.drop_table("audit")
    op.drop_table("sanctions")
    with op.batch_alter_table("reports") as reports:
        reports.drop_index("ix_reports_reporter_id")
        reports.drop_index("reports_open")
        for column in ("resolution", "resolved_by", "resolved", "note", "table_id",
                       "account_id", "kind"):
            reports.drop_column(column)
        reports.alter_column("message_id", existing_type=sa.Integer, nullable=False)
    with op.batch_alter_table("chat") as chat:
        chat.drop_index("chat_by_account")
        chat.drop_column("removed")
    with op.batch_alter_table("accounts") as accounts:
        for column in ("banned_until", "suspended_until", "muted_until", "roles"):
            accounts.drop_column(column)
