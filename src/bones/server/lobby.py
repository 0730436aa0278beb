"""The lobby: the live list of public tables, pushed to everyone watching it.

Each change to what the list shows (a table opened, a seat taken, a round played, a table
over) marks the list changed; the lobby then sends every lobby socket a new snapshot, at
most every :data:`PAUSE` seconds, so a busy site costs one snapshot per pause, not one
per move. With other processes (``--redis``) the list itself is Redis's (the cluster's
``bones:listing``) and a change anywhere is announced on the channel ``bones:lobby``,
which every process's lobby listens to.

Each seated player is shown with their rating in the table's variant and player count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis

from bones.server.cluster import LOBBY, Socket, connect
from bones.server.protocol import LobbyMessage, TableInfo
from bones.server.ratings import Ratings

__all__ = ["PAUSE", "Lobby"]

log = logging.getLogger("bones.server")
PAUSE = 0.5
"""Seconds between two snapshots at most."""
SHOWN = 200
"""Tables a snapshot lists at most, newest first."""


class Lobby:
    """Lobby sockets of this process, and what they are sent."""

    def __init__(self, tables: Callable[[int, int], Awaitable[list[TableInfo]]],
                 ratings: Ratings, redis_url: str | None = None) -> None:
        self.tables, self.ratings, self.redis_url = tables, ratings, redis_url
        self.sockets: set[Socket] = set()
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._push()))
        if self.redis_url is not None:
            self._tasks.append(asyncio.create_task(self._listen(self.redis_url)))

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    def changed(self) -> None:
        """What the list shows changed here (another process's changes come by Redis)."""
        self._changed.set()

    async def serve(self, ws: Socket) -> None:
        """One lobby socket: the list now, then each new one, until it closes."""
        await ws.accept()
        await ws.send_text((await self.snapshot()).model_dump_json())
        self.sockets.add(ws)
        try:
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass  # the lobby is only listened to
        except Exception:  # a socket that broke is a socket that left
            log.debug("a lobby socket broke", exc_info=True)
        finally:
            self.sockets.discard(ws)

    async def snapshot(self) -> LobbyMessage:
        """The public tables: those with free seats, and those being played (to watch);
        each seated player with their rating."""
        tables = await self.tables(SHOWN, 0)
        wanted = {(seat.name, t.variant, len(t.seats)) for t in tables for seat in t.seats
                  if seat.kind == "human" and seat.name}
        rated = await asyncio.to_thread(self.ratings.shown, wanted) if wanted else {}
        for table in tables:
            for seat in table.seats:
                if seat.name:
                    seat.rating = rated.get((seat.name, table.variant, len(table.seats)))
        return LobbyMessage(open=[t for t in tables if t.status == "waiting"],
                            playing=[t for t in tables if t.status != "waiting"])

    async def _push(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            if self.sockets:
                try:
                    text = (await self.snapshot()).model_dump_json()
                except Exception:
                    log.exception("the lobby's list could not be made")
                else:
                    await asyncio.gather(*(self._send(ws, text) for ws in list(self.sockets)))
            await asyncio.sleep(PAUSE)

    async def _send(self, ws: Socket, text: str) -> None:
        try:
            async with asyncio.timeout(5):
                await ws.send_text(text)
        except Exception:  # slow or gone: it is dropped, and reconnects by itself
            self.sockets.discard(ws)
            with contextlib.suppress(Exception):
                await ws.close(1013)

    async def _listen(self, url: str) -> None:
        """Changes made by other processes."""
        while True:
            try:
                pubsub: Any = connect(url).pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(LOBBY)
                async for _message in pubsub.listen():
                    self.changed()
            except redis.RedisError as error:
                log.warning("the lobby's channel failed: %s", error)
                await asyncio.sleep(1)
