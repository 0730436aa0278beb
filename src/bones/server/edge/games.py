"""The REST side of games: the variants and their rules, finished games and their
records, analyses of a game or of an uploaded record, and a name's statistics.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool

from bones import bots
from bones.match import Match
from bones.record import RecordError
from bones.rules import PLAYERS, Rules
from bones.server.edge.auth import (
    Caller,
    client_address,
)
from bones.server.edge.profiles import summary
from bones.server.people.accounts import Account
from bones.server.people.ratings import shown
from bones.server.people.stats import stats_from
from bones.server.protocol import (
    BAD_BODY,
    GameRatings,
    GameSummary,
    RatingChange,
    Stats,
)
from bones.server.store.schema import GameRow
from bones.server.tables.hub import Hub
from bones.server.thinking.jobs import Analyses, Gone

__all__ = ["MOST_MOVES", "games_router"]

MOST_MOVES = 1000
"""The longest record the server grades (a long Kozel match has about 600 moves)."""
PRIVATE: dict[int | str, dict[str, Any]] = {
    403: {"description": "A private table's game, asked without its player's account, seat "
                         "or invite"},
    404: {"description": "No such game"}}
Invite = Annotated[str | None, Header(alias="bones-invite", description=(
    "a private table's invite secret (its link's fragment): reads its game as watching "
    "it does"))]
SeatToken = Annotated[str | None, Header(alias="bones-seat", description=(
    "a seat's token at the game's table: its player reads a private table's game"))]


def games_router(hub: Hub, analyses: Analyses) -> APIRouter:
    """The games' routes, over ``hub``'s store and the ``analyses`` pool."""
    router = APIRouter()

    @router.get("/api/variants")
    def variants() -> dict[str, dict[str, Any]]:
        """Each variant's player counts, default rules and the bot levels."""
        return {v: {"players": list(players), "rules": Rules.preset(v).to_dict(),
                    "levels": list(bots.LEVELS)} for v, players in PLAYERS.items()}

    @router.get("/api/games")
    async def games(account: Caller, name: str | None = Query(default=None, max_length=64),
                    limit: int = Query(default=50, ge=1, le=200),
                    offset: int = Query(default=0, ge=0, le=100_000),
                    before: str | None = Query(default=None, max_length=32, description=(
                        "the last game's id of the page before: the next page, as quick "
                        "however deep"))) -> list[GameSummary]:
        """Finished games of public tables, newest first, ``limit`` from ``offset`` on
        (or after the game ``before``); with ``name``, the games that name played (in any
        case): their private tables' games too when it is their own list."""
        found = await run_in_threadpool(hub.store.games, name, limit, offset, before=before,
                                        viewer=account.id if account else None)
        return [summary(g) for g in found]

    def readable(table_id: str, account: Account | None, invite: str | None,
                 seat: str | None) -> GameRow:
        """The finished game, if whoever asks may read it (a private table's: its players
        and those with its invite's secret, as watching it)."""
        game = hub.store.game(table_id)
        if game is None:
            raise HTTPException(404, f"no finished game {table_id!r}")
        if not hub.store.may_read(game, None if account is None else account.id, invite, seat):
            raise HTTPException(403, "this game was private: its players and those with its "
                                "invite link read it")
        return game

    @router.get("/api/games/{table_id}/record", responses=PRIVATE)
    def record(table_id: str, account: Caller, invite: Invite = None,
               seat: SeatToken = None) -> dict[str, Any]:
        """The engine's record of a finished game (``bones replay`` reads it)."""
        return readable(table_id, account, invite, seat).record

    @router.get("/api/games/{table_id}/ratings",
                responses={404: {"description": "No such game"}})
    def ratings(table_id: str) -> GameRatings:
        """What a finished game did to its players' ratings (the match-over dialog shows
        it): each seat's rating before and after, or why a rated game rated nobody."""
        game = hub.store.game(table_id)
        if game is None:
            raise HTTPException(404, f"no finished game {table_id!r}")
        kept = game.rating
        moved = {account: (before, after) for account, before, after
                 in hub.ratings.of_game(table_id)}
        seats = [(n, name, None if account is None else moved.get(account))
                 for n, (name, account)
                 in enumerate(zip(game.names, game.accounts or [None] * len(game.names),
                                  strict=True))]
        return GameRatings(
            rated=kept is not None, unrated=(kept or {}).get("unrated"),
            changes=[RatingChange(seat=n, name=name, before=shown(was[0]), after=shown(was[1]),
                                  provisional=was[1].provisional)
                     for n, name, was in seats if was is not None])

    @router.get("/api/games/{table_id}/analysis", responses=PRIVATE)
    async def analysis(table_id: str, request: Request, account: Caller,
                       graded: bool = Query(default=True, description=(
                           "false: every position at once, without the grades (which "
                           "take a worker seconds); the replay viewer shows those first")),
                       invite: Invite = None, seat: SeatToken = None) -> dict[str, Any]:
        """Every position of a finished game with every hand, and every choice graded
        from the chooser's own view (expected points of the move and of the best)."""
        game = await run_in_threadpool(readable, table_id, account, invite, seat)
        key = f"game:{table_id}"
        kept = analyses.kept(key, graded)
        if kept is not None:
            return kept
        return await _analyze(analyses, request, key, game.record, game.names, graded)

    @router.post("/api/analysis", responses=BAD_BODY)
    async def analyze_upload(record: dict[str, Any], request: Request) -> dict[str, Any]:
        """The same for a record file of your own (graded: any record can be sent, so
        every answer is a job in the bounded queue)."""
        digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
        key = f"upload:{digest}"
        return analyses.kept(key) or await _analyze(analyses, request, key, record, None)

    @router.get("/api/stats/{name}")
    def stats(name: str) -> Stats:
        """A name's games, wins and losses, per variant too (games with hints or undo
        are not counted)."""
        return stats_from(name, hub.store.totals(name))

    return router


async def _analyze(analyses: Analyses, request: Request, key: str, record: dict[str, Any],
                   names: list[str | None] | None, graded: bool = True) -> dict[str, Any]:
    moves = record.get("moves")
    if isinstance(moves, list) and len(moves) > MOST_MOVES:
        raise HTTPException(400, f"a record of more than {MOST_MOVES} moves is not analysed here")
    try:
        match = Match.from_record(record)
    except RecordError as error:
        raise HTTPException(400, f"not a game record: {error}") from None
    if not match.results and match.forfeit is None:
        raise HTTPException(400, "the record has no finished round to look back on")
    about = {"rules": match.rules.to_dict(), "names": names, "fair": record.get("fair"),
             "assists": record.get("assists", []), "winner": match.winner,
             "loser": match.loser, "scores": list(match.scores), "graded": graded,
             "forfeit": match.forfeit.to_dict() if match.forfeit else None}
    if not graded:
        return await analyses.positions(key, match, about)
    try:
        return await analyses.report(key, record, len(match.rounds), client_address(request),
                                     request.is_disconnected, about)
    except Gone:
        raise HTTPException(499, "the client left before the analysis was done") from None
