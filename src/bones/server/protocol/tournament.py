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
from bones.server.protocol.text import clean_text

__all__ = ["StandingInfo", "TournamentInfo", "TournamentSeat", "Tournamenting"]

TournamentKind = Literal["arena", "swiss", "duplicate"]
ROUNDS = {"swiss": 15, "duplicate": 10}
"""The most rounds of each format played in rounds."""


class Tournamenting(BaseModel):
    """A new tournament: its format, name and table (its seats all people's: whom the
    pairing seats there), when it starts, and how long it lasts: an arena's ``minutes``,
    the ``rounds`` of a Swiss or a duplicate (and a duplicate's ``boards`` a round).
    Its games have a clock (15 s and a 2-minute bank unless chosen), and anyone watches
    them when it is ``public``: listed (else open to those given its link).
    ``least_rating``: the rating in its game an entrant needs; ``bots``: bot accounts
    may enter."""

    model_config = ConfigDict(extra="forbid")
    kind: TournamentKind
    name: Annotated[str, Field(min_length=1, max_length=60),
                    AfterValidator(lambda text: clean_text(text, angles=True))]
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
        if self.starts.tzinfo is None:
            raise ValueError("say the start's time zone (an ISO time with an offset)")
        if self.table.clock is None:  # strangers' games have a clock
            self.table.clock, self.table.bank = TIME_CONTROL
        self.table.public = self.public  # a public tournament's games are watched
        return self


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


class StandingInfo(BaseModel):
    """A player's place in an arena's standings: their score, each game's points as
    counted (a streak's wins doubled), whether they are on a streak, and whether they
    are playing now."""

    name: str
    score: int
    sheet: list[int]
    on_fire: bool
    playing: bool


class TournamentSeat(BaseModel):
    """Your seat at your tournament game being played: its table, seat and token."""

    table: str
    seat: int
    token: str
