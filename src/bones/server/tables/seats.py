"""Who sits at a table, what a table logs, and what it refuses: the pieces a table is
made of that the server's other parts name too.

>>> seat = Seat("human")
>>> seat.free, seat.by_bot
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bones.server.people.players import Player

__all__ = ["Entry", "Seat", "TableError"]

Entry = tuple[str, int | None, dict[str, Any]]
"""A log entry: kind (``deal``, ``move``, ``ready``, ``hint``, ``undo``, ``forfeit``...),
seat, data."""


class TableError(ValueError):
    """A request the table refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Seat:
    """Who sits where. A human seat with no ``name`` is free."""

    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    account_id: int | None = None
    connected: int = 0
    """Open connections of this seat (not stored: a restarted server starts at 0)."""
    replaced: bool = False
    """A bot moves for this human while they are away (not stored)."""
    chose: int = 0
    """Moves chosen for this seat, forced ones aside (counted again from the log) ..."""
    stood_in: int = 0
    """... of which a bot chose for a human who was away or out of time."""
    rating: int | None = None
    """At a rated table: the player's rating in its kind of game, as players see it ..."""
    provisional: bool = False
    """... and whether it is still uncertain (not stored: read as the table begins)."""
    absent_since: float | None = None
    """When the seat's last socket closed (the epoch's seconds; not stored: a restarted
    server counts every seat absent from its start until its player is back)."""

    @property
    def free(self) -> bool:
        return self.kind == "human" and self.name is None

    @property
    def by_bot(self) -> bool:
        return self.kind == "bot" or self.replaced

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name,
                "token_hash": self.token_hash, "account_id": self.account_id}

    def take(self, player: Player | None, token_hash: str | None) -> None:
        """``player`` sits here with a seat token of that hash; None frees the seat."""
        self.name = None if player is None else player.name
        self.account_id = None if player is None else player.account
        self.token_hash = token_hash
