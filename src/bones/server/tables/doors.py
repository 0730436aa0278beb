"""The sockets at a table: a seat's or a spectator's, let in, read within their
allowance, answered (moves, readiness, hints, chat), and let go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import asdict
from typing import Any, TypeVar

from starlette.websockets import WebSocketDisconnect

from bones.server import logs
from bones.server.people.accounts import Refused, Sanctioned
from bones.server.people.chat import hears
from bones.server.people.players import Player
from bones.server.protocol import (
    Claim,
    ErrorMessage,
    Hint,
    HintMessage,
    Move,
    Ping,
    Pong,
    Ready,
    Rematch,
    Resign,
    Say,
    Undo,
    read_client,
)
from bones.server.sites.cluster import Elsewhere
from bones.server.sockets.allowance import BANNED, messages, refuse
from bones.server.sockets.sending import Socket
from bones.server.tables import endings
from bones.server.tables.live import Conn, Live, Part
from bones.server.tables.seats import TableError

__all__ = ["ELSEWHERE", "Doors"]

log = logging.getLogger("bones.server")
T = TypeVar("T")
ELSEWHERE = 4409
"""The close code of a seat's socket whose seat was opened on another device: the page
says so and offers to play here again, and does not come back by itself."""


class Doors(Part):
    """The sockets of a hub's tables."""

    async def connect(self, ws: Socket, table_id: str, token: str | None,
                      address: str, viewer: Player | None = None,
                      invite: str | None = None, device: str | None = None) -> None:
        """Serve one WebSocket: a seat (with its token, or without when ``viewer``, who
        is signed in on it, is the account seated there: a member's seat follows them to
        any device) or a spectator (at a private table, with its ``invite`` secret; signed
        in to chat). A seat opened from one ``device`` (``auth.device``) moves there:
        its sockets from another device are closed with :data:`ELSEWHERE` (tabs of one
        browser, and programs that give no session, share it)."""
        async with self.hub.allowance.opened(ws, address) as room:
            if room:
                await self.serve(ws, table_id, token, address, viewer, invite, device)

    async def serve(self, ws: Socket, table_id: str, token: str | None, address: str,
                    viewer: Player | None, invite: str | None,
                    device: str | None = None) -> None:
        await ws.accept()
        logs.TABLE.set(table_id)
        try:
            live = await self.hub.holding.live(table_id)
        except Elsewhere as away:
            assert self.hub.cluster is not None
            await self.hub.cluster.relay(ws, away.owner, table_id, token, address,
                                     None if viewer is None else asdict(viewer), invite, device)
            return
        if live is None:
            await refuse(ws, 4404, f"no open table {table_id!r}")
            return
        if token is not None:
            seat = live.table.seat_of(token)
        elif viewer is not None and viewer.account is not None:
            seat = live.table.seat_of_account(viewer.account)
        else:
            seat = None
        logs.SEAT.set(seat)
        if token is not None and seat is None:
            await refuse(ws, 4403, "this token opens no seat at this table")
            return
        account = None if seat is None else live.table.seats[seat].account_id
        if account is not None and await self.hub.read(self.hub.store.banned, account):
            await refuse(ws, BANNED, "this account is banned")
            return
        if seat is None and not live.table.may_watch(invite):
            await refuse(ws, 4403, "this table is private: watch it through its invite link")
            return
        allowance = self.hub.allowance
        own = None if seat is None else live.buckets.setdefault(seat, allowance.bucket())
        conn = Conn(ws, seat, address, allowance.gate(address, own), viewer, device=device)
        async with live.lock:
            moved = [c for c in live.conns if seat is not None and c.seat == seat
                     and None not in (c.device, device) and c.device != device]
            live.conns.add(conn)
            if seat is not None:
                self.arrive(live, seat)
                await self.hub.changes.broadcast(live, [])
                self.hub.turns.schedule(live)
            else:
                await self.hub.changes.send(live, conn, [])
        for other in moved:  # after this one arrived: the seat is never away meanwhile
            other.gone = True
            with contextlib.suppress(Exception):
                await other.ws.close(ELSEWHERE, "this seat was opened on another device")
        await self.chat_so_far(live, conn)
        try:
            async for text in messages(ws, conn.gate, self.hub.allowance.flood()):
                if conn.gone:
                    break
                await self.handle(live, conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await self.leave(live, conn)

    async def leave(self, live: Live, conn: Conn) -> None:
        async with live.lock:
            live.conns.discard(conn)
            seat = conn.seat
            if seat is not None:
                live.table.seats[seat].connected -= 1
                if live.table.seats[seat].connected == 0:
                    self.hub.turns.start_away(live, seat)
                    live.table.seq += 1
                    await self.hub.changes.broadcast(live, [])
            if not live.conns:
                live.idle_since = time.monotonic()

    def arrive(self, live: Live, seat: int) -> None:
        spec = live.table.seats[seat]
        spec.connected += 1
        task = live.away.pop(seat, None)
        if task is not None:
            task.cancel()
        spec.replaced, spec.absent_since = False, None
        live.table.seq += 1

    async def handle(self, live: Live, conn: Conn, text: str | None) -> None:
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
            await self.say(live, conn, message.text)
            return
        seat = conn.seat
        if seat is None:
            await self.error(conn, "spectator", "spectators watch; they do not play")
            return
        act = self.hub.changes.act
        if isinstance(message, Move):
            await act(live, lambda: live.table.play(seat, message.move), conn, start)
        elif isinstance(message, Ready):
            await act(live, lambda: (live.table.ready_up(seat), []), conn, None)
        elif isinstance(message, Undo):
            await act(live, lambda: (live.table.undo(seat), []), conn, None)
        elif isinstance(message, Hint):
            await self.hint(live, conn, seat)
        elif isinstance(message, Resign):
            await act(live, lambda: (endings.resign(live.table, seat), []), conn, None)
        elif isinstance(message, Claim):
            await act(live, lambda: (endings.claim(live.table, seat, live.table.absence), []),
                      conn, None)
        elif isinstance(message, Rematch):
            await self.hub.changes.rematch(live, conn, seat)

    # -- chat ----------------------------------------------------------------------------

    def speaker(self, live: Live, conn: Conn) -> Player | None:
        if conn.seat is None:
            return conn.viewer
        seat = live.table.seats[conn.seat]
        return None if seat.name is None else Player(seat.name, seat.account_id)

    async def say(self, live: Live, conn: Conn, text: str) -> None:
        """A line said at the table, kept, then heard by those in its room."""
        who = self.speaker(live, conn)
        if who is None:
            await self.error(conn, "not_signed_in", "sign in (as a guest too) to chat")
            return
        if not await self.hub.chat.may_speak(who):
            await self.error(conn, "flood", "you are chatting too fast; wait a moment")
            return
        room = "spectators" if conn.seat is None else "players"
        try:
            line = await self.hub.write(self.hub.chat.say, live.table.id, room, who, text)
        except Sanctioned as muted:
            await self.error(conn, "muted", str(muted))
            return
        except Refused as refused:  # a word the operator refuses
            await self.error(conn, "not_allowed", str(refused))
            return
        except Exception as error:
            log.warning("table %s: the store refused a chat line: %s", live.table.id, error)
            await self.error(conn, "unavailable", "the line could not be kept; say it again")
            return
        live.quiet = False
        over = live.table.status == "over"
        said = line.model_dump_json()
        listeners = [c for c in list(live.conns) if hears(room, c.seat is not None, over)]
        deaf = set() if who.account is None else await self.hub.read(
            self.hub.blocks.deaf, who.account, {a for c in listeners
                                                if (a := self.account_of(live, c)) is not None})
        for other in listeners:
            if self.account_of(live, other) not in deaf:
                await other.tell(said)

    @staticmethod
    def account_of(live: Live, conn: Conn) -> int | None:
        """Whose the socket is: its seat's account, or who is signed in on it."""
        if conn.seat is not None:
            return live.table.seats[conn.seat].account_id
        return None if conn.viewer is None else conn.viewer.account

    async def chat_so_far(self, live: Live, conn: Conn) -> None:
        """A newcomer hears what was said in the rooms they hear."""
        if live.quiet:
            return
        over = live.table.status == "over"
        rooms = {r for r in ("players", "spectators") if hears(r, conn.seat is not None, over)}
        account = self.account_of(live, conn)
        with contextlib.suppress(Exception):
            unheard = set() if account is None else set(
                await self.hub.read(self.hub.blocks.listed, account))
            for line in await self.hub.read(self.hub.chat.recent, live.table.id, rooms):
                if line.name not in unheard:
                    await conn.tell(line.model_dump_json())

    async def hint(self, live: Live, conn: Conn, seat: int) -> None:
        """Hard's choice from the seat's own view, with every move's expected points;
        worked out and logged once per position, however often it is asked for."""
        seq = live.table.seq
        asked = live.hints.get(seat)
        if asked is None or asked[0] != seq:
            try:
                view = live.table.hint_view(seat)
            except TableError as error:
                await self.error(conn, error.code, str(error))
                return
            asked = live.hints[seat] = (seq, asyncio.create_task(self.make_hint(live, seat,
                                                                                  view, seq)))
        try:
            hint = await asyncio.shield(asked[1])
        except TableError as error:
            await self.error(conn, error.code, str(error))
            return
        await conn.tell(hint.model_dump_json())

    async def make_hint(self, live: Live, seat: int, view: Any, seq: int) -> HintMessage:
        values = await self.hub.turns.think("hint", self.hub.brains.evaluate(view))
        scored = {str(m): round(v, 2) for m, v in zip(view.legal_moves, values, strict=True)}
        move = max(scored, key=scored.__getitem__)
        async with live.lock:
            if live.table.seq != seq:
                live.hints.pop(seat, None)
                raise TableError("not_now", "the table moved on while the hint was made")
            entries = live.table.hint_entry(seat, move, scored[move])
            if not await self.hub.changes.commit(live, entries):
                live.hints.pop(seat, None)
                raise TableError("unavailable", "the hint could not be saved just now")
        return HintMessage(move=move, expected=scored[move], values=scored)

    async def error(self, conn: Conn, code: str, message: str) -> None:
        await conn.tell(
            ErrorMessage(code=code, message=message).model_dump_json())  # type: ignore[arg-type]

    # -- changing a table ----------------------------------------------------------------
