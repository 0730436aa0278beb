"""The REST side of the tables: create, list, look up, join and leave a table, and
report a chat line said at one.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool

from bones.server.edge.auth import (
    Caller,
    client_address,
    player_for,
    signed_in,
)
from bones.server.people.accounts import Account, Accounts
from bones.server.protocol import (
    BAD_BODY,
    CreateTable,
    HumanSeat,
    Joined,
    JoinTable,
    LeaveTable,
    TableInfo,
)
from bones.server.tables import showing
from bones.server.tables.hub import Hub
from bones.server.tables.seats import TableError

__all__ = ["SEATING", "tables_router"]

SEATING: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in and no name given, or an API token revoked"},
    403: {"description": "A private table's invite is wrong, a rated table and you have "
          "not signed up; or a moderator suspended you from play with people (``code`` "
          "``suspended``, ``until``)"},
    409: {"description": "The name is an account's (or would pass for one, or for a "
          "guest's, or mixes scripts), or not the signed-in account's"}}


def tables_router(hub: Hub, accounts: Accounts) -> APIRouter:
    """The tables' routes, over ``hub`` and ``accounts``."""
    router = APIRouter()

    @router.post("/api/tables", status_code=201,
              responses={**BAD_BODY, **SEATING, 403: {"description": "A rated table made by "
                                                             "someone who has not signed up"}})
    async def create_table(spec: CreateTable, request: Request,
                           account: Caller) -> Joined | TableInfo:
        """A new table. With the creator's seat (``me``, or a typed ``name``), the answer
        holds that seat's token and the invite link (a private table's holds its
        secret)."""
        mine = next((s for s in spec.seats if isinstance(s, HumanSeat) and s.mine), None)
        if account is not None and sum(isinstance(s, HumanSeat) for s in spec.seats) > 1:
            account.check("suspended")  # bots only
        if account is not None and spec.public:
            account.check("limited")  # a banned account's browser or address: private only
        player = None if mine is None else await run_in_threadpool(
            player_for, accounts, account, mine.name)
        try:
            table, seat, token = await hub.create(spec, client_address(request), player)
        except TableError as error:
            raise HTTPException(403, str(error)) from None
        if seat is None or token is None:
            return showing.info(table)
        return Joined(table=showing.info(table), seat=seat, token=token,
                      invite=showing.invite_link(table))

    @router.get("/api/tables")
    async def list_tables(limit: int = Query(default=50, ge=1, le=200),
                          offset: int = Query(default=0, ge=0, le=10_000)) -> list[TableInfo]:
        """Public tables not yet over, newest first, ``limit`` from ``offset`` on."""
        return await hub.public_tables(limit, offset)

    @router.get("/api/me/games", responses={401: {"description": "Not signed in"}})
    async def my_games(account: Annotated[Account, Depends(signed_in)]) -> list[TableInfo]:
        """Your games in progress, newest first: every table not over where your account
        has a seat (casual, rated, a tournament's, waiting for players or played), each
        with your seat (``yours``) and the seat to move (``turn``); it opens on any
        device signed in to the account."""
        games = []
        for table, seat, _ in await hub.read(hub.store.unfinished, account.id):
            info = await hub.info(table)
            if info is not None and info.status != "over":
                games.append(info.model_copy(update={"yours": seat}))
        return games

    @router.get("/api/tables/{table_id}", responses={404: {"description": "No such table"}})
    async def get_table(table_id: str, account: Caller) -> TableInfo:
        """The table; to a signed-in caller seated there, with their seat (``yours``): it
        opens on any device signed in to that account, without the seat's token."""
        info = await hub.info(table_id)
        if info is None:
            raise HTTPException(404, f"no table {table_id!r}")
        if account is None:
            return info
        return info.model_copy(update={"yours": await hub.read(
            hub.store.seat_of_account, table_id, account.id)})

    @router.post("/api/tables/{table_id}/join",
              responses={**BAD_BODY, 403: {"description": "A private table: the invite's "
                                                  "secret is missing or wrong; a rated one "
                                                  "and you have not signed up; or a player "
                                                  "there blocked you, or you them"},
                         404: {"description": "No such table"},
                         409: {"description": "No free seat, or the name is taken"},
                         **SEATING})
    async def join_table(table_id: str, body: JoinTable, account: Caller) -> Joined:
        """Take a free human seat as your account, or by a typed display name (a private
        table's with its invite secret); keep the token to reconnect."""
        if account is not None:
            account.check("suspended")
            if body.invite is None:  # a public table (a private one is joined by invite)
                account.check("limited")
        player = await run_in_threadpool(player_for, accounts, account, body.name)
        try:
            return await hub.join(table_id, player, body.seat, body.invite)
        except KeyError:
            raise HTTPException(404, f"no table {table_id!r}") from None
        except TableError as error:
            raise HTTPException(403 if error.code in ("private", "rated", "blocked") else 409,
                                str(error)) from None
        except ValueError as error:
            raise HTTPException(409, str(error)) from None

    @router.post("/api/tables/{table_id}/leave", status_code=204,
              responses={**BAD_BODY, 404: {"description": "No such table"},
                         409: {"description": "The token opens no seat, or the game has "
                                            "begun"}})
    async def leave_table(table_id: str, body: LeaveTable) -> None:
        """Stand up from a table whose game has not begun (its seat's token): the seat
        is free for someone else."""
        try:
            await hub.leave(table_id, body.token)
        except KeyError:
            raise HTTPException(404, f"no table {table_id!r}") from None
        except TableError as error:
            raise HTTPException(409, str(error)) from None

    return router
