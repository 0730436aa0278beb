"""Who takes a seat, as the tables and the chat see a person.

>>> Player("Ann", 7).rated, Player("Guest123456", 8, guest=True).rated, Player("Bo").rated
(True, False, False)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Player"]


@dataclass(frozen=True)
class Player:
    """A person taking a seat: their display name and account (none for a name typed
    without signing in, which counts for nobody's statistics)."""

    name: str
    account: int | None = None
    guest: bool = False

    @property
    def rated(self) -> bool:
        """Whether they may play rated games: accounts that signed up."""
        return self.account is not None and not self.guest
