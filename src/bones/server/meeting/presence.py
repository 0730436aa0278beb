"""Who is here: the people with a page of bones open, and the games they play.

Each socket a person opens (signed in, as a guest too) counts them here while it is
open, and each human seat connected at a table whose match is on counts its player as
playing there. At most every :data:`PULSE` seconds, and soon after someone comes or
goes, each process works out its own people, each once. With other processes
(``--redis``) it writes that list under a key of its own, which expires :data:`STALE`
seconds after its last write (a process that died drops out by itself), and names
itself in the sorted set ``bones:presence``; the lobby reads every fresh process's
list, merged.

>>> from bones.server.people.players import Player
>>> presence = Presence(lambda: [])
>>> with presence.present(Player("Ann", account=1)):
...     presence.mine()
[Here(name='Ann', guest=False, playing=False, table=None, variant=None, players=None, rating=None)]
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

import redis

from bones.server.people.players import Player
from bones.server.protocol import Here, TableInfo
from bones.server.sites.cluster import connect

__all__ = ["PULSE", "Presence"]

log = logging.getLogger("bones.server")

PULSE = 5.0
"""Seconds between two reckonings of a process's people at most ..."""
SOON = 1.0
"""... and at least: someone who came or went is reckoned within this."""
STALE = 3 * PULSE
"""Seconds after which a process's list no longer counts."""
KEY = "bones:presence"


class Presence:
    """The people with a socket open at this process; with Redis, at every process."""

    def __init__(self, playing: Callable[[], list[TableInfo]],
                 redis_url: str | None = None) -> None:
        """``playing``: this process's tables whose match is on."""
        self.playing = playing
        self.redis = None if redis_url is None else connect(redis_url)
        self.me = secrets.token_hex(6)
        self.sockets: Counter[tuple[str, bool]] = Counter()
        """Open sockets by (name, guest)."""
        self.on_change: Callable[[], None] = lambda: None
        """Called when who is here changed (the lobby listens)."""
        self.everyone: list[Here] = []
        """Everyone here at the last reckoning, by name."""
        self._stirred = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._pulse())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    @contextmanager
    def present(self, who: Player | None) -> Iterator[None]:
        """``who`` is here while this lasts (nobody, for a page not signed in)."""
        if who is None:
            yield
            return
        key = (who.name, who.guest)
        self.sockets[key] += 1
        self._stirred.set()
        try:
            yield
        finally:
            self.sockets[key] -= 1
            if not self.sockets[key]:
                del self.sockets[key]
            self._stirred.set()

    def mine(self) -> list[Here]:
        """This process's people, each once: those with a socket open, and the players
        connected at its tables whose match is on, as playing there."""
        people = {name: Here(name=name, guest=guest) for name, guest in list(self.sockets)}
        for info in self.playing():
            for seat in info.seats:
                if seat.kind == "human" and seat.name and seat.connected:
                    known = people.get(seat.name)
                    people[seat.name] = Here(
                        name=seat.name, guest=known is not None and known.guest, playing=True,
                        table=info.id if info.public else None, variant=info.variant,
                        players=len(info.seats))
        return sorted(people.values(), key=lambda h: h.name)

    async def _everyone(self, mine: list[Here]) -> list[Here]:
        """Every process's people, merged (playing wins), by name."""
        if self.redis is None:
            return mine
        now = time.time()
        await self.redis.set(f"{KEY}:{self.me}",
                             json.dumps([h.model_dump() for h in mine]), ex=int(STALE))
        await self.redis.zadd(KEY, {self.me: now})
        await self.redis.zremrangebyscore(KEY, "-inf", now - STALE)
        processes = [str(p) for p in await self.redis.zrange(KEY, 0, -1)]  # decoded: str
        merged: dict[str, Here] = {}
        for text in await self.redis.mget([f"{KEY}:{p}" for p in processes]):
            for item in json.loads(text) if text else []:
                here = Here.model_validate(item)
                if here.name not in merged or here.playing:
                    merged[here.name] = here
        return sorted(merged.values(), key=lambda h: h.name)

    async def _pulse(self) -> None:
        while True:
            try:
                everyone = await self._everyone(self.mine())
            except redis.RedisError as error:
                log.warning("who is here could not be shared: %s", error)
            else:
                if everyone != self.everyone:
                    self.everyone = everyone
                    self.on_change()
            self._stirred.clear()
            await asyncio.sleep(SOON)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._stirred.wait(), PULSE - SOON)
