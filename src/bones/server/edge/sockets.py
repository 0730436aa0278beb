"""The WebSockets a client opens: the lobby, the player's notices, a quick-match ticket,
a tournament's page, a seat or a spectator's place at a table (in that order:
``/ws/{table_id}`` takes what the others do not).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable

import redis
from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.websockets import WebSocketState

from bones.server.edge.auth import (
    client_address,
    device,
    viewer,
)
from bones.server.meeting.lobby import Lobby
from bones.server.meeting.notices import Notices
from bones.server.meeting.presence import Presence
from bones.server.meeting.seeking import Seeker
from bones.server.tables.hub import Hub
from bones.server.tournaments.watching import Watching

__all__ = ["sockets_router"]

log = logging.getLogger("bones.server")

def sockets_router(hub: Hub, lobby: Lobby, seeker: Seeker, presence: Presence,
                   notices: Notices, watching: Watching) -> APIRouter:
    """The sockets' routes; whoever opens one is here (``presence``) while it is open."""
    router = APIRouter()

    @router.websocket("/ws/lobby")
    async def lobby_socket(ws: WebSocket) -> None:
        """The lobby's list of public tables, pushed at once and on every change."""
        who = await viewer(ws)
        with presence.present(who, ws, device(ws)):
            await _served(ws, lobby.serve(ws, client_address(ws), who))

    @router.websocket("/ws/me")
    async def notice_socket(ws: WebSocket) -> None:
        """The signed-in player's own notices (challenges and their answers), which the
        app keeps open on every page."""
        who = await viewer(ws)
        with presence.present(who, ws, device(ws)):
            await _served(ws, notices.serve(ws, client_address(ws), who))

    @router.websocket("/ws/seek/{ticket}")
    async def seek_socket(ws: WebSocket, ticket: str) -> None:
        """A quick-match ticket: where it stands every second, then your seat."""
        who = await viewer(ws)
        with presence.present(who, ws, device(ws)):
            await _served(ws, seeker.serve(ws, ticket, client_address(ws), who))

    @router.websocket("/ws/tournament/{tournament}")
    async def tournament_socket(ws: WebSocket, tournament: str) -> None:
        """A tournament's page: pushed at once and on every change, and its chat."""
        who = await viewer(ws)
        with presence.present(who, ws, device(ws)):
            await _served(ws, watching.serve(ws, tournament, client_address(ws), who))

    @router.websocket("/ws/{table_id}")
    async def seat_socket(ws: WebSocket, table_id: str, token: str | None = None,
                          invite: str | None = None) -> None:
        who = await viewer(ws)
        with presence.present(who, ws, device(ws)):
            await _served(ws, hub.connect(ws, table_id, token, client_address(ws), who, invite,
                                          device(ws)))

    return router


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
