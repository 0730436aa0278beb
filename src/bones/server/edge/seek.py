"""The REST side of quick match: seek, join a friend's pair, where a ticket stands, stop
seeking (``meeting.seeking`` does the matching).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from bones.server.edge.auth import Needed, client_address
from bones.server.meeting.seeking import Seeker
from bones.server.people.accounts import Account
from bones.server.people.players import Player
from bones.server.protocol import BAD_BODY, MatchedMessage, Seek, SeekingMessage

__all__ = ["seek_router"]


def seek_router(seeker: Seeker) -> APIRouter:
    """The REST side of quick match."""
    router = APIRouter()
    missing: dict[int | str, dict[str, Any]] = {
        401: {"description": "Not signed in"},
        404: {"description": "No such ticket waiting, or not yours"}}

    @router.post("/api/seek", status_code=201, responses={
        **BAD_BODY, 401: {"description": "Not signed in (a guest is)"},
        403: {"description": "A rated seek by someone who has not signed up; or a "
              "moderator suspended you from play with people (``code`` ``suspended``)"},
        429: {"description": "The player, or the address, has its allowance of unfinished "
              "tables"}})
    async def seek(body: Seek, request: Request, account: Needed) -> SeekingMessage:
        """Play now: queue for a game with players near your rating (an earlier seek of
        yours is dropped). Watch the ticket on ``/ws/seek/{ticket}`` (or poll
        ``GET /api/seek/{ticket}``) until it says your seat; a ticket nobody watches
        for 15 s is dropped."""
        if body.rated and account.guest:
            raise HTTPException(403, "a rated game is for players who signed up")
        account.check("suspended", "limited")
        return await seeker.seek(body, _player(account), client_address(request))

    @router.post("/api/seek/pair/{code}", responses={
        401: {"description": "Not signed in"}, 403: {"description": "A rated pair and you "
                                                      "have not signed up, or suspended"},
        404: {"description": "No pair waiting with that code"},
        409: {"description": "You made this pair"}})
    async def join_pair(code: str, account: Needed) -> SeekingMessage:
        """Join a friend's Kozel pair by the code they sent you: you queue together."""
        account.check("suspended", "limited")
        try:
            joined = await seeker.join_pair(code, _player(account))
        except ValueError as error:
            raise HTTPException(409, str(error)) from None
        except PermissionError as error:
            raise HTTPException(403, str(error)) from None
        if joined is None:
            raise HTTPException(404, "no pair is waiting with that code")
        return joined

    @router.get("/api/seek/{ticket}", responses=missing)
    async def standing(ticket: str, account: Needed) -> SeekingMessage | MatchedMessage:
        """Where your ticket stands, or your seat once it is seated."""
        told = await seeker.standing(ticket, _player(account))
        if told is None:
            raise HTTPException(404, "no such ticket waiting")
        return told

    @router.delete("/api/seek/{ticket}", status_code=204, responses=missing)
    async def cancel(ticket: str, account: Needed) -> None:
        """Stop seeking (your pair too)."""
        if not await seeker.cancel(ticket, _player(account)):
            raise HTTPException(404, "no such ticket waiting")

    return router


def _player(account: Account) -> Player:
    return Player(account.name, account.id, account.guest)
