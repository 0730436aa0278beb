"""A player's notices: what is for them alone, pushed on their own socket (``/ws/me``,
which the app keeps open on every page): a challenge to them, and the answer to theirs;
a rematch offered at a table they played. Each is also kept in their notifications list
(:mod:`bones.server.people.notifications`), for a page opened later. With other
processes (``--redis``) a notice is said on a channel every process hears, and each
tells the sockets of that account it holds, so it reaches the player wherever their page
is connected.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

import redis
from sqlalchemy.exc import SQLAlchemyError

from bones.server.people.notifications import Notifications
from bones.server.people.players import Player
from bones.server.protocol import ChallengeInfo, NoticeKind, NoticeMessage, Notification
from bones.server.sites.cluster import connect, heard
from bones.server.sockets.allowance import SIGNED_OUT, Allowance, pings_until_closed
from bones.server.sockets.sending import Socket, deliver

__all__ = ["Notices", "publish"]

log = logging.getLogger("bones.server")
NOTICE = "bones:notice"
"""The channel a notice is said on: ``[account, message]``."""


async def publish(client: Any, account: int, text: str) -> None:
    """Push ``text`` to the account's notice sockets at every process of a site (what
    ``bones admin`` does with the site's Redis)."""
    await client.publish(heard(client, NOTICE), json.dumps([account, text]))


class Notices:
    """The notice sockets of this process, by account."""

    def __init__(self, allowance: Allowance, notifications: Notifications,
                 redis_url: str | None = None) -> None:
        self.allowance = allowance
        self.notifications = notifications
        self.redis = None if redis_url is None else connect(redis_url)
        self.sockets: dict[int, set[Socket]] = {}
        self._task: asyncio.Task[None] | None = None
        self.mailed: Callable[[list[int], NoticeKind, int | None, str],
                              Awaitable[Any]] | None = None
        """Mails those told who chose to be mailed about the kind, a link to the page
        (``mail.addresses``, when the site sends mail)."""

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
                await ws.close(SIGNED_OUT, "sign in (as a guest too) for your notices")
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

    async def tell(self, account: int, kind: NoticeKind, by: int | None = None,
                   challenge: ChallengeInfo | None = None, table: str | None = None,
                   spec: dict[str, Any] | None = None, tournament: str | None = None
                   ) -> None:
        """Keep a line in the account's notifications and push it to their notice
        sockets, at every process: ``kind`` done by the account ``by``, about
        ``challenge``, the table ``table`` of rules ``spec`` or ``tournament``. A line the
        store cannot keep is still pushed."""
        await self.tell_all([account], kind, by, challenge, table, spec, tournament)

    async def tell_all(self, accounts: list[int], kind: NoticeKind, by: int | None = None,
                       challenge: ChallengeInfo | None = None, table: str | None = None,
                       spec: dict[str, Any] | None = None, tournament: str | None = None
                       ) -> None:
        """:meth:`tell` each of ``accounts`` the same, kept in one transaction."""
        if challenge is not None:
            table, spec = table or challenge.table, spec or challenge.table_spec
        lines: dict[int, Notification] = {}
        try:
            lines = await asyncio.to_thread(
                self.notifications.add_all, accounts, kind, by,
                challenge=None if challenge is None else challenge.id, table=table,
                tournament=tournament, spec=spec)
        except SQLAlchemyError as error:
            log.warning("notifications could not be kept: %s", error)
        for account in accounts:
            await self.push(account, NoticeMessage(
                kind=kind, challenge=challenge, notification=lines.get(account)
            ).model_dump_json())
        if self.mailed is not None:
            path = (f"/challenge/{challenge.id}" if challenge is not None
                    else f"/tournament/{tournament}" if tournament else None)
            if path is not None:
                await self.mailed(accounts, kind, by, path)

    async def push(self, account: int, text: str) -> None:
        """Send ``text`` to the account's notice sockets, at every process, and keep
        nothing (a tournament's pairing: the seat is asked for again if it is lost)."""
        if self.redis is None:
            await self._deliver(account, text)
        else:
            await publish(self.redis, account, text)

    async def rematch(self, account: int, by: int | None, table: str,
                      spec: dict[str, Any]) -> None:
        """Tell ``account`` that ``by`` offers a rematch at ``table`` (rules ``spec``)."""
        await self.tell(account, "rematch", by, table=table, spec=spec)

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
