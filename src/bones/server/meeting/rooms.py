"""A room outside the tables, as the lobby and a tournament's page are: its sockets fed
by two tasks of each process (what it pushes, and with Redis what the other processes
said on its channels); who may say a line there (signed in, as a guest too; not too
fast; not muted; no word the operator refuses), and how a line reaches the room's
sockets (not those of players who blocked its speaker).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import redis

from bones.server.people.accounts import Refused, Sanctioned
from bones.server.people.chat import Chat
from bones.server.people.players import Player
from bones.server.people.relations import Blocks
from bones.server.protocol import ChatMessage, ErrorMessage, Ping, Pong, Say, read_client
from bones.server.sites.cluster import connect, heard
from bones.server.sockets.sending import Socket

__all__ = ["Room", "speak", "to_all"]

log = logging.getLogger("bones.server")


class Room:
    """A room's sockets of this process: :meth:`start` runs :meth:`pushing` and, with
    Redis at ``redis_url``, hands each message said on :attr:`channels` (at any
    process) to :meth:`hear`."""

    channels: tuple[str, ...] = ()

    def __init__(self, redis_url: str | None) -> None:
        self.redis = None if redis_url is None else connect(redis_url)
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks.append(asyncio.create_task(self.pushing()))
        if self.redis is not None:
            self._tasks.append(asyncio.create_task(self._listen(self.redis)))

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def pushing(self) -> None:
        """What this process sends its sockets, as long as it runs."""

    async def hear(self, channel: str, data: str) -> None:
        """A message said on one of :attr:`channels`."""

    async def _listen(self, client: Any) -> None:
        named = {heard(client, c): c for c in self.channels}  # the database's channels
        while True:
            try:
                pubsub: Any = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(*named)
                async for message in pubsub.listen():
                    await self.hear(named[message["channel"]], message["data"])
            except redis.RedisError as error:
                log.warning("a room's channel failed (%s): %s", type(self).__name__, error)
                await asyncio.sleep(1)


async def speak(chat: Chat, text: str | None, viewer: Player | None, room: str,
                tournament: str | None = None) -> ChatMessage | ErrorMessage | Pong:
    """What a room's socket said: a ping answered, or the line ``viewer`` said in
    ``room`` (of ``tournament``), kept; or the error that refuses it."""
    message = read_client(text)
    if isinstance(message, ErrorMessage):
        return message
    if isinstance(message, Ping):
        return Pong()
    if not isinstance(message, Say):
        return ErrorMessage(code="bad_message",
                            message=f"the {room} takes chat lines and pings only")
    if viewer is None:
        return ErrorMessage(code="not_signed_in", message="sign in (as a guest too) to chat")
    if not await chat.may_speak(viewer):
        return ErrorMessage(code="flood", message="you are chatting too fast; wait a moment")
    try:
        return await asyncio.to_thread(chat.say, None, room, viewer, message.text, tournament)
    except Sanctioned as muted:
        return ErrorMessage(code="muted", message=str(muted))
    except Refused as refused:  # a word the operator refuses
        return ErrorMessage(code="not_allowed", message=str(refused))


async def to_all(sockets: Iterable[tuple[Socket, int | None]], text: str,
                 send: Callable[[Socket, str], Awaitable[None]], blocks: Blocks,
                 speaker: int | None = None) -> None:
    """Send ``text`` to each socket (with the account signed in on it); a line said by
    ``speaker`` to those who have not blocked them."""
    listed = list(sockets)
    deaf: set[int] = set()
    if speaker is not None:
        deaf = await asyncio.to_thread(blocks.deaf, speaker,
                                       {a for _, a in listed if a is not None})
    await asyncio.gather(*(send(ws, text) for ws, account in listed if account not in deaf))
