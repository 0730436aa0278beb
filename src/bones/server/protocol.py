"""The messages between a seat and the server, and the REST bodies, as pydantic models.

Every WebSocket message is one JSON object with ``v`` (the protocol version) and ``type``.
A client sends :data:`ClientMessage`; the server answers with :class:`StateMessage`,
:class:`ErrorMessage` or :class:`Pong`. ``docs/protocol.md`` shows each with an example.

>>> parse_client('{"v": 1, "type": "move", "move": "6-3 right"}')
Move(v=1, type='move', move='6-3 right')
>>> parse_client('{"v": 1, "type": "jump"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bones.server.protocol.ProtocolError: unknown message type 'jump'; send one of move, ready, ...
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from bones.rules import PLAYERS, Rules
from bones.server.names import BLANK

__all__ = [
    "BAD_BODY",
    "MAX_FRAME",
    "VERSION",
    "Action",
    "BotSeat",
    "ChatMessage",
    "ChatReport",
    "ClientMessage",
    "CreateTable",
    "ErrorMessage",
    "GameSummary",
    "HumanSeat",
    "JoinTable",
    "Joined",
    "LeaveTable",
    "LobbyMessage",
    "MatchedMessage",
    "Move",
    "Options",
    "Ping",
    "Pong",
    "ProtocolError",
    "Ready",
    "Rematch",
    "RematchMessage",
    "Say",
    "SeatInfo",
    "SeatSpec",
    "Seek",
    "SeekingMessage",
    "StateMessage",
    "Stats",
    "StatsRow",
    "TableInfo",
    "clean_text",
    "parse_client",
    "read_client",
]

VERSION: Literal[1] = 1
"""The protocol version every message carries in ``v``."""

Level = Literal["easy", "medium", "hard", "expert"]
SeatNumber = Annotated[
    int, Field(ge=0, le=3),
    BeforeValidator(lambda v: int(v) if isinstance(v, float) and v.is_integer() else v)]
"""A seat, 0 to 3 (JSON's 2.0 is the integer 2, as JSON Schema has it)."""
INVISIBLE = (
    (0x0000, 0x001F), (0x007F, 0x00A0), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x1680, 0x1680),
    (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x2064), (0x2066, 0x206F),
    (0x3000, 0x3000), (0xE000, 0xF8FF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001), (0xE0020, 0xE007F), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
"""Characters not seen as themselves, which no name or chat line may hold: Unicode's
controls, format characters (bidi overrides, zero-width joiners), private use, line and
paragraph separators and every space but the plain one (categories Cc, Cf, Co, Zl, Zp,
Zs; lone surrogates are refused apart)."""
_HIDDEN = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in INVISIBLE)
SEEN = "[^<>" + _HIDDEN + "]"
_SEEN, _SAID = re.compile(f"{SEEN}*"), re.compile(f"[^{_HIDDEN}]*")


def clean_text(text: str, *, angles: bool = False) -> str:
    """``text`` in NFC, if it holds only characters seen as themselves (and, unless
    ``angles``, no ``<`` or ``>``): the same check the schema's pattern makes. What
    renders as nothing (:data:`~bones.server.names.BLANK`) is dropped, and a letter keeps
    at most :data:`MARKS` combining marks (no stacks running over the lines around).

    >>> clean_text("Zo\u0065\u0308")
    'Zoë'
    >>> clean_text("Ann\u202eevil")
    Traceback (most recent call last):
    ...
    ValueError: U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed here
    >>> len(clean_text("hi\u3164" + "a" + "\u0301" * 30))
    5
    """
    text = unicodedata.normalize("NFC", text)
    seen = _SAID if angles else _SEEN
    if seen.fullmatch(text) is None or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        bad = next(c for c in text if not seen.fullmatch(c) or 0xD800 <= ord(c) <= 0xDFFF)
        name = unicodedata.name(bad, "an invisible character")
        raise ValueError(f"U+{ord(bad):04X} ({name}) is not allowed here")
    kept, marks = [], 0
    for c in text:
        if c in BLANK:
            continue
        marks = marks + 1 if unicodedata.category(c).startswith("M") else 0
        if marks <= MARKS:
            kept.append(c)
    return "".join(kept)


MARKS = 2
"""Combining marks one letter keeps at most (Vietnamese needs two)."""


def _stripped(empty: str, *, angles: bool = False) -> Callable[[str], str]:
    """A check that cleans a text (:func:`clean_text`) and refuses it blank."""
    def clean(text: str) -> str:
        text = clean_text(text, angles=angles).strip()
        if not text:
            raise ValueError(empty)
        return text

    return clean


Name = Annotated[str, Field(min_length=1, max_length=24,
                            json_schema_extra={"pattern": f"^{SEEN}*[^ {SEEN[2:]}{SEEN}*$"}),
                 AfterValidator(_stripped("a name needs more than spaces"))]
"""A display name: NFC, 1-24 characters, not only spaces, nothing invisible (what renders
blank is dropped), no ``<`` or ``>``; spaces at either end are dropped. Whether it may
be had (one script, not passing for another's) is the seat's to say (409)."""


class ProtocolError(ValueError):
    """A message the server cannot take; the text says what is wrong with it."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    v: Literal[1] = VERSION


# -- from a seat ---------------------------------------------------------------------------

class Move(_Message):
    """Play a move: ``"6-3 right"``, ``"6-3"`` where only one place fits, ``"draw"`` or
    ``"pass"`` (the server plays forced draws and passes by itself)."""

    type: Literal["move"] = "move"
    move: Annotated[str, Field(min_length=1, max_length=16)]


class Ready(_Message):
    """The round's end has been seen: deal the next one once every seat is ready."""

    type: Literal["ready"] = "ready"


class Hint(_Message):
    """Ask what Hard would play here, in a game against bots (it is noted in the record)."""

    type: Literal["hint"] = "hint"


class Undo(_Message):
    """Take back to your previous turn in this round, in a game against bots (noted)."""

    type: Literal["undo"] = "undo"


class Rematch(_Message):
    """At a finished match: offer (or accept) another with the same seats and rules.
    Once every player has, each is sent a ``rematch`` with their seat at the new table."""

    type: Literal["rematch"] = "rematch"


class Ping(_Message):
    """Keep the connection alive; the server answers ``pong``."""

    type: Literal["ping"] = "ping"


ChatText = Annotated[str, Field(min_length=1, max_length=200),
                     AfterValidator(_stripped("say something: the message is empty",
                                              angles=True))]
"""A chat line: 1-200 characters, nothing invisible; shown as text, never HTML."""


class Say(_Message):
    """Say something in the chat: at a table, to its players (from a seat) or to its spectators
    (from a spectator's socket, signed in); in the lobby, to everyone there."""

    type: Literal["chat"] = "chat"
    text: ChatText


Client = Move | Ready | Hint | Undo | Rematch | Ping | Say
ClientMessage = Annotated[Client, Field(discriminator="type")]
_CLIENT: TypeAdapter[Client] = TypeAdapter(ClientMessage)
_TYPES = ("move", "ready", "hint", "undo", "rematch", "ping", "chat")


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


# -- from the server -----------------------------------------------------------------------

class SeatInfo(BaseModel):
    """A seat as everyone at the table sees it."""

    seat: int
    kind: Literal["human", "bot"]
    level: str | None = None
    name: str | None = None
    connected: bool = False
    replaced: bool = False
    """A human who is away and whose moves a bot makes until they come back."""
    rating: int | None = None
    """In the lobby: the player's rating in the table's variant and player count."""


class TableInfo(BaseModel):
    """What anyone may know of a table: its rules, seats and standing."""

    id: str
    seq: int
    """Counts the table's changes: a newer message has a higher ``seq``."""
    variant: str
    rules: dict[str, Any]
    status: Literal["waiting", "playing", "between", "over"]
    seats: list[SeatInfo]
    round: int
    """The round shown (0-based)."""
    scores: list[int]
    eggs: int = 0
    ready: list[int] = []
    winner: int | None = None
    loser: int | None = None
    shutout: bool = False
    bot_delay: float
    clock: float | None = None
    """Seconds a human has for each move, if the table has a clock ..."""
    bank: float = 0.0
    """... and seconds each may spend over them in all, after which a bot moves."""
    time_left: list[float] | None = None
    """For the human to move: what is left of the move's time and of their bank, in
    seconds, when this was sent (the move's time runs first)."""
    public: bool = False
    """Listed in ``GET /api/tables``, its free seats open to anyone; a private table's
    seats open only through its invite link."""
    rated: bool = False
    """The result moves the players' ratings."""
    created: str
    fair: str
    """SHA-256 commitment to every deal of this game, public before the first move
    (``bones.fair``)."""
    fair_reveal: dict[str, str] | None = None
    """Once the game is over: the seed and salt behind the commitment."""
    rematch: list[int] = []
    """Once the game is over: the seats that offered (or accepted) a rematch."""
    next: str | None = None
    """The rematch's table, once every player accepted (spectators may follow)."""


class Action(BaseModel):
    """One move since the last message; ``tile`` is a drawn tile, told to the drawer only."""

    seat: int
    move: str
    tile: str | None = None


class StateMessage(_Message):
    """Everything a seat may see, sent after every change. ``you`` is ``None`` for a
    spectator, whose view has no hand. ``reveal`` is set between rounds and at the end:
    every hand as it ended, and how the points came about."""

    type: Literal["state"] = "state"
    you: int | None
    table: TableInfo
    view: dict[str, Any]
    actions: list[Action] = []
    reveal: dict[str, Any] | None = None


class ErrorMessage(_Message):
    """Why a message was refused; nothing changed."""

    type: Literal["error"] = "error"
    code: Literal["bad_message", "illegal_move", "not_your_turn", "not_now", "too_big",
                  "flood", "spectator", "unavailable", "not_signed_in"]
    message: str


class HintMessage(_Message):
    """What Hard would play, and each legal move's expected points from this seat's view
    (the side's margin over the others, a round won counting extra)."""

    type: Literal["hint"] = "hint"
    move: str
    expected: float
    values: dict[str, float]


class RematchMessage(_Message):
    """Your seat at the rematch's table, sent to that seat alone: keep the token."""

    type: Literal["rematch"] = "rematch"
    table: str
    seat: int
    token: str
    invite: str


class Pong(_Message):
    type: Literal["pong"] = "pong"


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


# -- REST ----------------------------------------------------------------------------------

BAD_BODY: dict[int | str, dict[str, Any]] = {
    400: {"description": "The body is not JSON (or, for analysis, not a game record)"},
    413: {"description": "The body is larger than the server takes"}}
"""The answers of a route that takes a body, to a body it cannot read."""


class HumanSeat(BaseModel):
    """A seat for a person: the creator's, marked ``me`` (signed in: the account sits
    there) or by a ``name`` (typed without signing in; such a game counts for nobody's
    statistics), else a free seat that waits for a friend with the invite link."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["human"]
    name: Name | None = None
    me: bool = False

    @property
    def mine(self) -> bool:
        """The creator sits here."""
        return self.me or self.name is not None


class BotSeat(BaseModel):
    """A seat for a computer opponent of a level."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["bot"]
    level: Level


SeatSpec = Annotated[HumanSeat | BotSeat, Field(discriminator="kind")]


class Options(BaseModel):
    """The rule options of RULES.md; left out, each takes the variant's default."""

    model_config = ConfigDict(extra="forbid", strict=True)
    players: int | None = Field(default=None, ge=2, le=4)
    target: Literal[50, 100, 150] | None = Field(
        default=100, description="Points to win; null plays a single round")
    hand_size: int | None = Field(default=None, ge=1, le=14)
    blocked_scoring: Literal["others_minus_own", "others"] = "others_minus_own"
    opening_every_round: bool = False

    def given(self) -> dict[str, Any]:
        """The options set, for ``Rules.preset``."""
        chosen = self.model_dump(exclude_unset=True)
        return {k: v for k, v in chosen.items() if v is not None or k == "target"}


TIME_CONTROL = (15.0, 120.0)
"""A rated or public table's clock unless its creator chose one: 15 s a move and a
2-minute bank."""


class CreateTable(BaseModel):
    """A new table. ``options`` are the rule options of RULES.md (``players``,
    ``target``, ``hand_size``, ``blocked_scoring``, ``opening_every_round``); ``seats``
    lists every seat, seat 0 first (Kozel: 0 and 2 are partners)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: Literal["draw", "block", "kozel", "allfives"]
    options: Options = Options()
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    bot_delay: float | None = Field(default=None, ge=0, le=10)
    clock: float | None = Field(default=None, gt=0, le=600, description=(
        "Seconds a human has for each move; then their bank runs, then a bot moves for "
        "them. A rated or public table has one: 15 s and a 2-minute bank unless chosen"))
    bank: float | None = Field(default=None, ge=0, le=1800,
                               description="Seconds each human may spend over their moves' "
                               "time in all (with a clock)")
    public: bool = Field(default=False, description="Listed, and open to anyone; a private "
                         "table's seats are taken only through its invite link")
    rated: bool = Field(default=False, description="The result moves the players' ratings: "
                        "only people with accounts (not guests) sit at it, no bots")

    @model_validator(mode="after")
    def _fits_the_rules(self) -> CreateTable:
        rules = self.rules()
        if len(self.seats) != rules.players:
            raise ValueError(f"{rules.variant} with {rules.players} players needs "
                             f"{rules.players} seats, not {len(self.seats)}")
        if sum(1 for s in self.seats if isinstance(s, HumanSeat) and s.mine) > 1:
            raise ValueError("only the creator's seat may be named; friends join by the link")
        if self.rated and any(isinstance(s, BotSeat) for s in self.seats):
            raise ValueError("a rated game is between people: no bot seats")
        if self.clock is None and (self.rated or self.public):
            self.clock, self.bank = TIME_CONTROL
        if self.bank is not None and self.clock is None:
            raise ValueError("a bank needs a clock: give each move's seconds too")
        return self

    def rules(self) -> Rules:
        """The table's rule set (the options checked as RULES.md allows)."""
        return Rules.preset(self.variant, **self.options.given())


class JoinTable(BaseModel):
    """Take a free human seat: signed in, as the account; else under a display name
    (which may not be an account's)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name | None = None
    seat: SeatNumber | None = None
    invite: str | None = Field(default=None, max_length=64,
                               description="A private table's invite secret (from its link)")


class LeaveTable(BaseModel):
    """Stand up from a seat before the game begins."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=64, description="The seat's token")


class Joined(BaseModel):
    """Your seat and its token: keep the token to reconnect. ``invite`` is the link
    friends join by (a private table's holds its secret after ``#invite=``)."""

    table: TableInfo
    seat: int
    token: str
    invite: str


class Seek(BaseModel):
    """Play now: the game wanted. The server seats you with players near your rating
    (the band widening as you wait); ``target`` None takes any. With ``bots_after``
    (casual only) you are seated with bots of ``level`` in the free seats after that
    many seconds. Kozel with ``pair``: you queue with a friend, who joins by the answer's
    ``code``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: Literal["draw", "block", "kozel", "allfives"]
    players: int | None = Field(default=None, ge=2, le=4,
                                description="Left out: the variant's fewest")
    target: Literal[50, 100, 150] | None = Field(default=None, description="null: any")
    rated: bool = False
    bots_after: float | None = Field(default=None, ge=0, le=600)
    level: Level = "medium"
    pair: bool = False

    @model_validator(mode="after")
    def _fits(self) -> Seek:
        allowed = PLAYERS[self.variant]
        if self.players is None:
            self.players = allowed[0]
        if self.players not in allowed:
            raise ValueError(f"{self.variant} is played by {' or '.join(map(str, allowed))}, "
                             f"not {self.players}")
        if self.rated and self.bots_after is not None:
            raise ValueError("a rated game is between people: no bots after a while")
        if self.pair and self.variant != "kozel":
            raise ValueError("friends queue as a pair for Kozel only")
        return self


class SeekingMessage(_Message):
    """Where a quick-match ticket stands, every second on ``/ws/seek/{ticket}`` and from
    ``GET /api/seek/{ticket}``. ``code``: for a pair whose friend has not come yet, what
    they join by (``POST /api/seek/pair/{code}``)."""

    type: Literal["seeking"] = "seeking"
    ticket: str
    variant: str
    players: int
    rated: bool
    target: int | None
    members: list[str]
    code: str | None = None
    waited: float
    band: int
    """How far from your rating the players you may be seated with are, by now."""
    waiting: int
    """Tickets waiting in this game's pool."""


class MatchedMessage(_Message):
    """Your seat at the table a quick match made: keep the token, as from a join."""

    type: Literal["matched"] = "matched"
    table: str
    seat: int
    token: str
    invite: str


class ChatMessage(BaseModel):
    """A chat line said: ``room`` ``players`` or ``spectators`` at a table (the two
    are kept apart while the game runs, so nobody watching can coach a player), or
    ``lobby``. ``id`` names it for a report (``POST /api/chat/{id}/report``)."""

    v: Literal[1] = VERSION
    type: Literal["chat"] = "chat"
    id: int
    room: Literal["players", "spectators", "lobby"]
    name: str
    text: str
    at: str


class ChatReport(BaseModel):
    """Why a chat line is reported (optional)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    reason: Annotated[str, Field(default="", max_length=200),
                      AfterValidator(lambda text: clean_text(text, angles=True))]


class LobbyMessage(BaseModel):
    """The lobby's list, sent on ``/ws/lobby`` at once and after each change: public
    tables with free seats (``open``) and those being played, to watch (``playing``),
    newest first."""

    v: Literal[1] = VERSION
    type: Literal["lobby"] = "lobby"
    open: list[TableInfo]
    playing: list[TableInfo]


class GameSummary(BaseModel):
    """A finished game, for history lists."""

    id: str
    variant: str
    finished: str
    names: list[str | None]
    scores: list[int]
    winner: int | None
    loser: int | None
    assisted: bool = False
    """Hints or undo were used: the game does not count in statistics."""
    rated: bool = False


class StatsRow(BaseModel):
    """Games, wins and losses, and the average final score of the player's side (in
    Kozel a penalty: lower is better)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    points: float = 0.0


class Stats(BaseModel):
    """One display name's record over finished games: in all, per variant, and per
    opponents' level ("people" where the opponents were people, "mixed" for both)."""

    name: str
    total: StatsRow
    by_variant: dict[str, StatsRow]
    by_level: dict[str, StatsRow]
