"""The durable store: tables, seats, every table's event log, and finished games.

Every action is appended here, in one transaction, before anyone hears of it; a server
that starts again reads the open tables back and replays their logs. SQLAlchemy 2 with
a SQLite file by default; any SQLAlchemy URL works (PostgreSQL for a site).

>>> store = Store("sqlite://")
>>> store.create("t1", {"rules": {"variant": "draw"}}, [{"kind": "bot", "level": "easy"}])
>>> store.append("t1", 0, [("move", 0, {"move": "6-6"})])
>>> [e.kind for e in store.open_tables()[0].events]
['move']
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

__all__ = ["Event", "SavedTable", "Store", "hash_token"]


def hash_token(token: str) -> str:
    """Tokens are kept as hashes: a copy of the database seats nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


class _Base(DeclarativeBase):
    pass


class TableRow(_Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class SeatRow(_Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), default=None)
    name: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), default=None, index=True)


class EventRow(_Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GameRow(_Base):
    __tablename__ = "games"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    names: Mapped[list[str | None]] = mapped_column(JSON)
    sides: Mapped[list[int]] = mapped_column(JSON)
    scores: Mapped[list[int]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer, default=None)
    loser: Mapped[int | None] = mapped_column(Integer, default=None)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: a ``deal``, a ``move``, a ``ready``, a ``hint`` or an
    ``undo``."""

    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]


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
        self.engine = _engine(url)
        _Base.metadata.create_all(self.engine)

    def create(self, table_id: str, config: dict[str, Any],
               seats: Sequence[dict[str, Any]]) -> None:
        """A new table with its seats (each ``kind``, ``level``, ``name``, ``token_hash``)."""
        with Session(self.engine) as session, session.begin():
            session.add(TableRow(id=table_id, config=config))
            session.flush()
            for number, seat in enumerate(seats):
                session.add(SeatRow(table_id=table_id, seat=number, **seat))

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """A human takes a free seat."""
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat))
            if row is None or row.name is not None:
                raise ValueError(f"seat {seat} is not free")
            row.name, row.token_hash = name, token_hash

    def append(self, table_id: str, first: int,
               events: Sequence[tuple[str, int | None, dict[str, Any]]]) -> None:
        """Add events to a table's log, numbered from ``first``, all or none. A number
        taken twice (two servers on one table) fails the whole append."""
        rows = [{"table_id": table_id, "seq": first + n, "kind": kind, "seat": seat,
                 "data": data, "at": _now()} for n, (kind, seat, data) in enumerate(events)]
        with self.engine.begin() as connection:
            connection.execute(insert(EventRow), rows)

    def finish(self, table_id: str, game: dict[str, Any]) -> None:
        """The match is over: keep its record and mark the table finished."""
        with Session(self.engine) as session, session.begin():
            row = session.get(TableRow, table_id)
            if row is None or row.finished is not None:
                return
            row.finished = _now()
            session.add(GameRow(table_id=table_id, **game))

    # -- reading -------------------------------------------------------------------------

    def open_tables(self) -> list[SavedTable]:
        """Every table whose match is not over, with its log, oldest first."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.finished.is_(None)).order_by(TableRow.created))
            return [self._saved(session, row) for row in rows]

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
                    "token_hash": s.token_hash} for s in seats],
            events=[Event(e.seq, e.kind, e.seat, e.data) for e in events],
            finished=row.finished is not None,
        )

    def games(self, name: str | None = None, limit: int = 50) -> list[GameRow]:
        """Finished games, newest first; with ``name``, only those that name played."""
        with Session(self.engine) as session:
            rows = list(session.scalars(select(GameRow).order_by(GameRow.finished.desc())))
            session.expunge_all()
        if name is not None:
            rows = [r for r in rows if name in r.names]
        return rows[:limit]

    def game(self, table_id: str) -> GameRow | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, table_id)
            if row is not None:
                session.expunge(row)
            return row


def _engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url, connect_args={"check_same_thread": False},
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
