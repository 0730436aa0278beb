"""Sending to one client without waiting on it for long.

A send waits only when the client's buffers are full: when it stopped reading (a frozen
tab, a bad network, or on purpose). A table's messages go out under its lock and the
lobby's to every socket together, so one such client would hold up everyone else (and a
client relayed from another process would pile its table's messages up in memory): its
sends are bounded, and a client that takes nothing for ``SEND_WAIT`` seconds is closed
and dropped. The close is bounded too: it is a frame sent like any other, and it waits
for the same full buffers (uvicorn's close waits until the socket is writable).

>>> import asyncio
>>> class Stopped:  # a client that reads nothing more: every send waits forever
...     async def send_text(self, data: str) -> None:
...         await asyncio.Event().wait()
...     async def close(self, code: int = 1000, reason: str | None = None) -> None:
...         await asyncio.Event().wait()
>>> asyncio.run(deliver(Stopped(), "{}", wait=0.01))
False
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol

__all__ = ["CLOSE_WAIT", "SEND_WAIT", "Socket", "deliver"]

SEND_WAIT = 5.0
"""Seconds a message may wait to go out to one client before the client is dropped."""
CLOSE_WAIT = 1.0
"""Seconds the close of a dropped client may wait; then it is left to its connection."""


class Socket(Protocol):
    """What the server needs of a WebSocket: Starlette's, or one relayed from another
    process (``cluster.RemoteSocket``)."""

    async def accept(self) -> None: ...

    async def receive(self) -> Any: ...

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


async def deliver(ws: Socket, text: str, wait: float | None = None) -> bool:
    """Send ``text`` to ``ws`` within ``wait`` seconds (``SEND_WAIT``); a client that
    does not take it, or whose socket broke, is closed (1011) and False returned."""
    try:
        async with asyncio.timeout(SEND_WAIT if wait is None else wait):
            await ws.send_text(text)
        return True
    except Exception:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_WAIT):
                await ws.close(code=1011)
        return False
