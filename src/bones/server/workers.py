"""Worker processes for the server's heavy work (the bots' searches, analyses), which
give way to the process serving sockets and end when it does, however it ends.

A worker runs at a lower priority (``NICE``): with bots thinking on every core, a
person's move is still read and sent on at once, and the bots take what CPU is left:
people before bots.

A worker that is busy when the server is killed would not see it go until its job is
done, and one of ``bones worker`` waits on Redis, not on its parent: killed with SIGKILL,
the server would leave them behind, each holding a few hundred MiB. Every worker here
watches its parent and leaves when it is gone.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from typing import Any, TypeVar, cast

__all__ = ["NICE", "Pool", "WorkerDied", "become_worker"]

T = TypeVar("T")

NICE = 10
"""How much lower than the server a worker runs (``os.nice``)."""


def become_worker(parent: int) -> None:
    """A worker's first call: give way to the server, and end this process when
    ``parent`` is gone."""
    os.nice(NICE)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)  # the server is gone: so is this worker's reason to be

    threading.Thread(target=watch, name="bones-parent-watch", daemon=True).start()


class WorkerDied(RuntimeError):
    """A worker ended before it answered (killed, or out of memory)."""


def _serve(conn: Connection, parent: int) -> None:
    """A pool worker: answer one job at a time until the server closes its end."""
    become_worker(parent)
    while True:
        try:
            call, args = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone, or closed the pool
        try:
            answer: tuple[bool, Any] = (True, call(*args))
        except Exception as error:
            answer = (False, error)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as error:  # an answer or an error that does not pickle
            conn.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


class _Worker:
    """One process and the pipe to it. The event loop watches the pipe itself, so a job
    costs the server a write and a read."""

    def __init__(self, context: SpawnContext) -> None:
        here, there = context.Pipe()
        self.process = context.Process(target=_serve, args=(there, os.getpid()),
                                       name="bones-worker", daemon=True)
        self.process.start()
        there.close()
        self.conn = here
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop watching the pipe for an answer, while a job is under way."""

    def give(self, job: _Job, done: Callable[[_Worker, bool], None]) -> None:
        """Start ``job``; its future gets the answer. ``done(worker, alive)`` is called
        once the answer is in, even if nobody waits for it any more."""
        loop = asyncio.get_running_loop()
        fd = self.conn.fileno()

        def read() -> None:
            loop.remove_reader(fd)
            self._loop = None
            try:
                ok, value = self.conn.recv()
            except (EOFError, OSError):
                job.settle(False, WorkerDied("a bot worker ended before it answered"))
                done(self, False)
                return
            job.settle(ok, value)
            done(self, True)

        try:
            self.conn.send((job.call, job.args))
        except (EOFError, OSError):
            job.settle(False, WorkerDied("a bot worker ended before its job"))
            done(self, False)
            return
        loop.add_reader(fd, read)
        self._loop = loop

    def close(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self.conn.fileno())
        self._loop = None
        self.conn.close()


@dataclass(eq=False)
class _Job:
    call: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]

    def settle(self, ok: bool, value: Any) -> None:
        if self.answer.done():  # its caller gave up
            return
        if ok:
            self.answer.set_result(value)
        else:
            self.answer.set_exception(value)


class Pool:
    """``size`` worker processes, each doing one job at a time, started when first
    needed and again after one dies; the jobs waiting for a worker go in order of their
    ``rank``, then first come first served.

    Unlike a ``ProcessPoolExecutor`` (which hands every job to a thread of its own,
    and through it to a queue the workers share), the server's event loop writes a job
    straight into a free worker's pipe and reads the answer when the pipe says it is
    there: a third of the server's CPU a job, and no thread taking the GIL from the
    one that serves the sockets. The next job goes to the worker in the same callback
    that reads its answer, so on a busy server a worker does not wait for turns of the
    event loop between two jobs. A job whose caller gave up still holds its worker
    until it answers, so the workers never take more jobs than there are of them.

    >>> async def ask() -> int:
    ...     pool = Pool(1)
    ...     try:
    ...         return await pool.run(abs, -3)
    ...     finally:
    ...         pool.close()
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor() as thread:  # (an event loop of its own, wherever this runs)
    ...     thread.submit(asyncio.run, ask()).result()
    3
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiting: list[tuple[int, int, _Job]] = []
        """A heap of the jobs no worker has taken yet: by rank, then by arrival."""
        self._order = itertools.count()

    async def run(self, call: Callable[..., T], *args: Any, rank: int = 0) -> T:
        """``call(*args)`` in a worker, once the jobs of a lower ``rank`` and those of the
        same rank given before it are under way; ``WorkerDied`` if the worker ended
        first."""
        job = _Job(call, args, asyncio.get_running_loop().create_future())
        heapq.heappush(self._waiting, (rank, next(self._order), job))
        if self._idle:
            self._next(self._idle.pop())
        elif len(self._workers) < self.size:
            self._next(self._new())
        return cast(T, await job.answer)

    def start(self, call: Callable[..., Any], *args: Any) -> None:
        """Start every worker now, each with a first job whose answer is not wanted
        (loading what the real jobs will need)."""
        loop = asyncio.get_running_loop()
        while len(self._workers) < self.size:
            unwanted = loop.create_future()
            unwanted.add_done_callback(lambda a: a.exception())  # not worth a warning
            self._new().give(_Job(call, args, unwanted), self._done)

    def _new(self) -> _Worker:
        worker = _Worker(self._context)
        self._workers.append(worker)
        return worker

    def _next(self, worker: _Worker) -> None:
        """Give ``worker`` the first job still wanted, or keep it idle."""
        while self._waiting:
            _, _, job = heapq.heappop(self._waiting)
            if not job.answer.done():  # not called off while it waited
                worker.give(job, self._done)
                return
        self._idle.append(worker)

    def _done(self, worker: _Worker, alive: bool) -> None:
        """A worker answered (or died): on to the next job."""
        if not alive:
            worker.close()
            self._workers.remove(worker)
            if not self._waiting:
                return
            worker = self._new()
        self._next(worker)

    def close(self, wait: float = 2.0) -> None:
        """End the workers: each finishes the job in hand (for ``wait`` seconds at most)."""
        for worker in self._workers:
            worker.close()
        deadline = time.monotonic() + wait
        for worker in self._workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(1.0)  # gone (and reaped) when close returns
        self._workers, self._idle = [], []
