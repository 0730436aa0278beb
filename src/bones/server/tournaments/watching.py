"""A tournament's page, live: ``/ws/tournament/{id}`` is sent the page (the tournament,
its standings, its rounds) at once and again whenever it changes, and carries the
tournament's chat (the lobby's rules: signed in to speak, not too fast, not muted, a
blocked speaker unheard; a newcomer hears the last lines).

Each process looks at the tournaments its sockets watch every :data:`PAUSE` seconds,
through the look its REST readers share (``showing.Showing``: a small read of what the
page depends on, the page made again only when that changed), and pushes a page only
when what it shows changed. Every process reads the same store, so no word passes between them for
the standings; a chat line said at one process reaches the others over Redis (the
channel ``bones:tournament:chat``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict

from bones.server.meeting.rooms import Room, speak, to_all
from bones.server.people.chat import Chat
from bones.server.people.players import Player
from bones.server.people.relations import Blocks
from bones.server.protocol import ChatMessage, ErrorMessage, Pong
from bones.server.sites.cluster import heard
from bones.server.sockets.allowance import Allowance, messages
from bones.server.sockets.sending import Socket, deliver
from bones.server.tournaments.showing import Showing

__all__ = ["PAUSE", "Watching"]

log = logging.getLogger("bones.server")
PAUSE = 1.0
"""Seconds between two looks at a watched tournament."""
SAID = "bones:tournament:chat"


class Watching(Room):
    """The tournament pages' sockets of this process, by tournament."""

    channels = (SAID,)

    def __init__(self, showing: Showing, chat: Chat, blocks: Blocks, allowance: Allowance,
                 redis_url: str | None = None) -> None:
        self.showing, self.chat, self.blocks = showing, chat, blocks
        self.allowance = allowance
        super().__init__(redis_url)
        self.sockets: dict[str, dict[Socket, int | None]] = defaultdict(dict)
        """Each watched tournament's sockets here, and the account signed in on each."""
        self.shown: dict[str, str] = {}
        """The page last sent for each watched tournament."""

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
            shown = await self.showing.page(tournament)
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

    async def pushing(self) -> None:
        while True:
            await asyncio.sleep(PAUSE)
            self.showing.sweep(keep=set(self.sockets))
            for tournament in list(self.sockets):
                try:
                    await self.look(tournament)
                except Exception:
                    log.exception("a tournament's page could not be made")

    async def look(self, tournament: str) -> None:
        """Push a watched tournament's page to its sockets if it changed (the showing
        makes it again only when what it depends on changed)."""
        shown = await self.showing.page(tournament, wait=True)
        if tournament in self.sockets and shown != self.shown.get(tournament):
            self.shown[tournament] = shown
            await self._to_all(tournament, shown)

    async def hear(self, channel: str, data: str) -> None:
        """A line said at any process."""
        tournament, speaker, said = json.loads(data)
        await self._to_all(tournament, said, speaker)
