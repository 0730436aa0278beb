"""The bots' fleet on Redis: Hard's and Expert's decisions, and hints, as jobs on a queue
that ``bones worker`` processes on any machine take from, the way lichess's analysis
runs on a fleet of workers apart from its game servers.

A job is JSON, never a pickle: the seat's ``PlayerView`` (``to_dict``), the level and
where to answer. It waits in one of two Redis streams, people's tables' decisions and
bots-only tables' decisions, and a worker takes the first from people's stream whenever
there is one, so a dozen all-Expert tables never hold up a person's game. The stream's
consumer group remembers which worker holds which job: a job held longer than
``RECLAIM`` seconds (its worker died, or hangs) is taken by another worker. A server
that hears nothing for ``Fleet.timeout`` seconds works the job out itself, in a thread;
the first answer counts, the others are dropped.

    bones worker --redis redis://127.0.0.1:6379/0 --processes 2
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.process import BaseProcess
from typing import Any

import redis
import redis.asyncio as aioredis

from bones.server.sites.cluster import connect
from bones.server.thinking import brains
from bones.server.thinking.workers import become_worker, start_quietly
from bones.view import PlayerView

__all__ = ["RECLAIM", "Crew", "Fleet", "work"]

log = logging.getLogger("bones.server")

PEOPLE, BOTS = "bones:jobs:people", "bones:jobs:bots"
"""The two queues: decisions at tables with a person, and at tables of bots alone."""
GROUP = "workers"
WORKERS = "bones:workers"
"""Each worker's last sign of life (a sorted set: its name, scored by the time) ..."""
ALIVE = 5.0
"""... within this many seconds, for the site's count of workers (``bones_bot_workers``)."""
RECLAIM = 5.0
"""Seconds a job may stay with one worker before another takes it (Expert's slowest
decision takes about 3 s)."""
Taken = tuple[str, bytes, dict[bytes, bytes]]
"""A job as a worker takes it: its stream, its entry id and its fields."""
CALLS: dict[str, Callable[..., Any]] = {
    "choose": lambda job: brains.choose(job["level"], job["view"]),
    "evaluate": lambda job: brains.evaluate(job["view"]),
}


def _groups(client: redis.Redis) -> None:
    for stream in (PEOPLE, BOTS):
        with contextlib.suppress(redis.ResponseError):  # BUSYGROUP: it exists already
            client.xgroup_create(stream, GROUP, id="0", mkstream=True)


def work(url: str, stop: threading.Event | None = None) -> None:
    """Take jobs from the queue at ``url`` and answer them until ``stop`` is set (or for
    ever): one worker, one job at a time, people's first."""
    client = redis.Redis.from_url(url)
    name = f"{socket.gethostname()}:{os.getpid()}"
    _groups(client)
    threading.Thread(target=_beat, args=(client, name, stop), name="bones-beat",
                     daemon=True).start()
    brains.prepare()
    while stop is None or not stop.is_set():
        try:
            taken = _reclaim(client, name) or _take(client, name)
            for stream, entry, fields in taken:
                _answer(client, stream, entry, fields)
        except redis.RedisError as error:  # Redis away, or back without the queue
            log.warning("a bot worker lost Redis: %s", error)
            time.sleep(1)
            with contextlib.suppress(redis.RedisError):
                _groups(client)


def _beat(client: redis.Redis, name: str, stop: threading.Event | None) -> None:
    """Say every second that this worker is alive (preparing, thinking or waiting), for
    the servers' count of workers."""
    while stop is None or not stop.is_set():
        with contextlib.suppress(redis.RedisError):
            client.zadd(WORKERS, {name: time.time()})
        time.sleep(1)


def _take(client: redis.Redis, name: str) -> list[Taken]:
    """The next job, people's first; waits up to a second for one."""
    for stream in (PEOPLE, BOTS):
        got: Any = client.xreadgroup(GROUP, name, {stream: ">"}, count=1)
        if got:
            return [(stream, entry, fields) for _, entries in got for entry, fields in entries]
    got = client.xreadgroup(GROUP, name, {PEOPLE: ">", BOTS: ">"}, count=1, block=1000)
    taken = [(s.decode(), entry, fields) for s, entries in got or [] for entry, fields in entries]
    return sorted(taken, key=lambda t: t[0] != PEOPLE)


def _reclaim(client: redis.Redis, name: str) -> list[Taken]:
    """A job another worker took and has not answered in ``RECLAIM`` seconds."""
    for stream in (PEOPLE, BOTS):
        claimed: Any = client.xautoclaim(stream, GROUP, name, int(RECLAIM * 1000),
                                         count=1)
        if claimed[1]:
            return [(stream, entry, fields) for entry, fields in claimed[1]]
    return []


def _answer(client: redis.Redis, stream: str, entry: bytes, fields: dict[bytes, bytes]) -> None:
    try:
        job = json.loads(fields[b"job"])
        if job["due"] > time.time():  # else the server has worked it out itself
            answer = {"id": job["id"], "answer": CALLS[job["call"]](job)}
            pipe = client.pipeline()
            pipe.rpush(job["reply"], json.dumps(answer))
            pipe.expire(job["reply"], 60)
            pipe.execute()
    except Exception:
        log.exception("a bot job failed: %r", fields.get(b"job", b"")[:200])
    client.xack(stream, GROUP, entry)
    client.xdel(stream, entry)


def _serve_jobs(url: str, parent: int) -> None:
    """A worker process of a server or of ``bones worker``: gives way to its parent
    and ends with it."""
    become_worker(parent)
    work(url)


class Crew:
    """``size`` worker processes on this machine, started again when one dies."""

    def __init__(self, url: str, size: int) -> None:
        self.url, self.size = url, size
        self.processes: list[BaseProcess] = []

    def check(self) -> None:
        """Start the workers that are missing (at first, or after one died)."""
        alive = [p for p in self.processes if p.is_alive()]
        context = multiprocessing.get_context("spawn")
        while len(alive) < self.size:
            process = context.Process(target=_serve_jobs, args=(self.url, os.getpid()),
                                      name="bones-worker", daemon=True)
            start_quietly(process)
            alive.append(process)
        self.processes = alive

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join(5)
        self.processes = []


class Fleet:
    """The server's side of the queue: the same calls as :class:`brains.Brains`, answered
    by whichever worker takes the job; ``workers`` of them run on this machine."""

    def __init__(self, url: str, workers: int = 1, timeout: float = 20.0) -> None:
        """``timeout``: seconds a job may wait for an answer before the server works it
        out itself."""
        self.url, self.workers, self.timeout = url, workers, timeout
        self.redis = connect(url, decode=False)
        self.reply = f"bones:answers:{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.crew = Crew(url, workers)
        self.fallback = ThreadPoolExecutor(2, thread_name_prefix="bones-bots")
        self.asked: dict[str, asyncio.Future[Any]] = {}
        self.live_workers = 0
        """Workers of every machine heard from in the last ``ALIVE`` seconds."""
        self._counted = 0.0
        self._listener: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[None]] = set()

    def warm(self) -> None:
        """Make the queue and start this machine's workers and the answers' reader."""
        _groups(redis.Redis.from_url(self.url))
        self.crew.check()
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def choose(self, level: str, view: PlayerView, people: bool = True) -> str:
        """The bot's move; ``people``: a person plays at its table (it goes first)."""
        return str(await self._ask("choose", view, people, level=level))

    async def evaluate(self, view: PlayerView) -> list[float]:
        return [float(v) for v in await self._ask("evaluate", view, True)]

    async def _ask(self, call: str, view: PlayerView, people: bool, **more: Any) -> Any:
        job_id = secrets.token_hex(8)
        answer = self.asked[job_id] = asyncio.get_running_loop().create_future()
        job = {"id": job_id, "call": call, "view": view.to_dict(), "reply": self.reply,
               "due": time.time() + self.timeout, **more}
        stream, entry = PEOPLE if people else BOTS, None
        try:
            entry = await self.redis.xadd(stream, {"job": json.dumps(job)})
            async with asyncio.timeout(self.timeout):
                return await answer
        except (TimeoutError, redis.RedisError) as error:
            log.warning("no worker answered a %s job (%s); working it out here", call,
                        type(error).__name__)
            return await asyncio.get_running_loop().run_in_executor(
                self.fallback, CALLS[call], job)
        finally:
            self.asked.pop(job_id, None)
            if entry is not None and not answer.done():  # called off, or worked out here
                self._forget(stream, entry)

    def _forget(self, stream: str, entry: bytes | str) -> None:
        """Take a job nobody waits for off the queue, so no worker spends time on it."""
        async def forget() -> None:
            with contextlib.suppress(redis.RedisError):
                await self.redis.xdel(stream, entry)

        task = asyncio.get_running_loop().create_task(forget())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _listen(self) -> None:
        """Hand each answer to whoever asked; look after this machine's workers."""
        reader = aioredis.Redis.from_url(self.url)
        while True:
            try:
                got = await reader.blpop([self.reply], timeout=1)
            except redis.RedisError as error:
                log.warning("reading the bots' answers failed: %s", error)
                await asyncio.sleep(1)
                continue
            if got is not None:
                message = json.loads(got[1])
                waiting = self.asked.get(message["id"])
                if waiting is not None and not waiting.done():
                    waiting.set_result(message["answer"])
            self.crew.check()
            await self._count()

    async def _count(self) -> None:
        """Every ``ALIVE`` seconds: the workers alive now; those long gone forgotten."""
        if time.monotonic() - self._counted < ALIVE:
            return
        self._counted = time.monotonic()
        try:
            self.live_workers = await self.redis.zcount(WORKERS, time.time() - ALIVE, "+inf")
            await self.redis.zremrangebyscore(WORKERS, "-inf", time.time() - 3600)
        except redis.RedisError as error:
            log.warning("counting the bot workers failed: %s", error)

    def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        self.crew.stop()
        self.fallback.shutdown(wait=False, cancel_futures=True)
