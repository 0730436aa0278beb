"""The store's writes, without holding the event loop while PostgreSQL flushes its journal.

Nobody is shown a move before it is stored, so a write is on every move's path. Made in
the event loop, a commit to PostgreSQL holds the loop for its round trips and the flush,
and every socket of the process waits with it (measured: 1,000 human tables on two
processes, the loop late by 275 ms at p99). On PostgreSQL the writes go to a thread of
their own instead, in the order they were handed over (a table is made before its first
move is stored). Moves that queued while the thread was busy are committed together as
one statement (a group commit: one round trip and one flush for many tables' moves); if
that fails on a key taken twice, each is tried again alone, so that one table's refused
write (a stale owner's, fenced by the log's key) refuses no other. Any other write (a
table made, a seat taken, a chat line) is made alone, in its place.

Measured and not kept: the same thread for SQLite (its driver lets go of the GIL at
every step, and each time the thread waits for a busy loop to give it back: one
process, median 19-25 -> 63 ms), a transaction a batch (four round trips, each ending in
such a wait), and PostgreSQL's asyncio driver in the loop (each round trip waits for a
turn of the busy loop: median 200-230 ms). SQLite's commit does not wait for a disk
(``synchronous=NORMAL``), so there a write is made in place. Its checkpoint does: every
thousand pages SQLite copies its journal (WAL) into the database file and syncs it, in
whichever commit filled them: on the event loop, 20-60 ms that held every socket, about
every ten seconds at 125 Kozel tables. So the writer's connection never checkpoints, and
a thread of its own does, once a second (``CHECKPOINT_EVERY``).

>>> import asyncio
>>> from bones.server.store.records import Store
>>> store = Store("sqlite://")
>>> store.create("t1", {"rules": {"variant": "draw"}}, [])
>>> writer = Writer(store)
>>> async def move() -> None:
...     await writer.append("t1", 0, [("move", 0, {"move": "6-6"})])
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor() as thread:  # (an event loop of its own, wherever this runs)
...     thread.submit(asyncio.run, move()).result()
>>> [e.kind for e in store.open_tables()[0].events]
['move']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from bones.server.store.records import Append, Store

__all__ = ["Writer", "seen_through"]

T = TypeVar("T")
log = logging.getLogger("bones.server")

CHECKPOINT_EVERY = 1.0
"""Seconds between a SQLite file's checkpoints, made off the event loop."""


@dataclass
class _Job:
    """An append (grouped with those beside it) or any other write (made alone)."""

    append: Append | None
    call: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class Writer:
    """Writes to ``store``, in the order they are handed over; ``observe`` hears each
    transaction's seconds (the server's histogram), ``failed`` each write that failed."""

    def __init__(self, store: Store,
                 observe: Callable[[float], None] = lambda seconds: None,
                 failed: Callable[[], None] = lambda: None) -> None:
        self.store = store
        self.observe, self.failed = observe, failed
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._connection: Connection | None = None
        self._checkpoints = (_Checkpoints(store.engine, CHECKPOINT_EVERY)
                             if store.journaled else None)
        if store.url.startswith("postgresql"):
            self._thread = threading.Thread(target=self._run, name="bones-writer",
                                            daemon=True)
            self._thread.start()

    @property
    def waiting(self) -> int:
        """Writes handed over and not yet begun."""
        return self._jobs.qsize()

    def append(self, table_id: str, first: int,
               events: Sequence[tuple[str, int | None, dict[str, Any]]],
               game: dict[str, Any] | None = None) -> asyncio.Future[None]:
        """``Store.append``, committed with whatever other appends wait beside it; done
        when the returned future is (at once, on SQLite)."""
        one = Append(table_id, first, events, game)
        return self._hand(one, partial(self._append_all, [one]))

    def call(self, call: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``call(*args)``, a write of any other kind (a table made, a seat taken, a chat
        line), after every write handed over before it."""
        return self._hand(None, partial(self._timed, call, *args))

    def close(self) -> None:
        """Commit what was handed over, then stop the thread."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join()
        if self._checkpoints is not None:
            self._checkpoints.close()
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _hand(self, append: Append | None, call: Callable[[], T]) -> asyncio.Future[T]:
        future = asyncio.get_running_loop().create_future()
        if self._thread is not None:
            self._jobs.put(_Job(append, call, future.get_loop(), future))
            return future
        try:
            future.set_result(call())
        except Exception as error:
            self.failed()
            future.set_exception(error)
        return future

    def _run(self) -> None:
        while True:
            jobs = [self._jobs.get()]
            while jobs[-1] is not None and not self._jobs.empty():
                jobs.append(self._jobs.get_nowait())
            run: list[_Job] = []  # appends side by side, committed together
            for job in jobs:
                if job is not None and job.append is not None:
                    run.append(job)
                    continue
                self._commit(run)
                run = []
                if job is None:
                    return
                self._alone(job)
            self._commit(run)

    def _alone(self, job: _Job) -> None:
        try:
            result = job.call()
        except Exception as error:
            self.failed()
            _settle([job], None, error)
        else:
            _settle([job], result, None)

    def _commit(self, jobs: list[_Job]) -> None:
        if len(jobs) < 2:
            for job in jobs:
                self._alone(job)
            return
        try:
            self._append_all([job.append for job in jobs if job.append is not None])
        except IntegrityError:  # most likely one table's: each alone
            for job in jobs:
                self._alone(job)
            return
        except Exception as error:  # the database's: the same for every table
            for _ in jobs:
                self.failed()
            _settle(jobs, None, error)
            return
        _settle(jobs, None, None)

    def _timed(self, call: Callable[..., T], *args: Any) -> T:
        start = time.perf_counter()
        try:
            return call(*args)
        finally:
            self.observe(time.perf_counter() - start)

    def _append_all(self, appends: list[Append]) -> None:
        if any(one.game is not None for one in appends):
            self._timed(self.store.append_all, appends)
        else:
            self._timed(self._moves, appends)

    def _moves(self, appends: list[Append]) -> None:
        """Moves alone go as one statement on the writer's own connection, kept open (no
        check-out, ping or reset a batch); after a failure it is opened afresh. On
        PostgreSQL it autocommits (one round trip); SQLite's is committed here, since
        an in-memory store shares its one connection with every other write (SQLite, a
        move: 147-180 us of CPU through a checked-out connection, 88-111 kept)."""
        if self._connection is None:
            connection = self.store.engine.connect()
            if self._checkpoints is not None:  # the thread checkpoints, not the loop
                connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            self._connection = (connection if self._thread is None else
                                connection.execution_options(isolation_level="AUTOCOMMIT"))
        try:
            self.store.append_moves(self._connection, appends)
            if self._thread is None:
                self._connection.commit()
        except Exception:
            self._connection.close()
            self._connection = None
            raise


class _Checkpoints:
    """A thread that copies SQLite's journal into the database file without waiting for
    the writer (``PASSIVE``): the loop's commit never waits for it either. When one has
    caught up, the next commit starts the journal over. Any other connection keeps
    SQLite's own checkpoint at a thousand pages, which finds little left to copy."""

    def __init__(self, engine: Engine, every: float) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(engine, every),
                                        name="bones-checkpoint", daemon=True)
        self._thread.start()

    def _run(self, engine: Engine, every: float) -> None:
        with engine.connect() as connection:
            while not self._stop.wait(every):
                try:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").all()
                except Exception as error:  # the file busy or gone: the next time
                    log.warning("the store's checkpoint failed (%s)", error)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def _settle(jobs: list[_Job], result: Any, error: Exception | None) -> None:
    """Wake the callers: one hop into each loop for the lot."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
    for job in jobs:
        by_loop.setdefault(job.loop, []).append(job)
    for loop, theirs in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(_resolve, theirs, result, error)


def _resolve(jobs: list[_Job], result: Any, error: Exception | None) -> None:
    for job in jobs:
        if job.future.done():  # its caller was cancelled (the server is stopping)
            continue
        if error is None:
            job.future.set_result(result)
        else:
            job.future.set_exception(error)


async def seen_through(write: asyncio.Future[None]) -> bool:
    """Wait for a write handed over (raising its error); True if the caller was cancelled
    meanwhile. The write is waited for all the same, so that the caller can record
    what was stored before it stops: a table's log in memory never lags its store."""
    try:
        await asyncio.shield(write)
    except asyncio.CancelledError:
        await asyncio.wait([write])
        write.result()
        return True
    return False
