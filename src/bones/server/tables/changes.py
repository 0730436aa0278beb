"""A table's changes: each one applied under the table's lock, written to the store, and
only then sent to every socket at the table (and shown in the lobby's list); a refused
write puts the table back as its stored log has it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import TypeVar

import redis
from sqlalchemy.exc import IntegrityError

from bones.server.protocol import (
    Action,
    RematchMessage,
    StateMessage,
    TableInfo,
)
from bones.server.store.records import Event, SavedTable
from bones.server.store.writer import seen_through
from bones.server.tables import endings, showing
from bones.server.tables.live import AFTER_THE_END, Conn, Live, Part, Shown, seat_tokens
from bones.server.tables.seats import Entry, TableError
from bones.server.tables.settings import Unavailable
from bones.server.tables.table import Table

__all__ = ["Changes"]

log = logging.getLogger("bones.server")
T = TypeVar("T")


class Changes(Part):
    """The write and the broadcast of every table of a hub."""

    async def rematch(self, live: Live, conn: Conn, seat: int) -> None:
        """``seat`` offers or accepts a rematch; once every human has, the new table is
        made and each human's sockets are sent their seat there. Between players one of
        whom blocked the other there is none (``blocked``), and no offer is told."""
        seats = live.table.seats
        try:
            await self.hub.kept_apart(seats[seat].account_id,
                                      [s for n, s in enumerate(seats) if n != seat])
        except TableError as error:
            await self.hub.doors.error(conn, error.code, str(error))
            return
        async with live.lock:
            table = live.table
            again = seat in table.rematch
            try:
                everyone = table.offer_rematch(seat)
            except TableError as error:
                await self.hub.doors.error(conn, error.code, str(error))
                return
            if not await self.commit(live, [("rematch", seat, {})]):
                await self.hub.doors.error(conn, "unavailable",
                                           "the offer could not be saved; try again")
                return
            if not everyone:
                await self.broadcast(live, [])
                if not again:
                    await self._offered(table, seat)
                return
            # A private table's next match keeps its secret: whoever was given the link
            # to watch the first watches the next.
            fresh = table.rematch_table(secrets.token_urlsafe(8), table.invite)
            tokens = seat_tokens(fresh.seats, [n for n, spec in enumerate(fresh.seats)
                                               if spec.kind == "human"])
            try:
                await self.hub.open(fresh, conn.address)
            except Unavailable as error:  # the offers stand: the next one tries again
                await self.hub.doors.error(conn, "unavailable", str(error))
                return
            table.next = fresh.id
            table.seq += 1
            await self.commit(live, [("next", None, {"table": fresh.id})])
            for number, token in tokens.items():
                told = RematchMessage(table=fresh.id, seat=number, token=token,
                                      invite=showing.invite_link(fresh)).model_dump_json()
                for other in [c for c in live.conns if c.seat == number]:
                    await other.tell(told)
            await self.broadcast(live, [])

    async def _offered(self, table: Table, seat: int) -> None:
        """Tell the other players of ``table`` who have not offered yet that ``seat``
        offers a rematch (in their notifications, wherever they are)."""
        if self.hub.offered is None:
            return
        spec = {"variant": table.rules.variant, "options": {"target": table.rules.target},
                "rated": table.rated}
        for number, other in enumerate(table.seats):
            if number not in table.rematch and other.account_id is not None:
                await self.hub.offered(other.account_id, table.seats[seat].account_id,
                                       table.id, spec)

    async def act(self, live: Live,
                   change: Callable[[], tuple[list[Entry], list[Action]]],
                   conn: Conn | None, start: float | None, seq: int | None = None,
                   logged: int | None = None) -> None:
        async with live.lock:
            if (seq is not None and live.table.seq != seq) or (
                    logged is not None and live.table.logged != logged):
                return  # the table moved on while a bot thought or a timer ran
            try:
                entries, actions = change()
            except TableError as error:
                if conn is not None:
                    await self.hub.doors.error(conn, error.code, str(error))
                return
            if not await self.commit(live, entries):
                if conn is not None:
                    await self.hub.doors.error(conn, "unavailable", "the game could not be "
                                               "saved just now, so nothing changed; try again "
                                               "in a moment")
                self.hub.turns.schedule(live)
                return
            try:
                await self.broadcast(live, actions)
            finally:  # stored: whatever the telling met, the table goes on
                self.hub.turns.schedule(live)
            if start is not None:
                self.hub.latency.append(time.perf_counter() - start)
                self.hub.metrics.move.observe(self.hub.latency[-1])
                self.hub.moves += 1

    async def commit(self, live: Live, entries: list[Entry]) -> bool:
        """Store what the table just did, and its end if it ended, in one transaction.
        False if the store refused: the table is then as its stored log has it."""
        table = live.table
        if not entries:
            return True
        ending = table.status == "over" and entries[0][0] not in AFTER_THE_END
        game = endings.game(table) if ending else None
        written = self.hub.writer.append(table.id, table.logged, entries, game)
        try:
            stopped = await seen_through(written)
        except IntegrityError as error:
            if self.hub.cluster is None:
                raise
            log.warning("table %s: another process wrote its log (%s); dropping it here",
                        table.id, type(error).__name__)
            await self.hub.sweeping.drop(table.id, release=False)
            return False
        except Exception as error:
            live.failures += 1
            log.warning("table %s: the store refused a change (%s); back to the stored log",
                        table.id, error)
            self.rewind(live)
            return False
        live.failures = 0
        live.log += [Event(table.logged + n, kind, seat, data)
                     for n, (kind, seat, data) in enumerate(entries)]
        table.logged += len(entries)
        if game is not None:
            self.finished(live)
        if stopped:  # the log and the count now match what was stored
            raise asyncio.CancelledError
        if game is not None and self.hub.cluster is not None:
            try:
                await self.hub.cluster.closed(table.id)
            except redis.RedisError as error:  # listed yet: whoever takes it finds it over
                log.warning("table %s: its end could not be told to Redis: %s", table.id, error)
        return True

    def finished(self, live: Live) -> None:
        """The table no longer counts against its creator's limit."""
        creator = live.creator
        if creator is None or creator not in self.hub.unfinished:
            return
        self.hub.unfinished[creator].discard(live.table.id)
        if not self.hub.unfinished[creator]:
            del self.hub.unfinished[creator]

    @staticmethod
    def rewind(live: Live) -> None:
        """The table as its stored log has it: what the store refused never happened,
        and the turn's clock begins again (the store's trouble is nobody's time)."""
        old = live.table
        fresh = Table.restore(SavedTable(old.id, old.created, old.config(),
                                         [s.stored() for s in old.seats], live.log, False))
        for was, new in zip(old.seats, fresh.seats, strict=True):
            new.connected, new.replaced, new.absent_since = (was.connected, was.replaced,
                                                             was.absent_since)
        fresh.seq, fresh.absence, fresh.between = old.seq + 1, old.absence, old.between
        fresh.resumed = old.resumed  # not an interruption to tell of
        live.table = fresh

    async def broadcast(self, live: Live, actions: list[Action]) -> None:
        # One after another: a send only waits when a socket's buffer is full, and
        # a task per send would cost each move a turn of a busy event loop. What the
        # change shows is worked out once: the lock holds the table still while it goes.
        live.conns -= {conn for conn in live.conns if conn.gone}
        conns = list(live.conns)
        if not conns and live.table.invite is not None:
            return  # nobody to tell, and no list shows a private table
        shown = Shown.of(live.table, {conn.seat for conn in conns})
        for conn in conns:
            await self.send(live, conn, actions, shown)
        if shown.info.public:
            await self.show(live, shown.info)

    async def show(self, live: Live, info: TableInfo) -> None:
        """Keep the list of public tables up to date (with other processes, the shared
        one), when what it shows changed, and tell the lobby."""
        shown = (None if info.status == "over" else
                 info.model_dump_json(include={"status", "seats", "round", "scores"}))
        if shown != live.listed:
            if self.hub.cluster is not None:
                try:
                    await self.hub.cluster.show(None if shown is None else info.model_dump_json(),
                                            info.id)
                except redis.RedisError as error:  # shown at the next change, or on return
                    log.warning("table %s: the shared list could not be told: %s", info.id,
                                error)
                    return
            live.listed = shown
            self.hub.on_listing()

    async def send(self, live: Live, conn: Conn, actions: list[Action],
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
