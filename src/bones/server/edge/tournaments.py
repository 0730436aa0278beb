"""Tournaments over HTTP: any player who signed up makes one (public, or private behind
its link); everyone lists them, upcoming, running and finished, and reads one with its
entrants, standings, rounds and (a duplicate's) boards, and once a duplicate is over
its every game with the seed and salt its deals came from (``bones verify`` reads it);
players (and programs, with their API tokens) join (in Kozel's pairs naming a partner),
withdraw and find their game being played.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Literal, TypeVar

from fastapi import APIRouter, HTTPException, Query, Response

from bones.server.edge.auth import Needed
from bones.server.edge.profiles import summary
from bones.server.edge.stored import stored
from bones.server.people.accounts import WordInText
from bones.server.people.moderation import Unknown
from bones.server.people.words import Words
from bones.server.protocol import (
    BAD_BODY,
    BoardInfo,
    GameSummary,
    Partnering,
    RoundInfo,
    StandingInfo,
    TournamentInfo,
    Tournamenting,
    TournamentSeat,
)
from bones.server.store.records import Store
from bones.server.tournaments import rounds
from bones.server.tournaments.showing import Showing

__all__ = ["tournaments_router"]

T = TypeVar("T")

ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in"},
    403: {"description": "Not one who may enter (or make) it"},
    404: {"description": "No such tournament"},
    409: {"description": "The tournament is over (or you are not in it)"}}


async def _found(looked: Awaitable[T]) -> T:
    """What the showing answers of a tournament, 404 if there is none."""
    try:
        return await looked
    except Unknown as error:
        raise HTTPException(404, str(error)) from None


def tournaments_router(store: Store, showing: Showing, words: Words) -> APIRouter:
    """The tournaments' routes; standings and rounds from the look ``showing`` keeps;
    a tournament's name without the operator's refused ``words``."""
    router = APIRouter()
    book, games = showing.book, showing.games

    def document(tournament: str) -> dict[str, Any]:
        fair = book.revealed(tournament)
        if fair is None:
            raise HTTPException(409, "a duplicate's deals are revealed once it is over")
        found = []
        for game in games.played(tournament):
            kept = store.game(game.table)
            if kept is not None:
                found.append({"round": game.round, "board": game.board,
                              "table": game.table, "names": kept.names,
                              "scores": kept.scores, "record": kept.record})
        return {"tournament": tournament, "fair": fair, "games": found}

    @router.post("/api/tournaments", status_code=201, responses={**BAD_BODY, **ANSWERS})
    async def make(body: Tournamenting, account: Needed) -> TournamentInfo:
        """Make a tournament (a player who signed up; not a guest, not suspended)."""
        if account.guest:
            raise HTTPException(403, "sign up to make a tournament")
        account.check("suspended")
        if words.in_chat(body.name):
            raise WordInText("the tournament's name holds a word not allowed here")
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

    @router.get("/api/tournaments/{tournament}/standings", responses={404: ANSWERS[404]},
                response_model=list[StandingInfo])
    async def standing(tournament: str, offset: int = Query(default=0, ge=0),
                       limit: int = Query(default=1000, ge=1, le=1000)) -> Response:
        """The standings, best first, those who withdrew too, ``limit`` from ``offset``
        on: an arena's from the games that ended in its time, a Swiss's with its
        tiebreaks, a duplicate's matchpoints. Read from what this process keeps of the
        tournament, at most a second or two old."""
        return Response(await _found(showing.standings_page(tournament, offset, limit)),
                        media_type="application/json")

    @router.get("/api/tournaments/{tournament}/rounds", responses={404: ANSWERS[404]})
    async def drawn(tournament: str) -> list[RoundInfo]:
        """A Swiss's or a duplicate's rounds drawn so far: each table with its games and
        (once over) each side's points, and the bye (an arena has none)."""
        return await _found(showing.rounds(tournament))

    @router.get("/api/tournaments/{tournament}/games", responses={404: ANSWERS[404]})
    async def played(tournament: str, offset: int = Query(default=0, ge=0),
                     limit: int = Query(default=100, ge=1, le=100)) -> list[GameSummary]:
        """The tournament's finished games, the latest first (each one's replay is
        ``/replay/{id}``), ``limit`` from ``offset`` on."""
        await stored(book.get, tournament)
        return [summary(g) for g in await stored(games.finished, tournament, offset, limit)]

    @router.get("/api/tournaments/{tournament}/boards", responses={404: ANSWERS[404]})
    async def boards(tournament: str) -> list[BoardInfo]:
        """A duplicate's boards played so far, each table's result side by side."""
        await stored(book.get, tournament)
        return rounds.board_infos(await stored(book.teams, tournament),
                                  await stored(games.played, tournament))

    @router.get("/api/tournaments/{tournament}/record",
                responses={404: ANSWERS[404], 409: {"description": "Not a duplicate that "
                                                    "is over"}})
    async def record(tournament: str) -> dict[str, Any]:
        """A finished duplicate's every game with its round and board, players, final
        scores and record, and the seed and salt its boards were dealt from (``bones
        verify`` checks it)."""
        return await stored(document, tournament)

    @router.get("/api/tournaments/{tournament}/game",
                responses={**ANSWERS, 404: {"description": "No game of yours being played"}})
    async def game(tournament: str, account: Needed) -> TournamentSeat:
        """Your seat at your game of the tournament being played."""
        found = await stored(games.mine, tournament, account.id)
        if found is None:
            raise HTTPException(404, "no game of yours is being played in this tournament")
        table, seat = found
        return TournamentSeat(table=table, seat=seat)

    @router.post("/api/tournaments/{tournament}/join", status_code=204,
                 responses={**BAD_BODY, **ANSWERS})
    async def join(tournament: str, account: Needed,
                   body: Partnering | None = None) -> None:
        """Enter the tournament (again, after withdrawing); in Kozel played in rounds,
        naming the partner you would play with."""
        account.check("suspended")
        await stored(book.join, tournament, account, None if body is None else body.partner,
                     conflict=409)

    @router.post("/api/tournaments/{tournament}/withdraw", status_code=204,
                 responses=ANSWERS)
    async def withdraw(tournament: str, account: Needed) -> None:
        """Leave the tournament."""
        await stored(book.withdraw, tournament, account.id, conflict=409)

    return router
