"""Where the thinking bots think: Hard's and Expert's decisions, and hints, run in worker
processes of their own. A search holds a core for up to a second, and in the server's
process it would hold the GIL too and stall every table; in a worker, people's moves
never wait for it. A job carries only the seat's ``PlayerView`` and the level, and the
answer is a move (or a hint's values). The view goes as its data (``to_dict``), as it
goes to a ``bones worker`` through Redis: pickled whole, its tiles and placements one
object at a time, it cost the server about twice as much.

A worker that dies loses nothing: another is started and the job sent again, and if
that fails too the job runs in a thread of the server.

The workers take jobs in turn, people first: a decision at a table where a person plays
goes ahead of every waiting decision of a table of bots alone, so a dozen all-Expert
tables cannot hold up a person's game; within each kind, first come first served.

>>> brains = Brains(workers=0)   # no processes: every job in the fallback threads
>>> brains.workers
0
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bones import bots
from bones.bots import Bot, HardBot
from bones.server.thinking.workers import Pool, WorkerDied
from bones.view import PlayerView

__all__ = ["Brains", "choose", "evaluate", "prepare"]

T = TypeVar("T")

_minds: dict[str, Bot] = {}
"""One bot per level in each worker: bots keep nothing between decisions but their
random stream."""


def choose(level: str, view: dict[str, Any]) -> str:
    """A bot's move, in a worker, for the view ``PlayerView.to_dict`` gave."""
    bot = _minds.get(level) or _minds.setdefault(level, bots.get(level))
    return str(bot.choose(PlayerView.from_dict(view)))


def evaluate(view: dict[str, Any]) -> list[float]:
    """Hard's expected points for every legal move, in a worker (a hint)."""
    bot = _minds.get("hint") or _minds.setdefault("hint", HardBot())
    assert isinstance(bot, HardBot)
    return [float(v) for v in bot.evaluate(PlayerView.from_dict(view))]


def prepare(variants: tuple[str, ...] = ("draw",), levels: tuple[str, ...] = ("hard",)
            ) -> int:
    """Load the compiled kernel before the first real decision needs it (compiling it
    into the cache, ``NUMBA_CACHE_DIR``, the first time: ``bones warm`` does so for
    every game and thinking level at an install)."""
    from bones import Round, Rules

    for variant in variants:
        rnd = Round.deal(Rules.preset(variant), seed=1)
        view = rnd.view(rnd.turn if rnd.turn is not None else 0).to_dict()
        for level in levels:
            choose(level, view)
    evaluate(view)
    return os.getpid()


class Brains:
    """A pool of ``workers`` processes for the bots' decisions and hints (0: threads)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.live_workers = workers
        """The processes thinking (as ``Fleet.live_workers`` counts a site's)."""
        self.fallback = ThreadPoolExecutor(2, thread_name_prefix="bones-bots")
        self._pool = Pool(workers)

    def warm(self) -> None:
        """Start the workers and load their kernels now, not at the first decision
        (called on the server's event loop)."""
        self._pool.start(prepare)

    async def choose(self, level: str, view: PlayerView, people: bool = True) -> str:
        """The bot's move; ``people``: a person plays at its table (it goes first)."""
        return await self._run(people, choose, level, view.to_dict())

    async def evaluate(self, view: PlayerView) -> list[float]:
        return await self._run(True, evaluate, view.to_dict())

    async def _run(self, people: bool, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker, people's first; after a worker died under it
        twice, in a thread of the server's."""
        if self.workers:
            try:
                return await self._pool.run(call, *args, rank=0 if people else 1, again=1)
            except WorkerDied:
                pass  # twice: the job is the server's own
        return await self._in_thread(call, *args)

    async def _in_thread(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.fallback, call, *args)

    def close(self) -> None:
        """Let the decisions under way finish (a second at most) and end the workers."""
        self._pool.close()
        self.fallback.shutdown(wait=False, cancel_futures=True)
