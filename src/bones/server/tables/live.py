"""A table as a hub keeps it in memory (its lock, sockets, timers and bots) and a
socket at it; what a change shows, worked out once for every socket."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from bones import bots
from bones.bots import Bot
from bones.server.people.players import Player
from bones.server.protocol import (
    HintMessage,
    TableInfo,
)
from bones.server.sockets.allowance import Gate
from bones.server.sockets.bucket import Bucket
from bones.server.sockets.sending import Socket, deliver
from bones.server.store.records import Event, hash_token
from bones.server.tables import showing
from bones.server.tables.seats import Seat
from bones.server.tables.table import Table

if TYPE_CHECKING:
    from bones.server.tables.hub import Hub

__all__ = ["AFTER_THE_END", "STAND_IN", "Conn", "Live", "Part", "Shown", "seat_tokens"]

AFTER_THE_END = ("rematch", "next")
"""What a finished table's log may still gain: rematch offers, and the rematch's table."""
STAND_IN = "medium"
"""The level of the bot that moves for a human who is away or out of time."""


class Shown(NamedTuple):
    """What a table shows after a change: its public face and reveal, and the view of
    each seat it goes to (``None``: a spectator's), worked out once for all of them."""

    info: TableInfo
    reveal: dict[str, Any] | None
    views: dict[int | None, dict[str, Any]]

    @classmethod
    def of(cls, table: Table, seats: Collection[int | None]) -> Shown:
        return cls(showing.info(table), showing.reveal(table), showing.views(table, seats))


@dataclass(eq=False)
class Conn:
    ws: Socket
    seat: int | None
    address: str
    gate: Gate
    """Its allowance of messages (a seat's sockets share the seat's)."""
    viewer: Player | None = None
    """Who is signed in on this socket (the session's account), if anyone."""
    gone: bool = False
    """A send to it failed or waited too long (``deliver``): it is told nothing more, and
    what it sends is not read."""
    device: str | None = None
    """The browser or program it comes from (``auth.device``), if it gave a session or
    an API token."""

    async def tell(self, text: str) -> None:
        """Send ``text``, unless the client is gone; one that takes it too slowly is."""
        if not self.gone and not await deliver(self.ws, text):
            self.gone = True


@dataclass(eq=False)
class Live:
    table: Table
    log: list[Event] = field(default_factory=list)
    """The table's log as the store holds it: a refused write rebuilds the table from it."""
    creator: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    turn_task: asyncio.Task[None] | None = None
    bot_turn: tuple[int, int] | None = None
    """The seat and the log's length (``Table.logged``) a seated bot's move under way is
    for: its thinking goes on while only who is at the table changes."""
    away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    bots: dict[tuple[int, str], Bot] = field(default_factory=dict)
    buckets: dict[int, Bucket] = field(default_factory=dict)
    hints: dict[int, tuple[int, asyncio.Task[HintMessage]]] = field(default_factory=dict)
    """Each seat's hint for the table's position: asked again, it is not worked out
    (or logged) again."""
    failures: int = 0
    """Store writes refused in a row: the pause before the bots try again grows."""
    lost: bool = False
    """Another process holds the table now: this one no longer changes it."""
    listed: str | None = None
    """What the shared list of tables shows of it (several processes)."""
    idle_since: float = field(default_factory=time.monotonic)
    quiet: bool = False
    """Nobody has said a word at the table: known for a table made here (all its chat
    goes through this process), so a newcomer's socket skips reading the chat kept."""

    def bot(self, seat: int) -> Bot:
        key = (seat, self.level(seat))
        if key not in self.bots:
            self.bots[key] = bots.get(key[1])
        return self.bots[key]

    def level(self, seat: int) -> str:
        spec = self.table.seats[seat]
        return spec.level if spec.kind == "bot" and spec.level else STAND_IN

    def thinks(self, seat: int) -> bool:
        """Whether the seat's bot searches: it thinks in a worker, and the time it takes
        would tell what it holds, so its moves wait for the think floor."""
        return bots.LEVELS[self.level(seat)].thinks

    def stop(self) -> None:
        """Call off the table's timers: its bot's move, its absences."""
        for task in [self.turn_task, *self.away.values()]:
            if task is not None:
                task.cancel()


def seat_tokens(seats: list[Seat], numbers: Iterable[int]) -> dict[int, str]:
    """A new token for each of these seats, the seat keeping its hash."""
    tokens = {number: secrets.token_urlsafe(24) for number in numbers}
    for number, token in tokens.items():
        seats[number].token_hash = hash_token(token)
    return tokens


class Part:
    """One concern of a hub's tables (``changes``, ``turns``, ``doors``, ...), with the
    hub whose tables and store it shares."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
