"""Bringing a store's schema up to date, with Alembic, when a server opens it.

Every change to the tables is a revision in ``migrations/versions`` (write the next one
beside the last, by hand, with Alembic's ``op``); a store at any older revision, or one
written before there were revisions, is upgraded in place when a server starts, with
every game kept. Several servers starting at once on PostgreSQL take turns.

>>> from sqlalchemy import create_engine, inspect
>>> engine = create_engine("sqlite://")
>>> upgrade(engine)
>>> "accounts" in inspect(engine).get_table_names()
True
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

__all__ = ["downgrade", "revision", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, to: str = "head") -> None:
    """Apply every revision the store lacks (up to ``to``), in one transaction."""
    _migrate(engine, command.upgrade, to)


def downgrade(engine: Engine, to: str) -> None:
    """Undo every revision after ``to``, in one transaction: going back to a release
    whose migrations end at ``to`` (``bones migrate --to``), every app process of the
    newer one stopped first, since it would make them again at its start.

    >>> from sqlalchemy import create_engine, inspect
    >>> engine = create_engine("sqlite://")
    >>> upgrade(engine); downgrade(engine, "0015")
    >>> revision(engine), "backups" in inspect(engine).get_table_names()
    ('0015', False)
    """
    _migrate(engine, command.downgrade, to)


def _migrate(engine: Engine, how: Callable[[Config, str], None], to: str) -> None:
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # several servers start at once:
            # they wait their turn, however long the revisions take (no statement limit)
            connection.execute(text("SET LOCAL statement_timeout = 0"))
            connection.execute(text("SET LOCAL lock_timeout = 0"))
            connection.execute(text("SELECT pg_advisory_xact_lock(20261201)"))
        how(_config(connection), to)


def revision(engine: Engine) -> str | None:
    """The store's revision: none before its first upgrade."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
