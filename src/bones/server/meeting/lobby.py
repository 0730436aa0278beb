"""The lobby: the live list of public tables, pushed to everyone watching it.

Each change to what the list shows (a table opened, a seat taken, a round played, a table
over) marks the list changed; the lobby then sends every lobby socket a new snapshot, at
most every :data:`PAUSE` seconds, so a busy site costs one snapshot per pause, not one
per move. With other processes (``--redis``) the list itself is Redis's (the cluster's
``bones:listing``) and a change anywhere is announced on the channel ``bones:lobby``,
which every process's lobby listens to.

Each seated player is shown with their rating in the table's variant and player count.
With the tables come who is here (:mod:`bones.server.meeting.presence`): how many, how
many play each game, and the first :data:`SHOWN` of them, those playing first, each
with their rating in the game they play and, at a public table, its id to watch.

The lobby has a chat (:mod:`bones.server.people.chat`): a line said at any process is kept, then
heard by every lobby socket (with others, over the channel ``bones:lobby:chat``); a
newcomer hears the last lines.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from bones.server.meeting.presence import Presence
from bones.server.meeting.rooms import Room, speak, to_all
from bones.server.people.chat import Chat
from bones.server.people.players import Player
from bones.server.people.ratings import Ratings
from bones.server.people.relations import Blocks
from bones.server.protocol import (
    ChatMessage,
    ErrorMessage,
    Here,
    LobbyMessage,
    Pong,
    TableInfo,
)
from bones.server.sites.cluster import LOBBY, heard
from bones.server.sockets.allowance import Allowance, messages
from bones.server.sockets.sending import Socket, deliver

__all__ = ["PAUSE", "Lobby"]

log = logging.getLogger("bones.server")
PAUSE = 0.5
"""Seconds between two snapshots at most."""
SHOWN = 200
"""Tables a snapshot lists at most, newest first."""
SAID = f"{LOBBY}:chat"


class Lobby(Room):
    """Lobby sockets of this process, and what they are sent."""

    channels = (LOBBY, SAID)

    def __init__(self, tables: Callable[[int, int], Awaitable[list[TableInfo]]],
                 ratings: Ratings, chat: Chat, blocks: Blocks, allowance: Allowance,
                 presence: Presence, redis_url: str | None = None) -> None:
        self.tables, self.ratings, self.chat, self.blocks = tables, ratings, chat, blocks
        self.presence = presence
        presence.on_change = self.changed
        self.allowance = allowance
        super().__init__(redis_url)
        self.sockets: dict[Socket, int | None] = {}
        """The lobby's sockets here, and the account signed in on each (if any)."""
        self._changed = asyncio.Event()
        self._changes = 0
        """Changes marked so far: a socket whose first list was made across one is
        pushed the next."""

    def changed(self) -> None:
        """What the list shows changed here (another process's changes come by Redis)."""
        self._changes += 1
        self._changed.set()

    async def serve(self, ws: Socket, address: str, viewer: Player | None = None) -> None:
        """One lobby socket from ``address``: the list and the last lines said, then each
        new list and line, until it closes; ``viewer`` (signed in) may chat."""
        async with self.allowance.opened(ws, address) as room:
            if room:
                await self._serve(ws, address, viewer)

    async def _serve(self, ws: Socket, address: str, viewer: Player | None) -> None:
        await ws.accept()
        changes = self._changes
        await ws.send_text((await self.snapshot()).model_dump_json())
        # Heard from here on before the lines already said are read: a line said while
        # they are read comes live or with them (the page drops the one it has), never not
        # at all.
        account = None if viewer is None else viewer.account
        self.sockets[ws] = account
        if self._changes != changes:  # pushed to the others while this list was made
            self.changed()
        unheard = set() if account is None else set(
            await asyncio.to_thread(self.blocks.listed, account))
        for line in await asyncio.to_thread(self.chat.recent, None, {"lobby"}):
            if line.name not in unheard:
                await ws.send_text(line.model_dump_json())
        gate = self.allowance.gate(address)
        try:
            async for text in messages(ws, gate, self.allowance.flood()):
                answer = await self._heard(text, viewer)
                if answer is not None and not await deliver(ws, answer.model_dump_json()):
                    break
        except Exception:  # a socket that broke is a socket that left
            log.debug("a lobby socket broke", exc_info=True)
        finally:
            self.sockets.pop(ws, None)

    async def _heard(self, text: str | None, viewer: Player | None) -> ErrorMessage | Pong | None:
        """A lobby socket said something: a ping answered, a line kept and passed on, or
        the error that refuses it."""
        line = await speak(self.chat, text, viewer, "lobby")
        if not isinstance(line, ChatMessage):
            return line
        assert viewer is not None  # whoever spoke is signed in
        said = line.model_dump_json()
        if self.redis is None:
            await self._to_all(said, viewer.account)
        else:  # every process hears it (and who said it) on the channel, this one too
            await self.redis.publish(heard(self.redis, SAID), json.dumps([viewer.account, said]))
        return None

    async def _to_all(self, text: str, speaker: int | None = None) -> None:
        """Send ``text`` to every lobby socket here (a line not to those who blocked its
        ``speaker``)."""
        await to_all(self.sockets.items(), text, self._send, self.blocks, speaker)

    async def snapshot(self) -> LobbyMessage:
        """The public tables: those with free seats, and those being played (to watch);
        each seated player with their rating; and who is here."""
        tables = await self.tables(SHOWN, 0)
        everyone = self.presence.everyone
        people = sorted(everyone, key=lambda h: (not h.playing, h.name.casefold()))[:SHOWN]
        wanted = {(seat.name, t.variant, len(t.seats)) for t in tables for seat in t.seats
                  if seat.kind == "human" and seat.name} | {
            (h.name, h.variant, h.players) for h in people if h.variant and h.players}
        rated = await asyncio.to_thread(self.ratings.shown, wanted) if wanted else {}
        for table in tables:  # copies: a table's own seat models are shared by its messages
            table.seats = [seat.model_copy(update={"rating": rated.get(
                (seat.name, table.variant, len(table.seats)))}) if seat.name else seat
                for seat in table.seats]
        return LobbyMessage(
            open=[t for t in tables if t.status == "waiting"],
            playing=[t for t in tables if t.status != "waiting"],
            online=len(everyone),
            playing_by_game=dict(Counter(h.variant for h in everyone if h.variant)),
            people=[Here(**h._asdict(), rating=rated.get((h.name, h.variant, h.players))
                         if h.variant and h.players else None) for h in people])

    async def pushing(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            if self.sockets:
                try:
                    text = (await self.snapshot()).model_dump_json()
                except Exception:
                    log.exception("the lobby's list could not be made")
                else:
                    await self._to_all(text)
            await asyncio.sleep(PAUSE)

    async def _send(self, ws: Socket, text: str) -> None:
        if not await deliver(ws, text):  # slow or gone: dropped (a page reconnects)
            self.sockets.pop(ws, None)

    async def hear(self, channel: str, data: str) -> None:
        """A line said, or a change made, at any process."""
        if channel == SAID:
            speaker, said = json.loads(data)
            await self._to_all(said, speaker)
        else:
            self.changed()

