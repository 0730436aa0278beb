"""A copy of the store made while the server runs, and a store brought back from one
(``bones backup`` and ``bones restore``).

SQLite is copied page by page through its online backup, a consistent snapshot however
the server writes meanwhile, into a file that is itself a store. PostgreSQL is dumped by
``pg_dump`` (one transaction's snapshot, in its custom format) and brought back by
``pg_restore``; the connection's password goes to them in the environment, never on their
command line, where every user of the machine could read it.

A restore goes only into a store without games, unless told to ``replace`` one: a slip
of the wrong URL must not wipe a live site. The server is stopped while it runs.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> live = f"sqlite:///{folder / 'live.db'}"
>>> Store(live).totals("nobody")  # a new store, made on the spot
[]
>>> backup(live, folder / "copy.db")
>>> restore(f"sqlite:///{folder / 'again.db'}", folder / "copy.db")
>>> (folder / "again.db").exists()
True
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, func, insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from bones.server.store.records import Store, owners_only
from bones.server.store.schema import BackupRow, GameRow

__all__ = ["BackupError", "backup", "restore"]


class BackupError(RuntimeError):
    """A backup or restore that could not be made: the text says why; nothing changed."""


def backup(url: str, path: Path) -> None:
    """Write a consistent copy of the store at ``url`` to ``path``, while it is used: a
    file its owner alone reads (0600: it holds every account's hashes), made under
    another name and removed if the copy fails. A backup already at ``path`` is never
    written over (two backups in one minute were one)."""
    parsed = make_url(url)
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise BackupError(f"bones backs up SQLite and PostgreSQL stores, not {url!r}")
    taken = BackupError(f"there is a backup at {path} already: name another file")
    if path.exists():
        raise taken
    # never a half-written copy at ``path``, nor two backups writing one file
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    source = _sqlite_file(url) if parsed.get_backend_name() == "sqlite" else None
    if source is not None and not source.exists():
        raise BackupError(f"no store at {source}")
    partial.unlink(missing_ok=True)
    owners_only(partial)
    try:
        if source is not None:
            with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as live, \
                    closing(sqlite3.connect(partial)) as copy:
                live.backup(copy)
        else:
            _pg("pg_dump", url, "--format=custom", "--no-owner", f"--file={partial}")
        os.link(partial, path)  # fails, unlike a rename, if another backup took the name
    except FileExistsError:
        raise taken from None
    finally:
        partial.unlink(missing_ok=True)
    _kept(url, path)


def _kept(url: str, path: Path) -> None:
    """Note the backup in the store it copied: the app serves the last one's age, which
    the operator is alerted on."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(insert(BackupRow).values(
                at=datetime.now(UTC), file=str(path.resolve())[:500],
                bytes=path.stat().st_size))
    except SQLAlchemyError as error:
        raise BackupError(f"the copy is at {path}, but the store could not note it "
                          f"(its age is what alerts): {error}") from None
    finally:
        engine.dispose()


def restore(url: str, path: Path, replace: bool = False) -> None:
    """Bring the store at ``url`` back from the backup at ``path`` (the server stopped);
    a store that has games is replaced only if ``replace``."""
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    parsed = make_url(url)
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise BackupError(f"bones restores SQLite and PostgreSQL stores, not {url!r}")
    if not replace and _games(url):
        raise BackupError(f"the store at {url.split('@')[-1]} has games: restore over it only "
                          "with --replace")
    if parsed.get_backend_name() == "sqlite":
        target = _sqlite_file(url)
        for journal in (target.with_name(target.name + "-wal"),
                        target.with_name(target.name + "-shm")):
            journal.unlink(missing_ok=True)
        owners_only(target)
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as copy, \
                closing(sqlite3.connect(target)) as store:
            copy.backup(store)
    else:
        _pg("pg_restore", url, "--clean", "--if-exists", "--no-owner", "--single-transaction",
            str(path))
    # Migrated to this version of bones, if the copy is older; then let go of, so that
    # nothing of this process keeps the file open (a later restore in the same process
    # removes its journal files: an open connection to them made SQLite's copy fail).
    Store(url).engine.dispose()


def _sqlite_file(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory store has nothing to back up")
    return Path(database)


def _games(url: str) -> int:
    """The games the store at ``url`` holds (none if it is new or empty)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and not _sqlite_file(url).exists():
        return 0
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(GameRow)).scalar_one())
    except Exception:  # no tables yet
        return 0
    finally:
        engine.dispose()


def _pg(tool: str, url: str, *args: str) -> None:
    """Run ``pg_dump`` or ``pg_restore`` on the database at ``url``, its address and
    password in the environment."""
    found = shutil.which(tool)
    if found is None:
        raise BackupError(f"{tool} is not installed (Debian: postgresql-client)")
    parsed = make_url(url)
    env = {**os.environ, "PGHOST": parsed.host or "", "PGPORT": str(parsed.port or 5432),
           "PGUSER": parsed.username or "", "PGDATABASE": parsed.database or ""}
    if parsed.password:
        env["PGPASSWORD"] = parsed.password
    if tool == "pg_restore":
        args = ("--dbname", parsed.database or "", *args)
    done = subprocess.run([found, *args], env=env, capture_output=True, text=True,
                          timeout=3600)
    if done.returncode != 0:
        raise BackupError(f"{tool} failed: {done.stderr.strip()[-500:]}")
