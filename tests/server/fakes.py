"""A hub served in the test's own process: sockets that stand for its clients, and an
event loop of its own to serve it on."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def in_a_thread(work: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
    """Run ``work`` to its end on an event loop in a thread of its own (the browser
    tests' driver keeps a loop running in the test's thread) and give back its answer;
    what it raises is raised here, and it fails if it outlasts ``timeout`` seconds."""
    answers: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            answers.append(asyncio.run(work))
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError(f"the work did not end within {timeout} s")
    if errors:
        raise errors[0]
    return answers[0]


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
