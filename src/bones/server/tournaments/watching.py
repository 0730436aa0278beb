"""A tournament's page, live: ``/ws/tournament/{id}`` is sent the page (the tournament,
its standings, its rounds) at once and again whenever it changes, and carries the
tournament's chat (the lobby's rules: signed in to speak, not too fast, not muted, a
blocked speaker unheard; a newcomer hears the last lines).

Each process looks at the tournaments its sockets watch every :data:`PAUSE` seconds:
a small read of what the page depends on (its stamp), the page made again only when
that changed, however many watch it, and pushed only when what it shows changed. A page
that takes long to make (a thousand entrants: half a second) is looked at again only
after :data:`SHARE` times as long, so making it never takes more than a fifth of the
process. Every process reads the same store, so no word passes between them for
the standings; a chat line said at one process reaches the others over Redis (the
channel ``bones:tournament:chat``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from bones.server.meeting.rooms import Room, speak, to_all
from bones.server.people.chat import Chat
from bones.server.people.players import Player
from bones.server.people.relations import Blocks
from bones.server.protocol import ChatMessage, ErrorMessage, Pong
from bones.server.sites.cluster import heard
from bones.server.sockets.allowance import Allowance, messages
from bones.server.sockets.sending import Socket, deliver
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import TournamentGames
from bones.server.tournaments.showing import page, stamp

__all__ = ["PAUSE", "Watching"]

log = logging.getLogger("bones.server")
PAUSE = 1.0
"""Seconds between two looks at a watched tournament, at least ..."""
SHARE = 5
"""... and as many times as long as its page took to make."""
SAID = "bones:tournament:chat"


class Watching(Room):
    """The tournament pages' sockets of this process, by tournament."""

    channels = (SAID,)

    def __init__(self, book: Tournaments, games: TournamentGames, chat: Chat, blocks: Blocks,
                 allowance: Allowance, redis_url: str | None = None,
                 timed: Callable[[float], None] = lambda _: None) -> None:
        """``timed``: told the seconds each page took to make."""
        self.book, self.games, self.chat, self.blocks = book, games, chat, blocks
        self.timed = timed
        self.allowance = allowance
        super().__init__(redis_url)
        self.sockets: dict[str, dict[Socket, int | None]] = defaultdict(dict)
        """Each watched tournament's sockets here, and the account signed in on each."""
        self.shown: dict[str, str] = {}
        """The page last sent for each watched tournament ..."""
        self.stamps: dict[str, tuple[Any, ...]] = {}
        """... and what it depended on (:func:`showing.stamp`) ..."""
        self.due: dict[str, float] = {}
        """... and when to look at it again."""

    async def serve(self, ws: Socket, tournament: str, address: str,
                    viewer: Player | None = None) -> None:
        """One page's socket: the page and the last lines said, then each change and
        each line, until it closes (4404 at once for no such tournament)."""
        async with self.allowance.opened(ws, address) as room:
            if room:
                await self._serve(ws, tournament, address, viewer)

    async def _serve(self, ws: Socket, tournament: str, address: str,
                     viewer: Player | None) -> None:
        await ws.accept()
        try:
            shown = (await asyncio.to_thread(page, self.book, self.games, tournament)
                     ).model_dump_json()
        except LookupError:  # Unknown: no such tournament
            await ws.close(4404, "no such tournament")
            return
        await ws.send_text(shown)
        account = None if viewer is None else viewer.account
        watchers = self.sockets[tournament]
        watchers[ws] = account  # heard from here on, then the lines already said
        self.shown.setdefault(tournament, shown)
        unheard = set() if account is None else set(
            await asyncio.to_thread(self.blocks.listed, account))
        for line in await asyncio.to_thread(self.chat.recent, None, {"tournament"},
                                            tournament=tournament):
            if line.name not in unheard:
                await ws.send_text(line.model_dump_json())
        gate = self.allowance.gate(address)
        try:
            async for text in messages(ws, gate, self.allowance.flood()):
                answer = await self._heard(text, tournament, viewer)
                if answer is not None and not await deliver(ws, answer.model_dump_json()):
                    break
        except Exception:  # a socket that broke is a socket that left
            log.debug("a tournament's socket broke", exc_info=True)
        finally:
            self._drop(tournament, ws)

    async def _heard(self, text: str | None, tournament: str,
                     viewer: Player | None) -> ErrorMessage | Pong | None:
        """A page said something: a ping answered, a line kept and passed on, or the
        error that refuses it."""
        line = await speak(self.chat, text, viewer, "tournament", tournament)
        if not isinstance(line, ChatMessage):
            return line
        assert viewer is not None  # whoever spoke is signed in
        said = line.model_dump_json()
        if self.redis is None:
            await self._to_all(tournament, said, viewer.account)
        else:  # every process hears it on the channel, this one too
            await self.redis.publish(heard(self.redis, SAID),
                                     json.dumps([tournament, viewer.account, said]))
        return None

    async def _to_all(self, tournament: str, text: str, speaker: int | None = None) -> None:
        watchers = self.sockets.get(tournament, {})
        await to_all(list(watchers.items()), text,
                     lambda ws, said: self._send(tournament, ws, said), self.blocks, speaker)

    async def _send(self, tournament: str, ws: Socket, text: str) -> None:
        if not await deliver(ws, text):  # slow or gone: dropped (a page reconnects)
            self._drop(tournament, ws)

    def _drop(self, tournament: str, ws: Socket) -> None:
        watchers = self.sockets.get(tournament)
        if watchers is None:
            return
        watchers.pop(ws, None)
        if not watchers:
            del self.sockets[tournament]
            self.shown.pop(tournament, None)
            self.stamps.pop(tournament, None)
            self.due.pop(tournament, None)

    async def pushing(self) -> None:
        while True:
            await asyncio.sleep(PAUSE)
            for tournament in list(self.sockets):
                if time.monotonic() < self.due.get(tournament, 0.0):
                    continue
                try:
                    await self.look(tournament)
                except Exception:
                    log.exception("a tournament's page could not be made")

    async def look(self, tournament: str) -> None:
        """Read a watched tournament's page again (if what it depends on changed); push
        it to its sockets if it changed."""
        now = await asyncio.to_thread(stamp, self.book, tournament)
        if now == self.stamps.get(tournament):
            return
        began = time.perf_counter()
        shown = (await asyncio.to_thread(page, self.book, self.games, tournament)
                 ).model_dump_json()
        took = time.perf_counter() - began
        self.timed(took)
        self.stamps[tournament] = now
        self.due[tournament] = time.monotonic() + SHARE * took - PAUSE
        if tournament in self.sockets and shown != self.shown.get(tournament):
            self.shown[tournament] = shown
            await self._to_all(tournament, shown)

    async def hear(self, channel: str, data: str) -> None:
        """A line said at any process."""
        tournament, speaker, said = json.loads(data)
        await self._to_all(tournament, said, speaker)
