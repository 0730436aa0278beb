"""Running the arenas: every :data:`PULSE` seconds each process looks for the arenas
under way (and those whose start has come, which it starts, telling their entrants).
For each it takes in the games that ended, and pairs the entrants who are waiting: not
at a game of the arena, not withdrawn, and here (a page of bones open, at any process:
who is here), by :func:`bones.server.tournaments.arena.pair`, never two of them a block
keeps apart where anyone else can be paired. The tables it makes are
the hub's, as a quick match's are; each seat's token is kept for its player to read.
Once the arena's time is up it pairs nobody more; games that end after it do not count.

With other processes (``--redis``) one process at a time runs an arena, under a lease
in Redis as a table's is held; everything it knows is in the store, so another takes
over where it left off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from bones.server.meeting.notices import Notices
from bones.server.people.players import Player
from bones.server.protocol import StandingInfo, TournamentInfo
from bones.server.tables.hub import Hub
from bones.server.tables.seats import TableError
from bones.server.tables.settings import Unavailable
from bones.server.tournaments import arena
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import Played, TournamentGames

__all__ = ["PULSE", "Runner", "ends", "shown", "sides", "standings"]

log = logging.getLogger("bones.server")
PULSE = 1.0
"""Seconds between two looks at the arenas under way."""


def ends(info: TournamentInfo) -> datetime:
    """When an arena's time is up."""
    return datetime.fromisoformat(info.starts) + timedelta(minutes=info.minutes or 0)


def sides(info: TournamentInfo) -> int:
    """The sides at one of the tournament's tables (Kozel's two pairs)."""
    return 2 if info.table.variant == "kozel" else info.table.rules().players


def standings(entrants: Sequence[tuple[int, str, bool]], played: Sequence[Played],
              until: datetime, sides: int) -> list[tuple[arena.Standing, str, bool]]:
    """The arena's standings, best first, from the games that ended by ``until`` (with
    ``sides`` sides a table): each entrant's standing, name and whether they are at a
    game now."""
    names = {account: name for account, name, _ in entrants}
    board = {account: arena.Standing(account) for account in names}
    playing: set[int] = set()
    for game in played:
        if game.places is None:
            if not game.over:
                playing.update(game.accounts)
            continue
        if game.ended is None or game.ended > until:
            continue
        for seat, account in enumerate(game.accounts):
            if account in board:
                place, shared = game.places[seat]
                board[account].record(place, sides, shared,
                                      tuple(a for a in game.accounts if a != account))
    return [(s, names[s.player], s.player in playing) for s in arena.ranked(list(board.values()))]


def shown(board: list[tuple[arena.Standing, str, bool]]) -> list[StandingInfo]:
    """The standings as players read them."""
    return [StandingInfo(name=name, score=s.score, sheet=s.sheet, on_fire=s.on_fire,
                         playing=playing) for s, name, playing in board]


class Runner:
    """The arenas of a store, run from this process (one at a time per arena)."""

    def __init__(self, hub: Hub, notices: Notices, here: Callable[[], set[str]]) -> None:
        """``here``: the names of everyone with a page of bones open."""
        self.hub, self.notices, self.here = hub, notices, here
        self.book = Tournaments(hub.store.engine)
        self.games = TournamentGames(hub.store.engine)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # never the end of the tournaments
                log.exception("the tournaments could not be run")
            await asyncio.sleep(PULSE)

    async def tick(self) -> None:
        """One look at every arena due."""
        for info in await self.hub.read(self.book.due):
            cluster = self.hub.cluster
            if cluster is not None and await cluster.renew([f"tournament:{info.id}"]):
                continue  # another process runs it
            await self._arena(info)

    async def _arena(self, info: TournamentInfo) -> None:
        if info.state == "upcoming":
            for account in await self.hub.write(self.book.begin, info.id):
                await self.notices.tell(account, "tournament", tournament=info.id,
                                        spec=info.table.model_dump(
                                            mode="json", include={"variant", "options", "rated"}))
        await self.hub.write(self.games.settle, info.id)
        until = ends(info)
        if datetime.now(until.tzinfo) >= until:
            await self.hub.write(self.book.end, info.id)
            return
        entrants = await self.hub.read(self.book.entered, info.id)
        board = standings(entrants, await self.hub.read(self.games.played, info.id),
                          until, sides(info))
        here = self.here()
        guests = {account: guest for account, _, guest in entrants}
        waiting = [s for s, name, playing in board if not playing and name in here]
        named = {s.player: name for s, name, _ in board}
        apart = await self.hub.read(self.hub.blocks.among, [s.player for s in waiting])
        for group in arena.pair(waiting, info.table.rules().players, apart):
            seated = {n: Player(named[a], a, guests[a]) for n, a in enumerate(group)}
            try:
                table, tokens = await self.hub.seat_together(info.table, seated)
            except (TableError, Unavailable) as error:
                log.warning("an arena's table could not be made: %s", error)
                continue
            await self.hub.write(self.games.seated, info.id, table.id, list(group),
                                 [tokens[n] for n in range(len(group))])
