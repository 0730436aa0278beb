"""The messages the server sends a socket: a table's state as a seat or a spectator sees
it, errors, hints, rematch seats and pongs.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bones.server.protocol.text import (
    Message,
)

__all__ = [
    "Action",
    "ErrorMessage",
    "HintMessage",
    "Pong",
    "RematchMessage",
    "SeatInfo",
    "StateMessage",
    "TableInfo",
]

class SeatInfo(BaseModel):
    """A seat as everyone at the table sees it."""

    seat: int
    kind: Literal["human", "bot"]
    level: str | None = None
    name: str | None = None
    connected: bool = False
    replaced: bool = False
    """A human who is away and whose moves a bot makes until they come back."""
    stood_in: int = 0
    """Moves a bot made for this seat's player in this match, away or out of time (a
    player back at the table is told how many were made while they were gone)."""
    rating: int | None = None
    """At a rated table, and in the lobby: the player's rating in the table's variant and
    player count ..."""
    provisional: bool = False
    """... still uncertain after few games (shown with a "?"; at a rated table)."""


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
    banks: list[float] | None = None
    """With a clock: what is left of each seat's bank, in seconds, when this was sent
    (the seat to move spends its move's time first, then its bank)."""
    paused: float | None = None
    """Seconds the clocks stand still yet, when this was sent: the table was just read
    back after its game was interrupted (``interrupted``)."""
    interrupted: str | None = None
    """When the game was last interrupted (a restart, a failover, an upgrade, a restore:
    the table was held by no process) and its clocks stood still meanwhile; ISO 8601."""
    absent: list[float | None] = []
    """For each seat whose player is away: seconds, when this was sent, before a bot
    takes the seat (a casual table) or before the others may claim the match (a rated
    one; 0: they may now); None for a seat whose player is here, or a bot's."""
    between_left: float | None = None
    """Between rounds: seconds before the next round begins without those not ready."""
    forfeit: dict[str, Any] | None = None
    """A match given up: the ``seat`` and ``how`` (``resigned``, ``time``: lost on time,
    ``absent``: claimed by the others while its player was away)."""
    aborted: bool = False
    """A rated match that ended before each player made a move: it rates nobody."""
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
    yours: int | None = None
    """Read by a signed-in member seated here (``GET /api/tables/{id}``): their seat,
    which their socket takes on any device signed in to the account, without its token."""
    turn: int | None = None
    """While a round is played: the seat to move."""


class Action(BaseModel):
    """One move since the last message; ``tile`` is a drawn tile, told to the drawer only."""

    seat: int
    move: str
    tile: str | None = None
    by: Literal["away", "clock"] | None = None
    """A bot made this move for the seat's player, who was away or out of time."""


class StateMessage(Message):
    """Everything a seat may see, sent after every change. ``you`` is ``None`` for a
    spectator, whose view has no hand. ``reveal`` is set between rounds and at the end:
    every hand as it ended, and how the points came about."""

    type: Literal["state"] = "state"
    you: int | None
    table: TableInfo
    view: dict[str, Any]
    actions: list[Action] = Field(default_factory=list)
    reveal: dict[str, Any] | None = None


class ErrorMessage(Message):
    """Why a message was refused; nothing changed."""

    type: Literal["error"] = "error"
    code: Literal["bad_message", "illegal_move", "not_your_turn", "not_now", "too_big",
                  "flood", "spectator", "unavailable", "not_signed_in", "muted", "not_allowed",
                  "blocked"]
    message: str


class HintMessage(Message):
    """What Hard would play, and each legal move's expected points from this seat's view
    (the side's margin over the others, a round won counting extra)."""

    type: Literal["hint"] = "hint"
    move: str
    expected: float
    values: dict[str, float]


class RematchMessage(Message):
    """Your seat at the rematch's table, sent to that seat alone: keep the token."""

    type: Literal["rematch"] = "rematch"
    table: str
    seat: int
    token: str
    invite: str


class Pong(Message):
    type: Literal["pong"] = "pong"
