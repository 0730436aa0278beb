"""Writing to the store off the event loop, many tables' moves in one transaction.

A move is told to nobody until it is stored. Written in the event loop, each move's
transaction stopped every table for its length (0.5 ms with SQLite, a network round trip
and a WAL flush with PostgreSQL): at a thousand tables, half the loop's time. So writes
run on one thread of their own, and every append asked for while a transaction is being
written goes into the next one (a group commit): a busy site pays for a transaction a
batch, not a move, and the loop serves sockets meanwhile. One thread keeps this process's
writes in the order asked and never lets two of them wait on each other's lock.

>>> import asyncio
>>> from bones.server.store import Store
>>> async def demo() -> list[str]:
...     store = Store("sqlite://")
...     writer = Writer(store)
...     await writer.run(store.create, "t1", {"rules": {}}, [{"kind": "bot"}])
...     await asyncio.gather(writer.append("t1", 0, [("move", 0, {"move": "6-6"})]),
...                          writer.append("t1", 1, [("move", 1, {"move": "6-5 right"})]))
...     await writer.close()
...     return [e.data["move"] for e in store.open_tables()[0].events]
>>> asyncio.run(demo())
['6-6', '6-5 right']
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from prometheus_client import Histogram

from bones.server.store import Append, Store

__all__ = ["Writer"]

T = TypeVar("T")


class Writer:
    """The one way this process writes to its store; ``timer`` (a histogram) times each
    transaction."""

    def __init__(self, store: Store, timer: Histogram | None = None) -> None:
        self.store = store
        self.timer = timer
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="bones-writer")
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._drain: asyncio.Task[None] | None = None

    async def append(self, table_id: str, first: int,
                     events: list[tuple[str, int | None, dict[str, Any]]],
                     game: dict[str, Any] | None = None) -> None:
        """``Store.append``, in the next transaction: returns once it is committed and
        raises what the store raised for this append alone (``IntegrityError`` when
        another process wrote these numbers)."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append(((table_id, first, events, game), done))
        if self._drain is None:
            self._drain = asyncio.create_task(self._write_waiting())
        await done

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """Any other write (a new table, a seat taken), in turn with the appends."""
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, partial(self._timed, call, *args))

    async def _write_waiting(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    failures = await self.run(self.store.append_all, [a for a, _ in batch])
                except Exception as error:  # the database is away: every append is told
                    failures = [error] * len(batch)
                for (_, done), failure in zip(batch, failures, strict=True):
                    if done.done():  # its table was dropped while it waited
                        continue
                    if failure is None:
                        done.set_result(None)
                    else:
                        done.set_exception(failure)
        finally:
            self._drain = None

    def _timed(self, call: Callable[..., T], *args: Any) -> T:
        if self.timer is None:
            return call(*args)
        with self.timer.time():
            return call(*args)

    async def close(self) -> None:
        """Write what was asked for, then stop the thread."""
        if self._drain is not None:
            await self._drain
        self._thread.shutdown(wait=True)
