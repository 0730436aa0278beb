"""Quick match at the server: the queue of tickets, the matcher that seats them, and the
sockets that wait on them.

A player's "Play now" (``POST /api/seek``) is a
:class:`~bones.server.meeting.matching.Ticket` in a
:class:`~bones.server.meeting.seekbook.Book`: in this process's memory by default, in
Redis with ``--redis`` (so any process takes a seek and any process's socket hears it
seated). One matcher at a time pairs the tickets
(:func:`~bones.server.meeting.matching.pair_up`) every :data:`TICK` seconds: in Redis
the process holding the lease ``bones:seek:lead``. It takes a group's tickets out of the
queue at once (all or none), makes their table with every seat taken
(:meth:`Hub.seat_together`), and leaves each member's seat with the ticket for a while
(:data:`~bones.server.meeting.seekbook.KEPT` seconds), where the ticket's sockets find it
(no token: the seat is the member's account's, taken by a socket signed in to it).

A ticket lives while someone watches it: a socket on ``/ws/seek/{ticket}`` or
``GET /api/seek/{ticket}`` marks it seen; one unseen for :data:`STALE` seconds is
dropped, so a closed tab does not get seated.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, cast

from bones.server.meeting.matching import Group, Member, Ticket, pair_up, seating
from bones.server.meeting.seekbook import Book, MemoryBook, RedisBook
from bones.server.people.players import Player
from bones.server.people.ratings import Ratings
from bones.server.protocol import (
    BotSeat,
    CreateTable,
    HumanSeat,
    MatchedMessage,
    Options,
    Seek,
    SeekingMessage,
)
from bones.server.sockets.allowance import SIGNED_OUT, pings_until_closed
from bones.server.sockets.sending import Socket
from bones.server.tables.hub import Hub
from bones.server.tables.showing import invite_link

__all__ = ["STALE", "TICK", "Figures", "Seeker"]

log = logging.getLogger("bones.server")
TICK = 0.25
"""Seconds between two pairings."""
AT_ONCE = 32
"""Tables the matcher makes at once (with Redis, their round trips overlap)."""
STALE = 15.0
"""Seconds a ticket lives unwatched."""
SEATING = 3.0
"""Seconds a ticket may be out of the queue while its table is made, before a watcher
is told it is gone."""
NEWCOMER = 1500
"""The rating of a player who has none yet in the game sought."""


@dataclass
class Figures:
    """What the matcher has done (the benchmark reads it; ``/metrics`` shows the tables
    made)."""

    groups: int = 0
    pairing_cpu: float = 0.0
    """CPU seconds spent choosing groups (not making their tables)."""
    waits: deque[float] = field(default_factory=lambda: deque(maxlen=100_000))
    """Seconds from each ticket's seek to its table."""


class Seeker:
    """Quick match in this process: seeks taken, tickets paired and seated, sockets
    told."""

    def __init__(self, hub: Hub, ratings: Ratings, redis_url: str | None = None,
                 stale: float = STALE) -> None:
        self.hub, self.ratings, self.stale = hub, ratings, stale
        self.book: Book = MemoryBook() if redis_url is None else RedisBook(redis_url)
        self.book.wake = self._wake
        self.me = secrets.token_hex(8)
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.figures = Figures()
        self._task: asyncio.Task[None] | None = None
        hub.metrics.watch("bones_quick_matches", "Tables quick match made in this process",
                          lambda: self.figures.groups)

    async def start(self) -> None:
        await self.book.start()
        self._task = asyncio.create_task(self._match())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        await self.book.close()

    # -- seeks ---------------------------------------------------------------------------

    async def seek(self, seek: Seek, player: Player, address: str | None = None
                   ) -> SeekingMessage:
        """Queue a player's seek (their earlier one dropped), from ``address``: where it
        stands. A player, or an address, with its allowance of unfinished tables is
        refused (``Limited``), as a table made by hand would be."""
        assert seek.players is not None and player.account is not None
        await self.hub.may_make(address, player.account)
        member = await self._member(player, seek.variant, seek.players)
        now = time.time()
        ticket = Ticket(secrets.token_urlsafe(12), seek.variant, seek.players, (member,), now,
                        rated=seek.rated, target=seek.target, wanted=2 if seek.pair else 1,
                        code=secrets.token_urlsafe(9) if seek.pair else None,
                        bots_after=seek.bots_after, level=seek.level, address=address)
        await self.book.put(ticket, now)
        return await self._standing(ticket, now)

    async def join_pair(self, code: str, player: Player) -> SeekingMessage | None:
        """Join a friend's pair by its code; None if there is no such pair waiting."""
        ticket = await self.book.by_code(code)
        if ticket is None or ticket.ready:
            return None
        now = time.time()
        if any(m.account == player.account for m in ticket.members) or (
                ticket.rated and not player.rated):
            await self.book.put(ticket, now)  # the code stays good for the friend
            if ticket.rated and not player.rated:
                raise PermissionError("a rated game is for players who signed up")
            raise ValueError("you are in this pair already: send the code to your friend")
        ticket = ticket.joined(await self._member(player, ticket.variant, ticket.players))
        await self.book.put(ticket, now)
        return await self._standing(ticket, now)

    async def cancel(self, ticket_id: str, player: Player) -> bool:
        """Take a member's ticket out of the queue (their pair's too)."""
        ticket = await self.book.get(ticket_id)
        if ticket is None or all(m.account != player.account for m in ticket.members):
            return False
        await self.book.drop(ticket)
        return True

    async def standing(self, ticket_id: str,
                       player: Player) -> SeekingMessage | MatchedMessage | None:
        """Where a member's ticket stands (it is seen), or their seat once seated; None
        for a ticket that is gone or not theirs. A ticket being seated is out of the
        queue and not yet seated for a moment (its table is being made, at whichever
        process pairs): it is looked for again, not told gone, until :data:`SEATING` is up."""
        for _ in range(int(SEATING / 0.25)):
            seats = await self.book.seats(ticket_id)
            if seats is not None:
                mine = seats.get(str(player.account))
                if mine is None:
                    return None
                # field by field: one seated by the version before holds a token too
                return MatchedMessage(table=mine["table"], seat=mine["seat"],
                                      invite=mine["invite"])
            ticket = await self.book.get(ticket_id)
            if ticket is not None:
                break
            await asyncio.sleep(0.25)
        if ticket is None or all(m.account != player.account for m in ticket.members):
            return None
        now = time.time()
        await self.book.seen(ticket_id, now)
        return await self._standing(ticket, now)

    async def _member(self, player: Player, variant: str, players: int) -> Member:
        assert player.account is not None
        rated = await asyncio.to_thread(self.ratings.shown, {(player.name, variant, players)})
        apart = await asyncio.to_thread(self.hub.blocks.apart, player.account)
        return Member(player.name, player.account,
                      rated.get((player.name, variant, players), NEWCOMER), player.guest,
                      tuple(sorted(apart)))

    async def _standing(self, ticket: Ticket, now: float) -> SeekingMessage:
        return SeekingMessage(
            ticket=ticket.id, variant=ticket.variant, players=ticket.players,
            rated=ticket.rated, target=ticket.target, members=[m.name for m in ticket.members],
            code=None if ticket.ready else ticket.code, waited=round(now - ticket.since, 1),
            band=round(ticket.band(now)), waiting=await self.book.waiting(ticket.pool))

    # -- sockets -------------------------------------------------------------------------

    async def serve(self, ws: Socket, ticket_id: str, address: str,
                    viewer: Player | None) -> None:
        """A ticket's socket from ``address``: where it stands every second, then the
        member's seat."""
        async with self.hub.allowance.opened(ws, address) as room:
            if room:
                await self._serve(ws, ticket_id, address, viewer)

    async def _serve(self, ws: Socket, ticket_id: str, address: str,
                     viewer: Player | None) -> None:
        await ws.accept()
        if viewer is None:
            await ws.close(SIGNED_OUT, "sign in (as a guest too) to play now")
            return
        woken = asyncio.Event()
        self.waiters.setdefault(ticket_id, set()).add(woken)
        listening = asyncio.create_task(pings_until_closed(
            ws, self.hub.allowance, address, "a ticket's socket"))
        try:
            while not listening.done():
                told = await self.standing(ticket_id, viewer)
                if told is None:
                    await ws.close(4404, "no such ticket waiting: seek again")
                    return
                await ws.send_text(told.model_dump_json())
                if isinstance(told, MatchedMessage):
                    await ws.close(1000)
                    return
                waking = asyncio.create_task(woken.wait())
                await asyncio.wait([listening, waking], timeout=1.0,
                                   return_when=asyncio.FIRST_COMPLETED)
                waking.cancel()
                woken.clear()
        except Exception:  # a socket that broke is a socket that left
            log.debug("a seek's socket broke", exc_info=True)
        finally:
            listening.cancel()
            waiting = self.waiters.get(ticket_id, set())
            waiting.discard(woken)
            if not waiting:
                self.waiters.pop(ticket_id, None)

    def _wake(self, ticket_id: str) -> None:
        for event in self.waiters.get(ticket_id, ()):
            event.set()

    # -- pairing -------------------------------------------------------------------------

    async def _match(self) -> None:
        while True:
            try:
                if await self.book.lead(self.me):
                    await self.match_once(time.time())
            except Exception:
                log.exception("the quick match failed to pair")
            await asyncio.sleep(TICK)

    async def match_once(self, now: float) -> int:
        """Pair every pool once and seat the groups: how many were seated."""
        seated = 0
        for name in await self.book.pools():
            found = await self.book.pool(name)
            tickets: dict[str, Ticket] = {}
            for ticket, seen in found:
                if max(seen, ticket.since) < now - self.stale:
                    await self.book.drop(ticket)
                else:
                    tickets[ticket.id] = ticket
            started = time.process_time()
            groups = pair_up(tickets.values(), now)
            self.figures.pairing_cpu += time.process_time() - started
            for start in range(0, len(groups), AT_ONCE):
                made = await asyncio.gather(*(self._seat([tickets[i] for i in g.tickets], g)
                                              for g in groups[start:start + AT_ONCE]))
                seated += sum(made)
        return seated

    async def _seat(self, tickets: list[Ticket], group: Group) -> int:
        """Make a group's table, if its tickets are still waiting: 1 if it was made."""
        if not await self.book.take(tickets):
            return 0
        first = tickets[0]
        try:  # whatever fails, the group's players wait on: no table of one stops others
            seats = seating(tickets, group.bots, first.variant == "kozel")
            spec = CreateTable(
                variant=cast(Any, first.variant),
                options=Options(players=first.players, target=cast(Any, group.target)),
                seats=[HumanSeat(kind="human") if m else BotSeat(kind="bot", level=cast(
                    Any, first.level)) for m in seats],
                public=True, rated=first.rated)
            players = {n: Player(m.name, m.account, m.guest) for n, m in enumerate(seats)
                       if m}
            table, _ = await self.hub.seat_together(
                spec, players, first.address)
        except Exception:
            log.exception("a quick match's table could not be made; its players wait on")
            for ticket in tickets:
                await self.book.put(ticket, time.time())
            return 0
        link = invite_link(table)
        told = {str(players[n].account): MatchedMessage(table=table.id, seat=n,
                                                         invite=link).model_dump()
                for n in players}
        now = time.time()
        for ticket in tickets:
            await self.book.seated(ticket.id, told)
            self.figures.waits.extend(now - ticket.since for _ in ticket.members)
        self.figures.groups += 1
        return 1
