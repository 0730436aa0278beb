"""Chat: what players say at a table and in the lobby, kept in the store with the games
(players report lines to the moderators, :mod:`.moderation`).

At a table there are two rooms while the game runs: the players' (said from a seat,
heard by the seats) and the spectators' (said by people watching, heard by them only),
so nobody watching can coach a player; once the game is over everyone hears both. Each
speaker has a small allowance (:data:`BURST` lines in :data:`WINDOW` seconds), whatever
socket or process they say it from: it is counted per account (or, for a typed name, per
name), in Redis when the server has one.

>>> from bones.server.store.records import Store
>>> from bones.server.people.players import Player
>>> chat = Chat(Store("sqlite://").engine)
>>> line = chat.say(None, "lobby", Player("Ann"), "<b>hello</b>")
>>> line.text, line.room
('<b>hello</b>', 'lobby')
>>> [said.text for said in chat.recent(None, {"lobby"})]
['<b>hello</b>']
"""

from __future__ import annotations

import logging

from limits import RateLimitItemPerSecond
from limits.aio.strategies import MovingWindowRateLimiter
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.names import name_key
from bones.server.people.accounts import Refused, check_sanction
from bones.server.people.players import Player
from bones.server.people.words import Words
from bones.server.protocol import ChatMessage
from bones.server.sites.counting import limit_storage
from bones.server.store.schema import AccountRow, ChatRow, now

log = logging.getLogger("bones.server")

__all__ = ["BURST", "WINDOW", "Chat", "hears"]

BURST = 5
"""Chat lines one speaker may say ..."""
WINDOW = 10
"""... in this many seconds."""
KEPT = 50
"""Lines of a room a newcomer is shown."""


def hears(room: str, seated: bool, over: bool) -> bool:
    """Whether a socket (a seat's, or a spectator's) hears a table's room.

    >>> hears("spectators", seated=True, over=False), hears("spectators", True, over=True)
    (False, True)
    """
    return over or (room == "players") == seated


def _message(row: ChatRow) -> ChatMessage:
    return ChatMessage(id=row.id, room=row.room,  # type: ignore[arg-type]
                       name=row.name, text=row.text, at=row.at.isoformat())


class Chat:
    """The chat in a store (each method is one transaction), and its speakers' allowance
    (counted in Redis at ``redis``, else in this process)."""

    def __init__(self, engine: Engine, redis: str | None = None,
                 words: Words | None = None) -> None:
        self.engine = engine
        self.words = words or Words(None)
        self.limiter = MovingWindowRateLimiter(limit_storage(redis))
        self.allowance = RateLimitItemPerSecond(BURST, WINDOW)

    async def may_speak(self, who: Player) -> bool:
        """Whether ``who`` may say one more line now (and it counts); if the count cannot
        be read, yes (logged)."""
        key = f"chat:{who.account}" if who.account is not None else f"chat:n:{name_key(who.name)}"
        try:
            return await self.limiter.hit(self.allowance, key)
        except Exception as error:
            log.warning("a chat line could not be counted: %s", error)
            return True

    def say(self, table_id: str | None, room: str, who: Player, text: str,
            tournament: str | None = None) -> ChatMessage:
        """Keep a line said (``table_id`` None: in the lobby, or at ``tournament``); refused
        (:class:`.Sanctioned`) if a moderator muted the speaker, or (:class:`.Refused`)
        if it holds a word the operator refuses."""
        if self.words.in_chat(text):
            raise Refused("a word in that line is not allowed here")
        with Session(self.engine) as session, session.begin():
            if who.account is not None:
                muted = session.scalar(select(AccountRow.muted_until)
                                       .where(AccountRow.id == who.account))
                check_sanction("muted", muted)
            row = ChatRow(table_id=table_id, room=room, account_id=who.account, name=who.name,
                          text=text, at=now(), tournament_id=tournament)
            session.add(row)
            session.flush()
            return _message(row)

    def recent(self, table_id: str | None, rooms: set[str], limit: int = KEPT,
               tournament: str | None = None) -> list[ChatMessage]:
        """The last lines of these rooms of a table (or of the lobby, or of
        ``tournament``), oldest first."""
        where = (ChatRow.tournament_id == tournament if tournament is not None
                 else ChatRow.table_id.is_(None) if table_id is None
                 else ChatRow.table_id == table_id)
        query = (select(ChatRow).where(where, ChatRow.room.in_(rooms), ChatRow.removed.is_(None))
                 .order_by(ChatRow.id.desc()).limit(limit))
        with Session(self.engine) as session:
            return [_message(row) for row in session.scalars(query)][::-1]
