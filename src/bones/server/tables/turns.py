"""What a table waits for that no person will do: a bot's turn (thought in a worker,
answered no sooner than the think floor), a clock run out, a player away too long.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bones.server import logs
from bones.server.protocol import (
    Action,
)
from bones.server.tables import endings
from bones.server.tables.live import Live, Part
from bones.server.tables.seats import Entry

__all__ = ["Turns"]

log = logging.getLogger("bones.server")
T = TypeVar("T")


class Turns(Part):
    """The bots' turns, clocks and absences of a hub's tables."""

    def schedule(self, live: Live) -> None:
        """Set going whatever the table now waits for that no human will do; after a
        refused write, only after a pause that grows with each refusal. A seated bot's
        move under way for the same position goes on: players coming and going (all of
        them at once, when their table moved to another process) do not send its
        thinking to the back of the workers' queue again and again."""
        table = live.table
        seat = table.turn if table.status == "playing" else None
        bot = None if seat is None or table.seats[seat].kind != "bot" else (seat, table.logged)
        if bot is not None and bot == live.bot_turn and live.turn_task is not None \
                and not live.turn_task.done() and not live.failures:
            return
        if live.turn_task is not None:
            live.turn_task.cancel()
            live.turn_task = None
        live.bot_turn = bot
        if live.lost:
            return
        status = table.status
        pause = min(10.0, 0.25 * 2 ** live.failures) if live.failures else 0.0
        if status == "playing":
            assert seat is not None
            if table.seats[seat].by_bot:
                delay = table.bot_delay
                if live.thinks(seat):
                    delay = max(delay, self.hub.settings.think_floor)
                live.turn_task = asyncio.create_task(
                    self.bot_move(live, seat, max(delay, pause), table.seq, table.logged))
            elif (left := table.time_left(seat)) is not None:  # after any pause
                due = sum(left) + table.paused_for()
                live.turn_task = asyncio.create_task(
                    self.out_of_time(live, seat, max(due, pause), table.seq))
        elif status == "between":
            waiting = [n for n, s in enumerate(table.seats) if s.by_bot and n not in table.ready]
            late = [n for n in range(len(table.seats)) if n not in table.ready]
            if waiting:
                live.turn_task = asyncio.create_task(
                    self.ready_for(live, waiting, max(table.bot_delay * 2, pause), table.seq))
            elif late:  # the pause between rounds has a clock too
                due = table.between - (time.time() - table.turn_since)
                live.turn_task = asyncio.create_task(
                    self.ready_for(live, late, max(due, pause), table.seq))
        elif status == "waiting" and not any(s.free for s in table.seats):
            # every seat is taken but the deal was refused by the store: deal again
            live.turn_task = asyncio.create_task(self.later(
                pause, live, lambda: (live.table.start(), []), table.seq))

    async def later(self, delay: float, live: Live,
                     change: Callable[[], tuple[list[Entry], list[Action]]], seq: int) -> None:
        await asyncio.sleep(delay)
        await self.hub.changes.act(live, change, None, None, seq)

    async def bot_move(self, live: Live, seat: int, delay: float, seq: int,
                       logged: int) -> None:
        """The bot starts thinking at once and moves when ``delay`` is up (or when it is
        done, if later): a quick choice is not told apart from a long search. A lone
        legal move is every bot's choice (``Bot.choose``), so it is made here without a
        view or a worker's job (a third of Kozel's decisions), at the same time. A
        seated bot's move stands while the log is as it was (``logged`` entries);
        a bot standing in for an away human, while nothing changed (``seq``: the human
        back, it is theirs again)."""
        logs.TABLE.set(live.table.id)
        logs.SEAT.set(seat)
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        table = live.table
        seated = table.seats[seat].kind == "bot"  # else it stands in while its human is away
        if table.match is None or (seated and table.logged != logged) or (
                not seated and table.seq != seq):
            return
        rnd = table.match.round
        if len(legal := rnd.legal_moves()) == 1:
            move = str(legal[0])
        elif live.thinks(seat):
            level = live.level(seat)
            people = any(s.kind == "human" for s in table.seats)
            move = await self.think(level, self.hub.brains.choose(level, rnd.view(seat), people))
        else:
            move = str(live.bot(seat).choose(rnd.view(seat)))
        if (wait := due - loop.time()) > 0:  # a late decision moves in this turn of the loop
            await asyncio.sleep(wait)
        spec = table.seats[seat]
        by = None if seated else "away" if spec.replaced else "clock"
        await self.hub.changes.act(live, lambda: live.table.play(seat, str(move), by), None, None,
                                   None if seated else seq, logged if seated else None)

    async def think(self, level: str, job: Awaitable[T]) -> T:
        """A bot's decision or a hint, timed and counted while it waits."""
        self.hub.metrics.thinking.inc()
        try:
            with self.hub.metrics.think.labels(level).time():
                return await job
        finally:
            self.hub.metrics.thinking.dec()

    async def out_of_time(self, live: Live, seat: int, delay: float, seq: int) -> None:
        """A human's move time and bank are spent: a rated match is lost on time; at a
        casual table a bot makes the move for them (and everyone is told)."""
        if not live.table.rated:
            await self.bot_move(live, seat, delay, seq, live.table.logged)
            return
        await self.later(delay, live, lambda: (endings.resign(live.table, seat, "time"), []),
                         seq)

    async def ready_for(self, live: Live, seats: list[int], delay: float, seq: int) -> None:
        """After ``delay``, ``seats`` are ready for the next round: bots, or people whose
        pause between rounds ran out."""
        def ready() -> tuple[list[Entry], list[Action]]:
            entries: list[Entry] = []
            for seat in seats:
                entries += live.table.ready_up(seat)
            return entries, []

        await self.later(delay, live, ready, seq)

    def start_away(self, live: Live, seat: int) -> None:
        """The seat's player is gone (their last socket closed, or the table was just
        read back): at a casual table a bot takes the seat after a while; at a rated one
        the others are told when they may claim the match."""
        spec = live.table.seats[seat]
        if spec.connected or seat in live.away or live.lost:
            return
        spec.absent_since = spec.absent_since or time.time()
        left = endings.absent_left(live.table, seat, live.table.absence) or 0.0
        live.away[seat] = asyncio.create_task(
            self.claimable(live, seat, left) if live.table.rated else
            self.replace(live, seat, left))

    async def claimable(self, live: Live, seat: int, left: float) -> None:
        """Tell the table the absent player of ``seat`` may now be claimed from."""
        await asyncio.sleep(left)
        async with live.lock:
            live.away.pop(seat, None)
            if live.table.seats[seat].connected or live.table.status == "over":
                return
            live.table.seq += 1
            await self.hub.changes.broadcast(live, [])

    async def replace(self, live: Live, seat: int, left: float) -> None:
        await asyncio.sleep(left)
        async with live.lock:
            live.away.pop(seat, None)
            spec = live.table.seats[seat]
            if spec.connected or live.table.status == "over":
                return
            spec.replaced = True
            live.table.seq += 1
            await self.hub.changes.broadcast(live, [])
            self.schedule(live)

    # -- keeping memory in bounds --------------------------------------------------------
