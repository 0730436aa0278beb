"""Alembic's entry: the migrations run on the connection the store hands over."""

from alembic import context

from bones.server.store.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=True)  # SQLite alters a table by copying it
with context.begin_transaction():
    context.run_migrations()
