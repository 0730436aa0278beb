"""Whether what this process leans on answers: the store and Redis, each tried every
few seconds (a quiet site writes no move for minutes, and an outage must not wait for
one to be seen), and how long ago the store was last backed up. The figures are served
at /metrics, where ``deploy/prometheus``'s alerts read them.
"""

from __future__ import annotations

import asyncio
import math
import time

from bones.server.tables.live import Part

__all__ = ["EVERY", "Health"]

EVERY = 5.0
"""Seconds between two looks, and the longest a look waits for an answer."""


class Health(Part):
    """The store's and Redis's answers, and the last backup, as this process last saw
    them."""

    store_up = 1.0
    redis_up = 1.0
    backed_up: float | None = None
    """When the last backup was made (the epoch's seconds), if ever."""

    def gauges(self) -> None:
        """Serve the figures at /metrics."""
        metrics = self.hub.metrics
        metrics.watch("bones_store_up", "1 while the store answers (tried every few "
                      "seconds)", lambda: self.store_up)
        metrics.watch("bones_redis_up", "1 while the site's Redis answers (tried every "
                      "few seconds; 1 without one)", lambda: self.redis_up)
        metrics.watch("bones_backup_age_seconds", "Seconds since the store's last backup "
                      "(bones backup); +Inf if it was never backed up",
                      lambda: math.inf if self.backed_up is None
                      else time.time() - self.backed_up)

    @property
    def up(self) -> bool:
        """Whether the store and Redis answered at the last look."""
        return bool(self.store_up and self.redis_up)

    async def watch(self, every: float = EVERY) -> None:
        """Look every ``every`` seconds, for as long as the hub runs."""
        while True:
            await self.look(every)
            await asyncio.sleep(every)

    async def look(self, wait: float = EVERY) -> None:
        try:
            async with asyncio.timeout(wait):
                last = await self.hub.read(self.hub.store.last_backup)
            self.store_up, self.backed_up = 1.0, None if last is None else last.timestamp()
        except Exception:
            self.store_up = 0.0
        if self.hub.cluster is not None:
            try:
                async with asyncio.timeout(wait):
                    await self.hub.cluster.redis.ping()
                self.redis_up = 1.0
            except Exception:
                self.redis_up = 0.0
