"""Bringing a store's schema up to date, with Alembic, when a server opens it.

Every change to the tables is a revision in ``migrations/versions`` (write the next one
beside the last, by hand, with Alembic's ``op``); a store at any older revision, or one
written before there were revisions, is upgraded in place when a server starts, with
every game kept. Several servers starting at once on PostgreSQL take turns. A store a
newer release migrated is left as it is, and this release runs on it (each migration is
written so that the release before still runs on its tables): a process of the release
before, restarted in the middle of an upgrade or rolled back to, starts.

>>> from sqlalchemy import create_engine, inspect
>>> engine = create_engine("sqlite://")
>>> upgrade(engine)
>>> "accounts" in inspect(engine).get_table_names()
True
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

__all__ = ["downgrade", "revision", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")
log = logging.getLogger("bones.server")


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, to: str = "head") -> None:
    """Apply every revision the store lacks (up to ``to``), in one transaction; none
    to a store at a revision this release does not know (a newer release's)."""
    _migrate(engine, _forward, to)


def _forward(config: Config, to: str) -> None:
    at = MigrationContext.configure(config.attributes["connection"]).get_current_revision()
    try:
        known = at is None or ScriptDirectory.from_config(config).get_revision(at) is not None
    except CommandError:
        known = False
    if not known:
        log.warning("the store is at revision %s, which a newer release of bones made: "
                    "this one runs on it as it is", at)
        return
    command.upgrade(config, to)


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
