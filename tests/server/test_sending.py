"""A client that stops reading holds up nobody.

Its buffers fill, and from then on every send to it waits: uvicorn's ``send`` and its
close both wait until the socket is writable again. A table's messages go out under its
lock, so one such spectator held its table for good: the send gave up after 5 s, and
the close that followed waited forever, the lock held. Here the hub serves sockets that
stand for those clients: one that takes nothing at all, and a player that reads
everything.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from typing import Any

import pytest

from bones.server import sending
from bones.server.hub import Hub, Settings
from bones.server.protocol import CreateTable
from bones.server.store import Store
from bones.server.table import Player


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


class Stopped(Reader):
    """A client whose buffers are full: a send to it, its close too, never ends."""

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await asyncio.Event().wait()


async def _play(ann: Reader, rng: random.Random) -> dict[str, Any]:
    """Ann's moves until the round is over; her last state."""
    while True:
        await asyncio.wait_for(ann.heard.wait(), 10)
        ann.heard.clear()
        state = next(m for m in reversed(ann.sent) if m["type"] == "state")
        if state["table"]["status"] == "over":
            return state
        view = state["view"]
        if view["turn"] == state["you"] and view["legal_moves"]:
            ann.say({"v": 1, "type": "move", "move": rng.choice(view["legal_moves"])})


async def _a_round_beside_a_stopped_spectator() -> None:
    hub = Hub(Store("sqlite://"), Settings(bot_workers=0))
    await hub.load()
    spec = CreateTable.model_validate({
        "variant": "draw", "options": {"target": None}, "bot_delay": 0,
        "seats": [{"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}]})
    table, _, token = await hub.create(spec, None, Player("Ann"))
    stopped, ann = Stopped(), Reader()
    serving = [asyncio.create_task(hub.connect(stopped, table.id, None, "203.0.113.9"))]
    await asyncio.sleep(0.05)  # the spectator is in first: its state is sent, and waits
    serving.append(asyncio.create_task(hub.connect(ann, table.id, token, "203.0.113.1")))
    try:
        over = await asyncio.wait_for(_play(ann, random.Random(7)), 30)
        assert over["table"]["status"] == "over"
        live = hub.tables[table.id]
        assert [conn.ws for conn in live.conns] == [ann]
        stopped.say({"v": 1, "type": "ping"})  # what a dropped client says is not read
        await asyncio.wait_for(serving[0], 5)
    finally:
        for task in serving:
            task.cancel()
        await hub.close()


def test_a_spectator_that_stops_reading_holds_up_no_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sending, "SEND_WAIT", 0.3)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(_a_round_beside_a_stopped_spectator())
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    # in a thread of its own: the browser tests' driver keeps a loop running in this one
    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "the table stood still"
    if errors:
        raise errors[0]
