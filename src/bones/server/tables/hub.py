"""The live side of the server: open tables, their connections, bots, clocks and timers.

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
import os
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, NamedTuple, TypeVar

import redis
from sqlalchemy.exc import IntegrityError
from starlette.websockets import WebSocketDisconnect

from bones import bots
from bones.bots import Bot
from bones.server.metrics import Metrics
from bones.server.people.chat import Chat, hears
from bones.server.people.players import Player
from bones.server.protocol import (
    Action,
    BotSeat,
    CreateTable,
    ErrorMessage,
    Hint,
    HintMessage,
    HumanSeat,
    Joined,
    Move,
    Ping,
    Pong,
    Ready,
    Rematch,
    RematchMessage,
    Say,
    StateMessage,
    TableInfo,
    Undo,
    read_client,
)
from bones.server.sites.cluster import RENEW, CallError, Cluster, Elsewhere, RemoteSocket
from bones.server.sockets.allowance import Allowance, Gate, messages, refuse
from bones.server.sockets.bucket import Bucket
from bones.server.sockets.sending import Socket, deliver
from bones.server.store.records import Event, SavedTable, Store, hash_token
from bones.server.store.writer import Writer, seen_through
from bones.server.tables.table import Entry, Seat, Table, TableError, invite_link
from bones.server.thinking.brains import Brains
from bones.server.thinking.fleet import Fleet

__all__ = ["Hub", "Limited", "Settings", "Unavailable"]

log = logging.getLogger("bones.server")
T = TypeVar("T")

AFTER_THE_END = ("rematch", "next")
"""What a finished table's log may still gain: rematch offers, and the rematch's table."""
STAND_IN = "medium"
"""The level of the bot that moves for a human who is away or out of time."""


@dataclass(frozen=True)
class Settings:
    """Server-wide choices and limits; a table may set its own bot delay and clock."""

    bot_delay: float = 0.8
    leave_after: float = 60.0
    """Seconds a human may be away before a bot takes their seat over."""
    rate: float = 10.0
    """Messages a second a seat (or a spectator's socket) may send on average ..."""
    burst: int = 30
    """... and at once; an address may send five times as many over all its sockets."""
    patience: int = 50
    """Refused messages (each answered ``flood``, forgiven at one a second) after which
    a flooding connection is closed."""
    think_floor: float = 1.0
    """Hard and Expert never answer sooner than this, however quick their choice, so
    the time they take tells nothing of their tiles."""
    bot_only_delay: float = 0.5
    """The least bot delay of a table without a human seat."""
    tables_per_address: int = 20
    """Unfinished tables one address may have created."""
    sockets_per_address: int = 64
    linger: float = 60.0
    """Seconds a finished table stays in memory after its last socket closed."""
    waiting_ttl: float = 24 * 3600.0
    """Seconds a table may wait for its players before it is closed."""
    rest_rate: float = 20.0
    """REST requests a second one address may make on average (bursts of three times
    that); new WebSockets count too."""
    logins_per_name: int = 5
    """Failed logins to one name from one address in five minutes before that address
    is refused for that name (from elsewhere, the name's owner is not) ..."""
    logins_per_address: int = 20
    """... and from one address over every name; a name failed four times as often
    from everywhere has its failures answered slowly, never its successes refused."""
    signups_per_address: int = 10
    """Sign-ups, and password changes, one address may make in an hour."""
    guests_per_address: int = 30
    """New guests one address may be given in an hour."""
    metrics_from: tuple[str, ...] = ("127.0.0.1/32", "::1/128")
    """Addresses and networks whose requests ``/metrics`` and ``/api/metrics`` answer (a
    request with the operator's token, ``BONES_METRICS_TOKEN``, from anywhere): the
    figures of a running site are the operator's."""
    origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open sockets and post."""
    bot_workers: int = max(1, (os.cpu_count() or 2) - 1)
    """Processes the thinking bots and hints run in (0: threads of the server's own)."""
    bot_timeout: float = 20.0
    """Seconds a bot's job may wait on the Redis queue before the server works it out
    itself (no worker took it, or the one that did died and nobody took it again)."""
    redis: str | None = None
    """Redis URL: the bots' jobs go on its queue, for this server's ``bot_workers`` and
    every ``bones worker`` to take (``fleet.py``)."""


class Unavailable(RuntimeError):
    """The store cannot be written just now: nothing changed; try again soon."""


class Limited(RuntimeError):
    """A limit of the server's was reached: the text says which."""


class Shown(NamedTuple):
    """What a table shows after a change: its public face and reveal, and the view of
    each seat it goes to (``None``: a spectator's), worked out once for all of them."""

    info: TableInfo
    reveal: dict[str, Any] | None
    views: dict[int | None, dict[str, Any]]

    @classmethod
    def of(cls, table: Table, seats: Collection[int | None]) -> Shown:
        return cls(table.info(), table.reveal(), table.views(seats))


@dataclass(eq=False)
class _Conn:
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

    async def tell(self, text: str) -> None:
        """Send ``text``, unless the client is gone; one that takes it too slowly is."""
        if not self.gone and not await deliver(self.ws, text):
            self.gone = True


@dataclass(eq=False)
class _Live:
    table: Table
    log: list[Event] = field(default_factory=list)
    """The table's log as the store holds it: a refused write rebuilds the table from it."""
    creator: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[_Conn] = field(default_factory=set)
    turn_task: asyncio.Task[None] | None = None
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


class Hub:
    """Every open table of this server process."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.chat = Chat(store.engine, self.settings.redis)
        self.tables: dict[str, _Live] = {}
        self.latency: deque[float] = deque(maxlen=100_000)
        """Seconds from a human's move arriving to every seat being sent the result."""
        self.moves = 0
        # Reading the store has threads of its own; the bots' decisions and hints run in
        # worker processes (brains.py), analyses in others (jobs.py): a queue of one never
        # holds up another, and no search holds the GIL of the process serving sockets.
        self.readers = ThreadPoolExecutor(4, thread_name_prefix="bones-store")
        self.metrics = Metrics()
        self.writer = Writer(store, self.metrics.write.observe)
        settings = self.settings
        self.brains: Brains | Fleet = (
            Fleet(settings.redis, settings.bot_workers, settings.bot_timeout) if settings.redis
            else Brains(settings.bot_workers))
        self.metrics.watch("bones_store_writes_waiting", "Writes handed to the store's "
                           "writer and not yet begun", lambda: self.writer.waiting)
        self.metrics.watch("bones_tables", "Tables in this process's memory",
                           lambda: len(self.tables))
        self.allowance = Allowance(settings.rate, settings.burst, settings.patience,
                                   settings.sockets_per_address)
        """What each address's sockets may do, every kind of socket of this process's."""
        self.metrics.watch("bones_sockets", "Open WebSockets",
                           lambda: sum(self.allowance.open.values()))
        self.unfinished: dict[str, set[str]] = {}
        """The unfinished tables each address made, for its limit: a create looks at
        its own address's, not at every table."""
        self._sweeper: asyncio.Task[None] | None = None
        self.cluster: Cluster | None = None
        """With Redis: this process among the others (``cluster.py``)."""
        if settings.redis:
            self.cluster = Cluster(settings.redis)
            self.cluster.on_open = self._remote
            self.cluster.on_call = self._called
        self._keeper: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Future[_Live | None]] = {}
        """Tables being read back from the store, for those who ask meanwhile."""
        self.on_listing: Callable[[], None] = lambda: None
        """Called when the list of public tables changed here (the lobby listens)."""
        self.lags: deque[float] = deque(maxlen=600)
        """The event loop's lateness over the last minute, a sample every tenth of a second."""

    async def _read(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.readers,
                                                                 partial(call, *args))

    async def _write(self, call: Callable[..., T], *args: Any) -> T:
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
            await self.cluster.opened(*await self._read(self.store.open_ids))
            self._keeper = asyncio.create_task(self._keep())
        else:
            await self._restore_all()
        self._sweeper = asyncio.create_task(self._sweep())
        self._timer = asyncio.create_task(self._time_the_loop())
        self.brains.warm()

    async def _restore_all(self) -> None:
        for saved in await self._read(self.store.open_tables):
            try:
                table = Table.restore(saved)
            except Exception:
                log.exception("table %s could not be rebuilt from its log", saved.id)
                continue
            if table.status == "over":
                await self._write(self.store.finish, table.id, table.game())
                continue
            live = self.tables[table.id] = _Live(table, list(saved.events))
            await self._begin(live)

    async def ready(self) -> bool:
        """Whether this server can take players: its tables are loaded and the store
        answers."""
        if self._sweeper is None:
            return False
        try:
            await self._read(self.store.ping)
        except Exception:
            return False
        return True

    async def close(self) -> None:
        """Stop; with other processes, hand this one's tables over to them at once."""
        for task in (self._sweeper, self._keeper, self._timer):
            if task is not None:
                task.cancel()
        for table_id in list(self.tables):
            await self._drop(table_id)
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
                            creator: str | None = None) -> tuple[Table, dict[int, str]]:
        """A new table with ``players`` in their seats at once (a quick match's, sought
        from the address ``creator``): the table and each seat's token."""
        return await self._made(spec, players, creator)

    async def _made(self, spec: CreateTable, players: dict[int, Player],
                    creator: str | None) -> tuple[Table, dict[int, str]]:
        if spec.rated and not (players and all(p.rated for p in players.values())):
            raise TableError("rated", "a rated game is for players who signed up")
        seats = [Seat("bot", level=s.level) if isinstance(s, BotSeat) else Seat("human")
                 for s in spec.seats]
        for number, player in players.items():
            seats[number].take(player, None)
        tokens = _tokens(seats, players)
        delay = self.settings.bot_delay if spec.bot_delay is None else spec.bot_delay
        if all(s.kind == "bot" for s in seats):
            delay = max(delay, self.settings.bot_only_delay)
        table = Table(secrets.token_urlsafe(8), spec.rules(), seats, bot_delay=delay,
                      clock=spec.clock, bank=spec.bank or 0.0,
                      invite=None if spec.public else secrets.token_urlsafe(16),
                      rated=spec.rated)
        await self._open(table, creator)
        return table, tokens

    async def _open(self, table: Table, creator: str | None) -> _Live:
        """Store a new table, deal if every seat is taken, and set its bots going."""
        if self.cluster is not None:
            await self.cluster.claim(table.id)
        try:
            await self._write(self.store.create, table.id, table.config(),
                              [s.stored() for s in table.seats])
        except Exception as error:
            log.warning("the store refused a new table: %s", error)
            raise Unavailable("the table could not be saved just now; try again") from None
        if self.cluster is not None:
            await self.cluster.opened(table.id)
        live = self.tables[table.id] = _Live(table, creator=creator, quiet=True)
        if creator is not None:
            self.unfinished.setdefault(creator, set()).add(table.id)
        await self._begin(live)
        return live

    async def _begin(self, live: _Live) -> None:
        """Deal if every seat is taken, wait for the seated humans to come, and set the
        bots going: a new table's start, and a stored table's after a restart."""
        async with live.lock:
            table = live.table
            await self._commit(live, table.start())
            if table.invite is None:  # listed from the start, before anyone connects
                await self._list(live, table.info())
            for number, seat in enumerate(table.seats):
                if seat.kind == "human" and not seat.free:
                    self._start_away(live, number)
            self._schedule(live)

    async def _rematch(self, live: _Live, conn: _Conn, seat: int) -> None:
        """``seat`` offers or accepts a rematch; once every human has, the new table is
        made and each human's sockets are sent their seat there."""
        async with live.lock:
            table = live.table
            try:
                everyone = table.offer_rematch(seat)
            except TableError as error:
                await self._error(conn, error.code, str(error))
                return
            if not await self._commit(live, [("rematch", seat, {})]):
                await self._error(conn, "unavailable", "the offer could not be saved; try again")
                return
            if not everyone:
                await self._broadcast(live, [])
                return
            # A private table's next match keeps its secret: whoever was given the link
            # to watch the first watches the next.
            fresh = table.rematch_table(secrets.token_urlsafe(8), table.invite)
            tokens = _tokens(fresh.seats, [n for n, spec in enumerate(fresh.seats)
                                           if spec.kind == "human"])
            try:
                await self._open(fresh, conn.address)
            except Unavailable as error:  # the offers stand: the next one tries again
                await self._error(conn, "unavailable", str(error))
                return
            table.next = fresh.id
            table.seq += 1
            await self._commit(live, [("next", None, {"table": fresh.id})])
            for number, token in tokens.items():
                told = RematchMessage(table=fresh.id, seat=number, token=token,
                                      invite=invite_link(fresh)).model_dump_json()
                for other in [c for c in live.conns if c.seat == number]:
                    await other.tell(told)
            await self._broadcast(live, [])

    async def may_make(self, address: str | None, account: int | None) -> None:
        """Refuse (``Limited``) one more table from an address, or for an account, that
        has its allowance of unfinished tables: whether made by hand or by quick match,
        the same allowance. An account's are counted in the store, so every process
        counts them alike."""
        limit = self.settings.tables_per_address
        if address is not None and len(self.unfinished.get(address, ())) >= limit:
            raise Limited(f"at most {limit} unfinished tables from one address; finish "
                          "or leave one first")
        if account is not None and await self._read(self.store.playing, account) >= limit:
            raise Limited(f"at most {limit} unfinished tables a player; finish or leave "
                          "one first")

    async def join(self, table_id: str, player: Player, seat: int | None,
                   invite: str | None = None) -> Joined:
        """Take a free human seat (at whichever process holds the table): the seat, its
        token and the link to share. Raises ``KeyError`` (no such table), ``TableError``
        (private, or no free seat) or ``ValueError`` (the seat was just taken)."""
        try:
            live = await self.live(table_id)
        except Elsewhere as away:
            return Joined.model_validate(await self._ask(
                away.owner, "join", table=table_id, name=player.name, account=player.account,
                guest=player.guest, seat=seat, invite=invite))
        if live is None:
            raise KeyError(f"no open table {table_id!r}")
        token = secrets.token_urlsafe(24)
        hashed = hash_token(token)
        async with live.lock:
            table = live.table
            number = table.join(player, hashed, seat, invite)
            try:
                await self._write(self.store.take_seat, table.id, number, player.name,
                                  hashed, player.account)
            except ValueError:
                table.seats[number].take(None, None)
                raise
            except Exception as error:
                table.seats[number].take(None, None)
                log.warning("table %s: the store refused a seat: %s", table.id, error)
                raise Unavailable("the seat could not be saved just now; try again") from None
            await self._commit(live, table.start())
            self._start_away(live, number)
            await self._broadcast(live, [])
            self._schedule(live)
        return Joined(table=table.info(), seat=number, token=token, invite=invite_link(table))

    async def leave(self, table_id: str, token: str) -> None:
        """The player of a seat (its token) leaves a table whose game has not begun, at
        whichever process holds it. Raises ``KeyError`` (no such table) or
        ``TableError`` (no such seat, or the game has begun)."""
        try:
            live = await self.live(table_id)
        except Elsewhere as away:
            await self._ask(away.owner, "leave", table=table_id, token=token)
            return
        if live is None:
            raise KeyError(f"no open table {table_id!r}")
        async with live.lock:
            table = live.table
            seat, who = table.leave(token)
            try:
                await self._write(self.store.free_seat, table.id, seat)
            except Exception as error:
                table.seats[seat].take(who, hash_token(token))  # as the store still has it
                log.warning("table %s: the store refused a seat left: %s", table.id, error)
                raise Unavailable("the seat could not be left just now; try again") from None
            await self._broadcast(live, [])
            for conn in [c for c in live.conns if c.seat == seat]:
                with contextlib.suppress(Exception):
                    await conn.ws.close(4403, "you left this seat")

    async def info(self, table_id: str) -> TableInfo | None:
        """What anyone may know of the table, from whichever process holds it."""
        try:
            live = await self.live(table_id)
        except Elsewhere as away:
            assert self.cluster is not None
            try:
                return TableInfo.model_validate(
                    await self.cluster.call(away.owner, "info", table=table_id))
            except CallError:
                return None
        return None if live is None else live.table.info()

    async def public_tables(self, limit: int, offset: int) -> list[TableInfo]:
        """Public tables not yet over, newest first: this process's, or with others
        every process's (the shared list)."""
        if self.cluster is None:
            tables = [t.table.info() for t in list(self.tables.values())
                      if t.table.status != "over" and t.table.invite is None]
        else:
            tables = [TableInfo.model_validate_json(text)
                      for text in await self.cluster.listing()]
        tables.sort(key=lambda t: t.created, reverse=True)
        return tables[offset:offset + limit]

    async def live(self, table_id: str) -> _Live | None:
        """The table in memory, or read back from the store (a finished one is kept
        only while it is watched). With other processes, a table is read back only by
        the process that takes its lease; ``Elsewhere`` if another holds it."""
        live = self.tables.get(table_id)
        if live is not None or len(table_id) > 32:
            return live
        if self.cluster is None:
            return await self._read_back(table_id)
        loading = self._loading.get(table_id)
        if loading is None:  # the first to ask takes it; the others wait for that
            loading = self._loading[table_id] = asyncio.ensure_future(self._take(table_id))
            loading.add_done_callback(lambda done: self._forget_loading(table_id, done))
        return await asyncio.shield(loading)

    def _forget_loading(self, table_id: str, done: asyncio.Future[_Live | None]) -> None:
        self._loading.pop(table_id, None)
        if not done.cancelled():
            done.exception()  # seen: whoever asked got it

    async def _take(self, table_id: str) -> _Live | None:
        """Take the table's lease and read it back, unless another process holds it."""
        assert self.cluster is not None
        me = self.cluster.me
        for _ in range(3):  # a lease may run out between asking for it and reading it
            # A lease of ours that is not in memory is one nobody let go of: read it back.
            if await self.cluster.claim(table_id) or (
                    owner := await self.cluster.owner(table_id)) == me:
                return await self._read_back(table_id)
            if owner is not None:
                raise Elsewhere(owner)
        return None

    async def _read_back(self, table_id: str) -> _Live | None:
        saved = await self._read(self.store.table, table_id)
        live = self.tables.get(table_id)  # another request may have read it meanwhile
        if live is not None:
            return live
        table = None if saved is None else Table.restore(saved)
        if saved is None or table is None or (saved.finished and table.status != "over"):
            if self.cluster is not None:  # no such table, or it expired waiting
                await self.cluster.closed(table_id)
                await self.cluster.release(table_id)
            return None
        if table.status != "over" and self.cluster is None:
            return None  # not this server's to run: it would have loaded it
        live = self.tables[table_id] = _Live(table, list(saved.events))
        if table.status == "over":
            if not saved.finished:  # its end was not stored with its last move (old store)
                await self._write(self.store.finish, table.id, table.game())
            if self.cluster is not None:
                await self.cluster.closed(table_id)
        else:
            await self._begin(live)
        return live

    # -- other processes -----------------------------------------------------------------

    def _remote(self, ws: RemoteSocket, opened: dict[str, Any]) -> None:
        """A client of a table held here reached another process: serve it as if here."""
        assert self.cluster is not None
        cluster = self.cluster

        async def serve() -> None:
            try:
                viewer = opened.get("viewer")
                await self._serve(ws, opened["table"], opened["token"], opened["address"],
                                  None if viewer is None else Player(**viewer),
                                  opened.get("invite"))
            except Elsewhere:
                await ws.close(1012, "the table moved to another server: reconnect")
            finally:
                cluster.remotes.pop(ws.conn, None)

        cluster._spawn(serve())

    async def _ask(self, owner: str, method: str, **args: Any) -> Any:
        """Call ``method`` of the process holding a table; its refusal is raised here as
        it was there (:func:`_uncalled`)."""
        assert self.cluster is not None
        try:
            return await self.cluster.call(owner, method, **args)
        except CallError as error:
            raise _uncalled(error) from None

    async def _called(self, message: dict[str, Any]) -> Any:
        """Another process asks for something of a table held here; a refusal goes back
        as a ``CallError`` that :meth:`_ask` raises again there."""
        args = message["args"]
        try:
            if message["method"] == "join":
                player = Player(args["name"], args["account"], args["guest"])
                joined = await self.join(args["table"], player, args["seat"], args["invite"])
                return joined.model_dump(mode="json")
            if message["method"] == "leave":
                await self.leave(args["table"], args["token"])
                return None
        except TableError as error:
            raise CallError(str(error), error.code) from None
        except ValueError as error:
            raise CallError(str(error), "taken") from None
        except KeyError as error:
            raise CallError(str(error.args[0]), "missing") from None
        info = await self.info(args["table"])
        if info is None:
            raise CallError(f"no table {args['table']!r}", "missing")
        return info.model_dump(mode="json")

    async def _keep(self) -> None:
        """Every second: show this process is alive, list the tables again if Redis lost
        them, renew its leases (taking back those that ran out while Redis was away,
        dropping those another process took), take tables nobody holds, and let go of
        sockets whose relaying process died. A failure (Redis away) is tried again the
        next second: the tables held here play on meanwhile."""
        assert self.cluster is not None
        cluster = self.cluster
        while True:
            try:
                await cluster.beat()
                if await cluster.forgotten():  # Redis came back empty: list the tables again
                    log.warning("Redis lost the site's tables; listing them from the store")
                    await cluster.opened(*await self._read(self.store.open_ids))
                    for live in list(self.tables.values()):
                        if live.listed is not None:
                            await cluster.show(live.table.info().model_dump_json(),
                                               live.table.id)
                for table_id in await cluster.renew(list(self.tables)):
                    log.warning("table %s: its lease is gone; another process runs it",
                                table_id)
                    await self._drop(table_id, release=False)
                for table_id in await cluster.orphans():
                    with contextlib.suppress(Elsewhere):
                        await self.live(table_id)
                relays = {r.relay for r in cluster.remotes.values()}
                dead = relays - await cluster.alive(relays)
                for remote in list(cluster.remotes.values()):
                    if remote.relay in dead:
                        remote.inbox.put_nowait({"type": "websocket.disconnect"})
            except Exception:
                log.exception("keeping this process's tables failed")
            await asyncio.sleep(RENEW)

    # -- connections ---------------------------------------------------------------------

    async def connect(self, ws: Socket, table_id: str, token: str | None,
                      address: str, viewer: Player | None = None,
                      invite: str | None = None) -> None:
        """Serve one WebSocket: a seat (with its token) or a spectator (without; at a
        private table, with its ``invite`` secret); ``viewer``: who is signed in on it,
        which a spectator needs to chat."""
        async with self.allowance.opened(ws, address) as room:
            if room:
                await self._serve(ws, table_id, token, address, viewer, invite)

    async def _serve(self, ws: Socket, table_id: str, token: str | None,
                     address: str, viewer: Player | None, invite: str | None) -> None:
        await ws.accept()
        try:
            live = await self.live(table_id)
        except Elsewhere as away:
            assert self.cluster is not None
            await self.cluster.relay(ws, away.owner, table_id, token, address,
                                     None if viewer is None else asdict(viewer), invite)
            return
        if live is None:
            await refuse(ws, 4404, f"no open table {table_id!r}")
            return
        seat = None if token is None else live.table.seat_of(token)
        if token is not None and seat is None:
            await refuse(ws, 4403, "this token opens no seat at this table")
            return
        if token is None and not live.table.may_watch(invite):
            await refuse(ws, 4403, "this table is private: watch it through its invite link")
            return
        allowance = self.allowance
        own = None if seat is None else live.buckets.setdefault(seat, allowance.bucket())
        conn = _Conn(ws, seat, address, allowance.gate(address, own), viewer)
        async with live.lock:
            live.conns.add(conn)
            if seat is not None:
                self._arrive(live, seat)
                await self._broadcast(live, [])
                self._schedule(live)
            else:
                await self._send(live, conn, [])
        await self._chat_so_far(live, conn)
        try:
            async for text in messages(ws, conn.gate, self.allowance.flood()):
                if conn.gone:
                    break
                await self._handle(live, conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await self._leave(live, conn)

    async def _leave(self, live: _Live, conn: _Conn) -> None:
        async with live.lock:
            live.conns.discard(conn)
            seat = conn.seat
            if seat is not None:
                live.table.seats[seat].connected -= 1
                if live.table.seats[seat].connected == 0:
                    self._start_away(live, seat)
                    live.table.seq += 1
                    await self._broadcast(live, [])
            if not live.conns:
                live.idle_since = time.monotonic()

    def _arrive(self, live: _Live, seat: int) -> None:
        spec = live.table.seats[seat]
        spec.connected += 1
        task = live.away.pop(seat, None)
        if task is not None:
            task.cancel()
        spec.replaced = False
        live.table.seq += 1

    async def _handle(self, live: _Live, conn: _Conn, text: str | None) -> None:
        """Answer one message the socket's allowance let through."""
        start = time.perf_counter()
        message = read_client(text)
        if isinstance(message, ErrorMessage):
            await conn.tell(message.model_dump_json())
            return
        if isinstance(message, Ping):
            await conn.tell(Pong().model_dump_json())
            return
        if isinstance(message, Say):
            await self._say(live, conn, message.text)
            return
        seat = conn.seat
        if seat is None:
            await self._error(conn, "spectator", "spectators watch; they do not play")
            return
        if isinstance(message, Move):
            await self._act(live, lambda: live.table.play(seat, message.move), conn, start)
        elif isinstance(message, Ready):
            await self._act(live, lambda: (live.table.ready_up(seat), []), conn, None)
        elif isinstance(message, Undo):
            await self._act(live, lambda: (live.table.undo(seat), []), conn, None)
        elif isinstance(message, Hint):
            await self._hint(live, conn, seat)
        elif isinstance(message, Rematch):
            await self._rematch(live, conn, seat)

    # -- chat ----------------------------------------------------------------------------

    def _speaker(self, live: _Live, conn: _Conn) -> Player | None:
        if conn.seat is None:
            return conn.viewer
        seat = live.table.seats[conn.seat]
        return None if seat.name is None else Player(seat.name, seat.account_id)

    async def _say(self, live: _Live, conn: _Conn, text: str) -> None:
        """A line said at the table, kept, then heard by those in its room."""
        who = self._speaker(live, conn)
        if who is None:
            await self._error(conn, "not_signed_in", "sign in (as a guest too) to chat")
            return
        if not await self.chat.may_speak(who):
            await self._error(conn, "flood", "you are chatting too fast; wait a moment")
            return
        room = "spectators" if conn.seat is None else "players"
        try:
            line = await self._write(self.chat.say, live.table.id, room, who, text)
        except Exception as error:
            log.warning("table %s: the store refused a chat line: %s", live.table.id, error)
            await self._error(conn, "unavailable", "the line could not be kept; say it again")
            return
        live.quiet = False
        over = live.table.status == "over"
        said = line.model_dump_json()
        for other in list(live.conns):
            if hears(room, other.seat is not None, over):
                await other.tell(said)

    async def _chat_so_far(self, live: _Live, conn: _Conn) -> None:
        """A newcomer hears what was said in the rooms they hear."""
        if live.quiet:
            return
        over = live.table.status == "over"
        rooms = {r for r in ("players", "spectators") if hears(r, conn.seat is not None, over)}
        with contextlib.suppress(Exception):
            for line in await self._read(self.chat.recent, live.table.id, rooms):
                await conn.tell(line.model_dump_json())

    async def _hint(self, live: _Live, conn: _Conn, seat: int) -> None:
        """Hard's choice from the seat's own view, with every move's expected points;
        worked out and logged once per position, however often it is asked for."""
        seq = live.table.seq
        asked = live.hints.get(seat)
        if asked is None or asked[0] != seq:
            try:
                view = live.table.hint_view(seat)
            except TableError as error:
                await self._error(conn, error.code, str(error))
                return
            asked = live.hints[seat] = (seq, asyncio.create_task(self._make_hint(live, seat,
                                                                                  view, seq)))
        try:
            hint = await asyncio.shield(asked[1])
        except TableError as error:
            await self._error(conn, error.code, str(error))
            return
        await conn.tell(hint.model_dump_json())

    async def _make_hint(self, live: _Live, seat: int, view: Any, seq: int) -> HintMessage:
        values = await self._think("hint", self.brains.evaluate(view))
        scored = {str(m): round(v, 2) for m, v in zip(view.legal_moves, values, strict=True)}
        move = max(scored, key=scored.__getitem__)
        async with live.lock:
            if live.table.seq != seq:
                live.hints.pop(seat, None)
                raise TableError("not_now", "the table moved on while the hint was made")
            if not await self._commit(live, live.table.hint_entry(seat, move, scored[move])):
                live.hints.pop(seat, None)
                raise TableError("unavailable", "the hint could not be saved just now")
        return HintMessage(move=move, expected=scored[move], values=scored)

    async def _error(self, conn: _Conn, code: str, message: str) -> None:
        await conn.tell(
            ErrorMessage(code=code, message=message).model_dump_json())  # type: ignore[arg-type]

    # -- changing a table ----------------------------------------------------------------

    async def _act(self, live: _Live,
                   change: Callable[[], tuple[list[Entry], list[Action]]],
                   conn: _Conn | None, start: float | None, seq: int | None = None) -> None:
        async with live.lock:
            if seq is not None and live.table.seq != seq:
                return  # the table moved on while a bot thought or a timer ran
            try:
                entries, actions = change()
            except TableError as error:
                if conn is not None:
                    await self._error(conn, error.code, str(error))
                return
            if not await self._commit(live, entries):
                if conn is not None:
                    await self._error(conn, "unavailable", "the game could not be saved just "
                                      "now, so nothing changed; try again in a moment")
                self._schedule(live)
                return
            try:
                await self._broadcast(live, actions)
            finally:  # stored: whatever the telling met, the table goes on
                self._schedule(live)
            if start is not None:
                self.latency.append(time.perf_counter() - start)
                self.metrics.move.observe(self.latency[-1])
                self.moves += 1

    async def _commit(self, live: _Live, entries: list[Entry]) -> bool:
        """Store what the table just did, and its end if it ended, in one transaction.
        False if the store refused: the table is then as its stored log has it."""
        table = live.table
        if not entries:
            return True
        ending = table.status == "over" and entries[0][0] not in AFTER_THE_END
        game = table.game() if ending else None
        written = self.writer.append(table.id, table.logged, entries, game)
        try:
            stopped = await seen_through(written)
        except IntegrityError as error:
            if self.cluster is None:
                raise
            log.warning("table %s: another process wrote its log (%s); dropping it here",
                        table.id, type(error).__name__)
            await self._drop(table.id, release=False)
            return False
        except Exception as error:
            live.failures += 1
            log.warning("table %s: the store refused a change (%s); back to the stored log",
                        table.id, error)
            self._rewind(live)
            return False
        live.failures = 0
        live.log += [Event(table.logged + n, kind, seat, data)
                     for n, (kind, seat, data) in enumerate(entries)]
        table.logged += len(entries)
        if game is not None:
            self._finished(live)
        if stopped:  # the log and the count now match what was stored
            raise asyncio.CancelledError
        if game is not None and self.cluster is not None:
            try:
                await self.cluster.closed(table.id)
            except redis.RedisError as error:  # listed yet: whoever takes it finds it over
                log.warning("table %s: its end could not be told to Redis: %s", table.id, error)
        return True

    def _finished(self, live: _Live) -> None:
        """The table no longer counts against its creator's limit."""
        creator = live.creator
        if creator is None or creator not in self.unfinished:
            return
        self.unfinished[creator].discard(live.table.id)
        if not self.unfinished[creator]:
            del self.unfinished[creator]

    @staticmethod
    def _rewind(live: _Live) -> None:
        """The table as its stored log has it: what the store refused never happened."""
        old = live.table
        fresh = Table.restore(SavedTable(old.id, old.created, old.config(),
                                         [s.stored() for s in old.seats], live.log, False))
        for was, new in zip(old.seats, fresh.seats, strict=True):
            new.connected, new.replaced = was.connected, was.replaced
        fresh.seq = old.seq + 1
        live.table = fresh

    async def _broadcast(self, live: _Live, actions: list[Action]) -> None:
        # One after another: a send only waits when a socket's buffer is full, and
        # a task per send would cost each move a turn of a busy event loop. What the
        # change shows is worked out once: the lock holds the table still while it goes.
        live.conns -= {conn for conn in live.conns if conn.gone}
        conns = list(live.conns)
        if not conns and live.table.invite is not None:
            return  # nobody to tell, and no list shows a private table
        shown = Shown.of(live.table, {conn.seat for conn in conns})
        for conn in conns:
            await self._send(live, conn, actions, shown)
        if shown.info.public:
            await self._list(live, shown.info)

    async def _list(self, live: _Live, info: TableInfo) -> None:
        """Keep the list of public tables up to date (with other processes, the shared
        one), when what it shows changed, and tell the lobby."""
        shown = (None if info.status == "over" else
                 info.model_dump_json(include={"status", "seats", "round", "scores"}))
        if shown != live.listed:
            if self.cluster is not None:
                try:
                    await self.cluster.show(None if shown is None else info.model_dump_json(),
                                            info.id)
                except redis.RedisError as error:  # shown at the next change, or on return
                    log.warning("table %s: the shared list could not be told: %s", info.id,
                                error)
                    return
            live.listed = shown
            self.on_listing()

    async def _send(self, live: _Live, conn: _Conn, actions: list[Action],
                    shown: Shown | None = None) -> None:
        await conn.tell(self.state(live.table, conn.seat, actions, shown).model_dump_json())
        if conn.gone:
            live.conns.discard(conn)

    @staticmethod
    def state(table: Table, seat: int | None, actions: list[Action],
              shown: Shown | None = None) -> StateMessage:
        """What ``seat`` (``None``: a spectator) is sent: drawn tiles only to the drawer.
        ``shown``: what the table shows, where the caller already has it for this seat."""
        told = [a if a.seat == seat or a.tile is None else a.model_copy(update={"tile": None})
                for a in actions]
        shown = shown or Shown.of(table, [seat])
        return StateMessage(you=seat, table=shown.info, view=shown.views.get(seat, {}),
                            actions=told, reveal=shown.reveal)

    # -- bots, readiness, clocks and absences --------------------------------------------

    def _schedule(self, live: _Live) -> None:
        """Set going whatever the table now waits for that no human will do; after a
        refused write, only after a pause that grows with each refusal."""
        if live.turn_task is not None:
            live.turn_task.cancel()
            live.turn_task = None
        if live.lost:
            return
        table = live.table
        status = table.status
        pause = min(10.0, 0.25 * 2 ** live.failures) if live.failures else 0.0
        if status == "playing":
            seat = table.turn
            assert seat is not None
            if table.seats[seat].by_bot:
                delay = table.bot_delay
                if live.thinks(seat):
                    delay = max(delay, self.settings.think_floor)
                live.turn_task = asyncio.create_task(
                    self._bot_move(live, seat, max(delay, pause), table.seq))
            elif (left := table.time_left(seat)) is not None:
                live.turn_task = asyncio.create_task(
                    self._bot_move(live, seat, max(sum(left), pause), table.seq))
        elif status == "between":
            waiting = [n for n, s in enumerate(table.seats) if s.by_bot and n not in table.ready]
            if waiting:
                live.turn_task = asyncio.create_task(
                    self._bots_ready(live, waiting, max(table.bot_delay * 2, pause), table.seq))
        elif status == "waiting" and not any(s.free for s in table.seats):
            # every seat is taken but the deal was refused by the store: deal again
            live.turn_task = asyncio.create_task(self._later(
                pause, live, lambda: (live.table.start(), []), table.seq))

    async def _later(self, delay: float, live: _Live,
                     change: Callable[[], tuple[list[Entry], list[Action]]], seq: int) -> None:
        await asyncio.sleep(delay)
        await self._act(live, change, None, None, seq)

    async def _bot_move(self, live: _Live, seat: int, delay: float, seq: int) -> None:
        """The bot starts thinking at once and moves when ``delay`` is up (or when it is
        done, if later): a quick choice is not told apart from a long search. A lone
        legal move is every bot's choice (``Bot.choose``), so it is made here without a
        view or a worker's job (a third of Kozel's decisions), at the same time."""
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        table = live.table
        if table.seq != seq or table.match is None:
            return
        rnd = table.match.round
        if len(legal := rnd.legal_moves()) == 1:
            move = str(legal[0])
        elif live.thinks(seat):
            level = live.level(seat)
            people = any(s.kind == "human" for s in table.seats)
            move = await self._think(level, self.brains.choose(level, rnd.view(seat), people))
        else:
            move = str(live.bot(seat).choose(rnd.view(seat)))
        if (wait := due - loop.time()) > 0:  # a late decision moves in this turn of the loop
            await asyncio.sleep(wait)
        spec = table.seats[seat]
        by = None if spec.kind == "bot" else "away" if spec.replaced else "clock"
        await self._act(live, lambda: live.table.play(seat, str(move), by), None, None, seq)

    async def _think(self, level: str, job: Awaitable[T]) -> T:
        """A bot's decision or a hint, timed and counted while it waits."""
        self.metrics.thinking.inc()
        try:
            with self.metrics.think.labels(level).time():
                return await job
        finally:
            self.metrics.thinking.dec()

    async def _bots_ready(self, live: _Live, seats: list[int], delay: float, seq: int) -> None:
        def ready() -> tuple[list[Entry], list[Action]]:
            entries: list[Entry] = []
            for seat in seats:
                entries += live.table.ready_up(seat)
            return entries, []

        await self._later(delay, live, ready, seq)

    def _start_away(self, live: _Live, seat: int) -> None:
        if live.table.seats[seat].connected or seat in live.away or live.lost:
            return
        live.away[seat] = asyncio.create_task(self._replace(live, seat))

    async def _replace(self, live: _Live, seat: int) -> None:
        await asyncio.sleep(self.settings.leave_after)
        async with live.lock:
            live.away.pop(seat, None)
            spec = live.table.seats[seat]
            if spec.connected or live.table.status == "over":
                return
            spec.replaced = True
            live.table.seq += 1
            await self._broadcast(live, [])
            self._schedule(live)

    # -- keeping memory in bounds --------------------------------------------------------

    async def _sweep(self, every: float = 5.0) -> None:
        """Drop finished tables nobody watches, and close tables that waited too long."""
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(Exception):
                await self.sweep()

    async def sweep(self) -> None:
        now, wall = time.monotonic(), datetime.now(UTC)
        for table_id, live in list(self.tables.items()):
            table = live.table
            if (table.status == "over" and not live.conns
                    and now - live.idle_since >= self.settings.linger):
                await self._drop(table_id)
            elif (table.status == "waiting"
                  and (wall - table.created).total_seconds() >= self.settings.waiting_ttl):
                async with live.lock:  # nobody takes a seat while it expires
                    if table.status != "waiting":
                        continue
                    await self._write(self.store.expire, table_id)
                if self.cluster is not None:
                    await self.cluster.closed(table_id)
                await self._drop(table_id, 4410, "the table waited too long")

    async def _drop(self, table_id: str, code: int = 1012,
                    reason: str = "the table moved to another server: reconnect", *,
                    release: bool = True) -> None:
        """Forget a table here: call off its timers, close its sockets with ``code``
        and let another process take it (``release``: give its lease back now)."""
        live = self.tables.pop(table_id, None)
        if live is None:
            return
        self._finished(live)
        live.stop()
        live.lost = True
        if live.listed is not None:
            self.on_listing()
        for conn in list(live.conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=code, reason=reason)
        if self.cluster is not None and release:
            await self.cluster.release(table_id)

    # -- figures -------------------------------------------------------------------------

    async def _time_the_loop(self, every: float = 0.1) -> None:
        """How late the event loop runs a task that slept: a move read late waited that
        long, whatever the server's own figure (read to broadcast) says."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(every)
            late = loop.time() - before - every
            self.lags.append(late)
            self.metrics.lag.observe(late)

    def figures(self, since: int = 0) -> dict[str, Any]:
        """Moves handled and the latency from a human's move to its broadcast, over the
        moves after the first ``since``; the event loop's lateness over the last minute."""
        fresh = max(0, min(len(self.latency), self.moves - since))
        samples = sorted(list(self.latency)[len(self.latency) - fresh:])
        return {"moves": self.moves, "tables": len(self.tables), "samples": len(samples),
                "latency_ms": {"median": _ms(_quantile(samples, 0.5)),
                               "p99": _ms(_quantile(samples, 0.99)),
                               "max": _ms(samples[-1] if samples else None)},
                "loop_lag_ms": {"p99": _ms(_quantile(sorted(self.lags), 0.99)),
                                "max": _ms(max(self.lags, default=None))}}


def _tokens(seats: list[Seat], numbers: Iterable[int]) -> dict[int, str]:
    """A new token for each of these seats, the seat keeping its hash."""
    tokens = {number: secrets.token_urlsafe(24) for number in numbers}
    for number, token in tokens.items():
        seats[number].token_hash = hash_token(token)
    return tokens


def _uncalled(error: CallError) -> Exception:
    """The error another process's join or leave raised, as it is raised here."""
    if error.code == "taken":
        return ValueError(str(error))
    if error.code == "missing":
        return KeyError(str(error))
    return TableError(error.code, str(error))


def _quantile(ordered: list[float], q: float) -> float | None:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else None


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)
