"""The FastAPI app: REST for tables, history, records and stats; a WebSocket per seat;
the web client's files.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/api/variants").json()["kozel"]["players"]
[4]
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from bones import bots
from bones.analysis import analyze
from bones.match import Match
from bones.record import RecordError
from bones.rules import PLAYERS, Rules
from bones.server.hub import Hub, Settings
from bones.server.protocol import (
    CreateTable,
    GameSummary,
    Joined,
    JoinTable,
    Stats,
    TableInfo,
)
from bones.server.stats import stats_of
from bones.server.store import Store
from bones.server.table import Table

__all__ = ["DEFAULT_DB", "create_app"]

DEFAULT_DB = "sqlite:///bones.db"
BAD_BODY: dict[int | str, dict[str, Any]] = {
    400: {"description": "The body is not JSON (or, for analysis, not a game record)"}}
MOST_MOVES = 3000
WEB = Path(str(resources.files("bones") / "web"))


def create_app(db: str = DEFAULT_DB, settings: Settings | None = None) -> FastAPI:
    """The bones server over the store at ``db`` (any SQLAlchemy URL)."""
    hub = Hub(Store(db), settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.load()
        yield
        await hub.close()

    app = FastAPI(title="bones", version="1", lifespan=lifespan,
                  description="Dominoes tables: create, join, watch and play over WebSockets. "
                  "The WebSocket protocol is in docs/protocol.md.")
    app.state.hub = hub

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = dict(error.headers or {})
        if error.status_code == 405:  # Starlette names only the first route's methods
            headers["Allow"] = ", ".join(sorted(_methods(app, request)))
        return JSONResponse({"detail": error.detail}, status_code=error.status_code,
                            headers=headers)

    _routes(app, hub)
    _pages(app)
    return app


def _methods(app: FastAPI, request: Request) -> set[str]:
    """Every method some route takes at the request's path."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, APIRoute) and route.path_regex.match(request.url.path):
            methods |= route.methods or set()
    return methods


def _routes(app: FastAPI, hub: Hub) -> None:
    @app.get("/api/variants")
    def variants() -> dict[str, dict[str, Any]]:
        """Each variant's player counts, default rules and the bot levels."""
        return {v: {"players": list(players), "rules": Rules.preset(v).to_dict(),
                    "levels": list(bots.LEVELS)} for v, players in PLAYERS.items()}

    @app.post("/api/tables", status_code=201, responses=BAD_BODY)
    async def create_table(spec: CreateTable) -> Joined | TableInfo:
        """A new table. With a named human seat, the answer holds that seat's token."""
        table, seat, token = await hub.create(spec)
        if seat is None or token is None:
            return table.info()
        return Joined(table=table.info(), seat=seat, token=token, invite=f"/t/{table.id}")

    @app.get("/api/tables")
    def list_tables() -> list[TableInfo]:
        """Tables not yet over, newest first."""
        live = [t.table for t in hub.tables.values() if t.table.status != "over"]
        return [t.info() for t in sorted(live, key=lambda t: t.created, reverse=True)]

    @app.get("/api/tables/{table_id}", responses={404: {"description": "No such table"}})
    def get_table(table_id: str) -> TableInfo:
        return _table(hub, table_id).info()

    @app.post("/api/tables/{table_id}/join",
              responses={**BAD_BODY, 404: {"description": "No such table"},
                         409: {"description": "No free seat"}})
    async def join_table(table_id: str, body: JoinTable) -> Joined:
        """Take a free human seat by display name; keep the token to reconnect."""
        _table(hub, table_id)
        try:
            table, seat, token = await hub.join(table_id, body.name, body.seat)
        except ValueError as error:
            raise HTTPException(409, str(error)) from None
        return Joined(table=table.info(), seat=seat, token=token, invite=f"/t/{table_id}")

    @app.get("/api/games")
    def games(name: str | None = Query(default=None, max_length=64),
              limit: int = Query(default=50, ge=1, le=500)) -> list[GameSummary]:
        """Finished games, newest first; with ``name``, the games that name played."""
        return [GameSummary(id=g.table_id, variant=g.variant, finished=g.finished.isoformat(),
                            names=g.names, scores=g.scores, winner=g.winner, loser=g.loser)
                for g in hub.store.games(name, limit)]

    @app.get("/api/games/{table_id}/record", responses={404: {"description": "No such game"}})
    def record(table_id: str) -> dict[str, Any]:
        """The engine's record of a finished game (``bones replay`` reads it)."""
        game = hub.store.game(table_id)
        if game is None:
            raise HTTPException(404, f"no finished game {table_id!r}")
        return game.record

    cache: dict[str, dict[str, Any]] = {}

    @app.get("/api/games/{table_id}/analysis",
             responses={404: {"description": "No such game"}})
    async def analysis(table_id: str) -> dict[str, Any]:
        """Every position of a finished game with every hand, and every choice graded
        from the chooser's own view (expected points of the move and of the best)."""
        if table_id not in cache:
            game = hub.store.game(table_id)
            if game is None:
                raise HTTPException(404, f"no finished game {table_id!r}")
            while len(cache) >= 200:  # the oldest analyses make room
                cache.pop(next(iter(cache)))
            cache[table_id] = {**await _analyze(game.record), "names": game.names}
        return cache[table_id]

    @app.post("/api/analysis", responses=BAD_BODY)
    async def analyze_upload(record: dict[str, Any]) -> dict[str, Any]:
        """The same for a record file of your own."""
        return await _analyze(record)

    @app.get("/api/stats/{name}")
    def stats(name: str) -> Stats:
        """A display name's games, wins and losses, per variant too."""
        return stats_of(name, hub.store.games(name, limit=10**9))

    @app.get("/api/metrics")
    def metrics(since: int = Query(default=0, ge=0)) -> dict[str, Any]:
        """Human moves handled, and the latency from a human's move to its broadcast
        over the moves after the first ``since``."""
        return hub.figures(since)

    @app.websocket("/ws/{table_id}")
    async def seat_socket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        await hub.connect(ws, table_id, token)


async def _analyze(record: dict[str, Any]) -> dict[str, Any]:
    moves = record.get("moves")
    if isinstance(moves, list) and len(moves) > MOST_MOVES:
        raise HTTPException(400, f"a record of more than {MOST_MOVES} moves is not analysed here")
    try:
        match = Match.from_record(record)
    except RecordError as error:
        raise HTTPException(400, f"not a game record: {error}") from None
    if not match.results:
        raise HTTPException(400, "the record has no finished round to look back on")
    report = await asyncio.to_thread(analyze, match)
    return {**report.to_dict(), "rules": match.rules.to_dict(), "names": None,
            "fair": record.get("fair"), "assists": record.get("assists", []),
            "winner": match.winner, "loser": match.loser, "scores": list(match.scores)}


def _table(hub: Hub, table_id: str) -> Table:
    live = hub.tables.get(table_id)
    if live is None:
        raise HTTPException(404, f"no open table {table_id!r}")
    return live.table


def _pages(app: FastAPI) -> None:
    if not (WEB / "index.html").is_file():
        return
    index = WEB / "index.html"

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/stats/{name}", include_in_schema=False)
    @app.get("/replay/{table_id}", include_in_schema=False)
    def page() -> FileResponse:
        """The app's own pages: the client reads the path."""
        return FileResponse(index)

    app.mount("/static", StaticFiles(directory=WEB), name="static")
