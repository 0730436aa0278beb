"""Tables across the processes of a site: this process's leases kept (and tables nobody
holds taken), sockets relayed from other processes served as if here, and the calls
one process makes of another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, TypeVar

from bones.server.people.players import Player
from bones.server.sites.cluster import RENEW, CallError, Elsewhere, RemoteSocket
from bones.server.tables import endings, showing
from bones.server.tables.live import Live, Part
from bones.server.tables.seats import TableError
from bones.server.tables.settings import Unavailable
from bones.server.tables.table import Table

__all__ = ["Holding"]

log = logging.getLogger("bones.server")
T = TypeVar("T")

WATCH = 0.5
"""Seconds between two looks for dead processes: a death is known in one to two."""


class Holding(Part):
    """This hub's part among the site's processes."""

    def remote(self, ws: RemoteSocket, opened: dict[str, Any]) -> None:
        """A client of a table held here reached another process: serve it as if here."""
        assert self.hub.cluster is not None
        cluster = self.hub.cluster

        async def serve() -> None:
            try:
                viewer = opened.get("viewer")
                await self.hub.doors.serve(ws, opened["table"], opened["token"], opened["address"],
                                  None if viewer is None else Player(**viewer),
                                  opened.get("invite"), opened.get("device"))
            except Elsewhere:
                await ws.close(1012, "the table moved to another server: reconnect")
            finally:
                cluster.remotes.pop(ws.conn, None)

        cluster._spawn(serve())

    async def ask(self, owner: str, method: str, **args: Any) -> Any:
        """Call ``method`` of the process holding a table; its refusal is raised here as
        it was there (:func:`_uncalled`)."""
        assert self.hub.cluster is not None
        try:
            return await self.hub.cluster.call(owner, method, **args)
        except CallError as error:
            raise _uncalled(error) from None

    async def called(self, message: dict[str, Any]) -> Any:
        """Another process asks for something of a table held here; a refusal goes back
        as a ``CallError`` that :meth:`_ask` raises again there."""
        args = message["args"]
        try:
            if message["method"] == "join":
                player = Player(args["name"], args["account"], args["guest"])
                joined = await self.hub.join(args["table"], player, args["seat"], args["invite"])
                return joined.model_dump(mode="json")
            if message["method"] == "leave":
                await self.hub.leave(args["table"], args["token"])
                return None
        except TableError as error:
            raise CallError(str(error), error.code) from None
        except ValueError as error:
            raise CallError(str(error), "taken") from None
        except KeyError as error:
            raise CallError(str(error.args[0]), "missing") from None
        info = await self.hub.info(args["table"])
        if info is None:
            raise CallError(f"no table {args['table']!r}", "missing")
        return info.model_dump(mode="json")

    async def keep(self) -> None:
        """Every second: show this process is alive, list the tables again if Redis lost
        them, renew its leases (taking back those that ran out while Redis was away,
        dropping those another process took), and take tables nobody holds. A failure
        (Redis away) is tried again the next second: the tables held here play on
        meanwhile."""
        assert self.hub.cluster is not None
        cluster = self.hub.cluster
        while True:
            try:
                await cluster.beat()
                if await cluster.forgotten():  # Redis came back empty: list the tables again
                    log.warning("Redis lost the site's tables; listing them from the store")
                    await cluster.opened(*await self.hub.read(self.hub.store.open_ids))
                    for live in list(self.hub.tables.values()):
                        if live.listed is not None:
                            await cluster.show(showing.info(live.table).model_dump_json(),
                                               live.table.id)
                for table_id in await cluster.renew(list(self.hub.tables)):
                    log.warning("table %s: its lease is gone; another process runs it",
                                table_id)
                    await self.hub.sweeping.drop(table_id, release=False)
                await self.take_orphans()
            except Exception:
                log.exception("keeping this process's tables failed")
            await asyncio.sleep(RENEW)

    async def watch(self) -> None:
        """Every :data:`WATCH` seconds: look for processes that died (``Cluster.dead``);
        take the tables they held, and let go of the sockets relayed through them, at
        once (a killed holder's tables play on in about a second, not when its leases
        run out)."""
        assert self.hub.cluster is not None
        cluster = self.hub.cluster
        while True:
            try:
                dead = await cluster.dead()
                if dead:
                    cluster.bury(dead)
                    await self.take_orphans()
            except Exception:
                log.exception("watching the site's processes failed")
            await asyncio.sleep(WATCH)

    async def take_orphans(self) -> None:
        """Take the tables nobody holds (each goes to the first process that claims it)."""
        assert self.hub.cluster is not None
        for table_id in await self.hub.cluster.orphans():
            with contextlib.suppress(Elsewhere):
                await self.live(table_id)

    # -- connections ---------------------------------------------------------------------


    async def live(self, table_id: str) -> Live | None:
        """The table in memory, or read back from the store (a finished one is kept
        only while it is watched). With other processes, a table is read back only by
        the process that takes its lease; ``Elsewhere`` if another holds it."""
        live = self.hub.tables.get(table_id)
        if live is not None or len(table_id) > 32:
            return live
        if self.hub.cluster is None:
            return await self.read_back(table_id)
        loading = self.hub._loading.get(table_id)
        if loading is None:  # the first to ask takes it; the others wait for that
            loading = self.hub._loading[table_id] = asyncio.ensure_future(self.take(table_id))
            loading.add_done_callback(lambda done: self.forget_loading(table_id, done))
        return await asyncio.shield(loading)

    def forget_loading(self, table_id: str, done: asyncio.Future[Live | None]) -> None:
        self.hub._loading.pop(table_id, None)
        if not done.cancelled():
            done.exception()  # seen: whoever asked got it

    async def take(self, table_id: str) -> Live | None:
        """Take the table's lease and read it back, unless another process holds it."""
        assert self.hub.cluster is not None
        me = self.hub.cluster.me
        for _ in range(3):  # a lease may run out between asking for it and reading it
            # A lease of ours that is not in memory is one nobody let go of: read it back.
            if await self.hub.cluster.claim(table_id) or (
                    owner := await self.hub.cluster.owner(table_id)) == me:
                return await self.read_back(table_id)
            if owner is not None:
                raise Elsewhere(owner)
        return None

    async def read_back(self, table_id: str) -> Live | None:
        saved = await self.hub.read(self.hub.store.table, table_id)
        live = self.hub.tables.get(table_id)  # another request may have read it meanwhile
        if live is not None:
            return live
        table = None if saved is None else Table.restore(saved)
        if saved is None or table is None or (saved.finished and table.status != "over"):
            if self.hub.cluster is not None:  # no such table, or it expired waiting
                await self.hub.cluster.closed(table_id)
                await self.hub.cluster.release(table_id)
            return None
        if table.status != "over" and self.hub.cluster is None:
            return None  # not this server's to run: it would have loaded it
        live = self.hub.tables[table_id] = Live(table, list(saved.events))
        if table.status == "over":
            if not saved.finished:  # its end was not stored with its last move (old store)
                await self.hub.write(self.hub.store.finish, table.id, endings.game(table))
            if self.hub.cluster is not None:
                await self.hub.cluster.closed(table_id)
        else:
            await self.hub.begin(live)
        return live

    # -- other processes -----------------------------------------------------------------

def _uncalled(error: CallError) -> Exception:
    """The error another process's join or leave raised, as it is raised here."""
    if error.code == "taken":
        return ValueError(str(error))
    if error.code == "missing":
        return KeyError(str(error))
    if error.code == "unavailable":
        return Unavailable(str(error))
    return TableError(error.code, str(error))
