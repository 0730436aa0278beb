"""A player's notices: what is for them alone, pushed on their own socket (``/ws/me``,
which the app keeps open on every page): a challenge to them, and the answer to theirs.
With other processes (``--redis``) a notice is said on a channel every process hears,
and each tells the sockets of that account it holds, so it reaches the player wherever
their page is connected.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import suppress
from typing import Any

import redis

from bones.server.people.players import Player
from bones.server.protocol import NoticeMessage
from bones.server.sites.cluster import connect, heard
from bones.server.sockets.allowance import Allowance, pings_until_closed
from bones.server.sockets.sending import Socket, deliver

__all__ = ["Notices"]

log = logging.getLogger("bones.server")
NOTICE = "bones:notice"
"""The channel a notice is said on: ``[account, message]``."""


class Notices:
    """The notice sockets of this process, by account."""

    def __init__(self, allowance: Allowance, redis_url: str | None = None) -> None:
        self.allowance = allowance
        self.redis = None if redis_url is None else connect(redis_url)
        self.sockets: dict[int, set[Socket]] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.redis is not None:
            self._task = asyncio.create_task(self._listen(self.redis))

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def serve(self, ws: Socket, address: str, viewer: Player | None) -> None:
        """One player's notice socket, from ``address``, until it closes."""
        async with self.allowance.opened(ws, address) as room:
            if not room:
                return
            await ws.accept()
            if viewer is None or viewer.account is None:
                await ws.close(4401, "sign in (as a guest too) for your notices")
                return
            held = self.sockets.setdefault(viewer.account, set())
            held.add(ws)
            try:
                await pings_until_closed(ws, self.allowance, address, "a notice socket")
            except Exception:  # a socket that broke is a socket that left
                log.debug("a notice socket broke", exc_info=True)
            finally:
                held.discard(ws)
                if not held:
                    self.sockets.pop(viewer.account, None)

    async def tell(self, account: int, notice: NoticeMessage) -> None:
        """Push ``notice`` to the account's notice sockets, at every process."""
        text = notice.model_dump_json()
        if self.redis is None:
            await self._deliver(account, text)
        else:
            await self.redis.publish(heard(self.redis, NOTICE), json.dumps([account, text]))

    async def _deliver(self, account: int, text: str) -> None:
        for ws in list(self.sockets.get(account, ())):
            await deliver(ws, text)

    async def _listen(self, client: Any) -> None:
        while True:
            try:
                pubsub: Any = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(heard(client, NOTICE))
                async for message in pubsub.listen():
                    account, text = json.loads(message["data"])
                    with suppress(Exception):
                        await self._deliver(int(account), text)
            except redis.RedisError as error:
                log.warning("notices could not be heard: %s", error)
                await asyncio.sleep(1)
