"""The FastAPI app: REST for tables, history, records and stats; a WebSocket per seat;
the web client's files.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/api/variants").json()["kozel"]["players"]
[4]
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import mimetypes
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import redis
from fastapi import Depends, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from bones import bots
from bones.match import Match
from bones.record import RecordError
from bones.rules import PLAYERS, Rules
from bones.server.edge.apidocs import docs_routes
from bones.server.edge.auth import (
    Caller,
    Needed,
    account_routes,
    client_address,
    operator_only,
    player_for,
    viewer,
)
from bones.server.edge.guard import Guard
from bones.server.edge.profiles import profile_routes, summary
from bones.server.edge.seek import seek_routes
from bones.server.meeting.lobby import Lobby
from bones.server.meeting.seeking import Seeker
from bones.server.metrics import CONTENT_TYPE
from bones.server.people.accounts import Accounts, forget_guests
from bones.server.people.hashing import Crowded
from bones.server.people.ratings import Ratings
from bones.server.people.stats import stats_from
from bones.server.protocol import (
    BAD_BODY,
    ChatReport,
    CreateTable,
    GameSummary,
    HumanSeat,
    Joined,
    JoinTable,
    LeaveTable,
    Stats,
    TableInfo,
)
from bones.server.store.records import Store
from bones.server.tables.hub import Hub, Limited, Settings, Unavailable
from bones.server.tables.table import TableError, invite_link
from bones.server.thinking.jobs import Analyses, Busy, Gone

__all__ = ["DEFAULT_DB", "create_app"]

DEFAULT_DB = "sqlite:///bones.db"
LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"description": "Too many requests from this address, or a limit of the server's "
          "reached: the detail says which"},
    503: {"description": "The store cannot be written just now, or the analysis queue is "
          "full: try again (see Retry-After)"}}
SEATING: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in and no name given, or an API token revoked"},
    409: {"description": "The name is an account's (or would pass for one, or for a "
          "guest's, or mixes scripts), or not the signed-in account's"}}
STORE_AWAY = "the store cannot be reached just now; try again in a moment"
MOST_MOVES = 1000
"""The longest record the server grades (a long Kozel match has about 600 moves)."""
WEB = Path(str(resources.files("bones") / "web"))
log = logging.getLogger("bones.server")
mimetypes.add_type("application/manifest+json", ".webmanifest")


def create_app(db: str = DEFAULT_DB, settings: Settings | None = None) -> FastAPI:
    """The bones server over the store at ``db`` (any SQLAlchemy URL)."""
    hub = Hub(Store(db), settings)
    analyses = Analyses()
    ratings = Ratings(hub.store.engine)
    lobby = Lobby(hub.public_tables, ratings, hub.chat, hub.allowance, hub.settings.redis)
    hub.on_listing = lobby.changed
    seeker = Seeker(hub, ratings, hub.settings.redis)
    accounts = Accounts(hub.store.engine)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.load()
        lobby.start()
        await seeker.start()
        forgetting = asyncio.create_task(forget_guests(accounts))
        yield
        forgetting.cancel()
        await seeker.close()
        lobby.close()
        await hub.close()
        analyses.close()

    app = FastAPI(title="bones", version="1", lifespan=lifespan, responses=LIMITED,
                  docs_url=None, redoc_url=None,  # served by apidocs, without a CDN
                  description="Dominoes tables: create, join, watch and play over WebSockets. "
                  "The WebSocket protocol is in docs/protocol.md.")
    app.state.hub = hub
    app.add_middleware(Guard, origins=hub.settings.origins, redis=hub.settings.redis,
                       rate=hub.settings.rest_rate)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = dict(error.headers or {})
        if error.status_code == 405:  # Starlette names only the first route's methods
            headers["Allow"] = ", ".join(sorted(_methods(app, request)))
        return JSONResponse({"detail": error.detail}, status_code=error.status_code,
                            headers=headers)

    # The store away (a lost connection, a locked file, a pool waited on too long): 503.
    for refusal, status, retry in ((Unavailable, 503, "2"), (OperationalError, 503, "2"),
                                   (InterfaceError, 503, "2"), (PoolTimeout, 503, "2"),
                                   (Busy, 503, "30"), (Crowded, 503, "5"),
                                   (Limited, 429, None)):
        app.add_exception_handler(refusal, partial(_refused, status, retry))

    @app.websocket("/ws/lobby")
    async def lobby_socket(ws: WebSocket) -> None:
        """The lobby's list of public tables, pushed at once and on every change."""
        await _served(ws, lobby.serve(ws, client_address(ws), await viewer(ws)))

    @app.websocket("/ws/seek/{ticket}")
    async def seek_socket(ws: WebSocket, ticket: str) -> None:
        """A quick-match ticket: where it stands every second, then your seat."""
        await _served(ws, seeker.serve(ws, ticket, client_address(ws), await viewer(ws)))

    _routes(app, hub, analyses, accounts)
    seek_routes(app, seeker)
    docs_routes(app)
    _pages(app)
    return app


async def _served(ws: WebSocket, serving: Awaitable[None]) -> None:
    """Serve a socket; if what it needs is away (Redis, the store), close it with 1013
    ("try again later"), which a client answers by coming back, not with a broken
    connection and a traceback."""
    try:
        await serving
    except (redis.RedisError, OperationalError, InterfaceError, PoolTimeout) as error:
        log.warning("a socket was turned away: %s", error)
        with contextlib.suppress(Exception):
            if ws.client_state == WebSocketState.CONNECTING:
                await ws.accept()
            await ws.close(1013, "the server cannot reach its store just now: come back")


def _methods(app: FastAPI, request: Request) -> set[str]:
    """Every method some route takes at the request's path."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, APIRoute) and route.path_regex.match(request.url.path):
            methods |= route.methods or set()
    return methods


async def _refused(status: int, retry: str | None, _request: Request,
                   error: Exception) -> JSONResponse:
    """A request the server turns down for now: the store is away, the queue full, or
    a limit reached; ``retry``: the seconds to wait, where waiting helps. The store's
    own errors are not told (they name its hosts and queries)."""
    detail = (STORE_AWAY if isinstance(error, OperationalError | InterfaceError | PoolTimeout)
              else str(error))
    return JSONResponse({"detail": detail}, status_code=status,
                        headers={"Retry-After": retry} if retry else None)


def _routes(app: FastAPI, hub: Hub, analyses: Analyses, accounts: Accounts) -> None:
    @app.get("/api/variants")
    def variants() -> dict[str, dict[str, Any]]:
        """Each variant's player counts, default rules and the bot levels."""
        return {v: {"players": list(players), "rules": Rules.preset(v).to_dict(),
                    "levels": list(bots.LEVELS)} for v, players in PLAYERS.items()}

    account_routes(app, accounts, hub.settings)
    profile_routes(app, hub.store, accounts)

    @app.post("/api/tables", status_code=201,
              responses={**BAD_BODY, **SEATING, 403: {"description": "A rated table made by "
                                                             "someone who has not signed up"}})
    async def create_table(spec: CreateTable, request: Request,
                           account: Caller) -> Joined | TableInfo:
        """A new table. With the creator's seat (``me``, or a typed ``name``), the answer
        holds that seat's token and the invite link (a private table's holds its
        secret)."""
        mine = next((s for s in spec.seats if isinstance(s, HumanSeat) and s.mine), None)
        player = None if mine is None else await run_in_threadpool(
            player_for, accounts, account, mine.name)
        try:
            table, seat, token = await hub.create(spec, client_address(request), player)
        except TableError as error:
            raise HTTPException(403, str(error)) from None
        if seat is None or token is None:
            return table.info()
        return Joined(table=table.info(), seat=seat, token=token, invite=invite_link(table))

    @app.get("/api/tables")
    async def list_tables(limit: int = Query(default=50, ge=1, le=200),
                          offset: int = Query(default=0, ge=0, le=10_000)) -> list[TableInfo]:
        """Public tables not yet over, newest first, ``limit`` from ``offset`` on."""
        return await hub.public_tables(limit, offset)

    @app.get("/api/tables/{table_id}", responses={404: {"description": "No such table"}})
    async def get_table(table_id: str) -> TableInfo:
        info = await hub.info(table_id)
        if info is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return info

    @app.post("/api/tables/{table_id}/join",
              responses={**BAD_BODY, 403: {"description": "A private table: the invite's "
                                                  "secret is missing or wrong; or a rated one "
                                                  "and you have not signed up"},
                         404: {"description": "No such table"},
                         409: {"description": "No free seat, or the name is taken"},
                         **SEATING})
    async def join_table(table_id: str, body: JoinTable, account: Caller) -> Joined:
        """Take a free human seat as your account, or by a typed display name (a private
        table's with its invite secret); keep the token to reconnect."""
        player = await run_in_threadpool(player_for, accounts, account, body.name)
        try:
            return await hub.join(table_id, player, body.seat, body.invite)
        except KeyError:
            raise HTTPException(404, f"no table {table_id!r}") from None
        except TableError as error:
            raise HTTPException(403 if error.code in ("private", "rated") else 409,
                                str(error)) from None
        except ValueError as error:
            raise HTTPException(409, str(error)) from None

    @app.post("/api/chat/{message_id}/report", status_code=204,
              responses={**BAD_BODY, 401: {"description": "Not signed in"},
                         404: {"description": "No such chat line"}})
    def report(message_id: int, body: ChatReport, account: Needed) -> None:
        """Report a chat line to the moderators (``bones reports`` lists them)."""
        if not hub.chat.report(message_id, account.id, body.reason):
            raise HTTPException(404, f"no chat line {message_id}")

    @app.post("/api/tables/{table_id}/leave", status_code=204,
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

    @app.get("/api/games")
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

    @app.get("/api/games/{table_id}/record", responses={404: {"description": "No such game"}})
    def record(table_id: str) -> dict[str, Any]:
        """The engine's record of a finished game (``bones replay`` reads it)."""
        game = hub.store.game(table_id)
        if game is None:
            raise HTTPException(404, f"no finished game {table_id!r}")
        return game.record

    @app.get("/api/games/{table_id}/analysis",
             responses={404: {"description": "No such game"}})
    async def analysis(table_id: str, request: Request,
                       graded: bool = Query(default=True, description=(
                           "false: every position at once, without the grades (which "
                           "take a worker seconds); the replay viewer shows those first")),
                       ) -> dict[str, Any]:
        """Every position of a finished game with every hand, and every choice graded
        from the chooser's own view (expected points of the move and of the best)."""
        key = f"game:{table_id}"
        kept = analyses.kept(key, graded)
        if kept is not None:
            return kept
        game = hub.store.game(table_id)
        if game is None:
            raise HTTPException(404, f"no finished game {table_id!r}")
        return await _analyze(analyses, request, key, game.record, game.names, graded)

    @app.post("/api/analysis", responses=BAD_BODY)
    async def analyze_upload(record: dict[str, Any], request: Request) -> dict[str, Any]:
        """The same for a record file of your own (graded: any record can be sent, so
        every answer is a job in the bounded queue)."""
        digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
        key = f"upload:{digest}"
        return analyses.kept(key) or await _analyze(analyses, request, key, record, None)

    @app.get("/api/stats/{name}")
    def stats(name: str) -> Stats:
        """A name's games, wins and losses, per variant too (games with hints or undo
        are not counted)."""
        return stats_from(name, hub.store.totals(name))

    operator = Depends(operator_only(hub.settings.metrics_from))

    @app.get("/api/metrics", dependencies=[operator],
             responses={403: {"description": "Not from an address `--metrics-from` names, "
                                             "nor with the operator's token"}})
    def metrics(since: int = Query(default=0, ge=0)) -> dict[str, Any]:
        """Human moves handled, and the latency from a human's move to its broadcast
        over the moves after the first ``since`` (for the operator only)."""
        return {**hub.timing.figures(since), "analyses": analyses.figures()}

    hub.metrics.watch("bones_analyses", "Analyses being worked out or waiting",
                      lambda: analyses.figures()["running"])

    @app.get("/metrics", include_in_schema=False, dependencies=[operator])
    def prometheus() -> Response:
        """The server's figures in Prometheus' text format (bones.server.metrics)."""
        return Response(hub.metrics.text(), media_type=CONTENT_TYPE)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, bool]:
        """The process answers."""
        return {"ok": True}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Ready for players: the tables are loaded and the store answers."""
        ok = await hub.ready()
        return JSONResponse({"ok": ok}, status_code=200 if ok else 503)

    @app.websocket("/ws/{table_id}")
    async def seat_socket(ws: WebSocket, table_id: str, token: str | None = None,
                          invite: str | None = None) -> None:
        await _served(ws, hub.connect(ws, table_id, token, client_address(ws), await viewer(ws),
                                      invite))


async def _analyze(analyses: Analyses, request: Request, key: str, record: dict[str, Any],
                   names: list[str | None] | None, graded: bool = True) -> dict[str, Any]:
    moves = record.get("moves")
    if isinstance(moves, list) and len(moves) > MOST_MOVES:
        raise HTTPException(400, f"a record of more than {MOST_MOVES} moves is not analysed here")
    try:
        match = Match.from_record(record)
    except RecordError as error:
        raise HTTPException(400, f"not a game record: {error}") from None
    if not match.results:
        raise HTTPException(400, "the record has no finished round to look back on")
    about = {"rules": match.rules.to_dict(), "names": names, "fair": record.get("fair"),
             "assists": record.get("assists", []), "winner": match.winner,
             "loser": match.loser, "scores": list(match.scores), "graded": graded}
    if not graded:
        return await analyses.positions(key, match, about)
    try:
        return await analyses.report(key, record, len(match.rounds), client_address(request),
                                     request.is_disconnected, about)
    except Gone:
        raise HTTPException(499, "the client left before the analysis was done") from None


def _service_worker() -> str:
    """sw.js with the web files it caches and a version that changes with any of them."""
    files = sorted(p for p in WEB.iterdir() if p.is_file() and p.name != "sw.js")
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    listed = [f"/static/{p.name}" for p in files if p.name != "index.html"]
    return ((WEB / "sw.js").read_text().replace("@VERSION@", digest.hexdigest()[:16])
            .replace("@FILES@", json.dumps(listed)))


def _pages(app: FastAPI) -> None:
    if not (WEB / "index.html").is_file():
        return
    index = WEB / "index.html"
    worker = _service_worker()

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        """At the root, so that it may serve every page; no-cache, so that a new
        version is found at once."""
        return Response(worker, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/account", include_in_schema=False)
    @app.get("/play", include_in_schema=False)
    @app.get("/pair/{code}", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/lobby", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/stats/{name}", include_in_schema=False)
    @app.get("/replay/{table_id}", include_in_schema=False)
    def page() -> FileResponse:
        """The app's own pages: the client reads the path."""
        return FileResponse(index)

    app.mount("/static", StaticFiles(directory=WEB), name="static")
