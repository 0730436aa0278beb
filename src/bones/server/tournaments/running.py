"""Running the tournaments: every :data:`PULSE` seconds each process looks for those under
way (and those whose start has come, which it starts, telling their entrants). For each
it takes in the games that ended (withdrawing, and telling, a player who missed two in a
row). A Swiss or a duplicate then seats its round's tables (``rounds``), drawing the
next round when one is over, and ends after the last.

An arena pairs the entrants who are waiting: not
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
import secrets
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from bones.fair import FairDeck
from bones.server.meeting.notices import Notices
from bones.server.people.players import Player
from bones.server.protocol import NoticeKind, PairedMessage, StandingInfo, TournamentInfo
from bones.server.tables.hub import Hub
from bones.server.tables.seats import TableError
from bones.server.tables.settings import Unavailable
from bones.server.tournaments import arena, duplicate, rounds
from bones.server.tournaments.entries import Team, Tournaments, in_pairs
from bones.server.tournaments.games import Planned, Played, TournamentGames
from bones.server.tournaments.recurring import Recurring

__all__ = ["PULSE", "Board", "Runner", "ends", "shown", "sides", "standings"]

log = logging.getLogger("bones.server")
PULSE = 1.0
"""Seconds between two looks at the tournaments under way."""
SCHEDULE = 60.0
"""Seconds between two looks at the site's own tournaments to make."""


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
    board = Board(sides, until)
    return board.ranked(entrants, board.add(played))


class Board:
    """An arena's standings as its runner keeps them from one look to the next: each
    game taken in is added once (a thousand entrants' whole standings, made again every
    second from every game, cost as much as the page)."""

    def __init__(self, sides: int, until: datetime) -> None:
        self.sides, self.until = sides, until
        self.standing: dict[int, arena.Standing] = {}
        self.known: set[str] = set()
        """The tables of the games taken in, counted or not ..."""
        self.latest: datetime | None = None
        """... and when the last of them ended."""

    def add(self, played: Sequence[Played]) -> set[int]:
        """Add the games taken in that are new (in the order they ended, as given by
        :meth:`TournamentGames.since`); those at a game now."""
        playing: set[int] = set()
        for game in played:
            if game.places is None:
                if not game.over:
                    playing.update(game.accounts)
                continue
            if game.table in self.known:
                continue
            self.known.add(game.table)
            if game.ended is not None and (self.latest is None or game.ended > self.latest):
                self.latest = game.ended
            if not game.places or game.ended is None or game.ended > self.until:
                continue  # not really played (it counts for nobody), or after the end
            for seat, account in enumerate(game.accounts):
                place, shared = game.places[seat]
                self.standing.setdefault(account, arena.Standing(account)).record(
                    place, self.sides, shared, tuple(a for a in game.accounts if a != account))
        return playing

    def ranked(self, entrants: Sequence[tuple[int, str, bool]], playing: set[int],
               ) -> list[tuple[arena.Standing, str, bool]]:
        """The entrants' standings, best first, with whether each is at a game now."""
        names = {account: name for account, name, _ in entrants}
        return [(s, names[s.player], s.player in playing) for s in arena.ranked(
            [self.standing.get(account) or arena.Standing(account) for account in names])]


def shown(board: list[tuple[arena.Standing, str, bool]]) -> list[StandingInfo]:
    """The standings as players read them."""
    return [StandingInfo(name=name, score=s.score, sheet=list(s.sheet), on_fire=s.on_fire,
                         playing=playing) for s, name, playing in board]


class Runner:
    """The arenas of a store, run from this process (one at a time per arena)."""

    def __init__(self, hub: Hub, notices: Notices, here: Callable[[], set[str]],
                 recurring: Sequence[Recurring] = ()) -> None:
        """``here``: the names of everyone with a page of bones open; ``recurring``: the
        site's own tournaments, made ahead of their time."""
        self.hub, self.notices, self.here = hub, notices, here
        self.recurring = list(recurring)
        self._scheduled = 0.0
        self.book = Tournaments(hub.store.engine)
        self.games = TournamentGames(hub.store.engine)
        self._task: asyncio.Task[None] | None = None
        self._boards: dict[str, Board] = {}
        """The arenas this process runs now: each one's standings, kept."""

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
        """One look at every tournament due (and, once a minute, at the site's own to
        make)."""
        if self.recurring and time.monotonic() - self._scheduled > SCHEDULE:
            await self.schedule()
        due = await self.hub.read(self.book.due)
        for gone in self._boards.keys() - {info.id for info in due}:
            del self._boards[gone]  # ended (here or at another process)
        for info in due:
            cluster = self.hub.cluster
            if cluster is not None and await cluster.renew([f"tournament:{info.id}"]):
                continue  # another process runs it
            if info.state == "upcoming":
                await self._begin(info)
            await self.hub.write(self.games.unmade, info.id)
            await self._tell(await self.hub.write(self.games.settle, info.id), info, "withdrawn")
            await (self._arena(info) if info.kind == "arena" else self._rounds(info))

    async def schedule(self) -> None:
        """Make the site's tournaments starting within ``recurring.AHEAD`` (and each
        one's next), those not made yet."""
        self._scheduled = time.monotonic()
        now = datetime.now(UTC)
        for plan in self.recurring:
            for starts in plan.starts(now):
                await self.hub.write(self.book.make, None, plan.made(starts), plan.ident(starts))

    async def _begin(self, info: TournamentInfo) -> None:
        told, alone = await self.hub.write(self.book.begin, info.id, in_pairs(info))
        await self._tell(told, info, "tournament")
        await self._tell(alone, info, "withdrawn")

    async def _tell(self, accounts: list[int], info: TournamentInfo, kind: NoticeKind) -> None:
        if accounts:
            await self.notices.tell_all(accounts, kind, tournament=info.id,
                                        spec=info.table.model_dump(
                                            mode="json", include={"variant", "options",
                                                                  "rated"}))

    async def _rounds(self, info: TournamentInfo) -> None:
        """Seat what is left of the round under way; draw the next once it is over;
        end after the last."""
        teams = await self.hub.read(self.book.teams, info.id)
        drawn = await self.hub.read(self.book.pairings, info.id)
        games = await self.hub.read(self.games.played, info.id)
        boards = info.boards or 1
        if info.kind == "duplicate" and not drawn:
            drawn = await self.hub.write(self.book.draw, info.id, _movement(teams, info))
        tables = rounds.by_table(teams, games)
        going = next((r for r in drawn if rounds.unfinished(tables, r, boards)), None)
        if going is None:
            if info.kind == "duplicate" or len(drawn) >= (info.rounds or 0) or sum(
                    not t.withdrawn for t in teams) < 2:
                await self.hub.write(self.book.end, info.id)
                return
            apart = await self.hub.read(self.hub.blocks.among,
                                        [a for t in teams for a in t.accounts])
            going = rounds.swiss_round(teams, games, len(drawn) + 1, apart)
            drawn = await self.hub.write(self.book.draw, info.id, [going])
            going = drawn[-1]
        if going.get("bye") is not None:  # (again each look: kept once, however often)
            await self.hub.write(self.games.bye, info.id, going["round"], going["bye"])
        await self._seat_round(info, teams, going, tables)

    async def _seat_round(self, info: TournamentInfo, teams: list[Team],
                          going: dict[str, Any], tables: rounds.Tables) -> None:
        by_key = {t.key: t for t in teams}
        people = {a: Player(n, a, g) for a, n, g in
                  await self.hub.read(self.book.entered, info.id, True)}
        deck = (await self.hub.read(self.book.secret, info.id)
                if info.kind == "duplicate" else None)
        planned, decks = [], {}
        for first, second in going["tables"]:
            board = rounds.next_board(tables, going, (first, second), info.boards or 1)
            if board is None:
                continue
            side = duplicate.seat_of((first, second), first, board) if deck else 0
            plan = Planned(secrets.token_urlsafe(8),
                           rounds.seats(by_key[first], by_key[second], side),
                           going["round"], board if deck else None)
            planned.append(plan)
            decks[plan.table] = deck.board(going["round"], board) if deck else None
        await self._seat(info, planned, people, decks)

    async def _seat(self, info: TournamentInfo, planned: list[Planned],
                    people: dict[int, Player], decks: dict[str, FairDeck | None]) -> None:
        """The tables planned, reserved as the tournament's games first, all in one
        transaction (refused: their players are seated already, by another process),
        made at once, and told to their players with their seats' tokens (kept nowhere:
        a player's seat is theirs by their account)."""
        kept = await self.hub.write(self.games.reserve, info.id, planned)
        made = await asyncio.gather(*(self._made(info, plan, people, decks.get(plan.table))
                                      for plan in kept))
        for plan, tokens in zip(kept, made, strict=True):
            if tokens is None:
                continue
            for seat, account in enumerate(plan.accounts):
                await self.notices.push(account, PairedMessage(
                    tournament=info.id, table=plan.table, seat=seat, token=tokens[seat]
                ).model_dump_json())

    async def _made(self, info: TournamentInfo, plan: Planned, people: dict[int, Player],
                    deck: FairDeck | None) -> dict[int, str] | None:
        """A reserved table made: its seats' tokens (none: it could not be, and its
        reservation is let go)."""
        try:
            _, tokens = await self.hub.seat_together(
                info.table, {n: people[a] for n, a in enumerate(plan.accounts)}, deck=deck,
                table_id=plan.table)
        except (TableError, Unavailable) as error:
            log.warning("a tournament's table could not be made: %s", error)
            await self.hub.write(self.games.unmade, info.id, plan.table)
            return None
        return tokens

    async def _arena(self, info: TournamentInfo) -> None:
        until = ends(info)
        if datetime.now(until.tzinfo) >= until:
            await self.hub.write(self.book.end, info.id)
            return
        began = time.perf_counter()
        entrants = await self.hub.read(self.book.entered, info.id)
        kept = self._boards.setdefault(info.id, Board(sides(info), until))
        playing = kept.add(await self.hub.read(self.games.since, info.id, kept.known,
                                               kept.latest))
        board = await asyncio.to_thread(kept.ranked, entrants, playing)
        here = self.here()
        guests = {account: guest for account, _, guest in entrants}
        waiting = [s for s, name, playing in board if not playing and name in here]
        named = {s.player: name for s, name, _ in board}
        apart = await self.hub.read(self.hub.blocks.among, [s.player for s in waiting])
        groups = await asyncio.to_thread(arena.pair, waiting, info.table.rules().players,
                                         apart)
        await self._seat(info, [Planned(secrets.token_urlsafe(8), list(g)) for g in groups],
                         {a: Player(named[a], a, guests[a]) for g in groups for a in g}, {})
        if groups:
            self.hub.metrics.wave.observe(time.perf_counter() - began)
            self.hub.metrics.seated.inc(len(groups))


def _movement(teams: list[Team], info: TournamentInfo) -> list[dict[str, Any]]:
    """A duplicate's every round, drawn as it begins: its entrants' round robin."""
    keys = [t.key for t in teams if not t.withdrawn]
    most = len(keys) - 1 + len(keys) % 2
    schedule = duplicate.movement(keys, min(info.rounds or 1, most)) if len(keys) > 1 else []
    return [{"round": n, "tables": [list(t) for t in tables], "bye": None}
            for n, tables in enumerate(schedule, 1)]
