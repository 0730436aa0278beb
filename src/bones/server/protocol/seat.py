"""The messages a seat sends, and how the server reads a frame into one (or the error
that answers it).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    Field,
    TypeAdapter,
    ValidationError,
)

from bones.server.protocol.server import (
    ErrorMessage,
)
from bones.server.protocol.text import (
    VERSION,
    Message,
    ProtocolError,
    stripped,
)

__all__ = [
    "MAX_FRAME",
    "ChatText",
    "Claim",
    "Client",
    "ClientMessage",
    "Hint",
    "Move",
    "Ping",
    "Ready",
    "Rematch",
    "Resign",
    "Say",
    "Undo",
    "parse_client",
    "read_client",
]

class Move(Message):
    """Play a move: ``"6-3 right"``, ``"6-3"`` where only one place fits, ``"draw"`` or
    ``"pass"`` (the server plays forced draws and passes by itself)."""

    type: Literal["move"] = "move"
    move: Annotated[str, Field(min_length=1, max_length=16)]


class Ready(Message):
    """The round's end has been seen: deal the next one once every seat is ready."""

    type: Literal["ready"] = "ready"


class Hint(Message):
    """Ask what Hard would play here, in a game against bots (it is noted in the record)."""

    type: Literal["hint"] = "hint"


class Undo(Message):
    """Take back to your previous turn in this round, in a game against bots (noted)."""

    type: Literal["undo"] = "undo"


class Resign(Message):
    """Give the match up, at a table with another person: your side loses it at once
    (with three or four players you rank last). Refused (``not_now``) against bots
    alone, and once the match is over."""

    type: Literal["resign"] = "resign"


class Claim(Message):
    """At a rated table: claim the match from a player of the other side who has been
    away longer than the table allows (``TableInfo.absent`` counts it down to 0); they
    lose it as by resignation. Refused (``not_now``) before then, or at a casual table,
    where a bot takes an absent player's seat instead."""

    type: Literal["claim"] = "claim"


class Rematch(Message):
    """At a finished match: offer (or accept) another with the same seats and rules.
    Once every player has, each is sent a ``rematch`` with their seat at the new table."""

    type: Literal["rematch"] = "rematch"


class Ping(Message):
    """Keep the connection alive; the server answers ``pong``."""

    type: Literal["ping"] = "ping"


ChatText = Annotated[str, Field(min_length=1, max_length=200),
                     AfterValidator(stripped("say something: the message is empty",
                                              angles=True))]
"""A chat line: 1-200 characters, nothing invisible; shown as text, never HTML."""


class Say(Message):
    """Say something in the chat: at a table, to its players (from a seat) or to its spectators
    (from a spectator's socket, signed in); in the lobby, to everyone there."""

    type: Literal["chat"] = "chat"
    text: ChatText


Client = Move | Ready | Hint | Undo | Resign | Claim | Rematch | Ping | Say
ClientMessage = Annotated[Client, Field(discriminator="type")]
_CLIENT: TypeAdapter[Client] = TypeAdapter(ClientMessage)
_TYPES = ("move", "ready", "hint", "undo", "resign", "claim", "rematch", "ping", "chat")


def parse_client(text: str | bytes) -> Client:
    """A client's message, or ``ProtocolError`` naming the first thing wrong with it."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(f"not JSON: {error}") from None
    except RecursionError:
        raise ProtocolError("not JSON this server reads: nested too deep") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object with v and type")
    if data.get("type") not in _TYPES:
        raise ProtocolError(
            f"unknown message type {data.get('type')!r}; send one of {', '.join(_TYPES)}")
    version = data.get("v", VERSION)
    if type(version) is not int or version != VERSION:
        raise ProtocolError(f"protocol version {data.get('v')!r} is not spoken here; use {VERSION}")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError(f"{data['type']}: {where}: {first['msg']}") from None


MAX_FRAME = 4096
"""The longest message a client may send, in characters."""


def read_client(text: str | None) -> Client | ErrorMessage:
    """A frame a client sent (``None``: a binary one), or the error that answers it.

    >>> read_client('{"v": 1, "type": "ping"}')
    Ping(v=1, type='ping')
    >>> read_client(None).code, read_client("x" * 5000).code
    ('bad_message', 'too_big')
    """
    if text is None:
        return ErrorMessage(code="bad_message", message="send JSON in a text frame")
    if len(text) > MAX_FRAME:
        return ErrorMessage(code="too_big", message=f"a message is at most {MAX_FRAME} "
                            "characters")
    try:
        return parse_client(text)
    except ProtocolError as error:
        return ErrorMessage(code="bad_message", message=str(error))
