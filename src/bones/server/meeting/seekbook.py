"""The quick match's queue: tickets by pool, who waits where, and the tickets seated, in
this process's memory (:class:`MemoryBook`) or in Redis, shared by every process
(:class:`RedisBook`). :mod:`bones.server.meeting.seeking` pairs and seats them.

>>> import asyncio
>>> from bones.server.meeting.matching import Member, Ticket
>>> book = MemoryBook()
>>> ann = Ticket.single("t1", "draw", 2, Member("Ann", 1, 1500), since=0.0)
>>> async def queue_twice():
...     await book.put(ann, now=0.0)
...     await book.put(Ticket.single("t2", "block", 2, Member("Ann", 1, 1500), 1.0), 1.0)
...     return await book.pools()
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor() as thread:  # (an event loop of its own, wherever this runs)
...     thread.submit(asyncio.run, queue_twice()).result()  # one queue at a time
{'block:2:casual': 1}
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, cast

import redis

from bones.server.meeting.matching import Ticket
from bones.server.sites.cluster import connect, heard

__all__ = ["KEPT", "Book", "MemoryBook", "RedisBook", "Seated"]

log = logging.getLogger("bones.server")
KEPT = 300
"""Seconds a seated ticket's seats are kept for its sockets."""
Seated = dict[str, dict[str, Any]]
"""A seated ticket: each member's account (as text) to their seat's ``matched`` message."""


class Book(ABC):
    """The queue: tickets by pool, who waits where, and the tickets seated."""

    wake: Callable[[str], None] = staticmethod(lambda _ticket: None)
    """Called with a ticket seated (at any process)."""

    @abstractmethod
    async def start(self) -> None:
        """Begin listening for tickets seated elsewhere."""

    @abstractmethod
    async def close(self) -> None:
        """Stop."""

    @abstractmethod
    async def put(self, ticket: Ticket, now: float) -> None:
        """Queue ``ticket``, its members' earlier tickets dropped."""

    @abstractmethod
    async def get(self, ticket_id: str) -> Ticket | None:
        """A ticket waiting, by its id."""

    @abstractmethod
    async def by_code(self, code: str) -> Ticket | None:
        """The pair waiting for the friend with ``code``, which only one friend may use."""

    @abstractmethod
    async def drop(self, ticket: Ticket) -> None:
        """Take a ticket out of the queue (a cancel, or one nobody watches)."""

    @abstractmethod
    async def seen(self, ticket_id: str, now: float) -> None:
        """Someone watches the ticket: it stays."""

    @abstractmethod
    async def pools(self) -> dict[str, int]:
        """Each pool with tickets, and how many."""

    @abstractmethod
    async def waiting(self, name: str) -> int:
        """How many tickets a pool has."""

    @abstractmethod
    async def pool(self, name: str) -> list[tuple[Ticket, float]]:
        """A pool's tickets and when each was last seen."""

    @abstractmethod
    async def take(self, tickets: list[Ticket]) -> bool:
        """Take the tickets out of the queue, all of them or (if any is gone) none."""

    @abstractmethod
    async def seated(self, ticket_id: str, seats: Seated) -> None:
        """Keep a ticket's seats for its sockets, and wake them."""

    @abstractmethod
    async def seats(self, ticket_id: str) -> Seated | None:
        """A seated ticket's seats, while they are kept."""

    @abstractmethod
    async def lead(self, me: str) -> bool:
        """Whether this process pairs (for the next few seconds)."""


class MemoryBook(Book):
    """The queue in this process (one process, no Redis)."""

    def __init__(self) -> None:
        self.tickets: dict[str, Ticket] = {}
        self.pooled: dict[str, dict[str, Ticket]] = {}
        """Each pool's tickets by id: a pool is read without looking at the others."""
        self.last_seen: dict[str, float] = {}
        self.where: dict[int, str] = {}
        self.codes: dict[str, str] = {}
        self.done: dict[str, tuple[float, Seated]] = {}

    async def start(self) -> None:
        """Nothing to listen to: every ticket is seated here."""

    async def close(self) -> None:
        """Nothing to stop."""

    async def put(self, ticket: Ticket, now: float) -> None:
        for member in ticket.members:
            earlier = self.tickets.get(self.where.get(member.account, ""))
            if earlier is not None and earlier.id != ticket.id:
                await self.drop(earlier)
            self.where[member.account] = ticket.id
        self.tickets[ticket.id] = ticket
        self.pooled.setdefault(ticket.pool, {})[ticket.id] = ticket
        self.last_seen[ticket.id] = now
        if ticket.code is not None and not ticket.ready:
            self.codes[ticket.code] = ticket.id

    async def get(self, ticket_id: str) -> Ticket | None:
        return self.tickets.get(ticket_id)

    async def by_code(self, code: str) -> Ticket | None:
        return self.tickets.get(self.codes.pop(code, ""))

    async def drop(self, ticket: Ticket) -> None:
        self.tickets.pop(ticket.id, None)
        pooled = self.pooled.get(ticket.pool, {})
        pooled.pop(ticket.id, None)
        if not pooled:
            self.pooled.pop(ticket.pool, None)
        self.last_seen.pop(ticket.id, None)
        if ticket.code is not None:
            self.codes.pop(ticket.code, None)
        for member in ticket.members:
            if self.where.get(member.account) == ticket.id:
                del self.where[member.account]

    async def seen(self, ticket_id: str, now: float) -> None:
        if ticket_id in self.tickets:
            self.last_seen[ticket_id] = now

    async def pools(self) -> dict[str, int]:
        return {name: len(tickets) for name, tickets in self.pooled.items()}

    async def waiting(self, name: str) -> int:
        return len(self.pooled.get(name, ()))

    async def pool(self, name: str) -> list[tuple[Ticket, float]]:
        return [(t, self.last_seen[t.id]) for t in self.pooled.get(name, {}).values()]

    async def take(self, tickets: list[Ticket]) -> bool:
        if any(t.id not in self.tickets for t in tickets):
            return False
        for ticket in tickets:
            await self.drop(ticket)
        return True

    async def seated(self, ticket_id: str, seats: Seated) -> None:
        now = time.monotonic()
        while self.done:  # kept in the order seated: the oldest go from the front
            oldest = next(iter(self.done))
            if self.done[oldest][0] >= now - KEPT:
                break
            del self.done[oldest]
        self.done[ticket_id] = (now, seats)
        self.wake(ticket_id)

    async def seats(self, ticket_id: str) -> Seated | None:
        kept = self.done.get(ticket_id)
        return None if kept is None else kept[1]

    async def lead(self, me: str) -> bool:
        return True


_PREFIX = "bones:seek"
_TICKETS, _SEEN, _WHERE, _CODES, _POOLS, _LEAD, _DONE = (
    f"{_PREFIX}:{k}" for k in ("tickets", "seen", "where", "codes", "pools", "lead", "done"))
_TAKE = """
for i = 2, #ARGV do
  if redis.call('hexists', KEYS[1], ARGV[i]) == 0 then return 0 end
end
for i = 2, #ARGV do
  local ticket = cjson.decode(redis.call('hget', KEYS[1], ARGV[i]))
  redis.call('hdel', KEYS[1], ARGV[i])
  redis.call('hdel', KEYS[2], ARGV[i])
  redis.call('zrem', KEYS[3], ARGV[i])
  for _, member in ipairs(ticket['members']) do
    if redis.call('hget', KEYS[4], member['account']) == ARGV[i] then
      redis.call('hdel', KEYS[4], member['account'])
    end
  end
end
redis.call('hincrby', KEYS[5], ARGV[1], 1 - #ARGV)
return 1"""
_LEAD_SCRIPT = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if holder then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1"""


def _pool_key(name: str) -> str:
    return f"{_PREFIX}:pool:{name}"


class RedisBook(Book):
    """The queue in Redis, shared by every process: tickets in a hash, each pool a
    sorted set by rating, a count per pool, the seated tickets' seats kept a while and
    announced on ``bones:seek:done`` (a channel of its database, :func:`heard`)."""

    def __init__(self, url: str) -> None:
        self.redis = connect(url)
        self._take = self.redis.register_script(_TAKE)
        self._lead = self.redis.register_script(_LEAD_SCRIPT)
        self._done = heard(self.redis, _DONE)
        self._listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen())

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()

    async def _listen(self) -> None:
        while True:
            try:
                pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self._done)
                async for message in pubsub.listen():
                    self.wake(message["data"])
            except redis.RedisError as error:
                log.warning("the quick match's channel failed: %s", error)
                await asyncio.sleep(1)

    async def put(self, ticket: Ticket, now: float) -> None:
        earlier = cast(list[str | None],
                       await self.redis.hmget(_WHERE, [m.account for m in ticket.members]))
        for other in {e for e in earlier if e is not None and e != ticket.id}:
            found = await self.get(other)
            if found is not None:
                await self.take([found])
        known = await self.redis.hexists(_TICKETS, ticket.id)
        pipe = self.redis.pipeline()
        pipe.hset(_TICKETS, ticket.id, ticket.to_json())
        pipe.hset(_SEEN, ticket.id, now)
        pipe.hset(_WHERE, mapping={m.account: ticket.id for m in ticket.members})
        pipe.zadd(_pool_key(ticket.pool), {ticket.id: ticket.rating})
        if not known:
            pipe.hincrby(_POOLS, ticket.pool, 1)
        if ticket.code is not None and not ticket.ready:
            pipe.hset(_CODES, ticket.code, ticket.id)
        await pipe.execute()

    async def get(self, ticket_id: str) -> Ticket | None:
        text = cast(str | None, await self.redis.hget(_TICKETS, ticket_id))
        return None if text is None else Ticket.from_json(text)

    async def by_code(self, code: str) -> Ticket | None:
        pipe = self.redis.pipeline()
        pipe.hget(_CODES, code)
        pipe.hdel(_CODES, code)
        ticket_id, removed = await pipe.execute()
        return await self.get(ticket_id) if removed else None

    async def drop(self, ticket: Ticket) -> None:
        await self.take([ticket])
        if ticket.code is not None:
            await self.redis.hdel(_CODES, ticket.code)

    async def seen(self, ticket_id: str, now: float) -> None:
        if await self.redis.hexists(_TICKETS, ticket_id):
            await self.redis.hset(_SEEN, ticket_id, now)

    async def pools(self) -> dict[str, int]:
        counts = cast(dict[str, str], await self.redis.hgetall(_POOLS))
        return {name: int(n) for name, n in counts.items() if int(n) > 0}

    async def waiting(self, name: str) -> int:
        return int(cast(str | None, await self.redis.hget(_POOLS, name)) or 0)

    async def pool(self, name: str) -> list[tuple[Ticket, float]]:
        ids = cast(list[str], await self.redis.zrange(_pool_key(name), 0, -1))
        if not ids:
            return []
        pipe = self.redis.pipeline()
        pipe.hmget(_TICKETS, ids)
        pipe.hmget(_SEEN, ids)
        texts, seen = await pipe.execute()
        return [(Ticket.from_json(text), float(at or 0)) for text, at in zip(texts, seen,
                                                                              strict=True)
                if text is not None]

    async def take(self, tickets: list[Ticket]) -> bool:
        if not tickets:
            return True
        pool = tickets[0].pool
        return bool(await self._take(keys=[_TICKETS, _SEEN, _pool_key(pool), _WHERE, _POOLS],
                                     args=[pool, *(t.id for t in tickets)]))

    async def seated(self, ticket_id: str, seats: Seated) -> None:
        pipe = self.redis.pipeline()
        pipe.set(f"{_DONE}:{ticket_id}", json.dumps(seats), ex=KEPT)
        pipe.publish(self._done, ticket_id)
        await pipe.execute()

    async def seats(self, ticket_id: str) -> Seated | None:
        text = await self.redis.get(f"{_DONE}:{ticket_id}")
        return None if text is None else cast(Seated, json.loads(text))

    async def lead(self, me: str) -> bool:
        return bool(await self._lead(keys=[_LEAD], args=[me, 3000]))
