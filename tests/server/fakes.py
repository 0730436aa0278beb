"""Sockets that stand for clients of a hub served in the test's own process."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any


class Reader:
    """A client that reads everything it is sent; what it says goes through ``inbox``."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.heard = asyncio.Event()

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))
        self.heard.set()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.inbox.put({"type": "websocket.disconnect"})

    def say(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})


async def play_round(player: Reader, rng: random.Random) -> dict[str, Any]:
    """A seat's moves, at random, until its one-round table is over; its last state."""
    while True:
        await asyncio.wait_for(player.heard.wait(), 10)
        player.heard.clear()
        state = next(m for m in reversed(player.sent) if m["type"] == "state")
        if state["table"]["status"] == "over":
            return state
        view = state["view"]
        if view["turn"] == state["you"] and view["legal_moves"]:
            player.say({"v": 1, "type": "move", "move": rng.choice(view["legal_moves"])})
