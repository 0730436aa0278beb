"""What stays in memory: finished tables nobody watches are let go, tables that waited too
long for their players are closed, and a table is dropped here for another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime

from bones.server.tables.live import Part

__all__ = ["Sweeping"]

log = logging.getLogger("bones.server")


class Sweeping(Part):
    """The tables a hub keeps in memory, swept."""

    async def run(self, every: float = 5.0) -> None:
        """Sweep every ``every`` seconds, for as long as the hub runs."""
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(Exception):
                await self.sweep()

    async def sweep(self) -> None:
        """Drop finished tables nobody watches, and close tables that waited too long."""
        now, wall = time.monotonic(), datetime.now(UTC)
        for table_id, live in list(self.hub.tables.items()):
            table = live.table
            if (table.status == "over" and not live.conns
                    and now - live.idle_since >= self.hub.settings.linger):
                await self.drop(table_id)
            elif (table.status == "waiting"
                  and (wall - table.created).total_seconds() >= self.hub.settings.waiting_ttl):
                async with live.lock:  # nobody takes a seat while it expires
                    if table.status != "waiting":
                        continue
                    await self.hub.write(self.hub.store.expire, table_id)
                if self.hub.cluster is not None:
                    await self.hub.cluster.closed(table_id)
                await self.drop(table_id, 4410, "the table waited too long")

    async def drop(self, table_id: str, code: int = 1012,
                    reason: str = "the table moved to another server: reconnect", *,
                    release: bool = True) -> None:
        """Forget a table here: call off its timers, close its sockets with ``code``
        and let another process take it (``release``: give its lease back now)."""
        live = self.hub.tables.pop(table_id, None)
        if live is None:
            return
        self.hub.changes.finished(live)
        live.stop()
        live.lost = True
        if live.listed is not None:
            self.hub.on_listing()
        for conn in list(live.conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=code, reason=reason)
        if self.hub.cluster is not None and release:
            await self.hub.cluster.release(table_id)

    # -- figures -------------------------------------------------------------------------
