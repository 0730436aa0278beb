"""Many server processes, one site (``--redis``): which process runs which table, and
how a socket that reached another process is served.

A table in a process's memory is that process's by a lease in Redis
(``bones:lease:{id}``), renewed every ``RENEW`` seconds and gone ``LEASE`` seconds after
the last renewal: only the holder changes the table and writes its log. The log fences
a holder that lost its lease without knowing it (a long pause, a partition): its next
write takes a (table, sequence) number the new holder has written, the store refuses it
and the process drops the table.

A socket may reach any process. When another process holds the table, this one relays:
it passes the client's frames to the holder and the holder's messages back, through
each process's Redis channel (``bones:proc:{name}``). A killed process's connections
close at once, so nobody listens on its channel any more: the others, looking twice a
second, see it die within a second, free the tables it held (``bones:held:{name}``) and
take them from the store, and the relays close their sockets with 1012 so the clients
come back, to the new holder. Should a holder be cut off from Redis instead, its leases
run out, and the others (each looks every ``RENEW`` seconds for unfinished tables nobody
has held for ``GRACE`` seconds) take its tables the same way. The same
channels carry the few calls one process makes of another (joining a seat, a table's
information).

Unfinished tables are listed in the sorted set ``bones:unfinished``, each scored by the time
(Redis's clock, in ms) its lease runs out unless renewed: a look for tables nobody holds
reads only those whose time has passed, so it costs what the orphans are, not what the
site is. Public tables that wait or play are in the hash ``bones:listing``, so every
process lists the same tables; a change to that list is announced on ``bones:lobby``
(:mod:`bones.server.meeting.lobby`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import redis
import redis.asyncio as aioredis

from bones.server.sockets.sending import Socket, deliver

__all__ = ["GRACE", "LEASE", "LOBBY", "RENEW", "SITE", "Cluster", "Elsewhere", "RemoteSocket",
           "connect", "heard"]

log = logging.getLogger("bones.server")

LEASE = 3.0
"""Seconds a lease (and a process's sign of life) lasts without renewal."""
RENEW = 1.0
"""Seconds between renewals, and between looks for tables nobody holds."""
GRACE = 2.0
"""Seconds a lease that ran out stays its holder's to renew before another process may
take the table: after a pause of Redis every lease has run out at once, and each holder
takes its own back (a renewal re-claims a lease nobody holds) before anyone else looks."""
SITE = "bones:site"
"""A key every process sets and none lets expire: Redis without it has lost what it held
(a restart without its data), and the processes list the store's tables in it again."""
UNFINISHED, LISTING, LOBBY = "bones:unfinished", "bones:listing", "bones:lobby"
PROCESSES = "bones:processes"
"""The site's processes, each scored by its last sign of life (ms): those to watch for a
death."""
HELD = 60.0
"""Seconds a process's list of the tables it holds (``bones:held:{name}``, written again
at each renewal) outlives it: long enough for the others to see it die and free them."""
_NOW = "local t = redis.call('time') local now = t[1] * 1000 + math.floor(t[2] / 1000)"
_RENEW = _NOW + """
local kept = {}
redis.call('del', KEYS[2])
for i = 3, #KEYS do
  local holder = redis.call('get', KEYS[i])
  if holder == ARGV[1] or (not holder and redis.call('set', KEYS[i], ARGV[1], 'NX')) then
    redis.call('pexpire', KEYS[i], ARGV[2])
    redis.call('zadd', KEYS[1], 'XX', now + ARGV[2], ARGV[i + 1])
    redis.call('sadd', KEYS[2], ARGV[i + 1])
    kept[#kept + 1] = i - 2
  end
end
redis.call('pexpire', KEYS[2], ARGV[3])
return kept"""
_CLAIM = _NOW + """
if redis.call('set', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('zadd', KEYS[1], 'XX', now + ARGV[2], ARGV[3])
  redis.call('sadd', KEYS[3], ARGV[3])
  redis.call('pexpire', KEYS[3], ARGV[4])
  return 1
end
return 0"""
_REAP = """
for i = 3, #ARGV do
  local held = ARGV[2] .. ARGV[i]
  for _, id in ipairs(redis.call('smembers', held)) do
    if redis.call('get', ARGV[1] .. id) == ARGV[i] then
      redis.call('del', ARGV[1] .. id)
      redis.call('zadd', KEYS[1], 'XX', 0, id)
    end
  end
  redis.call('del', held)
end"""
_ORPHANS = _NOW + """
local found = {}
for _, id in ipairs(redis.call('zrangebyscore', KEYS[1], '-inf', now - ARGV[2])) do
  if redis.call('exists', ARGV[1] .. id) == 0 then found[#found + 1] = id end
end
return found"""
_CLOSED = """
redis.call('zrem', KEYS[1], ARGV[1])
if redis.call('hdel', KEYS[2], ARGV[1]) == 1 then redis.call('publish', KEYS[3], '') end"""
_RELEASE = """
redis.call('srem', KEYS[2], ARGV[2])
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0"""


TIMEOUT = 2.0
"""Seconds a command to Redis may take (or a connection to it) before it fails: a Redis
paused or unreachable turns a socket away at once (1013) instead of holding its upgrade
with no answer. A subscriber's wait for messages is not bound by it."""


def connect(url: str, decode: bool = True) -> aioredis.Redis:
    """A client whose connections are shared by every task: a task waits for a free one
    (up to 5 s) instead of failing when a thousand sockets talk at once; a command gets
    :data:`TIMEOUT` seconds."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=64, timeout=5, decode_responses=decode,
        socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
    return aioredis.Redis(connection_pool=pool)


_LEASE = "bones:lease:"
_HELD = "bones:held:"


def _lease(table_id: str) -> str:
    return _LEASE + table_id


def _channel(process: str) -> str:
    return f"bones:proc:{process}"


def heard(client: aioredis.Redis, name: str) -> str:
    """``name`` as a channel of ``client``'s database. A Redis server keeps keys apart
    per database but shares its channels among them all, so two sites in databases of
    one Redis would otherwise hear each other's lobby chat and quick matches.

    >>> heard(connect("redis://localhost:6379/3"), LOBBY)
    'bones:lobby@3'
    """
    return f"{name}@{client.connection_pool.connection_kwargs.get('db', 0)}"


class Elsewhere(Exception):
    """Another process holds the table."""

    def __init__(self, owner: str) -> None:
        super().__init__(f"the table is held by {owner}")
        self.owner = owner


class RemoteSocket:
    """A client's socket on another process, as the table's holder sees it: frames come
    in through the holder's channel, messages go out through the relay's."""

    def __init__(self, cluster: Cluster, conn: str, relay: str) -> None:
        self.cluster, self.conn, self.relay = cluster, conn, relay
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def accept(self) -> None:
        """The relay accepted the socket already."""

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, data: str) -> None:
        self.cluster.send(self.relay, {"kind": "text", "conn": self.conn, "text": data})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.cluster.send(self.relay, {"kind": "close", "conn": self.conn, "code": code,
                                       "reason": reason or ""})


Handler = Callable[[dict[str, Any]], Awaitable[Any]]


class Cluster:
    """This process's part in a site of several: its leases, its channel, its relays."""

    def __init__(self, url: str) -> None:
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.redis = connect(url)
        self._listener = aioredis.Redis.from_url(url, decode_responses=True)
        self._renew = self.redis.register_script(_RENEW)
        self._claim = self.redis.register_script(_CLAIM)
        self._orphans = self.redis.register_script(_ORPHANS)
        self._lobby = heard(self.redis, LOBBY)
        self._closed = self.redis.register_script(_CLOSED)
        self._release = self.redis.register_script(_RELEASE)
        self._reap = self.redis.register_script(_REAP)
        self._held = _HELD + self.me
        self._silent: set[str] = set()
        """Processes whose channel nobody listened on at the last look."""
        self._buried: set[str] = set()
        """Processes found dead already, and silent since."""
        self.boxes: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        """Messages for each relayed socket here: the holder's, to pass to the client."""
        self.owners: dict[str, str] = {}
        """The holder each socket relayed here is relayed to."""
        self.remotes: dict[str, RemoteSocket] = {}
        """Sockets on other processes of tables held here."""
        self.calls: dict[str, asyncio.Future[Any]] = {}
        self.on_open: Callable[[RemoteSocket, dict[str, Any]], None] | None = None
        self.on_call: Handler | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

    # -- leases and the shared lists -----------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        """Hold the table, if nobody does."""
        return bool(await self._claim(keys=[UNFINISHED, _lease(table_id), self._held],
                                      args=[self.me, int(LEASE * 1000), table_id,
                                            int(HELD * 1000)]))

    async def owner(self, table_id: str) -> str | None:
        return cast(str | None, await self.redis.get(_lease(table_id)))

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Renew this process's leases; the tables whose lease it no longer holds."""
        if not table_ids:
            return []
        kept = await self._renew(keys=[UNFINISHED, self._held,
                                       *[_lease(t) for t in table_ids]],
                                 args=[self.me, int(LEASE * 1000), int(HELD * 1000),
                                       *table_ids])
        held = {table_ids[i - 1] for i in kept}
        return [t for t in table_ids if t not in held]

    async def release(self, table_id: str) -> None:
        with contextlib.suppress(redis.RedisError):
            await self._release(keys=[_lease(table_id), self._held], args=[self.me, table_id])

    async def orphans(self) -> list[str]:
        """Unfinished tables nobody holds: those whose lease ran out, and those listed
        by :meth:`opened` that nobody claimed."""
        return cast(list[str], await self._orphans(keys=[UNFINISHED],
                                                   args=[_LEASE, int(GRACE * 1000)]))

    async def forgotten(self) -> bool:
        """Whether Redis lost what it held since this was last asked (it lacked
        :data:`SITE`; the first ask at a new site says so too)."""
        return bool(await self.redis.set(SITE, "1", nx=True))

    async def opened(self, *table_ids: str) -> None:
        """List unfinished tables. One not held yet is an orphan at once (its time is
        0); one held keeps its lease's time."""
        if table_ids:
            await self.redis.zadd(UNFINISHED, dict.fromkeys(table_ids, 0), nx=True)

    async def closed(self, table_id: str) -> None:
        """The table is finished: no longer unfinished, nor listed; the lobbies hear of
        it only if it was listed (a private table's end changes no list)."""
        await self._closed(keys=[UNFINISHED, LISTING, self._lobby], args=[table_id])

    async def show(self, info: str | None, table_id: str) -> None:
        """Show (``info``: its TableInfo as JSON) or hide a table in the shared list, and
        tell every process's lobby."""
        pipe = self.redis.pipeline()
        if info is None:
            pipe.hdel(LISTING, table_id)
        else:
            pipe.hset(LISTING, table_id, info)
        pipe.publish(self._lobby, "")
        await pipe.execute()

    async def listing(self) -> list[str]:
        shown = cast(dict[str, str], await self.redis.hgetall(LISTING))
        return list(shown.values())

    # -- processes' channels -------------------------------------------------------------

    async def start(self) -> None:
        """Listen on this process's channel and show it is alive."""
        pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(_channel(self.me))
        await self.beat()
        self._spawn(self._listen(pubsub))
        self._spawn(self._post())

    async def beat(self) -> None:
        """This process is alive, listed among the site's (those gone quiet for
        :data:`HELD` seconds are forgotten)."""
        at = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(PROCESSES, {self.me: at})
        pipe.zremrangebyscore(PROCESSES, "-inf", at - int(HELD * 1000))
        await pipe.execute()

    async def dead(self) -> set[str]:
        """The site's processes found dead at this look, each once: nobody listened on
        their channel at this look nor at the last. A killed process's connections close
        at once, so its death is known within two looks, not when its leases run out;
        the tables it held are freed then (their leases deleted), for whoever takes them
        first. A process wrongly thought dead (its channel's connection lost for a
        moment) loses its tables as it would by a lapsed lease: the store's log fences
        its writes; heard again, it may be found dead again later."""
        names = [n for n in cast(list[str], await self.redis.zrange(PROCESSES, 0, -1))
                 if n != self.me]
        counts = dict(await self.redis.pubsub_numsub(*map(_channel, names))) if names else {}
        silent = {n for n in names if not counts.get(_channel(n))}
        dead = silent & self._silent - self._buried
        self._silent, self._buried = silent, (self._buried | dead) & silent
        if dead:
            await self._reap(keys=[UNFINISHED], args=[_LEASE, _HELD, *sorted(dead)])
        return dead

    def bury(self, dead: set[str]) -> None:
        """Let go of the sockets that went through processes now ``dead``: a client
        relayed to a dead holder is closed with 1012 (it comes back, to the table's new
        holder), and a socket relayed here by a dead process is gone."""
        for conn, owner in list(self.owners.items()):
            if owner in dead and conn in self.boxes:
                self.boxes[conn].put_nowait({"kind": "close", "code": 1012, "reason":
                                             "the table's server stopped: reconnect"})
        for remote in list(self.remotes.values()):
            if remote.relay in dead:
                remote.inbox.put_nowait({"type": "websocket.disconnect"})

    def send(self, process: str, message: dict[str, Any]) -> None:
        """Post a message to ``process``: it goes out with the others posted meanwhile,
        in order, so a broadcast never waits for Redis."""
        self._outbox.put_nowait((_channel(process), json.dumps(message)))

    async def _post(self) -> None:
        """Send what was posted, in batches: one round trip to Redis for all the
        messages a turn of the event loop made."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 1000:
                batch.append(self._outbox.get_nowait())
            pipe = self.redis.pipeline(transaction=False)
            for channel, data in batch:
                pipe.publish(channel, data)
            try:
                await pipe.execute()
            except redis.RedisError as error:
                log.warning("%d messages to other processes were lost: %s", len(batch), error)

    async def call(self, process: str, method: str, timeout: float = 5.0,
                   **args: Any) -> Any:
        """Ask ``process`` to do something; its answer, or its error raised here (no
        answer in ``timeout`` seconds, as when it died: ``CallError`` ``unavailable``)."""
        call_id = secrets.token_hex(8)
        answer = self.calls[call_id] = asyncio.get_running_loop().create_future()
        try:
            self.send(process, {"kind": "call", "id": call_id, "from": self.me,
                                "method": method, "args": args})
            async with asyncio.timeout(timeout):
                return await answer
        except TimeoutError:
            raise CallError("the server holding the table did not answer; try again",
                            "unavailable") from None
        finally:
            self.calls.pop(call_id, None)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(timeout=5.0)
            except redis.RedisError as error:
                log.warning("this process's channel failed: %s", error)
                await asyncio.sleep(1)
                continue
            if message is not None:
                try:
                    self._dispatch(json.loads(message["data"]))
                except Exception:
                    log.exception("a message between processes was not understood")

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message["kind"]
        if kind in ("text", "close"):
            box = self.boxes.get(message["conn"])
            if box is not None:
                box.put_nowait(message)
        elif kind in ("frame", "gone"):
            remote = self.remotes.get(message["conn"])
            if remote is not None:
                remote.inbox.put_nowait(
                    {"type": "websocket.receive", "text": message["text"]} if kind == "frame"
                    else {"type": "websocket.disconnect"})
        elif kind == "open" and self.on_open is not None:
            remote = self.remotes[message["conn"]] = RemoteSocket(self, message["conn"],
                                                                 message["from"])
            self.on_open(remote, message)
        elif kind == "call" and self.on_call is not None:
            self._spawn(self._answer(message, self.on_call))
        elif kind == "reply":
            waiting = self.calls.get(message["id"])
            if waiting is not None and not waiting.done():
                if "error" in message:
                    waiting.set_exception(CallError(message["error"], message["code"]))
                else:
                    waiting.set_result(message["value"])

    async def _answer(self, message: dict[str, Any], handler: Handler) -> None:
        reply: dict[str, Any] = {"kind": "reply", "id": message["id"]}
        try:
            reply["value"] = await handler(message)
        except CallError as error:
            reply.update(error=str(error), code=error.code)
        except Exception as error:
            log.exception("a call from another process failed")
            reply.update(error=str(error), code="internal")
        self.send(message["from"], reply)

    def _spawn(self, job: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- relaying a socket to the table's holder -----------------------------------------

    async def relay(self, ws: Socket, owner: str, table_id: str, token: str | None,
                    address: str, viewer: dict[str, Any] | None = None,
                    invite: str | None = None, device: str | None = None) -> None:
        """Serve a client whose table another process holds, until either side closes,
        or the holder is gone (then close with 1012: the client comes back); ``viewer``:
        who is signed in on the socket; ``invite``: the private table's secret it gave;
        ``device``: the browser it comes from (``auth.device``)."""
        conn = secrets.token_hex(8)
        box = self.boxes[conn] = asyncio.Queue()
        self.owners[conn] = owner
        try:
            self.send(owner, {"kind": "open", "conn": conn, "from": self.me,
                              "table": table_id, "token": token, "address": address,
                              "viewer": viewer, "invite": invite, "device": device})
            inward = asyncio.ensure_future(self._inward(ws, owner, conn))
            outward = asyncio.ensure_future(self._outward(ws, box, owner, table_id))
            await asyncio.wait([inward, outward], return_when=asyncio.FIRST_COMPLETED)
            for task in (inward, outward):
                task.cancel()
            # Either side closing ends the relay: a socket gone mid-send is no error.
            await asyncio.gather(inward, outward, return_exceptions=True)
        finally:
            del self.boxes[conn], self.owners[conn]
            self.send(owner, {"kind": "gone", "conn": conn})

    async def _inward(self, ws: Socket, owner: str, conn: str) -> None:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            self.send(owner, {"kind": "frame", "conn": conn, "text": frame.get("text")})

    async def _outward(self, ws: Socket, box: asyncio.Queue[dict[str, Any]], owner: str,
                       table_id: str) -> None:
        while True:
            try:
                message = await asyncio.wait_for(box.get(), 2 * RENEW)
            except TimeoutError:
                holder = await self.owner(table_id)
                if holder is not None and holder != owner:  # None: its holder renews yet
                    await ws.close(1012, "the table moved to another server: reconnect")
                    return
                continue
            if message["kind"] == "close":
                await ws.close(message["code"], message["reason"])
                return
            if not await deliver(ws, message["text"]):
                return  # the client stopped reading, or its socket broke: the relay ends

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.zrem(PROCESSES, self.me)


class CallError(Exception):
    """A call another process refused: ``code`` says why (as a ``TableError``'s)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code
