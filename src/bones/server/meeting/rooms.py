"""A chat room outside the tables, as the lobby and a tournament's page have one: who may
say a line there (signed in, as a guest too; not too fast; not muted; no word the
operator refuses), and how a line reaches the room's sockets (not those of players who
blocked its speaker).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

from bones.server.people.accounts import Refused, Sanctioned
from bones.server.people.chat import Chat
from bones.server.people.players import Player
from bones.server.people.relations import Blocks
from bones.server.protocol import ChatMessage, ErrorMessage, Say
from bones.server.sockets.sending import Socket

__all__ = ["speak", "to_all"]


async def speak(chat: Chat, viewer: Player | None, message: Say, room: str,
                tournament: str | None = None) -> ChatMessage | ErrorMessage:
    """The line ``viewer`` said in ``room`` (of ``tournament``), kept; or the error
    that refuses it."""
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
