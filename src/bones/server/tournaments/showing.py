"""What a tournament's page shows, read from the store: the tournament, its standings in
its format (an arena's points and streaks, a Swiss's wins and tiebreaks, a duplicate's
matchpoints) and its rounds drawn. The REST answers and the page's socket both read it
here, from one look a process keeps (:class:`Showing`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bones.server.protocol import (
    PAGE,
    RoundInfo,
    StandingInfo,
    TournamentInfo,
    TournamentMessage,
)
from bones.server.store.schema import EntryRow, TournamentGameRow, TournamentRow
from bones.server.tournaments import rounds
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import TournamentGames
from bones.server.tournaments.running import Board, ends, shown, sides

__all__ = ["FRESH", "Look", "Showing", "stamp"]

FRESH = 1.0
"""Seconds a tournament's look is shown before what it depends on is read again, at
least ..."""
SHARE = 5
"""... and as many times as long as it took to make: making looks never takes more than
a fifth of a process."""
IDLE = 600.0
"""Seconds a look nobody asked for is kept."""
BEHIND = 1.0
"""Seconds past its due time a look is still served while it is made again; older, its
reader waits for the new one (a tournament nobody looked at for a while is not shown as
it was then)."""
PAGES = 64
"""Pages of standings a look keeps as JSON at most."""
STANDINGS = TypeAdapter(list[StandingInfo])
log = logging.getLogger("bones.server")


def stamp(book: Tournaments, tournament: str) -> tuple[Any, ...]:
    """What a page depends on, in two small queries: the tournament's state and rounds,
    its entries (how many, withdrawn, latest joined), its games (how many, how many
    over and taken in, latest made). The same stamp, the same page: a thousand
    entrants' page took half a second to make, and it is looked at every second."""
    with Session(book.engine) as session:
        row = session.get(TournamentRow, tournament)
        entries = session.execute(select(
            func.count(), func.count(EntryRow.withdrawn), func.max(EntryRow.joined)).where(
            EntryRow.tournament_id == tournament)).one()
        played = session.execute(select(
            func.count(), func.count(TournamentGameRow.settled),
            func.max(TournamentGameRow.created)).where(
            TournamentGameRow.tournament_id == tournament)).one()
    return (None if row is None else (row.state, len(row.pairings or [])),
            tuple(entries), tuple(played))


@dataclass
class Look:
    """One tournament as this process last made it: what it depended on, when that was
    last read, and what it shows."""

    stamp: tuple[Any, ...]
    due: float
    """When to read what it depends on again (``time.monotonic``)."""
    info: TournamentInfo
    standings: list[StandingInfo]
    rounds: list[RoundInfo]
    board: Board | None = None
    """An arena's standings kept from one look to the next, each game added once."""
    read: float = 0.0
    """When it was last asked for (``time.monotonic``)."""
    pages: dict[tuple[int, int], bytes] = field(default_factory=dict)
    """Pages of the standings as JSON, by offset and limit."""

    def standings_page(self, offset: int, limit: int) -> bytes:
        """The standings from ``offset``, ``limit`` of them, as JSON (kept: every reader
        of the same page is sent the same bytes)."""
        key = (offset, limit)
        if key not in self.pages:
            if len(self.pages) >= PAGES:
                self.pages.clear()
            self.pages[key] = STANDINGS.dump_json(self.standings[offset:offset + limit])
        return self.pages[key]

    @functools.cached_property
    def page(self) -> str:
        """The page, as its sockets are sent it: the tournament, the first :data:`PAGE` of
        its standings and its rounds (each with its first tables)."""
        rounds = [one.model_copy(update={"tables": one.tables[:PAGE]}) for one in self.rounds]
        return TournamentMessage(
            info=self.info.model_copy(update={"entrants": []}), entered=len(self.info.entrants),
            standings=self.standings[:PAGE], total=len(self.standings), rounds=rounds,
        ).model_dump_json()


class Showing:
    """The tournaments as this process shows them, to any number of readers (each page's
    socket and every REST call for standings or rounds): a tournament is looked at again
    at most every :data:`FRESH` seconds, made again only when what it depends on changed
    (its stamp), by one reader while the others wait for it, and an arena's standings are
    kept as its runner keeps them, each finished game added once. So the standings of a
    thousand entrants after twenty thousand games cost a reader a copy, not the second
    of reading and counting every game that a call took."""

    def __init__(self, book: Tournaments, games: TournamentGames,
                 timed: Callable[[float], None] = lambda _: None) -> None:
        """``timed``: told the seconds each look took to make."""
        self.book, self.games, self.timed = book, games, timed
        self.looks: dict[str, Look] = {}
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.making: dict[str, asyncio.Task[None]] = {}
        """The looks being made again, in the background."""

    async def look(self, tournament: str, wait: bool = False) -> Look:
        """The tournament as it stands (``Unknown`` if there is none): the look kept,
        made again in the background once it is due, its readers meanwhile served the
        one they have; a reader waits only for a tournament not looked at lately (none
        kept, or due more than :data:`BEHIND` seconds ago), or when it would ``wait``
        (the pages' pusher, which reads it once a second anyway)."""
        kept = self.looks.get(tournament)
        now = time.monotonic()
        if kept is None or now >= kept.due + (0.0 if wait else BEHIND):
            async with self.locks[tournament]:
                kept = self.looks.get(tournament)
                if kept is None or time.monotonic() >= kept.due + (0.0 if wait else BEHIND):
                    kept = self.looks[tournament] = await asyncio.to_thread(
                        self._made, tournament, kept)
        elif now >= kept.due and tournament not in self.making:
            self.making[tournament] = asyncio.create_task(self._again(tournament, kept))
        kept.read = time.monotonic()
        return kept

    async def _again(self, tournament: str, kept: Look) -> None:
        try:
            async with self.locks[tournament]:  # one making at a time (they share a board)
                if self.looks.get(tournament) is kept:
                    self.looks[tournament] = await asyncio.to_thread(
                        self._made, tournament, kept)
        except Exception:  # the store away, or the tournament gone: asked again later
            kept.due = time.monotonic() + FRESH
            log.warning("a tournament's standings could not be read again", exc_info=True)
        finally:
            del self.making[tournament]

    async def standings_page(self, tournament: str, offset: int, limit: int) -> bytes:
        """A page of the standings as JSON, made once for all its readers."""
        return (await self.look(tournament)).standings_page(offset, limit)

    async def rounds(self, tournament: str) -> list[RoundInfo]:
        """A Swiss's or a duplicate's rounds drawn so far (an arena has none)."""
        return (await self.look(tournament)).rounds

    async def page(self, tournament: str, wait: bool = False) -> str:
        """The page as its sockets are sent it (``wait``: as :meth:`look`)."""
        return (await self.look(tournament, wait)).page

    def sweep(self, keep: set[str], idle: float = IDLE) -> None:
        """Forget the looks nobody asked for in ``idle`` seconds, but those to ``keep``
        (watched): a process does not hold every tournament it ever showed."""
        gone = time.monotonic() - idle
        for tournament in [t for t, look in self.looks.items()
                           if look.read < gone and t not in keep]:
            del self.looks[tournament]
            self.locks.pop(tournament, None)

    def _made(self, tournament: str, kept: Look | None) -> Look:
        """The look made again if what it depends on changed; next looked at after
        :data:`FRESH` seconds, or :data:`SHARE` times as long as it took to make."""
        now = stamp(self.book, tournament)
        if kept is not None and kept.stamp == now:
            kept.due = time.monotonic() + FRESH
            return kept
        began = time.perf_counter()
        info = self.book.get(tournament)
        if info.kind == "arena":
            board = kept.board if kept is not None and kept.board is not None else Board(
                sides(info), ends(info))
            playing = board.add(self.games.since(tournament, board.known, board.latest))
            standings = shown(board.ranked(self.book.entered(tournament, True), playing))
            drawn: list[RoundInfo] = []
        else:
            board = None
            played = self.games.played(tournament)
            teams = self.book.teams(tournament)
            pairings = self.book.pairings(tournament)
            standings = (rounds.swiss_standings(teams, played) if info.kind == "swiss"
                         else rounds.duplicate_standings(teams, played))
            drawn = rounds.round_infos(teams, pairings, played, info.boards or 0) \
                if pairings else []
        took = time.perf_counter() - began
        self.timed(took)
        return Look(now, time.monotonic() + max(FRESH, SHARE * took), info, standings, drawn,
                    board)
