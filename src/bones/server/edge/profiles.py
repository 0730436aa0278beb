"""Players in public: leaderboards per variant and player count, and each account's
profile (ratings, their history for a chart, recent games, statistics).

>>> from fastapi.testclient import TestClient
>>> from bones.server import create_app
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/api/leaderboard", params={"variant": "draw", "players": 2}).json()
...     client.get("/api/profile/Nobody").status_code
[]
404
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel

from bones.server.people.accounts import Accounts
from bones.server.people.ratings import Rating, Ratings, shown
from bones.server.people.stats import stats_from
from bones.server.protocol import GameSummary, Stats
from bones.server.store.records import Store
from bones.server.store.schema import GameRow

__all__ = ["LeaderRow", "Profile", "RatingLine", "profiles_router", "summary"]


class RatingLine(BaseModel):
    """A rating as players read it: ``rating`` (1500 to start), ``provisional`` until
    a few games make it sure; ``mu``, ``sigma`` and ``ordinal`` (mu - 3 sigma, what
    leaderboards sort by) are OpenSkill's own."""

    variant: str
    players: int
    rating: int
    provisional: bool
    mu: float
    sigma: float
    ordinal: float
    games: int


class LeaderRow(RatingLine):
    name: str
    bot: bool


class RatingPoint(BaseModel):
    """A player's rating before and after one rated game."""

    game: str
    variant: str
    players: int
    at: str
    before: int
    rating: int


class Profile(BaseModel):
    name: str
    guest: bool
    bot: bool
    ratings: list[RatingLine]
    history: list[RatingPoint]
    games: list[GameSummary]
    stats: Stats
    playing: list[str] = []
    """The public tables the player sits at now, newest first (to watch; a private
    one is its players' own)."""


def summary(game: GameRow) -> GameSummary:
    """A finished game as history lists show it."""
    return GameSummary(id=game.table_id, variant=game.variant,
                       finished=game.finished.isoformat(), names=game.names,
                       scores=game.scores, winner=game.winner, loser=game.loser,
                       assisted=bool(game.record.get("assists")), rated=game.rating is not None)


def _line(variant: str, players: int, rating: Rating, games: int) -> RatingLine:
    return RatingLine(variant=variant, players=players, rating=shown(rating),
                      provisional=rating.provisional, mu=rating.mu, sigma=rating.sigma,
                      ordinal=rating.ordinal, games=games)


def profiles_router(store: Store, accounts: Accounts) -> APIRouter:
    """The leaderboards and the players' profiles, over the ``store``."""
    router = APIRouter()
    ratings = Ratings(store.engine)

    @router.get("/api/leaderboard")
    def leaderboard(variant: Literal["draw", "block", "kozel", "allfives"],
                    players: int = Query(ge=2, le=4),
                    limit: int = Query(default=50, ge=1, le=200),
                    offset: int = Query(default=0, ge=0, le=100_000)) -> list[LeaderRow]:
        """The rated players of a variant and player count, best first."""
        return [LeaderRow(name=name, bot=bot, **_line(variant, players, rating, games)
                          .model_dump())
                for name, bot, rating, games in ratings.board(variant, players, limit, offset)]

    @router.get("/api/profile/{name}", responses={404: {"description": "No such account"}})
    def profile(name: str) -> Profile:
        """An account's ratings and their history, its last 20 games and statistics."""
        account = accounts.named(name)
        if account is None:
            raise HTTPException(404, f"no player called {name!r}")
        return Profile(
            name=account.name, guest=account.guest, bot=account.bot,
            ratings=[_line(*line) for line in ratings.of(account.id)],
            history=[RatingPoint(game=r.table_id, variant=r.variant, players=r.players,
                                 at=r.at.isoformat(),
                                 before=shown(Rating(r.mu_before, r.sigma_before)),
                                 rating=shown(Rating(r.mu, r.sigma)))
                     for r in ratings.history(account.id)],
            games=[summary(g) for g in store.games(account.name, 20)],
            stats=stats_from(account.name, store.totals(account.name)),
            playing=[table for table, _, public in store.unfinished(account.id) if public])

    return router
