"""The tables of this process: what they share (the store, the writer, the bots' brains,
the allowance of sockets), their making, seating and reading back, and the pieces that
each hold one concern of a table's life:

- ``changes.py``: a change applied, written, then sent to every socket;
- ``turns.py``: what no person will do (bots' turns, clocks, absences);
- ``doors.py``: the sockets at a table, and what they say;
- ``holding.py``: where a table is held (here, being read back, at another process);
- ``sweeping.py``: what stays in memory;
- ``timing.py``: this process's pace.

Every change to a table goes the same way, under the table's lock: the table changes,
its log entries are written to the store, and only then is each connection sent its
own state. A write the store refuses (it is down, its disk is full, its file is locked)
puts the table back as its stored log has it, answers the mover ``unavailable`` and
tries the table's bots again with a growing pause, so tables resume by themselves.

Tables are kept in memory while they are played; a finished one stays while anyone
watches it and a little after, and is read back from the store when asked for again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from bones.fair import FairDeck
from bones.server.metrics import Metrics
from bones.server.people.chat import Chat
from bones.server.people.players import Player
from bones.server.people.ratings import NEW, Ratings, shown
from bones.server.people.relations import Blocks
from bones.server.people.words import Words
from bones.server.protocol import (
    BotSeat,
    CreateTable,
    HumanSeat,
    Joined,
    TableInfo,
)
from bones.server.sites.cluster import CallError, Cluster, Elsewhere
from bones.server.sockets.allowance import BANNED, Allowance
from bones.server.sockets.sending import Socket
from bones.server.store.records import Store, hash_token
from bones.server.store.writer import Writer
from bones.server.tables import endings, showing
from bones.server.tables.changes import Changes
from bones.server.tables.doors import Doors
from bones.server.tables.health import Health
from bones.server.tables.holding import Holding
from bones.server.tables.live import Live, seat_tokens
from bones.server.tables.seats import Seat, TableError
from bones.server.tables.settings import Limited, Settings, Unavailable
from bones.server.tables.sweeping import Sweeping
from bones.server.tables.table import Table
from bones.server.tables.timing import Timing
from bones.server.tables.turns import Turns
from bones.server.thinking.brains import Brains
from bones.server.thinking.fleet import Fleet

__all__ = ["Hub", "Limited", "Settings", "Unavailable"]

log = logging.getLogger("bones.server")
Playing = tuple[str, str | None, str, int]
"""A player connected at a table whose match is on: their name, the table's id if it
is public (else None), its game and its number of players."""

Offered = Callable[[int, int | None, str, dict[str, Any]], Awaitable[None]]
"""Told to ``account`` that the account ``by`` offers a rematch at ``table`` of these
rules (its game, target and rating)."""

T = TypeVar("T")


class Hub:
    """Every open table of this server process."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.words = Words(self.settings.words)
        self.chat = Chat(store.engine, self.settings.redis, self.words)
        self.blocks = Blocks(store.engine)
        self.tables: dict[str, Live] = {}
        self.latency: deque[float] = deque(maxlen=100_000)
        """Seconds from a human's move arriving to every seat being sent the result."""
        self.moves = 0
        # Reading the store has threads of its own; the bots' decisions and hints run in
        # worker processes (brains.py), analyses in others (jobs.py): a queue of one never
        # holds up another, and no search holds the GIL of the process serving sockets.
        self.readers = ThreadPoolExecutor(4, thread_name_prefix="bones-store")
        self.metrics = Metrics()
        self.writer = Writer(store, self.metrics.write.observe, self.metrics.store_errors.inc)
        settings = self.settings
        self.brains: Brains | Fleet = (
            Fleet(settings.redis, settings.bot_workers, settings.bot_timeout) if settings.redis
            else Brains(settings.bot_workers))
        self.metrics.watch("bones_store_writes_waiting", "Writes handed to the store's "
                           "writer and not yet begun", lambda: self.writer.waiting)
        self.metrics.watch("bones_tables", "Tables in this process's memory",
                           lambda: len(self.tables))
        self.metrics.watch("bones_bot_workers", "Bot worker processes taking jobs (with "
                           "Redis: every machine's, heard from in the last 5 s)",
                           lambda: self.brains.live_workers)
        self.metrics.watch("bones_ready", "1 once this process has loaded its tables and "
                           "may take players, while the store and Redis answer",
                           lambda: float(self._sweeper is not None and self.health.up))
        self.allowance = Allowance(settings.rate, settings.burst, settings.patience,
                                   settings.sockets_per_address, settings.max_sockets)
        """What each address's sockets may do, every kind of socket of this process's."""
        self.metrics.watch("bones_sockets", "Open WebSockets",
                           lambda: self.allowance.total)
        self.metrics.watch("bones_sockets_cap", "WebSockets this process holds at most "
                           "(--max-sockets, below its open-files limit)",
                           lambda: self.allowance.cap)
        self.unfinished: dict[str, set[str]] = {}
        """The unfinished tables each address made, for its limit: a create looks at
        its own address's, not at every table."""
        self._sweeper: asyncio.Task[None] | None = None
        self.changes = Changes(self)
        """Each change to a table: applied, written, then sent (``changes.py``)."""
        self.turns = Turns(self)
        """What no person will do: bots' turns, clocks, absences (``turns.py``)."""
        self.doors = Doors(self)
        """The sockets at the tables (``doors.py``)."""
        self.holding = Holding(self)
        """Where a table is held: here, being read back, or at another process
        (``holding.py``)."""
        self.sweeping = Sweeping(self)
        """What stays in memory (``sweeping.py``)."""
        self.timing = Timing(self)
        """This process's pace (``timing.py``)."""
        self.ratings = Ratings(store.engine)
        self.cluster: Cluster | None = None
        """With Redis: this process among the others (``sites.cluster``)."""
        if settings.redis:
            self.cluster = Cluster(settings.redis)
            self.cluster.on_open = self.holding.remote
            self.cluster.on_call = self.holding.called
        self.health = Health(self)
        """Whether the store and Redis answer, and the last backup (``health.py``)."""
        self.health.gauges()
        self.offered: Offered | None = None
        """Tells a player of a rematch offered at a table they played (the app's notices
        set it)."""
        self._keeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._health: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Future[Live | None]] = {}
        """Tables being read back from the store, for those who ask meanwhile."""
        self.on_listing: Callable[[], None] = lambda: None
        """Called when the list of public tables changed here (the lobby listens)."""
        self.lags: deque[float] = deque(maxlen=600)
        """The event loop's lateness over the last minute, a sample every tenth of a second."""

    async def connect(self, ws: Socket, table_id: str, token: str | None, address: str,
                      viewer: Player | None = None, invite: str | None = None,
                      device: str | None = None) -> None:
        """Serve one WebSocket at a table (``Doors.connect``)."""
        await self.doors.connect(ws, table_id, token, address, viewer, invite, device)

    async def read(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.readers,
                                                                 partial(call, *args))

    async def write(self, call: Callable[..., T], *args: Any) -> T:
        """A write other than a move's, in order with them (``writer.py``): in place on
        SQLite, on the writer's thread on PostgreSQL, so that the loop serves sockets
        while the database commits. The store fails fast instead of hanging (its
        timeouts, ``store._engine``), so an outage costs a refused write, not a stall."""
        return await self.writer.call(call, *args)

    # -- start-up and shut-down ----------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every unfinished table from the store and set its bots and timers going;
        a table whose last move was stored without its end (a crash between the two, in
        a store written before they were one transaction) is finished now. With other
        processes, list them as unfinished instead: whichever process finds one without
        a holder first takes it."""
        if self.cluster is not None:
            await self.cluster.start()
            await self.cluster.forgotten()
            await self.cluster.opened(*await self.read(self.store.open_ids))
            self._keeper = asyncio.create_task(self.holding.keep())
            self._watcher = asyncio.create_task(self.holding.watch())
        else:
            await self._restore_all()
        self._sweeper = asyncio.create_task(self.sweeping.run())
        self._timer = asyncio.create_task(self.timing.time_the_loop())
        self._health = asyncio.create_task(self.health.watch())
        self.brains.warm()

    async def _restore_all(self) -> None:
        for saved in await self.read(self.store.open_tables):
            try:
                table = Table.restore(saved)
            except Exception:
                log.exception("table %s could not be rebuilt from its log", saved.id)
                continue
            if table.status == "over":
                await self.write(self.store.finish, table.id, endings.game(table))
                continue
            live = self.tables[table.id] = Live(table, list(saved.events))
            await self.begin(live)

    async def ready(self) -> bool:
        """Whether this server can take players: its tables are loaded and the store
        answers."""
        if self._sweeper is None:
            return False
        try:
            await self.read(self.store.ping)
        except Exception:
            return False
        return True

    async def close(self) -> None:
        """Stop; with other processes, hand this one's tables over to them at once."""
        for task in (self._sweeper, self._keeper, self._watcher, self._timer, self._health):
            if task is not None:
                task.cancel()
        for table_id in list(self.tables):
            await self.sweeping.drop(table_id)
        if self.cluster is not None:
            await self.cluster.close()
        self.readers.shutdown(wait=False, cancel_futures=True)
        self.writer.close()
        self.brains.close()

    # -- tables --------------------------------------------------------------------------

    async def create(self, spec: CreateTable, creator: str | None = None,
                     player: Player | None = None) -> tuple[Table, int | None, str | None]:
        """A new table; ``player`` (the creator) takes the seat the spec marks as theirs
        and gets its token."""
        await self.may_make(creator, player.account if player else None)
        mine = next((n for n, s in enumerate(spec.seats)
                     if isinstance(s, HumanSeat) and s.mine), None)
        takers: dict[int, Player] = {}
        if mine is not None:
            assert player is not None
            takers[mine] = player
        table, tokens = await self._made(spec, takers, creator)
        return table, mine, tokens.get(mine) if mine is not None else None

    async def seat_together(self, spec: CreateTable, players: dict[int, Player],
                            creator: str | None = None, deck: FairDeck | None = None,
                            table_id: str | None = None) -> tuple[Table, dict[int, str]]:
        """A new table with ``players`` in their seats at once (a quick match's, sought
        from the address ``creator``; a tournament's, under the id it reserved, a
        duplicate board's dealt from its ``deck``): the table and each seat's token."""
        return await self._made(spec, players, creator, deck, table_id)

    async def _made(self, spec: CreateTable, players: dict[int, Player],
                    creator: str | None, deck: FairDeck | None = None,
                    table_id: str | None = None) -> tuple[Table, dict[int, str]]:
        if spec.rated and not (players and all(p.rated for p in players.values())):
            raise TableError("rated", "a rated game is for players who signed up")
        seats = [Seat("bot", level=s.level) if isinstance(s, BotSeat) else Seat("human")
                 for s in spec.seats]
        for number, player in players.items():
            seats[number].take(player, None)
        tokens = seat_tokens(seats, players)
        delay = self.settings.bot_delay if spec.bot_delay is None else spec.bot_delay
        if all(s.kind == "bot" for s in seats):
            delay = max(delay, self.settings.bot_only_delay)
        table = Table(table_id or secrets.token_urlsafe(8), spec.rules(), seats, bot_delay=delay,
                      clock=spec.clock, bank=spec.bank or 0.0,
                      invite=None if spec.public else secrets.token_urlsafe(16),
                      rated=spec.rated, deck=deck or FairDeck.new())
        await self.open(table, creator)
        return table, tokens

    async def open(self, table: Table, creator: str | None) -> Live:
        """Store a new table, deal if every seat is taken, and set its bots going."""
        if self.cluster is not None:
            await self.cluster.claim(table.id)
        try:
            await self.write(self.store.create, table.id, table.config(),
                              [s.stored() for s in table.seats])
        except Exception as error:
            log.warning("the store refused a new table: %s", error)
            raise Unavailable("the table could not be saved just now; try again") from None
        if self.cluster is not None:
            await self.cluster.opened(table.id)
        live = self.tables[table.id] = Live(table, creator=creator, quiet=True)
        if creator is not None:
            self.unfinished.setdefault(creator, set()).add(table.id)
        await self.begin(live)
        return live

    async def begin(self, live: Live) -> None:
        """Deal if every seat is taken, wait for the seated humans to come, and set the
        bots going: a new table's start, and a stored table's after a restart."""
        async with live.lock:
            table = live.table
            settings = self.settings
            table.absence = settings.claim_after if table.rated else settings.leave_after
            table.between = settings.between
            await self.rate_seats(table)
            await self.changes.commit(live, table.start())
            if table.invite is None:  # listed from the start, before anyone connects
                await self.changes.show(live, showing.info(table))
            for number, seat in enumerate(table.seats):
                if seat.kind == "human" and not seat.free:
                    self.turns.start_away(live, number)
            self.turns.schedule(live)

    async def rate_seats(self, table: Table) -> None:
        """At a rated table: each seated player's rating, to show beside their name (one
        read as the table begins and as each player joins; ratings move only at the
        end)."""
        accounts = [s.account_id for s in table.seats if s.account_id is not None]
        if not table.rated or not accounts:
            return
        try:
            found = await self.read(self.ratings.seated, accounts, table.rules.variant,
                                    table.rules.players)
        except Exception as error:  # shown beside the names only: never stops a table
            log.warning("table %s: the ratings could not be read: %s", table.id, error)
            return
        for seat in table.seats:
            if seat.account_id is not None:
                rating = found.get(seat.account_id, NEW)
                seat.rating, seat.provisional = shown(rating), rating.provisional

    async def may_make(self, address: str | None, account: int | None) -> None:
        """Refuse (``Limited``) one more table from an address, or for an account, that
        has its allowance of unfinished tables: whether made by hand or by quick match,
        the same allowance. An account's are counted in the store, so every process
        counts them alike."""
        limit = self.settings.tables_per_address
        if address is not None and len(self.unfinished.get(address, ())) >= limit:
            raise Limited(f"at most {limit} unfinished tables from one address; finish "
                          "or leave one first")
        if account is not None and await self.read(self.store.playing, account) >= limit:
            raise Limited(f"at most {limit} unfinished tables a player; finish or leave "
                          "one first")

    async def join(self, table_id: str, player: Player, seat: int | None,
                   invite: str | None = None) -> Joined:
        """Take a free human seat (at whichever process holds the table): the seat, its
        token and the link to share. Raises ``KeyError`` (no such table), ``TableError``
        (private, or no free seat) or ``ValueError`` (the seat was just taken)."""
        try:
            live = await self.holding.live(table_id)
        except Elsewhere as away:
            return Joined.model_validate(await self.holding.ask(
                away.owner, "join", table=table_id, name=player.name, account=player.account,
                guest=player.guest, seat=seat, invite=invite))
        if live is None:
            raise KeyError(f"no open table {table_id!r}")
        await self.kept_apart(player.account, live.table.seats)
        token = secrets.token_urlsafe(24)
        hashed = hash_token(token)
        async with live.lock:
            table = live.table
            number = table.join(player, hashed, seat, invite)
            try:
                await self.write(self.store.take_seat, table.id, number, player.name,
                                  hashed, player.account)
            except ValueError:
                table.seats[number].take(None, None)
                raise
            except Exception as error:
                table.seats[number].take(None, None)
                log.warning("table %s: the store refused a seat: %s", table.id, error)
                raise Unavailable("the seat could not be saved just now; try again") from None
            await self.rate_seats(table)
            await self.changes.commit(live, table.start())
            self.turns.start_away(live, number)
            await self.changes.broadcast(live, [])
            self.turns.schedule(live)
        return Joined(table=showing.info(table), seat=number, token=token,
                      invite=showing.invite_link(table))

    async def kept_apart(self, account: int | None, seats: list[Seat]) -> None:
        """Refuse (``TableError`` ``blocked``) ``account`` a table where a player it
        blocked, or who blocked it, is seated: a block holds at every table, public ones
        and rematches too."""
        seated = {s.account_id for s in seats if s.account_id not in (None, account)}
        if account is not None and seated and seated & await self.read(self.blocks.apart,
                                                                       account):
            raise TableError("blocked", "not at this table: one of its players blocked you, "
                             "or you blocked them")

    async def leave(self, table_id: str, token: str) -> None:
        """The player of a seat (its token) leaves a table whose game has not begun, at
        whichever process holds it. Raises ``KeyError`` (no such table) or
        ``TableError`` (no such seat, or the game has begun)."""
        try:
            live = await self.holding.live(table_id)
        except Elsewhere as away:
            await self.holding.ask(away.owner, "leave", table=table_id, token=token)
            return
        if live is None:
            raise KeyError(f"no open table {table_id!r}")
        async with live.lock:
            table = live.table
            seat, who = table.leave(token)
            try:
                await self.write(self.store.free_seat, table.id, seat)
            except Exception as error:
                table.seats[seat].take(who, hash_token(token))  # as the store still has it
                log.warning("table %s: the store refused a seat left: %s", table.id, error)
                raise Unavailable("the seat could not be left just now; try again") from None
            await self.changes.broadcast(live, [])
            for conn in [c for c in live.conns if c.seat == seat]:
                with contextlib.suppress(Exception):
                    await conn.ws.close(4403, "you left this seat")

    async def info(self, table_id: str) -> TableInfo | None:
        """What anyone may know of the table, from whichever process holds it."""
        try:
            live = await self.holding.live(table_id)
        except Elsewhere as away:
            assert self.cluster is not None
            try:
                return TableInfo.model_validate(
                    await self.cluster.call(away.owner, "info", table=table_id))
            except CallError as error:
                if error.code == "unavailable":
                    raise Unavailable(str(error)) from None
                return None
        return None if live is None else showing.info(live.table)

    async def expel(self, account: int) -> None:
        """Close the sockets at this process's tables of the account's seats, or signed
        in as it (a moderator banned it)."""
        for live in list(self.tables.values()):
            seats = live.table.seats
            for conn in list(live.conns):
                ours = conn.seat is not None and seats[conn.seat].account_id == account
                if ours or (conn.viewer is not None and conn.viewer.account == account):
                    with contextlib.suppress(Exception):
                        await conn.ws.close(BANNED, "this account is banned")

    async def renamed(self, account: int, name: str) -> None:
        """The account's seats at this process's tables show its new ``name`` at once
        (a moderator renamed it; the store has it already), and their players are
        told."""
        for live in list(self.tables.values()):
            seats = [s for s in live.table.seats
                     if s.kind == "human" and s.account_id == account and s.name != name]
            if seats:
                async with live.lock:
                    for seat in seats:
                        seat.name = name
                    live.table.seq += 1
                    await self.changes.broadcast(live, [])

    def playing_here(self) -> Iterator[Playing]:
        """The people connected at this process's tables whose match is on: each one's
        name, the table's id if it is public, its game and its number of players (read
        from the tables as they are, not their public faces: it runs every second)."""
        for live in list(self.tables.values()):
            table = live.table
            if table.status in ("playing", "between"):
                shown = table.id if table.invite is None else None
                for seat in table.seats:
                    if seat.kind == "human" and seat.name and seat.connected:
                        yield seat.name, shown, table.rules.variant, len(table.seats)

    async def public_tables(self, limit: int, offset: int) -> list[TableInfo]:
        """Public tables not yet over, newest first: this process's, or with others
        every process's (the shared list)."""
        if self.cluster is None:
            tables = [showing.info(t.table) for t in list(self.tables.values())
                      if t.table.status != "over" and t.table.invite is None]
        else:
            tables = [TableInfo.model_validate_json(text)
                      for text in await self.cluster.listing()]
        tables.sort(key=lambda t: t.created, reverse=True)
        return tables[offset:offset + limit]
