"""Who is here: the people with a page of bones open, and the games they play.

Each socket a person opens (signed in, as a guest too) counts them here while it is
open, and each human seat connected at a table whose match is on counts its player as
playing there. At most every :data:`PULSE` seconds, and soon after someone comes or
goes, each process works out its own people, each once. With other processes
(``--redis``) it writes that list under a key of its own, which expires :data:`STALE`
seconds after its last write (a process that died drops out by itself), and names
itself in the sorted set ``bones:presence``; the lobby reads every fresh process's
list, merged.

The reckoning runs on the event loop once a second on a busy site, so it handles plain
tuples (a thousand tables and two thousand people take a few milliseconds); the lobby
makes :class:`~bones.server.protocol.Here` messages of the few it shows.

>>> from bones.server.people.players import Player
>>> presence = Presence(lambda: [("Bo", "t1", "draw", 2)])
>>> with presence.present(Player("Ann", account=1), ws=None):
...     presence.mine()
[Someone(name='Ann', guest=False, playing=False, table=None, variant=None, players=None), \
Someone(name='Bo', guest=False, playing=True, table='t1', variant='draw', players=2)]
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, NamedTuple, Protocol

import redis
import redis.asyncio as aioredis

from bones.server.people.players import Player
from bones.server.sites.cluster import connect, heard
from bones.server.sockets.allowance import BANNED, SIGNED_OUT
from bones.server.tables.hub import Playing

__all__ = ["PULSE", "Closable", "Presence", "Someone", "expel", "recheck", "renamed"]

log = logging.getLogger("bones.server")

PULSE = 5.0
"""Seconds between two reckonings of a process's people at most ..."""
SOON = 1.0
"""... and at least: someone who came or went is reckoned within this."""
STALE = 3 * PULSE
"""Seconds after which a process's list no longer counts."""
KEY = "bones:presence"
EXPEL = "bones:expel"
"""The channel on which a ban is said, for every process to close the account's sockets."""
RECHECK = "bones:recheck"
"""The channel on which an account's sessions were signed out (one, all others, or all
by a new password), for every process to close the sockets of those gone."""
RENAMED = "bones:renamed"
"""The channel on which a forced rename is said (``{"account", "name"}``), for every
process to show the new name at its tables at once."""


class Closable(Protocol):
    """A socket, as far as a ban closes it."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


async def expel(client: aioredis.Redis, account: int) -> None:
    """Tell every process of a site to close the account's sockets."""
    await client.publish(heard(client, EXPEL), str(account))


async def renamed(client: aioredis.Redis, account: int, name: str) -> None:
    """Tell every process of a site to show the account's new name at its tables."""
    await client.publish(heard(client, RENAMED), json.dumps({"account": account, "name": name}))


async def recheck(client: aioredis.Redis, account: int) -> None:
    """Tell every process of a site to close the account's sockets from devices it is no
    longer signed in on."""
    await client.publish(heard(client, RECHECK), str(account))

class Someone(NamedTuple):
    """Someone here (the fields of :class:`~bones.server.protocol.Here`, rating aside)."""

    name: str
    guest: bool = False
    playing: bool = False
    table: str | None = None
    variant: str | None = None
    players: int | None = None


class Presence:
    """The people with a socket open at this process; with Redis, at every process."""

    def __init__(self, playing: Callable[[], Iterable[Playing]],
                 redis_url: str | None = None,
                 seated: Callable[[int], Awaitable[None]] | None = None,
                 renamed: Callable[[int, str], Awaitable[None]] | None = None,
                 devices: Callable[[int], Awaitable[set[str]]] | None = None) -> None:
        """``playing``: the players connected at this process's tables; ``seated``
        closes the sockets of an account's seats at them (a ban); ``renamed`` shows an
        account's new name at them; ``devices`` answers the devices an account is still
        signed in on (``people.devices.live_devices``)."""
        self.playing = playing
        self.seated, self.renamed, self.devices = seated, renamed, devices
        self.redis = None if redis_url is None else connect(redis_url)
        self.me = secrets.token_hex(6)
        self.sockets: Counter[tuple[str, bool]] = Counter()
        """Open sockets by (name, guest)."""
        self.held: dict[int, dict[Closable, str | None]] = {}
        """The open sockets of each account and the device each came from, to close when
        a moderator bans it or its device is signed out."""
        self.on_change: Callable[[], None] = lambda: None
        """Called when who is here changed (the lobby listens)."""
        self.everyone: list[Someone] = []
        """Everyone here at the last reckoning, by name."""
        self._stirred = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._pulse())]
        if self.redis is not None:
            self._tasks.append(asyncio.create_task(self._listen(self.redis)))

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    @contextmanager
    def present(self, who: Player | None, ws: Closable, device: str | None = None
                ) -> Iterator[None]:
        """``who`` is here on ``ws`` from ``device`` (``edge.auth.device``) while this
        lasts (nobody, for a page not signed in)."""
        if who is None:
            yield
            return
        key = (who.name, who.guest)
        self.sockets[key] += 1
        held = None if who.account is None else self.held.setdefault(who.account, {})
        if held is not None:
            held[ws] = device
        self._stirred.set()
        try:
            yield
        finally:
            self.sockets[key] -= 1
            if not self.sockets[key]:
                del self.sockets[key]
            if held is not None and who.account is not None:
                held.pop(ws, None)
                if not held:
                    self.held.pop(who.account, None)
            self._stirred.set()

    async def expel(self, account: int) -> None:
        """Close the account's sockets at every process (a moderator banned it)."""
        if self.redis is None:
            await self._expelled(account)
        else:
            await expel(self.redis, account)

    async def _expelled(self, account: int) -> None:
        if self.seated is not None:  # a seat's socket may be opened by its token alone
            await self.seated(account)
        for ws in list(self.held.get(account, ())):
            with suppress(Exception):
                await ws.close(BANNED, "this account is banned")

    async def recheck(self, account: int) -> None:
        """Close, at every process, the account's sockets from devices it is no longer
        signed in on (its player signed one out, or all others, or set a new password)."""
        if self.redis is None:
            await self._rechecked(account)
        else:
            await recheck(self.redis, account)

    async def _rechecked(self, account: int) -> None:
        """Every socket signed in as the account passes :meth:`present` (a table's
        too), so those held here are all there is to look at: a process holding none
        asks the store nothing."""
        held = self.held.get(account)
        if self.devices is None or not held:
            return
        live = await self.devices(account)
        for ws, device in list(held.items()):
            if device is not None and device not in live:
                with suppress(Exception):
                    await ws.close(SIGNED_OUT, "this device was signed out")

    async def rename(self, account: int, name: str) -> None:
        """Show the account's new name at the tables of every process."""
        if self.redis is None:
            if self.renamed is not None:
                await self.renamed(account, name)
        else:
            await renamed(self.redis, account, name)

    async def _listen(self, client: aioredis.Redis) -> None:
        """Hear the bans, sign-outs and renames said at any process, and close the
        sockets, or show the name, held here."""
        bans, rechecks = heard(client, EXPEL), heard(client, RECHECK)
        while True:
            try:
                pubsub: Any = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(bans, rechecks, heard(client, RENAMED))
                async for message in pubsub.listen():
                    if message["channel"] == bans:
                        await self._expelled(int(message["data"]))
                    elif message["channel"] == rechecks:
                        await self._rechecked(int(message["data"]))
                    elif self.renamed is not None:
                        said = json.loads(message["data"])
                        await self.renamed(int(said["account"]), str(said["name"]))
            except redis.RedisError as error:
                log.warning("bans and renames could not be heard: %s", error)
                await asyncio.sleep(1)

    def mine(self) -> list[Someone]:
        """This process's people, each once: those with a socket open, and the players
        connected at its tables whose match is on, as playing there."""
        people = {name: Someone(name, guest) for name, guest in list(self.sockets)}
        for name, table, variant, players in self.playing():
            known = people.get(name)
            people[name] = Someone(name, known is not None and known.guest, True, table,
                                   variant, players)
        return sorted(people.values())

    async def _everyone(self, mine: list[Someone]) -> list[Someone]:
        """Every process's people, merged (playing wins), by name."""
        if self.redis is None:
            return mine
        now = time.time()
        await self.redis.set(f"{KEY}:{self.me}", json.dumps(mine), ex=int(STALE))
        await self.redis.zadd(KEY, {self.me: now})
        await self.redis.zremrangebyscore(KEY, "-inf", now - STALE)
        processes = [str(p) for p in await self.redis.zrange(KEY, 0, -1)]  # decoded: str
        merged: dict[str, Someone] = {}
        for text in await self.redis.mget([f"{KEY}:{p}" for p in processes]):
            for fields in json.loads(text) if text else []:
                someone = Someone(*fields)
                if someone.name not in merged or someone.playing:
                    merged[someone.name] = someone
        return sorted(merged.values())

    async def _pulse(self) -> None:
        while True:
            self._stirred.clear()  # before: whoever comes while it runs stirs the next
            try:
                everyone = await self._everyone(self.mine())
            except redis.RedisError as error:
                log.warning("who is here could not be shared: %s", error)
            except Exception:  # never the end of the reckoning
                log.exception("who is here could not be reckoned")
            else:
                if everyone != self.everyone:
                    self.everyone = everyone
                    self.on_change()
            await asyncio.sleep(SOON)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._stirred.wait(), PULSE - SOON)
