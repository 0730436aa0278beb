"""Accounts keep their name's skeleton (``names.skeleton``), unique: a name that would
pass for a taken one is refused. Existing accounts get theirs; where two old names
already share one, the later account keeps none (both names stay as they are).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

from bones.server.names import skeleton

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("skeleton", sa.String(96)))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("skeleton", sa.String))
    connection = op.get_bind()
    seen: set[str] = set()
    for row in connection.execute(sa.select(accounts.c.id, accounts.c.name)
                                  .order_by(accounts.c.id)).all():
        form = skeleton(row.name)
        if form not in seen:
            seen.add(form)
            connection.execute(accounts.update().where(accounts.c.id == row.id)
                               .values(skeleton=form))
    op.create_index("ix_accounts_skeleton", "accounts", ["skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_skeleton", table_name="accounts")
    op.drop_column("accounts", "skeleton")
