"""The site's own tournaments, made again and again: an hourly arena per game, a daily
Swiss, a weekly duplicate, as the operator's configuration file lists them, each a
``[[tournament]]`` table beside ``[serve]``::

    [[tournament]]
    name = "Hourly draw arena"
    kind = "arena"
    every = "hour"          # "hour", "day" or "week" (times in UTC)
    at = "00"               # the minute; a day's "HH:MM"; a week's "Sun HH:MM"
    minutes = 55
    table = { variant = "draw", options = { target = 50 }, rated = true }

The runner makes each one ahead of time: every start within :data:`AHEAD`, and at least
the next. A start's tournament has an id made from the name and the start, so every
process making it makes the same one, once.

>>> hourly = Recurring(name="Hourly draw arena", kind="arena", every="hour", at="05",
...     minutes=50, table={"variant": "draw", "seats": [{"kind": "human"}] * 2})
>>> after = datetime(2026, 12, 6, 18, 30, tzinfo=UTC)
>>> [s.strftime("%H:%M") for s in hourly.starts(after, timedelta(hours=3))]
['19:05', '20:05', '21:05']
>>> weekly = hourly.model_copy(update={"every": "week", "at": "Sun 18:00"})
>>> [s.isoformat() for s in weekly.starts(after, timedelta(hours=3))]
['2026-12-13T18:00:00+00:00']
"""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from bones.server.protocol import Tournamenting

__all__ = ["AHEAD", "Recurring", "recurring"]

AHEAD = timedelta(hours=6)
"""How far ahead the site's tournaments are made (and listed as coming up)."""
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
STEP = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}


class Recurring(BaseModel):
    """One of the site's tournaments, made ``every`` hour, day or week ``at`` a time
    (UTC), with the fields of a player's (:class:`Tournamenting`) but its start."""

    model_config = ConfigDict(extra="forbid")
    name: str
    kind: Literal["arena", "swiss", "duplicate"]
    every: Literal["hour", "day", "week"]
    at: str
    minutes: int | None = None
    rounds: int | None = None
    boards: int | None = None
    table: dict[str, Any]
    public: bool = True
    least_rating: int | None = None
    bots: bool = False

    @model_validator(mode="after")
    def _whole(self) -> Recurring:
        self._first(datetime(2026, 1, 1, tzinfo=UTC))  # the time reads
        self.made(datetime(2026, 1, 1, tzinfo=UTC))  # and the rest makes a tournament
        return self

    def made(self, starts: datetime) -> Tournamenting:
        """The tournament that starts at ``starts`` (its table's seats every one a
        person's, unless given)."""
        table = dict(self.table)
        if "seats" not in table:
            players = 4 if table.get("variant") == "kozel" else (
                table.get("options") or {}).get("players") or 2
            table["seats"] = [{"kind": "human"}] * players
        return Tournamenting.model_validate({
            **self.model_dump(exclude={"every", "at"}), "table": table, "starts": starts})

    def ident(self, starts: datetime) -> str:
        """The id of the tournament of ``starts``: the same at every process."""
        digest = hashlib.sha256(f"{self.name}\n{starts.isoformat()}".encode()).digest()
        return base64.urlsafe_b64encode(digest[:8]).decode().rstrip("=")

    def starts(self, after: datetime, within: timedelta = AHEAD) -> list[datetime]:
        """Every start after ``after`` and no later than ``within`` after it; at least
        the next."""
        first = self._first(after)
        found = [first]
        while found[-1] + STEP[self.every] <= after + within:
            found.append(found[-1] + STEP[self.every])
        return found

    def _first(self, after: datetime) -> datetime:
        """The first start after ``after``."""
        try:
            if self.every == "hour":
                base = after.replace(minute=int(self.at), second=0, microsecond=0)
            elif self.every == "day":
                hour, minute = (int(n) for n in self.at.split(":"))
                base = after.replace(hour=hour, minute=minute, second=0, microsecond=0)
            else:
                day, clock = self.at.split()
                hour, minute = (int(n) for n in clock.split(":"))
                base = after.replace(hour=hour, minute=minute, second=0, microsecond=0)
                base += timedelta(days=(DAYS.index(day) - base.weekday()) % 7)
        except ValueError:
            raise ValueError(f"{self.name}: at {self.at!r} is not a time for every "
                             f"{self.every} (\"05\", \"20:00\" or \"Sun 18:00\")") from None
        while base <= after:
            base += STEP[self.every]
        return base


def recurring(document: dict[str, Any]) -> list[Recurring]:
    """The ``[[tournament]]`` tables of a configuration file, checked; ``ValueError``
    names the first that will not do."""
    listed = document.get("tournament", [])
    if not isinstance(listed, list):
        raise ValueError("[[tournament]] is a list of tables")
    found = []
    for n, one in enumerate(listed, 1):
        try:
            found.append(Recurring.model_validate(one))
        except (ValidationError, ValueError) as error:
            raise ValueError(f"[[tournament]] number {n}: {error}") from None
    return found
