"""Heavy work, kept from starving the tables: grading a whole game runs in worker
processes of its own (never the threads of the store or of the bots), behind a short
queue that answers "busy" when full, one round at a time so that it stops when the
client who asked has gone, and is kept once done.

>>> jobs = Analyses(workers=1, waiting=0)
>>> jobs.slots
1
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bones.analysis import GRADER, Analysis, Grade, frames, grade_round
from bones.match import Match
from bones.server.thinking.workers import Pool, WorkerDied

__all__ = ["Analyses", "Busy", "Gone"]

T = TypeVar("T")


class Busy(RuntimeError):
    """The queue is full (or this address has its share in it): try again later."""


class Gone(RuntimeError):
    """The client who asked left: the work stopped."""


def _grades(record: dict[str, Any], number: int) -> list[Grade]:
    return grade_round(Match.from_record(record), number)


def _frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    return frames(Match.from_record(record))


class Analyses:
    """Graded games: worked out by ``workers`` processes, at most ``waiting`` more
    waiting, ``per_address`` of them for one address; the last ``keep`` kept."""

    def __init__(self, workers: int = 1, waiting: int = 4, per_address: int = 2,
                 keep: int = 200) -> None:
        self.workers, self.slots = workers, workers + waiting
        self.per_address, self.keep = per_address, keep
        self.cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.taken: dict[str, int] = {}
        self.pool = Pool(workers)  # started on first use: most servers never grade a game

    def close(self) -> None:
        self.pool.close(wait=10.0)  # a round is seconds at most

    def figures(self) -> dict[str, int]:
        """Analyses being worked out or waiting, and analyses kept."""
        return {"running": sum(self.taken.values()), "kept": len(self.cache)}

    def kept(self, key: str, graded: bool = True) -> dict[str, Any] | None:
        """The answer kept for ``key``, if it was worked out already; with ``graded``
        false, its positions kept without grades will do as well."""
        for kept in (key,) if graded else (key, f"{key}:positions"):
            if kept in self.cache:
                self.cache.move_to_end(kept)
                return self.cache[kept]
        return None

    async def report(self, key: str, record: dict[str, Any], rounds: int, address: str,
                     gone: Callable[[], Awaitable[bool]], about: dict[str, Any]
                     ) -> dict[str, Any]:
        """The graded game ``record`` of ``rounds`` rounds, worked out now and kept under
        ``key`` with ``about`` (what the caller says of the game besides); ``Busy`` if
        there is no room, ``Gone`` if ``gone()`` turns true."""
        if sum(self.taken.values()) >= self.slots:
            raise Busy("every analysis worker is busy; try again in a minute")
        if self.taken.get(address, 0) >= self.per_address:
            raise Busy(f"at most {self.per_address} analyses at once from one address")
        self.taken[address] = self.taken.get(address, 0) + 1
        try:
            grades: list[Grade] = []
            for number in range(rounds):
                grades += await self._run(gone, _grades, record, number)
            shown = await self._run(gone, _frames, record)
        finally:
            self.taken[address] -= 1
            if not self.taken[address]:
                del self.taken[address]
        return self._kept(key, {**Analysis(GRADER, shown, grades).to_dict(), **about})

    async def positions(self, key: str, match: Match, about: dict[str, Any]
                        ) -> dict[str, Any]:
        """The game's every position without grades, at once: a replay of its record
        (milliseconds, so no job), worked out in a thread and kept as the graded answers
        are, where ``kept(key, graded=False)`` finds it (the caller asks that first)."""
        shown = await asyncio.to_thread(frames, match)
        return self._kept(f"{key}:positions", {**Analysis(GRADER, shown, []).to_dict(),
                                               **about})

    def _kept(self, key: str, answer: dict[str, Any]) -> dict[str, Any]:
        self.cache[key] = answer
        while len(self.cache) > self.keep:
            self.cache.popitem(last=False)
        return answer

    async def _run(self, gone: Callable[[], Awaitable[bool]], call: Callable[..., T],
                   *args: Any) -> T:
        """``call(*args)`` in a worker, until it answers or ``gone()``. A worker that died
        under it (killed, or out of memory) is replaced and the call made again, once;
        a second death is ``Busy`` (try again), never an error of the server's."""
        future = asyncio.ensure_future(self.pool.run(call, *args, again=1))
        while not (await asyncio.wait({future}, timeout=0.5))[0]:
            if await gone():
                future.cancel()
                raise Gone("the client left")
        try:
            return future.result()
        except WorkerDied:
            raise Busy("the analysis worker ended twice; try again in a minute") from None
