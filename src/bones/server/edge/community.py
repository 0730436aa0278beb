"""Players among others over HTTP: they follow and block others, download what bones
holds about them or close their account; they report chat lines, players, names and
games and follow their reports; moderators (a role the operator grants, ``bones admin
grant NAME moderator``) read the open reports and a player's games, chat and past
sanctions, act, and read the audit log. Every route checks the session (the Guard checks
the Origin of every request that changes something); a moderator's routes answer 403 to
everyone else.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Response
from fastapi.concurrency import run_in_threadpool

from bones.server.edge.auth import COOKIE, InSession, Needed
from bones.server.edge.stored import stored
from bones.server.meeting.notices import Notices
from bones.server.meeting.presence import Presence
from bones.server.people.accounts import Account, Accounts, Refused
from bones.server.people.directory import search
from bones.server.people.moderation import Moderation
from bones.server.people.own import Own
from bones.server.people.relations import Blocks, Follows
from bones.server.protocol import (
    BAD_BODY,
    AccountExport,
    ActionInfo,
    Blocking,
    ChatReport,
    Closing,
    DossierInfo,
    FoundInfo,
    Friend,
    Lifting,
    Reason,
    ReportInfo,
    Reporting,
    SanctionInfo,
    Sanctioning,
)

__all__ = ["community_router"]

MODERATOR = "moderator"
NOT_A_MODERATOR: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in"},
    403: {"description": "Not a moderator, or asked with an API token; or a moderator "
                         "acting on a moderator or lifting the operator's sanction"}}
UNKNOWN: dict[int | str, dict[str, Any]] = {404: {"description": "No such player, report "
                                                                 "or chat line"}}


async def moderator(account: InSession) -> Account:
    """A moderator signed in by a session: an API token never carries a moderator's
    powers (a token leaked to a program cannot ban anyone)."""
    if MODERATOR not in account.roles:
        raise HTTPException(403, "for moderators only")
    return account


Moderator = Annotated[Account, Depends(moderator)]


def community_router(moderation: Moderation, presence: Presence, accounts: Accounts,
                      blocks: Blocks, notices: Notices) -> APIRouter:
    """The routes of blocks and reports (any signed-in player), of moderators, and of
    an account's own data; a sanction is told to its player (``notices``)."""
    own = Own(moderation.engine, moderation.kept_days)
    follows = Follows(moderation.engine)
    router = APIRouter()

    @router.post("/api/reports", status_code=201,
                 responses={**BAD_BODY, 401: {"description": "Not signed in"}, **UNKNOWN})
    async def report(body: Reporting, account: Needed) -> dict[str, int]:
        """Report a chat line, a player, a name or a game to the moderators."""
        if body.kind == "chat" and body.message is None:
            raise HTTPException(422, "a chat line's report names its message")
        if body.kind != "chat" and body.name is None:
            raise HTTPException(422, "a report of a player, a name or a game names the player")
        made = await stored(moderation.report, account.id, body.kind, body.reason, body.note,
                          message=body.message, name=body.name, table=body.table)
        return {"id": made}

    @router.post("/api/chat/{message_id}/report", status_code=204,
                 responses={**BAD_BODY, 401: {"description": "Not signed in"},
                            404: {"description": "No such chat line"}})
    async def report_line(message_id: int, body: ChatReport, account: Needed) -> None:
        """Report a chat line to the moderators (the same as ``POST /api/reports`` with
        ``kind`` ``chat``)."""
        await stored(moderation.report, account.id, "chat", body.reason, message=message_id)

    @router.get("/api/reports", responses={401: {"description": "Not signed in"}})
    async def my_reports(account: Needed) -> list[ReportInfo]:
        """The reports I made, newest first, with what moderators did."""
        return await stored(moderation.reports, open_only=False, reporter=account.id)

    @router.get("/api/blocks", responses={401: {"description": "Not signed in"}})
    async def blocked(account: Needed) -> list[str]:
        """The players I blocked, in the order I blocked them."""
        return await stored(blocks.listed, account.id)

    @router.post("/api/blocks", status_code=204, responses={
        **BAD_BODY, 401: {"description": "Not signed in"}, 404: {"description": "No such "
                                                                  "player"}})
    async def block(body: Blocking, account: Needed) -> None:
        """Block a player: their chat no longer reaches me, at tables and in the lobby,
        and quick match never seats us together."""
        await stored(blocks.add, account.id, body.name)

    @router.delete("/api/blocks/{name}", status_code=204, responses={
        401: {"description": "Not signed in"}, 404: {"description": "No such player"}})
    async def unblock(name: str, account: Needed) -> None:
        """Undo a block."""
        await stored(blocks.remove, account.id, name)

    @router.get("/api/follows", responses={401: {"description": "Not signed in"}})
    async def followed(account: Needed) -> list[Friend]:
        """The players I follow: online or not, and what they play (a public game's
        table, to watch), at whichever process they are; those online first."""
        here = {s.name: s for s in presence.everyone}
        friends = [Friend(name=n, online=False) if (s := here.get(n)) is None else Friend(
            name=n, online=True, playing=s.playing, table=s.table, variant=s.variant,
            players=s.players) for n in await stored(follows.listed, account.id)]
        return sorted(friends, key=lambda f: (not f.online, not f.playing))

    @router.post("/api/follows", status_code=204, responses={
        **BAD_BODY, 401: {"description": "Not signed in"},
        403: {"description": "That player blocked you"}, 404: {"description": "No such player"}})
    async def follow(body: Blocking, account: Needed) -> None:
        """Follow a player."""
        await stored(follows.add, account.id, body.name)

    @router.delete("/api/follows/{name}", status_code=204, responses={
        401: {"description": "Not signed in"}, 404: {"description": "No such player"}})
    async def unfollow(name: str, account: Needed) -> None:
        await stored(follows.remove, account.id, name)

    @router.get("/api/me/export", responses={401: {"description": "Not signed in"},
                                             403: {"description": "Asked with an API token"}})
    async def export(account: InSession) -> AccountExport:
        """Everything bones holds about me, as JSON (its schema:
        ``docs/export.schema.json``)."""
        return await stored(own.export, account.id)

    @router.post("/api/me/close", status_code=204, responses={
        **BAD_BODY, 401: {"description": "Not signed in, or the password is wrong"},
        403: {"description": "Asked with an API token"},
        409: {"description": "A seat at a table still being played"}})
    async def close(body: Closing, account: InSession, response: Response) -> None:
        """Close my account for good: my name, password, sessions, tokens, ratings and
        chat lines are erased; my games stay for the others, under "deleted player".
        My open sockets close."""
        try:
            await run_in_threadpool(accounts.confirm, account.id, body.password)
        except Refused as error:
            raise HTTPException(401, str(error)) from None
        try:
            await run_in_threadpool(own.close, account.id)
        except ValueError as error:
            raise HTTPException(409, str(error)) from None
        await presence.expel(account.id)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")

    @router.get("/api/mod/reports", responses=NOT_A_MODERATOR)
    async def open_reports(_: Moderator, everything: bool = Query(default=False, alias="all"),
                           limit: int = Query(default=100, ge=1, le=500)) -> list[ReportInfo]:
        """The open reports (``all``: the resolved ones too), newest first."""
        return await stored(moderation.reports, open_only=not everything, limit=limit)

    @router.post("/api/mod/reports/{report_id}/resolve", status_code=204,
                 responses={**BAD_BODY, **NOT_A_MODERATOR, **UNKNOWN})
    async def resolve(report_id: int, body: Reason, me: Moderator) -> None:
        """Close a report, saying what was done: its reporter sees it."""
        await stored(moderation.resolve, me.name, report_id, body.reason)

    @router.get("/api/mod/players", responses=NOT_A_MODERATOR)
    async def find(_: Moderator, q: str = Query(default="", max_length=254),
                   limit: int = Query(default=50, ge=1, le=200)) -> list[FoundInfo]:
        """The accounts whose name holds ``q`` (any case), or that gave the whole address
        ``q``, members first by name, then guests: when each signed up and was last
        seen, its games, what holds it now (never the address itself)."""
        return [FoundInfo(name=f.name, guest=f.guest, created=f.created.isoformat(),
                          seen=None if f.seen is None else f.seen.isoformat(), games=f.games,
                          sanctions=f.sanctions)
                for f in await stored(search, moderation.engine, q, limit, True)]

    @router.get("/api/mod/players/{name}", responses={**NOT_A_MODERATOR, **UNKNOWN})
    async def dossier(name: str, _: Moderator) -> DossierInfo:
        """A player's latest games and chat lines, sanctions, the reports about them, the
        audit log of them, and where they are signed in (browser, address, last seen)."""
        return await stored(moderation.dossier, name)

    async def not_a_moderator(name: str) -> int:
        """The account of that name, if a moderator may act on it."""
        account, roles = await stored(moderation.account, name)
        if MODERATOR in roles:
            raise HTTPException(403, "a moderator is sanctioned by the operator only")
        return int(account)

    @router.post("/api/mod/players/{name}/sanctions", status_code=201,
                 responses={**BAD_BODY, **NOT_A_MODERATOR, **UNKNOWN})
    async def sanction(name: str, body: Sanctioning, me: Moderator) -> SanctionInfo:
        """Warn, mute, suspend or ban a player, for ``minutes`` or for good: told at once
        to every open page of theirs, and kept in their notifications. A ban signs them
        out everywhere and closes their open sockets at every process at once."""
        account = await not_a_moderator(name)
        done = await stored(moderation.sanction, me.name, name, body.kind, body.reason,
                          body.minutes)
        await notices.tell(account, "sanction", spec=done.model_dump())
        if body.kind == "ban":
            await presence.expel(account)
        return done

    @router.post("/api/mod/players/{name}/lift",
                 responses={**BAD_BODY, **NOT_A_MODERATOR, **UNKNOWN})
    async def lift(name: str, body: Lifting, me: Moderator) -> dict[str, int]:
        """End a player's mute, suspension or ban now (not one the operator gave)."""
        await not_a_moderator(name)
        return {"lifted": await stored(moderation.lift, me.name, name, body.kind, body.reason)}

    @router.post("/api/mod/players/{name}/rename",
                 responses={**BAD_BODY, **NOT_A_MODERATOR, **UNKNOWN})
    async def rename(name: str, body: Reason, me: Moderator) -> dict[str, str]:
        """Force a new name on a player whose name offends: shown at once at the tables
        where they sit, at every process."""
        account = await not_a_moderator(name)
        new = await stored(moderation.rename, me.name, name, body.reason)
        await presence.rename(account, new)
        return {"name": new}

    @router.post("/api/mod/chat/{message_id}/delete", status_code=204,
                 responses={**BAD_BODY, **NOT_A_MODERATOR, **UNKNOWN})
    async def delete_line(message_id: int, body: Reason, me: Moderator) -> None:
        """Delete a chat line: nobody is shown it again."""
        await stored(moderation.remove_line, me.name, message_id, body.reason)

    @router.get("/api/mod/audit", responses=NOT_A_MODERATOR)
    async def audit(_: Moderator, limit: int = Query(default=100, ge=1, le=500)
                    ) -> list[ActionInfo]:
        """Every moderator's action, newest first."""
        return await stored(moderation.audit, limit)

    return router
