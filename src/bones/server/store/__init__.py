"""The store: every table's log, finished games with their results, ratings and totals,
accounts and chat, in one SQL database through SQLAlchemy, its schema evolved by Alembic
migrations, and the writer that keeps moves' writes in order off the event loop."""
