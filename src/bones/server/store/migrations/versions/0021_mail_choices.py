"""What a member chose to be mailed about (a challenge, a tournament starting) and the
language of their mails. New columns with defaults: the version before runs on the
store as it was.

Revision ID: 0021
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as altered:
        altered.add_column(sa.Column("mail_lang", sa.String(5), nullable=True))
        altered.add_column(sa.Column("mail_about", sa.String(40), nullable=False,
                                     server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as altered:
        altered.drop_column("mail_about")
        altered.drop_column("mail_lang")
