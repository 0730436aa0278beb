"""The REST bodies and answers of tournaments: one made by a player, and a tournament as
everyone sees it.

>>> table = {"variant": "draw", "options": {"target": 50}, "rated": True,
...          "seats": [{"kind": "human"}, {"kind": "human"}]}
>>> made = Tournamenting(kind="arena", name="Sunday arena", table=table,
...                      starts="2026-12-06T18:00:00+00:00", minutes=60)
>>> made.table.clock, made.minutes
(15.0, 60)
>>> Tournamenting(kind="swiss", name="x", table=table, starts="2026-12-06T18:00:00+00:00")
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Tournamenting
  Value error, a Swiss is played in rounds: say how many (1-15) [type=value_error, ...]
...
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from bones.server.protocol.rest import TIME_CONTROL, CreateTable, HumanSeat
from bones.server.protocol.text import VERSION, stripped

__all__ = [
    "PAGE",
    "BoardInfo",
    "BoardResult",
    "PairedMessage",
    "Pairing",
    "Partnering",
    "RoundInfo",
    "StandingInfo",
    "TournamentInfo",
    "TournamentMessage",
    "TournamentSeat",
    "Tournamenting",
]

TournamentKind = Literal["arena", "swiss", "duplicate"]
PAGE = 100
"""Rows of standings (and tables of a round) a tournament's pushed page holds."""
ROUNDS = {"swiss": 15, "duplicate": 10}
"""The most rounds of each format played in rounds."""


class Tournamenting(BaseModel):
    """A new tournament: its format, name and table (its seats all people's: whom the
    pairing seats there), when it starts, and how long it lasts: an arena's ``minutes``,
    the ``rounds`` of a Swiss or a duplicate (and a duplicate's ``boards`` a round: each
    board one deal, so a duplicate's table plays a single round). A Swiss or a
    duplicate seats two sides a table: a two-player game, or Kozel's pairs.
    Its games have a clock (15 s and a 2-minute bank unless chosen), and anyone watches
    them when it is ``public``: listed (else open to those given its link).
    ``least_rating``: the rating in its game an entrant needs; ``bots``: bot accounts
    may enter."""

    model_config = ConfigDict(extra="forbid")
    kind: TournamentKind
    name: Annotated[str, Field(min_length=1, max_length=60),
                    AfterValidator(stripped("a tournament's name needs more than spaces",
                                             angles=True))]
    table: CreateTable
    starts: datetime
    minutes: int | None = Field(default=None, ge=1, le=240)
    rounds: int | None = Field(default=None, ge=1, le=15)
    boards: int | None = Field(default=None, ge=1, le=8)
    public: bool = True
    least_rating: int | None = Field(default=None, ge=0, le=3000)
    bots: bool = False

    @model_validator(mode="after")
    def _fits_the_format(self) -> Tournamenting:
        if not all(isinstance(s, HumanSeat) and not s.mine for s in self.table.seats):
            raise ValueError("a tournament's table seats whom the pairing chooses: every "
                             "seat a person's, none named")
        if self.kind == "arena" and (self.minutes is None or self.rounds is not None):
            raise ValueError("an arena lasts a number of minutes (1-240), not rounds")
        most = ROUNDS.get(self.kind, 0)
        if most and (self.rounds is None or self.minutes is not None or self.rounds > most):
            raise ValueError(f"a {'Swiss' if self.kind == 'swiss' else 'duplicate'} is "
                             f"played in rounds: say how many (1-{most})")
        if (self.boards is not None) != (self.kind == "duplicate"):
            raise ValueError("a duplicate, and only a duplicate, plays boards: say how many "
                             "a round (1-8)")
        if self.kind != "arena":
            self._two_sides()
        if self.starts.tzinfo is None:
            raise ValueError("say the start's time zone (an ISO time with an offset)")
        if self.table.clock is None:  # strangers' games have a clock
            self.table.clock, self.table.bank = TIME_CONTROL
        self.table.public = self.public  # a public tournament's games are watched
        return self

    def _two_sides(self) -> None:
        if self.table.variant != "kozel" and self.table.rules().players != 2:
            raise ValueError("a Swiss or a duplicate seats two sides a table: a two-player "
                             "game, or Kozel's pairs")
        if self.kind == "duplicate":
            if self.table.options.target is not None and "target" in (
                    self.table.options.model_fields_set):
                raise ValueError("a duplicate's board is one deal: leave the target out")
            self.table.options.target = None


class TournamentInfo(BaseModel):
    """A tournament as everyone sees it: what it plays, when, its state (``upcoming``,
    ``running``, ``finished``), who made it (none: the site) and who entered."""

    id: str
    kind: TournamentKind
    name: str
    table: CreateTable
    starts: str
    minutes: int | None = None
    rounds: int | None = None
    boards: int | None = None
    state: Literal["upcoming", "running", "finished"]
    by: str | None = None
    public: bool
    least_rating: int | None = None
    bots: bool = False
    entrants: list[str] = []
    """Those entered and not withdrawn, in the order they joined."""
    round: int | None = None
    """A Swiss's or a duplicate's round being played (none before the first)."""
    commitment: str | None = None
    """A duplicate's: the SHA-256 commitment to its sealed deals, shown from the start
    (``bones.fair``); the seed and salt are revealed when it is over."""


class Partnering(BaseModel):
    """Joining a Kozel tournament played by pairs: the partner asked for (each names
    the other to play together; those who name nobody, or whose partner does not name
    them back, are paired with one another when it begins)."""

    model_config = ConfigDict(extra="forbid")
    partner: str | None = Field(default=None, max_length=40)


class StandingInfo(BaseModel):
    """An entrant's place in the standings (``name``: a Kozel pair's names joined by
    " & ", each in ``players``): their score (an arena's points, a Swiss's wins and
    halves, a duplicate's matchpoints), each game's points as counted (in an arena a
    streak's wins doubled), whether they are on a streak, whether they are playing now,
    and a Swiss's tiebreaks."""

    name: str
    players: list[str] = []
    score: float
    sheet: list[float]
    on_fire: bool = False
    playing: bool
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    withdrawn: bool = False


class Pairing(BaseModel):
    """One table of a round: each side's entrant, the games it played (a duplicate's
    one a board, in order), and the points each side scored there (a Swiss's 1, ½ or
    0; a duplicate's matchpoints), none while it is played."""

    sides: list[str]
    tables: list[str]
    points: list[float] | None = None


class RoundInfo(BaseModel):
    """A Swiss's or a duplicate's round: its tables, and who sat out with a bye."""

    round: int
    tables: list[Pairing]
    bye: str | None = None


class BoardResult(BaseModel):
    """One table's result on a board: the entrants holding the first and second seat's
    hands, the first's result (its points less the other's), and each one's
    matchpoints among those who held the same hands."""

    table: str
    sides: list[str]
    result: int
    matchpoints: list[int]


class BoardInfo(BaseModel):
    """A duplicate's board: every table's result on it side by side (once over)."""

    round: int
    board: int
    results: list[BoardResult]


class TournamentMessage(BaseModel):
    """A tournament's page, sent on ``/ws/tournament/{id}`` at once and whenever it
    changes, as the REST answers give it but cut to what a thousand sockets can be sent
    every second: the tournament without its entrants' names (``entered``: how many),
    the first :data:`PAGE` of its standings (``total``: how many there are; the rest by
    REST, a page at a time) and its rounds drawn, each with its first :data:`PAGE`
    tables."""

    v: Literal[1] = VERSION
    type: Literal["tournament"] = "tournament"
    info: TournamentInfo
    entered: int
    standings: list[StandingInfo]
    total: int
    rounds: list[RoundInfo] = []


class PairedMessage(BaseModel):
    """Sent on the player's own ``/ws/me`` when a tournament's pairing seats them: the
    table, their seat and its token (a thousand pages need not ask for it every few
    seconds)."""

    v: Literal[1] = VERSION
    type: Literal["paired"] = "paired"
    tournament: str
    table: str
    seat: int
    token: str


class TournamentSeat(BaseModel):
    """Your seat at your tournament game being played: its table and seat. Open the
    table's socket signed in to your account (its session, or an API token): it takes
    your seat there, on any device (no seat token is kept)."""

    table: str
    seat: int
