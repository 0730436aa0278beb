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
import random

import pytest

from bones.server.people.players import Player
from bones.server.protocol import CreateTable
from bones.server.sockets import sending
from bones.server.store.records import Store
from bones.server.tables.hub import Hub, Settings
from tests.server.fakes import Reader, in_a_thread, play_round


class Stopped(Reader):
    """A client whose buffers are full: a send to it, its close too, never ends."""

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await asyncio.Event().wait()


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
        over = await asyncio.wait_for(play_round(ann, random.Random(7)), 30)
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
    in_a_thread(_a_round_beside_a_stopped_spectator(), timeout=120)  # or the table stood still
