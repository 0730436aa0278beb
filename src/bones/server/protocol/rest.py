"""The REST bodies and answers: making, joining and leaving tables, quick match, the
lobby's list, chat lines and reports, games and statistics.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    model_validator,
)

from bones.rules import PLAYERS, Rules
from bones.server.protocol.server import (
    TableInfo,
)
from bones.server.protocol.text import (
    VERSION,
    Level,
    Message,
    Name,
    SeatNumber,
    clean_text,
)

__all__ = [
    "BAD_BODY",
    "TIME_CONTROL",
    "BotSeat",
    "ChatMessage",
    "ChatReport",
    "CreateTable",
    "GameSummary",
    "Here",
    "HumanSeat",
    "JoinTable",
    "Joined",
    "LeaveTable",
    "LobbyMessage",
    "MatchedMessage",
    "Options",
    "SeatSpec",
    "Seek",
    "SeekingMessage",
    "Stats",
    "StatsRow",
]

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
RATED_LEAST = (5.0, 30.0)
"""The least clock of a rated table: 5 s a move and a 30 s bank. A rated game is lost
on time, and a faster one is lost to a network's hiccup (or made to farm a rating)."""


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
        if self.rated and (self.clock or 0) < RATED_LEAST[0]:
            raise ValueError(f"a rated table's clock gives {RATED_LEAST[0]:g} s a move at "
                             "least")
        if self.rated and (self.bank if self.bank is not None else 0) < RATED_LEAST[1]:
            raise ValueError(f"a rated table's bank is {RATED_LEAST[1]:g} s at least")
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


class SeekingMessage(Message):
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


class MatchedMessage(Message):
    """Your seat at the table a quick match made: it is your account's, so open the
    table's socket signed in (the session, or an API token) and it takes the seat; no
    token is kept for it while the ticket's sockets are told."""

    type: Literal["matched"] = "matched"
    table: str
    seat: int
    invite: str


class ChatMessage(BaseModel):
    """A chat line said: ``room`` ``players`` or ``spectators`` at a table (the two
    are kept apart while the game runs, so nobody watching can coach a player),
    ``lobby``, or ``tournament`` (on a tournament's page). ``id`` names it for a report
    (``POST /api/chat/{id}/report``)."""

    v: Literal[1] = VERSION
    type: Literal["chat"] = "chat"
    id: int
    room: Literal["players", "spectators", "lobby", "tournament"]
    name: str
    text: str
    at: str


class ChatReport(BaseModel):
    """Why a chat line is reported (optional)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    reason: Annotated[str, Field(default="", max_length=200),
                      AfterValidator(lambda text: clean_text(text, angles=True))]


class Here(BaseModel):
    """Someone with a page of bones open (a socket), and the game they play, if any."""

    name: str
    guest: bool = False
    playing: bool = False
    """Seated at a table whose match is on."""
    table: str | None = None
    """That table's id, if it is public (to watch); a private table is not named."""
    variant: str | None = None
    players: int | None = None
    rating: int | None = None
    """Their rating in the game they play, if they have one."""


class LobbyMessage(BaseModel):
    """The lobby's list, sent on ``/ws/lobby`` at once and after each change: public
    tables with free seats (``open``) and those being played, to watch (``playing``),
    newest first; and who is here: how many (``online``), how many play each game
    (``playing_by_game``), and the first of them by name, those playing first
    (``people``)."""

    v: Literal[1] = VERSION
    type: Literal["lobby"] = "lobby"
    open: list[TableInfo]
    playing: list[TableInfo]
    online: int = 0
    playing_by_game: dict[str, int] = {}
    people: list[Here] = []


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


class RatingChange(BaseModel):
    """One player's rating before and after a rated game, as players see them."""

    seat: int
    name: str | None
    before: int
    after: int
    provisional: bool
    """Still uncertain after this game (shown with a "?")."""


class GameRatings(BaseModel):
    """What a finished game did to ratings: ``changes`` per seat of a rated game that
    rated; ``unrated`` says why a rated table's game rated nobody: ``aborted`` (a player
    never moved), ``short`` (given up before each player made three moves of their own)
    or ``met`` (the two had played three rated games that day)."""

    rated: bool
    unrated: Literal["aborted", "short", "met"] | None = None
    changes: list[RatingChange] = []


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
