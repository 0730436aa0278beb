"""Tournaments over HTTP: any player who signed up makes one (public, or private behind
its link); everyone lists them, upcoming, running and finished, and reads one with its
entrants and (an arena's) standings; players (and programs, with their API tokens) join,
withdraw and find their game being played.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from sqlalchemy.engine import Engine

from bones.server.edge.auth import Needed
from bones.server.edge.stored import stored
from bones.server.protocol import (
    BAD_BODY,
    StandingInfo,
    TournamentInfo,
    Tournamenting,
    TournamentSeat,
)
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import TournamentGames
from bones.server.tournaments.running import ends, shown, sides, standings

__all__ = ["tournaments_router"]

ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in"},
    403: {"description": "Not one who may enter (or make) it"},
    404: {"description": "No such tournament"},
    409: {"description": "The tournament is over (or you are not in it)"}}


def tournaments_router(engine: Engine) -> APIRouter:
    """The tournaments' routes."""
    router = APIRouter()
    book, games = Tournaments(engine), TournamentGames(engine)

    @router.post("/api/tournaments", status_code=201, responses={**BAD_BODY, **ANSWERS})
    async def make(body: Tournamenting, account: Needed) -> TournamentInfo:
        """Make a tournament (a player who signed up; not a guest, not suspended)."""
        if account.guest:
            raise HTTPException(403, "sign up to make a tournament")
        account.check("suspended")
        return await stored(book.get, await stored(book.make, account, body))

    @router.get("/api/tournaments")
    async def listed(state: Literal["upcoming", "running", "finished"] = "upcoming",
                     player: str | None = None) -> list[TournamentInfo]:
        """The public tournaments in ``state``: upcoming soonest first, the others
        latest first; with ``player``, those that player entered (in any state)."""
        if player is not None:
            return await stored(book.entered_by, player)
        return await stored(book.listed, state)

    @router.get("/api/tournaments/{tournament}", responses={404: ANSWERS[404]})
    async def one(tournament: str) -> TournamentInfo:
        """One tournament and its entrants (a private one by its link's id)."""
        return await stored(book.get, tournament)

    @router.get("/api/tournaments/{tournament}/standings", responses={404: ANSWERS[404]})
    async def standing(tournament: str) -> list[StandingInfo]:
        """An arena's standings, best first (the games that ended in its time), those
        who withdrew too."""
        info = await stored(book.get, tournament)
        return shown(standings(await stored(book.entered, tournament, True),
                               await stored(games.played, tournament), ends(info),
                               sides(info)))

    @router.get("/api/tournaments/{tournament}/game",
                responses={**ANSWERS, 404: {"description": "No game of yours being played"}})
    async def game(tournament: str, account: Needed) -> TournamentSeat:
        """Your seat at your game of the tournament being played."""
        found = await stored(games.mine, tournament, account.id)
        if found is None:
            raise HTTPException(404, "no game of yours is being played in this tournament")
        table, seat, token = found
        return TournamentSeat(table=table, seat=seat, token=token)

    @router.post("/api/tournaments/{tournament}/join", status_code=204, responses=ANSWERS)
    async def join(tournament: str, account: Needed) -> None:
        """Enter the tournament (again, after withdrawing)."""
        account.check("suspended")
        await stored(book.join, tournament, account, conflict=409)

    @router.post("/api/tournaments/{tournament}/withdraw", status_code=204,
                 responses=ANSWERS)
    async def withdraw(tournament: str, account: Needed) -> None:
        """Leave the tournament."""
        await stored(book.withdraw, tournament, account.id, conflict=409)

    return router
