"""The live side of the server: open tables, their connections, bots, clocks and timers.

Every change to a table goes the same way, under the table's lock: the table changes,
its log entries are written to the store, then each connection is sent its own state.
A failed write rebuilds the table from the store, so memory never runs ahead of disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from bones import bots
from bones.bots import Bot, HardBot
from bones.server.protocol import (
    Action,
    BotSeat,
    CreateTable,
    ErrorMessage,
    Hint,
    HintMessage,
    HumanSeat,
    Move,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    StateMessage,
    TableInfo,
    Undo,
    parse_client,
)
from bones.server.store import Store, hash_token
from bones.server.table import Entry, Seat, Table, TableError

__all__ = ["MAX_FRAME", "Hub", "Settings"]

log = logging.getLogger("bones.server")

MAX_FRAME = 4096
"""The longest message a client may send, in characters."""
STAND_IN = "medium"
"""The level of the bot that moves for a human who is away or out of time."""


@dataclass(frozen=True)
class Settings:
    """Server-wide choices; a table may set its own bot delay and clock."""

    bot_delay: float = 0.8
    leave_after: float = 60.0
    """Seconds a human may be away before a bot takes their seat over."""
    rate: float = 10.0
    """Messages a second a connection may send on average ..."""
    burst: int = 30
    """... and at once."""
    flood_close: int = 200
    """Refused messages after which a flooding connection is closed."""


class _Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class _Conn:
    ws: WebSocket
    seat: int | None
    bucket: _Bucket
    refused: int = 0


@dataclass(eq=False)
class _Live:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[_Conn] = field(default_factory=set)
    turn_task: asyncio.Task[None] | None = None
    away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    bots: dict[tuple[int, str], Bot] = field(default_factory=dict)

    def bot(self, seat: int) -> Bot:
        spec = self.table.seats[seat]
        level = spec.level if spec.kind == "bot" and spec.level else STAND_IN
        key = (seat, level)
        if key not in self.bots:
            self.bots[key] = bots.get(level)
        return self.bots[key]


class Hub:
    """Every open table of this server process."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, _Live] = {}
        self.latency: deque[float] = deque(maxlen=100_000)
        """Seconds from a human's move arriving to every seat being sent the result."""
        self.moves = 0

    # -- start-up ------------------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every unfinished table from the store and set its bots and timers going."""
        for saved in await asyncio.to_thread(self.store.open_tables):
            try:
                table = Table.restore(saved)
            except Exception:
                log.exception("table %s could not be rebuilt from its log", saved.id)
                continue
            live = self.tables[table.id] = _Live(table)
            async with live.lock:
                await self._commit(live, table.start())
                for number, seat in enumerate(table.seats):
                    if seat.kind == "human" and not seat.free:
                        self._start_away(live, number)
                self._schedule(live)

    async def close(self) -> None:
        for live in self.tables.values():
            for task in [live.turn_task, *live.away.values()]:
                if task is not None:
                    task.cancel()

    # -- tables --------------------------------------------------------------------------

    async def create(self, spec: CreateTable) -> tuple[Table, int | None, str | None]:
        """A new table; a named human seat is the creator's, who gets its token."""
        rules = spec.rules()
        named = [n for n, s in enumerate(spec.seats) if isinstance(s, HumanSeat) and s.name]
        seats = [Seat("bot", level=s.level) if isinstance(s, BotSeat) else Seat("human")
                 for s in spec.seats]
        token = secrets.token_urlsafe(24)
        if named:
            seats[named[0]].name = getattr(spec.seats[named[0]], "name", None)
            seats[named[0]].token_hash = hash_token(token)
        delay = self.settings.bot_delay if spec.bot_delay is None else spec.bot_delay
        table = Table(secrets.token_urlsafe(8), rules, seats, bot_delay=delay, clock=spec.clock)
        await asyncio.to_thread(self.store.create, table.id, table.config(),
                                [s.stored() for s in seats])
        live = self.tables[table.id] = _Live(table)
        async with live.lock:
            await self._commit(live, table.start())
            if named:
                self._start_away(live, named[0])
            self._schedule(live)
        return table, (named[0] if named else None), (token if named else None)

    async def join(self, table_id: str, name: str, seat: int | None) -> tuple[Table, int, str]:
        live = self._live(table_id)
        token = secrets.token_urlsafe(24)
        hashed = hash_token(token)
        async with live.lock:
            table = live.table
            number = table.join(name, hashed, seat)
            try:
                await asyncio.to_thread(self.store.take_seat, table.id, number, name, hashed)
            except Exception:
                table.seats[number].name = table.seats[number].token_hash = None
                raise
            await self._commit(live, table.start())
            self._start_away(live, number)
            await self._broadcast(live, [])
            self._schedule(live)
        return table, number, token

    def _live(self, table_id: str) -> _Live:
        try:
            return self.tables[table_id]
        except KeyError:
            raise KeyError(f"no open table {table_id!r}") from None

    # -- connections ---------------------------------------------------------------------

    async def connect(self, ws: WebSocket, table_id: str, token: str | None) -> None:
        """Serve one WebSocket: a seat (with its token) or a spectator (without)."""
        await ws.accept()
        live = self.tables.get(table_id)
        if live is None:
            await self._refuse(ws, 4404, f"no open table {table_id!r}")
            return
        seat = None if token is None else live.table.seat_of(token)
        if token is not None and seat is None:
            await self._refuse(ws, 4403, "this token opens no seat at this table")
            return
        conn = _Conn(ws, seat, _Bucket(self.settings.rate, self.settings.burst))
        async with live.lock:
            live.conns.add(conn)
            if seat is not None:
                self._arrive(live, seat)
                await self._broadcast(live, [])
                self._schedule(live)
            else:
                await self._send(live, conn, [])
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    await self._error(conn, "bad_message", "send JSON in a text frame")
                elif not await self._handle(live, conn, text):
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            async with live.lock:
                live.conns.discard(conn)
                if seat is not None:
                    live.table.seats[seat].connected -= 1
                    if live.table.seats[seat].connected == 0:
                        self._start_away(live, seat)
                        live.table.seq += 1
                        await self._broadcast(live, [])

    async def _refuse(self, ws: WebSocket, code: int, message: str) -> None:
        error = ErrorMessage(code="bad_message", message=message)
        await ws.send_text(error.model_dump_json())
        await ws.close(code=code, reason=message[:120])

    def _arrive(self, live: _Live, seat: int) -> None:
        spec = live.table.seats[seat]
        spec.connected += 1
        task = live.away.pop(seat, None)
        if task is not None:
            task.cancel()
        spec.replaced = False
        live.table.seq += 1

    async def _handle(self, live: _Live, conn: _Conn, text: str) -> bool:
        """Answer one message; False closes the connection."""
        start = time.perf_counter()
        if not conn.bucket.take():
            conn.refused += 1
            if conn.refused >= self.settings.flood_close:
                await conn.ws.close(code=1008, reason="flooding")
                return False
            if conn.refused == 1 or conn.refused % 50 == 0:
                await self._error(conn, "flood", "too many messages; slow down")
            return True
        if len(text) > MAX_FRAME:
            await self._error(conn, "too_big", f"a message is at most {MAX_FRAME} characters")
            return True
        try:
            message = parse_client(text)
        except ProtocolError as error:
            await self._error(conn, "bad_message", str(error))
            return True
        if isinstance(message, Ping):
            await conn.ws.send_text(Pong().model_dump_json())
            return True
        seat = conn.seat
        if seat is None:
            await self._error(conn, "spectator", "spectators watch; they do not play")
            return True
        if isinstance(message, Move):
            await self._act(live, lambda: live.table.play(seat, message.move), conn, start)
        elif isinstance(message, Ready):
            await self._act(live, lambda: (live.table.ready_up(seat), []), conn, None)
        elif isinstance(message, Undo):
            await self._act(live, lambda: (live.table.undo(seat), []), conn, None)
        elif isinstance(message, Hint):
            await self._hint(live, conn, seat)
        return True

    async def _hint(self, live: _Live, conn: _Conn, seat: int) -> None:
        """Hard's choice from the seat's own view, with every move's expected points."""
        try:
            view = live.table.hint_view(seat)
        except TableError as error:
            await self._error(conn, error.code, str(error))
            return
        seq = live.table.seq
        values = await asyncio.to_thread(HardBot().evaluate, view)
        scored = {str(m): round(v, 2) for m, v in zip(view.legal_moves, values, strict=True)}
        move = max(scored, key=scored.__getitem__)
        async with live.lock:
            if live.table.seq != seq:
                await self._error(conn, "not_now", "the table moved on while the hint was made")
                return
            await self._commit(live, live.table.hint_entry(seat, move, scored[move]))
        await conn.ws.send_text(
            HintMessage(move=move, expected=scored[move], values=scored).model_dump_json())

    async def _error(self, conn: _Conn, code: str, message: str) -> None:
        await conn.ws.send_text(
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
            await self._commit(live, entries)
            await self._broadcast(live, actions)
            if start is not None:
                self.latency.append(time.perf_counter() - start)
                self.moves += 1
            self._schedule(live)

    async def _commit(self, live: _Live, entries: list[Entry]) -> None:
        table = live.table
        if not entries:
            return
        try:  # in the loop, not a thread: a commit is short, and threads wait on the GIL
            self.store.append(table.id, table.logged, entries)
            table.logged += len(entries)
            if table.status == "over":
                self.store.finish(table.id, table.game())
        except Exception:
            log.exception("table %s: the store refused a change; rebuilding from the log",
                          table.id)
            saved = await asyncio.to_thread(self.store.table, table.id)
            assert saved is not None
            fresh = Table.restore(saved)
            for old, new in zip(table.seats, fresh.seats, strict=True):
                new.connected, new.replaced = old.connected, old.replaced
            fresh.seq = table.seq + 1
            live.table = fresh
            raise

    async def _broadcast(self, live: _Live, actions: list[Action]) -> None:
        # One after another: a send only waits when a socket's buffer is full, and
        # a task per send would cost each move a turn of a busy event loop. The public
        # part is worked out once: the lock holds the table still while it goes out.
        public = (live.table.info(), live.table.reveal())
        for conn in list(live.conns):
            await self._send(live, conn, actions, public)

    async def _send(self, live: _Live, conn: _Conn, actions: list[Action],
                    public: tuple[TableInfo, dict[str, Any] | None] | None = None) -> None:
        text = self.state(live.table, conn.seat, actions, public).model_dump_json()
        try:
            async with asyncio.timeout(5):
                await conn.ws.send_text(text)
        except Exception:
            live.conns.discard(conn)
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1011)

    @staticmethod
    def state(table: Table, seat: int | None, actions: list[Action],
              public: tuple[TableInfo, dict[str, Any] | None] | None = None) -> StateMessage:
        """What ``seat`` (``None``: a spectator) is sent: drawn tiles only to the drawer.
        ``public``: the table's info and reveal, where the caller already has them."""
        told = [a if a.seat == seat or a.tile is None else a.model_copy(update={"tile": None})
                for a in actions]
        info, reveal = public or (table.info(), table.reveal())
        return StateMessage(you=seat, table=info, view=table.view(seat) or {}, actions=told,
                            reveal=reveal)

    # -- bots, readiness, clocks and absences --------------------------------------------

    def _schedule(self, live: _Live) -> None:
        """Set going whatever the table now waits for that no human will do."""
        if live.turn_task is not None:
            live.turn_task.cancel()
            live.turn_task = None
        table = live.table
        status = table.status
        if status == "playing":
            seat = table.turn
            assert seat is not None
            if table.seats[seat].by_bot:
                live.turn_task = asyncio.create_task(
                    self._bot_move(live, seat, table.bot_delay, table.seq))
            elif table.clock is not None:
                live.turn_task = asyncio.create_task(
                    self._bot_move(live, seat, table.clock, table.seq))
        elif status == "between":
            waiting = [n for n, s in enumerate(table.seats) if s.by_bot and n not in table.ready]
            if waiting:
                live.turn_task = asyncio.create_task(
                    self._bots_ready(live, waiting, table.bot_delay * 2, table.seq))

    async def _bot_move(self, live: _Live, seat: int, delay: float, seq: int) -> None:
        await asyncio.sleep(delay)
        table = live.table
        if table.seq != seq or table.match is None:
            return
        view = table.match.round.view(seat)
        bot = live.bot(seat)
        move = await asyncio.to_thread(bot.choose, view) if bot.thinks else bot.choose(view)
        await self._act(live, lambda: live.table.play(seat, str(move)), None, None, seq)

    async def _bots_ready(self, live: _Live, seats: list[int], delay: float, seq: int) -> None:
        await asyncio.sleep(delay)

        def ready() -> tuple[list[Entry], list[Action]]:
            entries: list[Entry] = []
            for seat in seats:
                entries += live.table.ready_up(seat)
            return entries, []

        await self._act(live, ready, None, None, seq)

    def _start_away(self, live: _Live, seat: int) -> None:
        if live.table.seats[seat].connected or seat in live.away:
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

    # -- figures -------------------------------------------------------------------------

    def figures(self, since: int = 0) -> dict[str, Any]:
        """Moves handled and the latency from a human's move to its broadcast, over the
        moves after the first ``since``."""
        fresh = max(0, min(len(self.latency), self.moves - since))
        samples = sorted(list(self.latency)[len(self.latency) - fresh:])

        def at(q: float) -> float | None:
            return None if not samples else samples[min(len(samples) - 1, int(q * len(samples)))]

        return {"moves": self.moves, "tables": len(self.tables), "samples": len(samples),
                "latency_ms": {"median": _ms(at(0.5)), "p99": _ms(at(0.99)),
                               "max": _ms(samples[-1] if samples else None)}}


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)
