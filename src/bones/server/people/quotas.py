"""What one player may ask of others in a while: challenges, tournaments made, reports.
Each is counted in the store, where every process of a site sees the same rows, so a
flood from one account is refused at whichever process it reaches (429, with when to try
again), and nobody's inbox, list of upcoming tournaments or moderators' queue fills with
one player's requests.

>>> Limit(3, 3600).check(3, "tournaments made")
Traceback (most recent call last):
...
bones.server.people.quotas.TooMany: 3 tournaments made in an hour at most; try again later
>>> Limit(3, 3600).check(2, "tournaments made")
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bones.server.store.schema import now

__all__ = ["CHALLENGES", "CHALLENGES_OPEN", "CHALLENGES_TO_ONE", "REPORTS", "TOURNAMENTS",
           "TOURNAMENTS_UPCOMING", "Limit", "TooMany"]


class TooMany(Exception):
    """More than a player may ask for in a while (answered 429): the text says what,
    ``retry`` after how many seconds to try again."""

    def __init__(self, text: str, retry: int) -> None:
        super().__init__(text)
        self.retry = retry


@dataclass(frozen=True)
class Limit:
    """At most ``most`` of a thing in ``seconds`` (none: at once, while they last)."""

    most: int
    seconds: int | None = None

    def since(self) -> datetime:
        """The moment from which the things counted against this limit are counted."""
        return now() - timedelta(seconds=self.seconds or 0)

    def check(self, count: int, what: str) -> None:
        """Refuse (:class:`TooMany`) one more when ``count`` are there already."""
        if count < self.most:
            return
        if self.seconds is None:
            raise TooMany(f"{self.most} {what} at once at most; wait for one to end",
                          60)
        span = "an hour" if self.seconds == 3600 else "a day" if self.seconds == 86400 \
            else f"{self.seconds} s"
        raise TooMany(f"{self.most} {what} in {span} at most; try again later",
                      min(self.seconds, 3600))


CHALLENGES_TO_ONE = Limit(3, 3600)
"""Challenges from one player to another in an hour (one of them open at a time)."""
CHALLENGES_OPEN = Limit(5)
"""A player's open challenges at once."""
CHALLENGES = Limit(30, 3600)
"""Challenges a player makes in an hour, to anyone."""
TOURNAMENTS_UPCOMING = Limit(5)
"""Tournaments one account made that have not started yet."""
TOURNAMENTS = Limit(10, 86400)
"""Tournaments one account makes in a day."""
REPORTS = Limit(20, 86400)
"""Reports a player makes in a day (a second report of the same player, while the first
is open, joins it and is not counted again)."""
