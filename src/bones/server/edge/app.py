"""The FastAPI app: the guard in front, what a refusal answers, the parts that live as
long as the app (hub, lobby, quick match, analyses), and each area's routes put together
(``tables``, ``games``, ``sockets``, ``operator``, accounts, profiles, quick match,
reports and moderation, the API's documentation, the pages).

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/api/variants").json()["kozel"]["players"]
[4]
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from bones.server import logs
from bones.server.edge.apidocs import docs_routes
from bones.server.edge.auth import accounts_router
from bones.server.edge.challenges import challenges_router
from bones.server.edge.community import community_router
from bones.server.edge.devices import devices_router
from bones.server.edge.games import games_router
from bones.server.edge.guard import Guard
from bones.server.edge.mail import mail_router
from bones.server.edge.operator import operator_router
from bones.server.edge.pages import page_routes, web_files
from bones.server.edge.profiles import profiles_router
from bones.server.edge.seek import seek_router
from bones.server.edge.sockets import sockets_router
from bones.server.edge.tables import tables_router
from bones.server.edge.tournaments import tournaments_router
from bones.server.mail.addresses import Addresses
from bones.server.mail.outbox import Outbox, send_mail
from bones.server.mail.smtp import Smtp
from bones.server.meeting.lobby import Lobby
from bones.server.meeting.notices import Notices
from bones.server.meeting.presence import Presence
from bones.server.meeting.seeking import Seeker
from bones.server.people.accounts import Accounts, Coded, forget_guests
from bones.server.people.devices import live_devices
from bones.server.people.hashing import Crowded
from bones.server.people.moderation import Moderation
from bones.server.people.notifications import Notifications
from bones.server.store.records import Store
from bones.server.tables.hub import Hub, Limited, Settings, Unavailable
from bones.server.thinking.jobs import Analyses, Busy
from bones.server.tournaments.recurring import Recurring
from bones.server.tournaments.running import Runner
from bones.server.tournaments.showing import Showing
from bones.server.tournaments.watching import Watching

__all__ = ["DEFAULT_DB", "create_app"]

DEFAULT_DB = "sqlite:///bones.db"
LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"description": "Too many requests from this address, or a limit of the server's "
          "reached: the detail says which"},
    503: {"description": "The store cannot be written just now, or the analysis queue is "
          "full: try again (see Retry-After)"}}
STORE_AWAY = "the store cannot be reached just now; try again in a moment"


def create_app(db: str = DEFAULT_DB, settings: Settings | None = None,
               recurring: Sequence[Recurring] = ()) -> FastAPI:
    """The bones server over the store at ``db`` (any SQLAlchemy URL), making the site's
    ``recurring`` tournaments."""
    hub = Hub(Store(db), settings)
    analyses = Analyses()
    ratings = hub.ratings
    presence = Presence(hub.playing_here, hub.settings.redis, hub.expel, hub.renamed,
                        lambda account: asyncio.to_thread(live_devices, hub.store.engine,
                                                          account))
    lobby = Lobby(hub.public_tables, ratings, hub.chat, hub.blocks, hub.allowance, presence,
                  hub.settings.redis)
    hub.on_listing = lobby.changed
    seeker = Seeker(hub, ratings, hub.settings.redis)
    notices = Notices(hub.allowance, Notifications(hub.store.engine), hub.settings.redis)
    hub.offered = notices.rematch
    runner = Runner(hub, notices, lambda: {someone.name for someone in presence.everyone},
                    recurring)
    showing = Showing(runner.book, runner.games, hub.metrics.page.observe)
    watching = Watching(showing, hub.chat, hub.blocks, hub.allowance, hub.settings.redis)
    accounts = Accounts(hub.store.engine, words=hub.words, signups=hub.settings.signups)
    moderation = Moderation(hub.store.engine, hub.settings.kept_names_days)
    outbox = Outbox(hub.store.engine)
    hub.metrics.watch("bones_mail_waiting", "Mails in the outbox not yet taken by the mail "
                      "server (grows while it is away; 0 on a site without mail)",
                      lambda: outbox.seen_waiting)
    smtp, addresses = _mail(hub.settings, outbox)
    if addresses is not None:
        notify = addresses.notify
        notices.mailed = lambda *told: asyncio.to_thread(notify, *told)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.load()
        lobby.start()
        presence.start()
        notices.start()
        runner.start()
        watching.start()
        await seeker.start()
        tasks = [asyncio.create_task(forget_guests(accounts))]
        if smtp is not None:
            tasks.append(asyncio.create_task(send_mail(outbox, smtp)))
        yield
        for task in tasks:
            task.cancel()
        await seeker.close()
        presence.close()
        runner.close()
        watching.close()
        notices.close()
        lobby.close()
        await hub.close()
        analyses.close()

    app = FastAPI(title="bones", version="1", lifespan=lifespan, responses=LIMITED,
                  docs_url=None, redoc_url=None,  # served by apidocs, without a CDN
                  description="Dominoes tables: create, join, watch and play over WebSockets. "
                  "The WebSocket protocol is in docs/protocol.md.")
    app.state.hub = hub
    web = web_files()
    app.add_middleware(Guard, origins=hub.settings.origins, redis=hub.settings.redis,
                       rate=hub.settings.rest_rate,
                       release=None if web is None else web.version)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = dict(error.headers or {})
        if error.status_code == 405:  # Starlette names only the first route's methods
            headers["Allow"] = ", ".join(sorted(_methods(app, request)))
        return JSONResponse({"detail": error.detail}, status_code=error.status_code,
                            headers=headers)

    @app.exception_handler(Coded)
    async def _coded(_request: Request, error: Coded) -> JSONResponse:
        """A refusal with its ``code`` for the page to say in the player's words: what a
        sanction forbids (``banned``, ``suspended``, ``muted``, with ``until`` when, none
        for good), a name with a refused word (``word_in_name``), another text shown to
        others with one (``word_in_text``)."""
        return JSONResponse({"detail": str(error), "code": error.code,
                             "until": None if error.until is None else error.until.isoformat()},
                            status_code=error.status)

    # The store away (a lost connection, a locked file, a pool waited on too long): 503.
    for refusal, status, retry in ((Unavailable, 503, "2"), (OperationalError, 503, "2"),
                                   (InterfaceError, 503, "2"), (PoolTimeout, 503, "2"),
                                   (Busy, 503, "30"), (Crowded, 503, "5"),
                                   (Limited, 429, None)):
        app.add_exception_handler(refusal, partial(_refused, status, retry))

    app.state.accounts = accounts  # who a request comes from (auth.caller)
    routers = [sockets_router(hub, lobby, seeker, presence, notices, watching),
               challenges_router(hub, notices, accounts),
               accounts_router(accounts, moderation, hub.settings, presence,
                               mail=addresses is not None),
               devices_router(accounts, presence),
               mail_router(addresses, hub.settings.redis),
               community_router(moderation, presence, accounts, hub.blocks, notices),
               profiles_router(hub.store, accounts), tables_router(hub, accounts),
               games_router(hub, analyses), operator_router(hub, analyses),
               seek_router(seeker), tournaments_router(hub.store, showing, hub.words)]
    app.state.routers = routers
    for router in routers:
        app.include_router(router)
    docs_routes(app)
    page_routes(app, web)
    return app


def _methods(app: FastAPI, request: Request) -> set[str]:
    """Every method some route takes at the request's path."""
    methods: set[str] = set()
    routes = [*app.router.routes, *(r for router in app.state.routers for r in router.routes)]
    for route in routes:
        if isinstance(route, APIRoute) and route.path_regex.match(request.url.path):
            methods |= route.methods or set()
    return methods


async def _refused(status: int, retry: str | None, request: Request,
                   error: Exception) -> JSONResponse:
    """A request the server turns down for now: the store is away, the queue full, or
    a limit reached; ``retry``: the seconds to wait, where waiting helps. The store's
    own errors are not told (they name its hosts and queries)."""
    away = isinstance(error, OperationalError | InterfaceError | PoolTimeout)
    detail = STORE_AWAY if away else str(error)
    logs.refused("store_away" if away else type(error).__name__.lower(), status=status,
                 path=request.url.path)
    return JSONResponse({"detail": detail}, status_code=status,
                        headers={"Retry-After": retry} if retry else None)


def _mail(settings: Settings, outbox: Outbox) -> tuple[Smtp | None, Addresses | None]:
    """The site's mail server and its members' addresses, if the operator gave one
    (``--smtp``; its links go to the first ``--origin``, never to a request's Host)."""
    if settings.smtp is None or not settings.origins:
        return None, None
    site = settings.origins[0]
    sender = settings.mail_from or f"bones@{urlsplit(site).hostname}"
    return Smtp.parse(settings.smtp, sender), Addresses(outbox, site)
