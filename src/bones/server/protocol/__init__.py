"""The messages between a seat and the server, and the REST bodies, as pydantic models.

Every WebSocket message is one JSON object with ``v`` (the protocol version) and ``type``.
A client sends :data:`ClientMessage`; the server answers with :class:`StateMessage`,
:class:`ErrorMessage` or :class:`Pong`. ``docs/protocol.md`` shows each with an example. The
models are in ``text`` (what every message is made of), ``seat`` (what a seat sends),
``server`` (what the server sends) and ``rest`` (the REST bodies); all are here.

>>> parse_client('{"v": 1, "type": "move", "move": "6-3 right"}')
Move(v=1, type='move', move='6-3 right')
>>> parse_client('{"v": 1, "type": "jump"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bones.server.protocol.text.ProtocolError: unknown message type 'jump'; send one of move, ready, ...
"""

from bones.server.protocol.rest import (
    BAD_BODY,
    TIME_CONTROL,
    BotSeat,
    ChatMessage,
    ChatReport,
    CreateTable,
    GameSummary,
    HumanSeat,
    Joined,
    JoinTable,
    LeaveTable,
    LobbyMessage,
    MatchedMessage,
    Options,
    SeatSpec,
    Seek,
    SeekingMessage,
    Stats,
    StatsRow,
)
from bones.server.protocol.seat import (
    MAX_FRAME,
    ChatText,
    Client,
    ClientMessage,
    Hint,
    Move,
    Ping,
    Ready,
    Rematch,
    Say,
    Undo,
    parse_client,
    read_client,
)
from bones.server.protocol.server import (
    Action,
    ErrorMessage,
    HintMessage,
    Pong,
    RematchMessage,
    SeatInfo,
    StateMessage,
    TableInfo,
)
from bones.server.protocol.text import (
    INVISIBLE,
    MARKS,
    SEEN,
    VERSION,
    Level,
    Message,
    Name,
    ProtocolError,
    SeatNumber,
    clean_text,
    stripped,
)

__all__ = [
    "BAD_BODY",
    "INVISIBLE",
    "MARKS",
    "MAX_FRAME",
    "SEEN",
    "TIME_CONTROL",
    "VERSION",
    "Action",
    "BotSeat",
    "ChatMessage",
    "ChatReport",
    "ChatText",
    "Client",
    "ClientMessage",
    "CreateTable",
    "ErrorMessage",
    "GameSummary",
    "Hint",
    "HintMessage",
    "HumanSeat",
    "JoinTable",
    "Joined",
    "LeaveTable",
    "Level",
    "LobbyMessage",
    "MatchedMessage",
    "Message",
    "Move",
    "Name",
    "Options",
    "Ping",
    "Pong",
    "ProtocolError",
    "Ready",
    "Rematch",
    "RematchMessage",
    "Say",
    "SeatInfo",
    "SeatNumber",
    "SeatSpec",
    "Seek",
    "SeekingMessage",
    "StateMessage",
    "Stats",
    "StatsRow",
    "TableInfo",
    "Undo",
    "clean_text",
    "parse_client",
    "read_client",
    "stripped",
]
