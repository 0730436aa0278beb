"""What one address may do over WebSockets, whatever kind they are (a seat's, a
spectator's, the lobby's, a quick-match ticket's): how many it holds open at once, and
how many messages each socket and the address over all its sockets may send.

Every socket is let in through :meth:`Allowance.opened` and reads its messages through
:meth:`Gate.admit`: a message over the allowance is answered ``flood`` and not read, and
a socket that keeps flooding is closed (1008). So no kind of socket lets one client take
the server's loop from the others.

>>> allowance = Allowance(rate=1.0, burst=2, patience=1, sockets=1)
>>> gate = allowance.gate("10.0.0.1")
>>> [gate.admit() for _ in range(4)]
['read', 'read', 'flood', 'close']
>>> allowance.enter("10.0.0.1"), allowance.enter("10.0.0.1")
(True, False)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal

from starlette.responses import Response

from bones.server import logs
from bones.server.protocol import ErrorMessage, Ping, Pong, read_client
from bones.server.sockets.bucket import Bucket
from bones.server.sockets.sending import Socket, deliver

__all__ = ["BANNED", "FORGOTTEN", "SIGNED_OUT", "Allowance", "Gate", "Verdict", "messages",
           "pings_until_closed"]

Verdict = Literal["read", "flood", "close"]
"""What to do with a message: read it; answer ``flood`` without reading it; close the
socket, which has flooded past its patience."""
FORGOTTEN = 10_000
"""Addresses whose message buckets are kept before the full ones are forgotten."""
TOO_MANY = 4429
"""The close code of a socket over its address's count."""
BANNED = 4451
"""The close code of every socket of an account a moderator banned."""
SIGNED_OUT = 4401
"""The close code of a socket that needs a signed-in account and has none: never signed
in, or its device was signed out."""
FULL = "this server holds all the sockets it may: try again"


class Gate:
    """One socket's allowance: its own bucket (a seat's sockets share one), its
    address's over every socket, and its patience with refused messages."""

    def __init__(self, own: Bucket, address: Bucket, patience: Bucket) -> None:
        self.own, self.address, self.patience = own, address, patience

    def admit(self) -> Verdict:
        """Take one message from the allowance."""
        if self.own.take() and self.address.take():
            return "read"
        return "flood" if self.patience.take() else "close"


class Allowance:
    """The sockets of this process, counted per address and in all, and their message
    buckets."""

    def __init__(self, rate: float, burst: int, patience: int, sockets: int,
                 cap: int = 10_000) -> None:
        self.rate, self.burst, self.patience, self.most = rate, burst, patience, sockets
        self.cap = cap
        """Sockets this process holds at most (``--max-sockets``, below its open-files
        limit): one more is refused before its handshake, with 503, which sends it to
        another process of the site."""
        self.open: dict[str, int] = {}
        """Sockets open per address."""
        self.total = 0
        self.addresses: dict[str, Bucket] = {}

    def bucket(self) -> Bucket:
        """A new socket's (or seat's) own allowance."""
        return Bucket(self.rate, self.burst)

    def gate(self, address: str, own: Bucket | None = None) -> Gate:
        """The allowance of a socket from ``address`` (``own``: its seat's bucket)."""
        shared = self.addresses.get(address)
        if shared is None:
            if len(self.addresses) > FORGOTTEN:  # forget the quiet ones
                self.addresses = {k: b for k, b in self.addresses.items()
                                  if b.tokens < b.burst - 1}
            shared = self.addresses[address] = Bucket(self.rate * 5, self.burst * 5)
        return Gate(own or self.bucket(), shared, Bucket(1.0, self.patience))

    def enter(self, address: str) -> bool:
        """Count a socket in, if its address has room for one more."""
        if self.open.get(address, 0) >= self.most:
            return False
        self.open[address] = self.open.get(address, 0) + 1
        self.total += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        self.total -= 1
        if not self.open[address]:
            del self.open[address]

    @asynccontextmanager
    async def opened(self, ws: Socket, address: str) -> AsyncIterator[bool]:
        """Hold one of ``address``'s sockets while the block runs: yields False, with the
        socket accepted, told and closed (4429), when the address has no room, or refused
        before its handshake (503) when this process holds its cap."""
        if self.total >= self.cap:
            logs.refused("sockets", open=self.total)
            await full(ws)
            yield False
            return
        if not self.enter(address):
            await ws.accept()
            await refuse(ws, TOO_MANY, "too many sockets from one address")
            yield False
            return
        try:
            yield True
        finally:
            self.leave(address)

    def flood(self) -> str:
        """The answer to a message over the allowance."""
        return ErrorMessage(code="flood", message=f"too many messages: at most {self.rate:g} "
                            "a second; this one was not read").model_dump_json()


async def full(ws: Socket) -> None:
    """Turn a socket away from a process that holds its cap: HTTP 503 before the
    handshake, which a proxy answers by trying the next process; 1013 (try again later)
    where the server cannot answer a handshake so."""
    body = ErrorMessage(code="unavailable", message=FULL).model_dump_json()
    try:
        await ws.send_denial_response(  # type: ignore[attr-defined]
            Response(body, 503, {"retry-after": "2"}, media_type="application/json"))
    except (AttributeError, RuntimeError):
        await ws.accept()
        await ws.close(code=1013, reason=FULL)


async def refuse(ws: Socket, code: int, message: str) -> None:
    """Tell a socket why it is refused, then close it with ``code``."""
    error = ErrorMessage(code="unavailable" if code == TOO_MANY else "bad_message",
                         message=message)
    if await deliver(ws, error.model_dump_json()):
        await ws.close(code=code, reason=message[:120])


async def messages(ws: Socket, gate: Gate, flood: str) -> AsyncIterator[str | None]:
    """The frames a socket sends within its allowance, until it closes (``None`` for
    a binary frame): one over it is answered ``flood`` and skipped, and the socket
    closed once its patience is spent."""
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        verdict = gate.admit()
        if verdict == "close":
            await ws.close(code=1008, reason="flooding: too many refused messages")
            return
        if verdict == "flood":
            if not await deliver(ws, flood):
                return
            continue
        yield frame.get("text")


async def pings_until_closed(ws: Socket, allowance: Allowance, address: str,
                             what: str = "this socket") -> None:
    """Read a socket that is only told things (a quick match's ticket, a player's
    notices) until it closes: its client says nothing but pings, within the allowance
    every socket has; anything else is answered ``bad_message``."""
    async for text in messages(ws, allowance.gate(address), allowance.flood()):
        message = read_client(text)
        answer = Pong() if isinstance(message, Ping) else message if isinstance(
            message, ErrorMessage) else ErrorMessage(code="bad_message",
                                                     message=f"{what} takes pings only")
        if not await deliver(ws, answer.model_dump_json()):
            return
