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
import collections
import ctypes
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

__all__ = ["NICE", "Pool", "WorkerDied", "become_worker"]

log = logging.getLogger("bones.server")
T = TypeVar("T")

NICE = 10
"""How much lower than the server a worker runs (``os.nice``)."""


def start_quietly(process: BaseProcess) -> None:
    """Start a worker process that leaves Ctrl+C to the server, from its first moment:
    a terminal's Ctrl+C reaches every process of its group, and each worker printed a
    KeyboardInterrupt of its own (the server stops its workers itself). An ignored
    signal stays ignored in the new process, through its imports too."""
    if threading.current_thread() is not threading.main_thread():
        process.start()
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        process.start()
    finally:
        signal.signal(signal.SIGINT, before)


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


class CalledOff(RuntimeError):
    """The answer to a job its caller gave up before a worker began it."""


def _serve(conn: Connection, parent: int, called_off: ctypes.c_long) -> None:
    """A pool worker: answer one job at a time until the server closes its end; a job
    the server called off while it waited in the pipe is answered without running."""
    become_worker(parent)
    while True:
        try:
            number, call, args = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone, or closed the pool
        try:
            if number == called_off.value:
                raise CalledOff(number)
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
    costs the server a write and a read. The jobs given and not yet answered are
    ``jobs``, in order: the first is under way, a second waits in the pipe."""

    def __init__(self, context: SpawnContext) -> None:
        here, there = context.Pipe()
        self.called_off = context.RawValue(ctypes.c_long, -1)
        """The number of a job waiting in the pipe whose caller gave up (read by the
        worker before it begins a job)."""
        self.process = context.Process(target=_serve, args=(there, os.getpid(),
                                                             self.called_off),
                                       name="bones-worker", daemon=True)
        start_quietly(self.process)
        there.close()
        self.conn = here
        self.jobs: collections.deque[_Job] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop watching the pipe for answers, while jobs are under way."""

    def give(self, job: _Job, done: Callable[[_Worker, bool], None]) -> None:
        """Send ``job``; its future gets the answer. ``done(worker, alive)`` is called
        once each answer is in, even if nobody waits for it any more."""
        self.jobs.append(job)
        try:
            self.conn.send((job.number, job.call, job.args))
        except (EOFError, OSError):
            self._died(done)
            return
        if len(self.jobs) > 1:
            job.answer.add_done_callback(lambda _: self._call_off(job))
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._loop.add_reader(self.conn.fileno(), self._read, done)

    def _read(self, done: Callable[[_Worker, bool], None]) -> None:
        try:
            ok, value = self.conn.recv()
        except (EOFError, OSError):
            self._died(done)
            return
        self.jobs.popleft().settle(ok, value)
        if not self.jobs:
            self._unwatch()
        done(self, True)

    def _died(self, done: Callable[[_Worker, bool], None]) -> None:
        self._unwatch()
        while self.jobs:
            self.jobs.popleft().settle(False, WorkerDied("a bot worker ended before it "
                                                         "answered"))
        done(self, False)

    def _call_off(self, job: _Job) -> None:
        """``job``, given to wait in the pipe, is done: if its caller gave up and the
        worker has not begun it, the worker skips it."""
        if job.answer.cancelled() and job in self.jobs:
            self.called_off.value = job.number

    def _unwatch(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self.conn.fileno())
        self._loop = None

    def close(self) -> None:
        self._unwatch()
        self.conn.close()


@dataclass(eq=False)
class _Job:
    number: int
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
    """``size`` worker processes, started when first needed and again after one dies;
    the jobs waiting for a worker go in order of their ``rank``, then first come first
    served.

    Unlike a ``ProcessPoolExecutor`` (which hands every job to a thread of its own,
    and through it to a queue the workers share), the server's event loop writes a job
    straight into a worker's pipe and reads the answer when the pipe says it is there:
    a third of the server's CPU a job, and no thread taking the GIL from the one that
    serves the sockets. A worker runs one job at a time, and one more job of the first
    rank (a table with people) may wait in its pipe: a busy worker then begins its next
    job the moment it answers, not when the server, busy itself, has read the answer
    and written another (a full Kozel site on two cores carried 10-15% more tables).
    A job of a later rank waits here, so it cannot stand in a pipe before a person's.
    A job whose caller gave up while it waited in a pipe is skipped by its worker; one
    under way holds its worker until it answers, so the workers never take more jobs
    than they can hold.

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
        self._waiting: list[tuple[int, int, _Job]] = []
        """A heap of the jobs no worker has taken yet: by rank, then by arrival."""
        self._order = itertools.count()

    async def run(self, call: Callable[..., T], *args: Any, rank: int = 0,
                  again: int = 0) -> T:
        """``call(*args)`` in a worker, once the jobs of a lower ``rank`` and those of the
        same rank given before it are under way; given ``again`` more times to a new
        worker if its worker ended first (killed, or out of memory), then
        ``WorkerDied``."""
        while True:
            number = next(self._order)
            job = _Job(number, call, args, asyncio.get_running_loop().create_future())
            heapq.heappush(self._waiting, (rank, number, job))
            self._give()
            try:
                return cast(T, await job.answer)
            except WorkerDied:
                if again <= 0:
                    raise
                again -= 1
                log.warning("a worker died under its job; starting another for it")

    def start(self, call: Callable[..., Any], *args: Any) -> None:
        """Start every worker now, each with a first job whose answer is not wanted
        (loading what the real jobs will need)."""
        loop = asyncio.get_running_loop()
        while len(self._workers) < self.size:
            unwanted = loop.create_future()
            unwanted.add_done_callback(lambda a: a.exception())  # not worth a warning
            self._new().give(_Job(next(self._order), call, args, unwanted), self._done)

    def _new(self) -> _Worker:
        worker = _Worker(self._context)
        self._workers.append(worker)
        return worker

    def _give(self) -> None:
        """Hand the waiting jobs still wanted to workers: an idle one first, then one
        started for it, then (a job of the first rank) a pipe with one job in it."""
        while self._waiting:
            rank, _, job = self._waiting[0]
            if job.answer.done():  # called off while it waited
                heapq.heappop(self._waiting)
                continue
            worker = min(self._workers, key=lambda w: len(w.jobs), default=None)
            if worker is None or (worker.jobs and len(self._workers) < self.size):
                worker = self._new()
            elif len(worker.jobs) > (rank == 0):
                return
            heapq.heappop(self._waiting)
            worker.give(job, self._done)

    def _done(self, worker: _Worker, alive: bool) -> None:
        """A worker answered (or died, and with it the jobs it held): on to the next."""
        if not alive:
            worker.close()
            self._workers.remove(worker)
        self._give()

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
        self._workers = []
