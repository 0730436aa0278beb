"""The writer: many tables' moves to one commit, and one table's refused write refuses no
other (``bones.server.store.writer``)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bones.server.store import writer as writer_module
from bones.server.store.records import Append, Store
from bones.server.store.writer import Writer, seen_through
from bones.server.tables import endings
from tests.server.live import sqlite_url
from tests.server.test_store import _finished

DRAW = {"rules": {"variant": "draw"}}


def _store(url: str, tables: int) -> Store:
    store = Store(url)
    for n in range(tables):
        store.create(f"t{n}", DRAW, [])
    return store


def _logs(store: Store) -> dict[str, list[tuple[int, str]]]:
    return {saved.id: [(e.seq, e.data["move"]) for e in saved.events]
            for saved in store.open_tables()}


def test_tables_written_at_once_are_all_kept_in_order(store_url: str) -> None:
    store = _store(store_url, 20)
    writer = Writer(store)

    async def play() -> None:
        for seq in range(3):  # a table's next move waits for its last, as at a table
            await asyncio.gather(*(
                writer.append(f"t{n}", seq, [("move", 0, {"move": f"{n}.{seq}"})])
                for n in range(20)))

    asyncio.run(play())
    writer.close()
    assert _logs(store) == {f"t{n}": [(s, f"{n}.{s}") for s in range(3)] for n in range(20)}
    moments = [e.at for saved in store.open_tables() for e in saved.events]
    assert all(at is not None and abs((datetime.now(UTC) - at).total_seconds()) < 60
               for at in moments)  # stored in UTC and read back with the zone


def test_a_number_taken_twice_refuses_that_table_alone(
        store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three tables' moves wait while a commit is under way and go in the next one
    together; one of them was written by another owner first, so that commit fails, and
    each is tried again alone: only the stale one is refused, and counted as a failure."""
    store = _store(store_url, 4)
    store.append("t1", 0, [("move", 0, {"move": "stale"})])  # another owner got there first
    batches: list[int] = []
    moves = store.append_moves

    def slow(connection: Connection, appends: list[Append]) -> None:
        batches.append(len(appends))
        if len(batches) == 1:
            time.sleep(0.3)  # the others queue meanwhile
        moves(connection, appends)

    monkeypatch.setattr(store, "append_moves", slow)
    failures: list[int] = []
    writer = Writer(store, failed=lambda: failures.append(1))

    async def play() -> list[BaseException | None]:
        first = writer.append("t3", 0, [("move", 0, {"move": "first"})])
        await asyncio.sleep(0.1)
        done = await asyncio.gather(
            *(writer.append(f"t{n}", 0, [("move", 0, {"move": "mine"})]) for n in range(3)),
            return_exceptions=True)
        await first
        return list(done)

    results = asyncio.run(play())
    writer.close()
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], IntegrityError)
    assert failures == [1]  # the operator's count of refused writes (/metrics)
    assert _logs(store) == {"t0": [(0, "mine")], "t1": [(0, "stale")], "t2": [(0, "mine")],
                            "t3": [(0, "first")]}
    # SQLite's writes are made in place, one at a time (no thread, nothing to group).
    assert batches == ([1, 3, 1, 1, 1] if store_url.startswith("postgresql") else [1] * 4)


def test_a_game_ends_in_the_commit_of_its_last_move(store_url: str) -> None:
    """Two tables in one commit, one of them at its end: its record is kept with it."""
    store = Store(store_url)
    table, entries = _finished(1)
    store.create(table.id, table.config(), [s.stored() for s in table.seats])
    store.create("other", DRAW, [])
    writer = Writer(store)

    async def play() -> None:
        await asyncio.gather(writer.append(table.id, 0, entries, endings.game(table)),
                             writer.append("other", 0, [("move", 0, {"move": "on"})]))

    asyncio.run(play())
    writer.close()
    assert store.game(table.id) is not None
    assert _logs(store) == {"other": [(0, "on")]}  # the finished table is no longer open


def test_a_cancelled_caller_learns_what_was_stored_before_it_stops(store_url: str) -> None:
    """The server records a stored move in its table's log even when the task that asked
    is cancelled meanwhile, so the log in memory never falls behind the store's."""
    store = _store(store_url, 1)
    writer = Writer(store)

    async def play() -> list[tuple[bool, bool]]:
        write = writer.append("t0", 0, [("move", 0, {"move": "6-6"})])
        learnt: list[tuple[bool, bool]] = []

        async def caller() -> None:
            stopped = await seen_through(write)
            learnt.append((stopped, write.done()))

        task = asyncio.create_task(caller())
        await asyncio.sleep(0)
        task.cancel()
        await task
        return learnt

    learnt = asyncio.run(play())
    writer.close()
    # On PostgreSQL the write was still under way when the cancel came; on SQLite it is
    # made in place, before anything can cancel the caller.
    assert learnt == [(store_url.startswith("postgresql"), True)]
    assert _logs(store) == {"t0": [(0, "6-6")]}


def test_other_writes_keep_their_place_among_the_moves(store_url: str) -> None:
    """A table made and its first move handed over at once: the move, which needs the
    table's row, is stored after it, as it was handed over; a write's answer comes back
    (a refused seat raises where it was asked)."""
    store = Store(store_url)
    writer = Writer(store)
    seat = {"kind": "human", "level": None, "name": None, "token_hash": None,
            "account_id": None}

    async def play() -> None:
        made = writer.call(store.create, "t", DRAW, [seat])
        moved = writer.append("t", 0, [("move", 0, {"move": "first"})])
        taken = writer.call(store.take_seat, "t", 0, "Ann", "hash")
        twice = writer.call(store.take_seat, "t", 0, "Bob", "hash")
        await asyncio.gather(made, moved, taken)
        with pytest.raises(ValueError, match="not free"):
            await twice

    asyncio.run(play())
    writer.close()
    saved = store.table("t")
    assert saved is not None
    assert [(e.seq, e.data["move"]) for e in saved.events] == [(0, "first")]
    assert saved.seats[0]["name"] == "Ann"


def test_sqlite_checkpoints_on_a_thread_of_their_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's commit on the event loop never copies SQLite's journal into the file and
    syncs it (20-60 ms a time); a thread does, about once a second. Moves reach the file
    itself only through those checkpoints (well short of SQLite's own thousand pages)."""
    monkeypatch.setattr(writer_module, "CHECKPOINT_EVERY", 0.05)
    path = tmp_path / "bones.db"
    store = _store(sqlite_url(path), 1)
    before = path.stat().st_size
    writer = Writer(store)

    async def play() -> None:
        for seq in range(100):
            await writer.append("t0", seq, [("move", 0, {"move": "x" * 2000})])

    asyncio.run(play())
    assert writer._connection is not None
    assert writer._connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    deadline = time.monotonic() + 10
    while path.stat().st_size < before + 200_000 and time.monotonic() < deadline:
        time.sleep(0.05)
    writer.close()
    assert path.stat().st_size >= before + 200_000
    assert len(_logs(store)["t0"]) == 100
