"""The devices a member is signed in on: their sessions (a browser each) with where and
when each was last seen, and signing out one of them, or every one but this.

A device signed out is told at once: every socket its pages hold, at any process, is
closed with 4401 (``Presence.recheck``), and its next request is a stranger's.

>>> from fastapi.testclient import TestClient
>>> from bones.server import create_app
>>> with TestClient(create_app("sqlite://"), headers={"User-Agent": "curl/8.5"}) as client:
...     _ = client.post("/api/signup", json={"name": "Ann", "password": "correct horse"})
...     [(d["browser"], d["current"]) for d in client.get("/api/sessions").json()]
[('curl', True)]
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel

from bones.server.edge.auth import COOKIE, InSession, device
from bones.server.meeting.presence import Presence
from bones.server.people.accounts import Accounts
from bones.server.people.devices import devices, sign_out

__all__ = ["DeviceInfo", "devices_router"]


class DeviceInfo(BaseModel):
    """A session of yours: ``id`` names it to sign it out; ``current`` is the one asking.
    ``address`` is as the site's proxy gave it; ``browser`` as the browser named itself
    (``Firefox · Android``), empty when it did not."""

    id: str
    browser: str
    address: str | None
    created: str
    seen: str
    current: bool


class SignedOut(BaseModel):
    ended: int


def devices_router(accounts: Accounts, presence: Presence) -> APIRouter:
    """The routes of a member's sessions; their sockets are closed through ``presence``."""
    router = APIRouter()
    engine = accounts.engine
    not_token: dict[int | str, dict[str, Any]] = {
        403: {"description": "Asked with an API token: sessions are a browser's"}}

    @router.get("/api/sessions", responses={401: {"description": "Not signed in"},
                                            **not_token})
    async def sessions(request: Request, account: InSession) -> list[DeviceInfo]:
        """Where you are signed in: this browser, then the others last seen first (API
        tokens: ``/api/tokens``)."""
        here = device(request)
        found = [DeviceInfo(id=d.id, browser=d.browser or "", address=d.address,
                            created=d.created.isoformat(),
                            seen=(d.seen or d.created).isoformat(), current=d.id == here)
                 for d in await run_in_threadpool(devices, engine, account.id)
                 if d.kind == "session"]
        return sorted(found, key=lambda d: not d.current)  # stable: the rest as seen

    @router.delete("/api/sessions/{session_id}", status_code=204,
                   responses={401: {"description": "Not signed in"},
                              404: {"description": "No such session of yours"}, **not_token})
    async def end(session_id: str, request: Request, response: Response,
                  account: InSession) -> None:
        """Sign that device out: its pages are told at once. Your own is signing out."""
        if not await run_in_threadpool(sign_out, engine, account.id, only=session_id):
            raise HTTPException(404, f"no session {session_id!r} of yours")
        if session_id == device(request):
            response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        await presence.recheck(account.id)

    @router.post("/api/logout/others", responses={401: {"description": "Not signed in"},
                                                    **not_token})
    async def end_others(request: Request, account: InSession) -> SignedOut:
        """Sign out every device but this one: how many were."""
        ended = await run_in_threadpool(sign_out, engine, account.id, keep=device(request))
        if ended:
            await presence.recheck(account.id)
        return SignedOut(ended=ended)

    return router
