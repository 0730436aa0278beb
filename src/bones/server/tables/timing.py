"""How this process keeps up: each person's move timed from reading it to every seat told,
and how late the event loop wakes, for `/api/metrics` and the benchmarks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bones.server.tables.live import Part

__all__ = ["Timing"]

log = logging.getLogger("bones.server")


class Timing(Part):
    """A hub's figures of its own pace."""

    async def time_the_loop(self, every: float = 0.1) -> None:
        """How late the event loop runs a task that slept: a move read late waited that
        long, whatever the server's own figure (read to broadcast) says."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(every)
            late = loop.time() - before - every
            self.hub.lags.append(late)
            self.hub.metrics.lag.observe(late)

    def figures(self, since: int = 0) -> dict[str, Any]:
        """Moves handled and the latency from a human's move to its broadcast, over the
        moves after the first ``since``; the event loop's lateness over the last minute."""
        fresh = max(0, min(len(self.hub.latency), self.hub.moves - since))
        samples = sorted(list(self.hub.latency)[len(self.hub.latency) - fresh:])
        return {"moves": self.hub.moves, "tables": len(self.hub.tables), "samples": len(samples),
                "latency_ms": {"median": _ms(_quantile(samples, 0.5)),
                               "p99": _ms(_quantile(samples, 0.99)),
                               "max": _ms(samples[-1] if samples else None)},
                "loop_lag_ms": {"p99": _ms(_quantile(sorted(self.hub.lags), 0.99)),
                                "max": _ms(max(self.hub.lags, default=None))}}


def _quantile(ordered: list[float], q: float) -> float | None:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else None


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)
