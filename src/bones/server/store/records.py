"""The durable store: tables, seats, every table's event log, and finished games.

Every action is appended here, in one transaction, before anyone hears of it; a server
that starts again reads the open tables back and replays their logs. SQLAlchemy 2 with
a SQLite file by default; any SQLAlchemy URL works (PostgreSQL for a site).

>>> store = Store("sqlite://")
>>> store.create("t1", {"rules": {"variant": "draw"}}, [{"kind": "bot", "level": "easy"}])
>>> store.append("t1", 0, [("move", 0, {"move": "6-6"})])
>>> [e.kind for e in store.open_tables()[0].events]
['move']

Statistics and the games list read running totals and an index of who played what
(:mod:`bones.server.people.stats`), written in the transaction that finishes the game, so a
call costs the same with ten games stored or ten million.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Update,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import Connection, Dialect, Engine, make_url
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from bones.server.names import name_key
from bones.server.store.migrate import upgrade
from bones.server.store.results import Total, lines, rate
from bones.server.store.schema import (
    AccountRow,
    BackupRow,
    EventRow,
    GameRow,
    PlayRow,
    SeatRow,
    TableRow,
    TotalRow,
    names_of,
    now,
)

__all__ = ["Append", "Event", "SavedTable", "Store", "hash_token", "owners_only"]


def hash_token(token: str) -> str:
    """Tokens are kept as hashes: a copy of the database seats nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: a ``deal``, a ``move``, a ``ready``, a ``hint`` or an
    ``undo``."""

    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    at: datetime | None = None
    """When it was stored (None for an entry not yet read back)."""


@dataclass(frozen=True)
class Append:
    """What one table adds to its log at once (``Store.append``'s arguments)."""

    table_id: str
    first: int
    events: Sequence[tuple[str, int | None, dict[str, Any]]]
    game: dict[str, Any] | None = None


@dataclass(frozen=True)
class SavedTable:
    """A table as stored: enough to rebuild it exactly."""

    id: str
    created: datetime
    config: dict[str, Any]
    seats: list[dict[str, Any]]
    events: list[Event]
    finished: bool


class Store:
    """The database behind the server. Each method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.journaled = url.startswith("sqlite") and url not in _IN_MEMORY
        """A SQLite file, kept with a journal (WAL) that its checkpoints copy into it."""
        self.engine = _engine(url)
        upgrade(self.engine)

    def create(self, table_id: str, config: dict[str, Any],
               seats: Sequence[dict[str, Any]]) -> None:
        """A new table with its seats (each ``kind``, ``level``, ``name``, ``token_hash``,
        ``account_id``)."""
        # A table made, a seat taken and a game's end are core statements, not an ORM
        # session's: on SQLite they run in the event loop, and a session's CPU was about
        # twice theirs (a table made 489 against 225 µs, a seat taken 395 against 239).
        with self.engine.begin() as connection:
            connection.execute(_NEW_TABLE, {"id": table_id, "config": config})
            if seats:
                connection.execute(_NEW_SEATS, [{"table_id": table_id, "seat": number, **seat}
                                                for number, seat in enumerate(seats)])

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                  account_id: int | None = None) -> None:
        """A human takes a free seat."""
        self._seat(_TAKE_SEAT, table_id, seat, f"seat {seat} is not free",
                   name=name, token_hash=token_hash, account_id=account_id)

    def free_seat(self, table_id: str, seat: int) -> None:
        """A human left a seat before the game began."""
        self._seat(_FREE_SEAT, table_id, seat, f"no seat {seat} at table {table_id}",
                   name=None, token_hash=None, account_id=None)

    def _seat(self, statement: Update, table_id: str, seat: int, refusal: str,
              **values: Any) -> None:
        with self.engine.begin() as connection:
            done = connection.execute(statement, {"table": table_id, "number": seat, **values})
            if done.rowcount != 1:
                raise ValueError(refusal)

    def append(self, table_id: str, first: int,
               events: Sequence[tuple[str, int | None, dict[str, Any]]],
               game: dict[str, Any] | None = None) -> None:
        """Add events to a table's log, numbered from ``first``, all or none; with
        ``game``, the match is over and its record is kept in the same transaction. A
        number taken twice (two servers on one table) fails the whole append."""
        self.append_all([Append(table_id, first, events, game)])

    def append_all(self, appends: Sequence[Append]) -> None:
        """Several tables' appends in one transaction, all or none: the server's writer
        commits a site's moves together on PostgreSQL (one flush of its journal for
        many)."""
        rows = _rows(appends)
        # A move is the commonest write of all: it goes to the driver as plain SQL
        # (``_insert``); a game's end is kept in the same transaction.
        with self.engine.begin() as connection:
            _insert(connection, rows)
            for one in appends:
                if one.game is not None:
                    self._finish(connection, one.table_id, one.game)

    @staticmethod
    def append_moves(connection: Connection, appends: Sequence[Append]) -> None:
        """Appends that end no game, as one statement: all or none as a transaction is.
        On a connection in autocommit mode (the writer's, on PostgreSQL) it is one round
        trip where a transaction takes three or four; otherwise the caller commits. The
        statement goes to the driver as it is, its values bound by the columns' own types:
        built by SQLAlchemy at each call it cost 460-560 µs of CPU for two moves on
        PostgreSQL, as it is 145-155 (on SQLite a move in its transaction, 98 against
        62)."""
        if any(one.game is not None for one in appends):
            raise ValueError("a game's end is kept in a transaction: use append_all")
        _insert(connection, _rows(appends))

    def finish(self, table_id: str, game: dict[str, Any]) -> None:
        """The match is over: keep its record and mark the table finished (once)."""
        with self.engine.begin() as connection:
            self._finish(connection, table_id, game)

    def expire(self, table_id: str) -> None:
        """A table that waited too long for its players closes without a game."""
        with self.engine.begin() as connection:
            _close(connection, table_id, now())

    def _finish(self, connection: Connection, table_id: str, game: dict[str, Any]) -> None:
        finished = now()
        if not _close(connection, table_id, finished):  # its game is kept already
            return
        game = {**game, "names": _current_names(connection, game)}
        connection.execute(_NEW_GAME, {"table_id": table_id, "finished": finished, **game})
        kept = GameRow(table_id=table_id, finished=finished, **game)  # read, not added
        if any(account is not None for account in kept.accounts or []):
            with Session(connection) as session:
                self._index(session, kept)
                if kept.rating is not None:
                    rate(session, kept)
                session.flush()

    @staticmethod
    def _index(session: Session, game: GameRow) -> None:
        """The game's plays, and its lines added to the totals unless it was assisted."""
        for seat, account in enumerate(game.accounts or []):
            if account is not None:
                session.add(PlayRow(table_id=game.table_id, seat=seat, account_id=account,
                                    finished=game.finished))
        if game.record.get("assists"):
            return
        for account, grouping, group, won, lost, points in lines(game):
            total = session.get(TotalRow, (account, grouping, group))
            if total is None:
                total = TotalRow(account_id=account, grouping=grouping, group=group,
                                 games=0, wins=0, losses=0, points=0)
                session.add(total)
            total.games += 1
            total.wins += won
            total.losses += lost
            total.points += points

    # -- reading -------------------------------------------------------------------------

    def ping(self) -> None:
        """Raise if the database does not answer."""
        with self.engine.connect() as connection:
            connection.execute(select(1))

    def last_backup(self) -> datetime | None:
        """When the last backup of this store was made (``bones backup``), if ever."""
        with self.engine.connect() as connection:
            return connection.scalar(select(func.max(BackupRow.at)))

    def open_tables(self) -> list[SavedTable]:
        """Every table whose match is not over, with its log, oldest first."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.finished.is_(None)).order_by(TableRow.created))
            return [self._saved(session, row) for row in rows]

    def playing(self, account_id: int) -> int:
        """How many unfinished tables the account has a seat at, however they were made."""
        query = (select(func.count()).select_from(SeatRow)
                 .join(TableRow, TableRow.id == SeatRow.table_id)
                 .where(SeatRow.account_id == account_id, TableRow.finished.is_(None)))
        with self.engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    def banned(self, account_id: int) -> bool:
        """Whether a moderator banned the account (its seats no longer open)."""
        with self.engine.connect() as connection:
            until = connection.execute(select(AccountRow.banned_until)
                                       .where(AccountRow.id == account_id)).scalar()
        return until is not None and until > now()

    def seat_of_account(self, table_id: str, account_id: int) -> int | None:
        """The seat ``account_id`` sits in at the table, if any (theirs on any device)."""
        with self.engine.connect() as connection:
            return connection.execute(select(SeatRow.seat).where(
                SeatRow.table_id == table_id, SeatRow.account_id == account_id,
                SeatRow.kind == "human")).scalar()

    def unfinished(self, account_id: int) -> list[tuple[str, int, bool]]:
        """The tables not over where ``account_id`` has a seat, newest first: each one's
        id, the seat, and whether it is public (a private one is shown only to its
        players)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(TableRow.id, SeatRow.seat, TableRow.config).join(SeatRow).where(
                    TableRow.finished.is_(None), SeatRow.account_id == account_id,
                    SeatRow.kind == "human").order_by(TableRow.created.desc()))
            return [(table, seat, config.get("invite") is None) for table, seat, config in rows]

    def open_ids(self) -> list[str]:
        """The ids of every table whose match is not over."""
        with Session(self.engine) as session:
            return list(session.scalars(select(TableRow.id).where(TableRow.finished.is_(None))))

    def table(self, table_id: str) -> SavedTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            return None if row is None else self._saved(session, row)

    @staticmethod
    def _saved(session: Session, row: TableRow) -> SavedTable:
        seats = session.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat))
        events = session.scalars(
            select(EventRow).where(EventRow.table_id == row.id).order_by(EventRow.seq))
        return SavedTable(
            id=row.id, created=row.created, config=row.config,
            seats=[{"kind": s.kind, "level": s.level, "name": s.name,
                    "token_hash": s.token_hash, "account_id": s.account_id} for s in seats],
            events=[Event(e.seq, e.kind, e.seat, e.data, e.at) for e in events],
            finished=row.finished is not None,
        )

    def games(self, name: str | None = None, limit: int = 50, offset: int = 0, *,
              before: str | None = None, viewer: int | None = None) -> list[GameRow]:
        """Finished games, newest first; with ``name``, only those the account of that
        name (in any case) played. ``before``: the games after that one in this order
        (a keyset page: as quick a thousand pages in as on the first). Games of private
        tables are listed only to their own player ``viewer`` (the account asking)."""
        if name is not None:  # walked by the plays' index, in its order
            account = _account_of(name)
            order: tuple[Any, Any] = (PlayRow.finished, PlayRow.table_id)
            query = (select(GameRow).join(PlayRow, PlayRow.table_id == GameRow.table_id)
                     .where(PlayRow.account_id == account))
            if viewer is None:
                query = query.where(GameRow.public)
            else:
                query = query.where(GameRow.public | (account == viewer))
        else:
            order = (GameRow.finished, GameRow.table_id)
            query = select(GameRow).where(GameRow.public)
        if before is not None:
            last = select(GameRow.finished, GameRow.table_id).where(
                GameRow.table_id == before).subquery()
            query = query.where(tuple_(*order) < tuple_(
                select(last.c.finished).scalar_subquery(),
                select(last.c.table_id).scalar_subquery()))
        query = (query.order_by(order[0].desc(), order[1].desc())
                 .offset(offset).limit(limit))
        with Session(self.engine) as session:
            rows = list(session.scalars(query))
            ids = {a for row in rows for a in row.accounts or [] if a is not None}
            named: dict[int, str] = dict(session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids))).all())
            session.expunge_all()
        for row in rows:  # a game played as a guest is listed under the name taken since
            row.names = names_of(row.names, row.accounts, named)
        return rows

    def totals(self, name: str) -> list[Total]:
        """The running totals of the account called ``name``: (grouping, group, games,
        wins, losses, points)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(TotalRow).where(TotalRow.account_id == _account_of(name)))
            return [(r.grouping, r.group, r.games, r.wins, r.losses, r.points) for r in rows]

    def may_read(self, game: GameRow, account: int | None, invite: str | None,
                 token: str | None) -> bool:
        """Whether a finished game's record may be read by whoever holds what is given:
        anyone a public table's, and a private table's only its own players (their
        account, or a seat's ``token``) and those with its invite's ``invite`` secret, as
        watching it needs."""
        if game.public or (account is not None and account in (game.accounts or [])):
            return True
        with Session(self.engine) as session:
            table = session.get(TableRow, game.table_id)
            secret = None if table is None else table.config.get("invite")
            if secret and invite and hmac.compare_digest(secret.encode(), invite.encode()):
                return True
            return token is not None and session.scalar(select(SeatRow.seat).where(
                SeatRow.table_id == game.table_id,
                SeatRow.token_hash == hash_token(token))) is not None

    def game(self, table_id: str) -> GameRow | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, table_id)
            if row is not None:
                session.expunge(row)
            return row


# The statements of a table's arrival and end, built once: built at each call, with
# their values inline, they cost SQLAlchemy two-thirds more CPU a table made (412 against
# 248 µs, SQLite), and a table's writes were a fifth of the server's CPU a table.
_EVENTS = insert(EventRow)
_NEW_TABLE = insert(TableRow)
_NEW_SEATS = insert(SeatRow)
_NEW_GAME = insert(GameRow)
_CLOSE = update(TableRow).where(TableRow.id == bindparam("table"),
                                TableRow.finished.is_(None)).values(finished=bindparam("at"))
_SEAT = update(SeatRow).where(SeatRow.table_id == bindparam("table"),
                              SeatRow.seat == bindparam("number"))
_TAKE_SEAT = _SEAT.where(SeatRow.name.is_(None))
_FREE_SEAT = _SEAT


_COLUMNS = ("table_id", "seq", "kind", "seat", "data", "at")
"""An event row's columns, in the order ``_rows`` gives their values and ``_many`` lists
them."""

_MARKERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}
"""A value's place in a statement, by the driver's style (SQLite's, psycopg's)."""


@functools.lru_cache(maxsize=8)
def _binds(dialect: Dialect) -> tuple[Callable[[Any], Any] | None, ...]:
    """How each column's value goes to the driver: as SQLAlchemy's insert would send it
    (a moment as SQLite's text, a dict as JSON)."""
    table = EventRow.__table__
    return tuple(table.c[column].type.dialect_impl(dialect).bind_processor(dialect)
                 for column in _COLUMNS)


@functools.lru_cache(maxsize=64)
def _many(count: int, marker: str) -> str:
    """The SQL of an insert of ``count`` events."""
    row = "(" + ", ".join([marker] * len(_COLUMNS)) + ")"
    return (f"INSERT INTO {EventRow.__tablename__} ({', '.join(_COLUMNS)}) "
            f"VALUES {', '.join([row] * count)}")


def _close(connection: Connection, table_id: str, at: datetime) -> bool:
    """Mark a table finished at ``at``, once: False if there is no such table or it was
    finished already."""
    return connection.execute(_CLOSE, {"table": table_id, "at": at}).rowcount == 1


def _insert(connection: Connection, rows: list[tuple[Any, ...]]) -> None:
    """Event rows as one statement, straight to the driver where its style is known."""
    if not rows:
        return
    dialect = connection.dialect
    marker = _MARKERS.get(dialect.paramstyle)
    if marker is None:  # a driver of another style: SQLAlchemy's insert
        connection.execute(_EVENTS, [dict(zip(_COLUMNS, row, strict=True)) for row in rows])
        return
    binds = _binds(dialect)
    connection.exec_driver_sql(_many(len(rows), marker), tuple(
        value if bind is None else bind(value)
        for row in rows for bind, value in zip(binds, row, strict=True)))


def _rows(appends: Sequence[Append]) -> list[tuple[Any, ...]]:
    at = now()
    return [(one.table_id, one.first + n, kind, seat, data, at)
            for one in appends for n, (kind, seat, data) in enumerate(one.events)]


def _current_names(connection: Connection, game: dict[str, Any]) -> list[str | None]:
    """The game's names, each account's as it is now: a player renamed (or whose
    account was closed) while the game went on is kept under the new name."""
    accounts = [a for a in game.get("accounts") or [] if a is not None]
    if not accounts:
        return list(game["names"])
    named = dict(connection.execute(select(AccountRow.id, AccountRow.name).where(
        AccountRow.id.in_(accounts))).all())
    return names_of(game["names"], game["accounts"], named)


def _account_of(name: str) -> Any:
    return select(AccountRow.id).where(AccountRow.name_key == name_key(name)).scalar_subquery()


WAIT = 1.0
"""Seconds a write may wait for a locked file or an unreachable database before it is
refused: a move waits on its write (in the event loop on SQLite, on the writer's thread
on PostgreSQL), so the server answers ``unavailable`` instead of hanging."""


_IN_MEMORY = ("sqlite://", "sqlite:///:memory:")
"""SQLite URLs of a store in memory: no file, no journal."""


def owners_only(path: Path) -> None:
    """Make the file at ``path``, if it is not there, readable by its owner alone (0600):
    a store or a copy of one holds every account's hashes. SQLite makes its journal files
    with the store's own mode."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _engine(url: str) -> Engine:
    if url.startswith("postgresql"):
        timeout = int(WAIT * 1000)
        return create_engine(url, pool_pre_ping=True, connect_args={
            "connect_timeout": max(1, round(WAIT)),
            "options": f"-c statement_timeout={timeout} -c lock_timeout={timeout}"})
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    memory = url in _IN_MEMORY
    database = make_url(url).database
    if not memory and database and not database.startswith("file:"):
        owners_only(Path(database))
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": WAIT},
        **({"poolclass": StaticPool} if memory else {}))

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        # WAL survives a killed process: a committed move is on disk before it is told.
        cursor = connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine
