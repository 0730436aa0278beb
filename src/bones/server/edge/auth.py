"""Signing in over HTTP: the session cookie, the account endpoints, and who a request
comes from (a session cookie, or a personal API token in ``Authorization: Bearer``).

The cookie is HttpOnly (no script reads it), SameSite=Lax (another site's pages do not
send it with their requests) and Secure when the page came over https, as the proxy
says when the server is told to trust it (``--trust-proxy``). Failed logins are limited
per name from one address and per address, sign-ups and password changes per address,
in Redis when the server has one; passwords are hashed a few at a time (``hashing.py``).

>>> from fastapi.testclient import TestClient
>>> from bones.server import create_app
>>> with TestClient(create_app("sqlite://")) as client:
...     client.post("/api/signup", json={"name": "Ann", "password": "correct horse"}).json()
...     client.get("/api/me").json()["name"]
{'name': 'Ann', 'guest': False, 'bot': False, 'roles': [], 'sanctions': [], 'limited': None}
'Ann'
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
from collections.abc import Callable
from ipaddress import ip_address, ip_network
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool
from limits import RateLimitItem, RateLimitItemPerHour, RateLimitItemPerMinute
from limits.aio.strategies import MovingWindowRateLimiter
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from bones.server import logs
from bones.server.meeting.presence import Presence
from bones.server.names import check_display, kept, name_key
from bones.server.people.accounts import (
    NAME,
    SESSION_DAYS,
    Account,
    Accounts,
    Coded,
    Refused,
    Signups,
    WordInName,
    WordInText,
)
from bones.server.people.devices import Where, browser_of, device_id
from bones.server.people.moderation import Moderation
from bones.server.people.players import Player
from bones.server.protocol import BAD_BODY, SanctionInfo, stripped
from bones.server.sites.counting import limit_storage
from bones.server.store.schema import now
from bones.server.tables.hub import Settings

__all__ = ["COOKIE", "SLOW", "Caller", "InSession", "Logins", "Me", "Needed", "accounts_router",
           "attempt", "caller", "client_address", "operator_only", "player_for", "viewer"]

COOKIE = "bones_session"
log = logging.getLogger("bones.server")
Password = Annotated[str, Field(min_length=8, max_length=128)]


class Me(BaseModel):
    """The account a request is signed in as, with the roles the operator gave it; at
    ``/api/me``, the sanctions it is under too (and its warnings of the last days)."""

    name: str
    guest: bool
    bot: bool
    roles: list[str] = []
    sanctions: list[SanctionInfo] = []
    limited: str | None = None
    """Until when this guest is limited, made from a banned account's browser or address
    (no chat, no public tables, no play now, no sign-up: ``people.marks``)."""


class SignUp(BaseModel):
    """Claim a name with a password (a guest's account keeps its games)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=2, max_length=24, pattern=NAME,
                      description="2-24 letters, digits, _ or -, from a letter or digit")
    password: Password
    invite: str | None = Field(default=None, max_length=64,
                               description="an invitation, while sign-ups are by invitation")


class SiteSettings(BaseModel):
    """What the pages ask of the site's choices."""

    signups: Signups
    """Who may sign up: anyone, whoever has an invitation, or nobody (guests play)."""
    mail: bool
    """Whether the site sends mail: a forgotten password comes back by mail."""


class LogIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=128)


class Reset(BaseModel):
    """A new password, set with a one-time link's token."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=128)
    new: Password


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    old: str = Field(min_length=1, max_length=128)
    new: Password
    revoke_tokens: bool = Field(default=False, description="revoke every API token of "
                                "the account too (a program that had one is shut out)")


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    label: Annotated[str, Field(min_length=1, max_length=40),
                     AfterValidator(stripped("a token's label needs more than spaces",
                                             angles=True))]
    """Shown as text (markup too): nothing invisible, not blank."""


class TokenInfo(BaseModel):
    """A personal API token; ``token`` is there only in the answer that made it. Where it
    was last ``used`` from: ``address`` (as the site's proxy gave it) and ``browser``
    (the program's name for itself)."""

    id: int
    label: str
    created: str
    used: str | None = None
    address: str | None = None
    browser: str | None = None
    token: str | None = None


def _me(account: Account) -> Me:
    limited = account.limited_until
    return Me(name=account.name, guest=account.guest, bot=account.bot,
              roles=sorted(account.roles),
              limited=limited.isoformat() if limited and limited > now() else None)


def _session(request: HTTPConnection) -> str | None:
    return request.cookies.get(COOKIE)


def _signed_in(response: Response, request: Request, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https", path="/")


def _refused(error: Refused, status: int = 400) -> HTTPException:
    return HTTPException(status, str(error))


async def caller(request: HTTPConnection) -> Account | None:
    """The account a request (or a WebSocket's upgrade) comes from: an API token's
    (refused at once if revoked), else the session cookie's, else none. The store is
    read in a thread, and only when there is something to look up: a hop to a thread
    and back cost a busy server more than the rest of an anonymous request's check."""
    bearer, session = _bearer(request), _session(request)
    if bearer is None and not session:
        return None
    return await run_in_threadpool(_account, request.app.state.accounts, bearer, session,
                                   where(request))


def _bearer(request: HTTPConnection) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def device(connection: HTTPConnection) -> str | None:
    """Which browser (by its session) or program (by its API token) a socket comes from,
    as a digest that tells them apart and opens nothing; None for neither. A member's
    seat opened on another device moves there (``Doors.serve``)."""
    secret = _bearer(connection) or _session(connection)
    return None if not secret else device_id(secret)


def where(connection: HTTPConnection) -> Where:
    """Where a request or socket comes from, as its session or token is stamped with."""
    return Where(client_address(connection), browser_of(connection.headers.get("user-agent", "")))


def _account(accounts: Accounts, bearer: str | None, session: str | None, seen: Where
             ) -> Account | None:
    if bearer is not None:
        account = accounts.by_api_token(bearer, seen)
        if account is None:
            raise HTTPException(401, "the API token is not valid (revoked?)",
                                {"WWW-Authenticate": "Bearer"})
        return account
    return accounts.by_session(session, seen) if session else None


async def signed_in(account: Annotated[Account | None, Depends(caller)]) -> Account:
    if account is None:
        raise HTTPException(401, "not signed in")
    return account


async def by_session(request: Request, account: Annotated[Account, Depends(signed_in)]
                     ) -> Account:
    """The account signed in by its session, not by an API token: a token cannot make,
    list or revoke tokens (one leaked cannot entrench itself)."""
    if request.headers.get("authorization", "").lower().startswith("bearer "):
        raise HTTPException(403, "API tokens are managed from a signed-in session, not "
                            "with a token")
    return account


Caller = Annotated[Account | None, Depends(caller)]
"""A route's parameter: who is asking, if anyone."""
Needed = Annotated[Account, Depends(signed_in)]
"""A route's parameter: who is asking (401 if nobody is signed in)."""
InSession = Annotated[Account, Depends(by_session)]
"""A route's parameter: who is asking, signed in by a session (403 with a token)."""


def accounts_router(accounts: Accounts, moderation: Moderation, settings: Settings,
                    presence: Presence, mail: bool = False) -> APIRouter:
    """The account endpoints, over ``accounts`` (which the app keeps in ``app.state`` for
    :func:`caller`); the sockets of sessions and tokens they end are closed at every
    process (``presence``)."""
    router = APIRouter()
    limiter = MovingWindowRateLimiter(limit_storage(settings.redis))
    logins = Logins(limiter, settings)
    per_address = RateLimitItemPerHour(settings.signups_per_address)
    guests = RateLimitItemPerHour(settings.guests_per_address)

    async def allowance(request: Request, what: str) -> None:
        """Count a sign-up or a password change against its address's one allowance."""
        if not await attempt(limiter, f"passwords:address:{client_address(request)}", per_address):
            raise HTTPException(429, f"too many {what}s from this address; try again "
                                "later", {"Retry-After": "600"})

    def judged(account: Account) -> Me:
        return _me(account).model_copy(update={"sanctions": moderation.in_force(account.id)})

    @router.get("/api/site")
    def site() -> SiteSettings:
        """Who may sign up here, and whether the site sends mail (the login page says
        how a forgotten password comes back)."""
        return SiteSettings(signups=accounts.signups, mail=mail)

    @router.get("/api/me", responses={401: {"description": "Not signed in"}})
    def me(account: Needed) -> Me:
        """The account this browser or token is signed in as, its roles and sanctions."""
        return judged(account)

    @router.post("/api/guest")
    async def guest(request: Request, response: Response, account: Caller) -> Me:
        """Play at once: a guest account with a generated name, held by the session
        cookie (the caller's own account if already signed in, with its sanctions: the
        page's chat box says a mute). New guests are limited per address
        (``--guests-per-address`` an hour)."""
        if account is not None:
            return await run_in_threadpool(judged, account)
        if not await attempt(limiter, f"guests:address:{client_address(request)}", guests):
            raise HTTPException(429, "too many new guests from this address; sign in or try "
                                "again later", {"Retry-After": "600"})
        try:
            made, token = await run_in_threadpool(accounts.guest, where(request),
                                                  _session(request))
        except Refused as error:
            raise HTTPException(503, str(error), {"Retry-After": "1"}) from None
        _signed_in(response, request, token)
        return _me(made)  # new: under no sanction, but maybe limited

    @router.post("/api/signup", status_code=201,
              responses={**BAD_BODY, 409: {"description": "The name is taken, or of the "
                                                  "form kept for guests"}})
    async def sign_up(body: SignUp, request: Request, response: Response) -> Me:
        """Claim a name with a password; a guest signing up keeps their games. Limited
        per address (``--signups-per-address`` an hour)."""
        await allowance(request, "sign-up")
        try:
            account, token = await run_in_threadpool(accounts.sign_up, body.name,
                                                     body.password, _session(request),
                                                     where(request), body.invite)
        except Coded:
            raise  # its code, for the page's words
        except Refused as error:
            logs.audit("signup_refused", name=body.name, why=str(error)[:120])
            raise _refused(error, 409) from None
        _signed_in(response, request, token)
        logs.audit("signup", name=account.name, account=account.id)
        return _me(account)

    @router.post("/api/login",
              responses={**BAD_BODY, 401: {"description": "Wrong name or password"}})
    async def log_in(body: LogIn, request: Request, response: Response) -> Me:
        """Sign in. Failures are limited per name from one address and per address (429),
        and a name failed often from everywhere has its failures answered slowly: its
        owner, elsewhere or with the right password, is never refused."""
        address = client_address(request)
        await logins.check(body.name, address)
        try:
            account, token = await run_in_threadpool(accounts.log_in, body.name, body.password,
                                                     where(request))
        except Coded as error:  # banned: the app answers 403 with its code and end
            logs.audit("login_refused", name=body.name, code=error.code)
            raise
        except Refused as error:
            logs.audit("login_failed", name=body.name)
            await logins.failed(body.name, address)
            raise _refused(error, 401) from None
        _signed_in(response, request, token)
        logs.audit("login", name=account.name, account=account.id)
        return _me(account)

    @router.post("/api/logout", status_code=204)
    def log_out(request: Request, response: Response) -> None:
        """End this browser's session."""
        token = _session(request)
        if token:
            accounts.log_out(token)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")

    @router.post("/api/password", status_code=204,
              responses={**BAD_BODY,
                         401: {"description": "Not signed in, or a wrong old password"}})
    async def change_password(body: NewPassword, request: Request,
                              account: Caller) -> None:
        """A new password; every other session of the account ends (their pages are told
        at once). Limited per address as sign-ups are."""
        token = _session(request)
        if not token or account is None:
            raise HTTPException(401, "not signed in")
        await allowance(request, "password change")
        try:
            await run_in_threadpool(accounts.change_password, token, body.old, body.new,
                                    body.revoke_tokens)
        except Refused as error:
            logs.audit("password_change_failed")
            raise _refused(error, 401) from None
        logs.audit("password_change")
        await presence.recheck(account.id)

    @router.post("/api/password/reset",
                 responses={**BAD_BODY, 404: {"description": "No such link: used, expired or "
                                                        "never given"}})
    async def reset_password(body: Reset, request: Request, response: Response) -> Me:
        """Set a new password with the one-time link the operator gave
        (``bones admin reset-password``): every session of the account ends, and this
        browser is signed in. Limited per address as sign-ups are."""
        await allowance(request, "password change")
        try:
            account, token = await run_in_threadpool(accounts.reset_password, body.token,
                                                     body.new, where(request))
        except Coded:
            raise
        except Refused as error:
            logs.audit("password_reset_failed")
            raise _refused(error, 404) from None
        _signed_in(response, request, token)
        logs.audit("password_reset", name=account.name, account=account.id)
        await presence.recheck(account.id)
        return _me(account)

    by_token: dict[int | str, dict[str, Any]] = {403: {
        "description": "Asked with an API token: tokens are managed from a signed-in session"}}

    @router.get("/api/tokens", responses={401: {"description": "Not signed in"}, **by_token})
    def tokens(account: InSession) -> list[TokenInfo]:
        """Your personal API tokens (not the tokens themselves: they were shown once)."""
        return [TokenInfo(id=t.id, label=t.label, created=t.created.isoformat(),
                          used=t.used.isoformat() if t.used else None, address=t.address,
                          browser=t.browser)
                for t in accounts.tokens(account)]

    @router.post("/api/tokens", status_code=201,
              responses={**BAD_BODY, 401: {"description": "Not signed in"},
                         403: {"description": "A guest makes no tokens, or asked with an "
                                              "API token"}})
    def create_token(body: NewToken, account: InSession) -> TokenInfo:
        """A personal API token for a program to play as you (send it as
        ``Authorization: Bearer <token>``); shown in this answer only."""
        if accounts.words.in_chat(body.label):
            raise WordInText("the label holds a word not allowed here")
        try:
            made, token = accounts.create_token(account, body.label)
        except Refused as error:
            raise _refused(error, 403) from None
        return TokenInfo(id=made.id, label=made.label, created=made.created.isoformat(),
                         token=token)

    @router.delete("/api/tokens/{token_id}", status_code=204,
                responses={401: {"description": "Not signed in"},
                           404: {"description": "No such token of yours"}, **by_token})
    async def revoke_token(token_id: int, account: InSession) -> None:
        """The token stops working at once, and the sockets opened with it close."""
        try:
            await run_in_threadpool(accounts.revoke, account, token_id)
        except Refused as error:
            raise _refused(error, 404) from None
        await presence.recheck(account.id)

    return router


SLOW = 2.0
"""Seconds a failed login to a name under attack waits before it is answered."""


class Logins:
    """Failed logins, counted per (name, address), per address and per name."""

    def __init__(self, limiter: MovingWindowRateLimiter, settings: Settings) -> None:
        self.limiter = limiter
        self.pair = RateLimitItemPerMinute(settings.logins_per_name, 5)
        self.address = RateLimitItemPerMinute(settings.logins_per_address, 5)
        self.name = RateLimitItemPerMinute(settings.logins_per_name * 4, 5)

    def _keys(self, name: str, address: str) -> list[tuple[RateLimitItem, str]]:
        key = name_key(name)
        return [(self.pair, f"login:pair:{key}:{address}"),
                (self.address, f"login:address:{address}")]

    async def check(self, name: str, address: str) -> None:
        """Refuse (429) an address that failed this name, or any names, too often."""
        for item, key in self._keys(name, address):
            if not await attempt(self.limiter, key, item, peek=True):
                raise HTTPException(429, "too many failed logins from this address; wait a "
                                    "few minutes", {"Retry-After": "60"})

    async def failed(self, name: str, address: str) -> None:
        """Count a failure; one to a name failed often from everywhere is answered late."""
        for item, key in self._keys(name, address):
            await attempt(self.limiter, key, item)
        if not await attempt(self.limiter, f"login:name:{name_key(name)}", self.name):
            await asyncio.sleep(SLOW)


def client_address(connection: HTTPConnection) -> str:
    """The address a request or socket comes from (the proxy's client behind
    ``--trust-proxy``): what per-address limits count."""
    return connection.client.host if connection.client else "?"


async def attempt(limiter: MovingWindowRateLimiter, key: str, item: RateLimitItem,
                   peek: bool = False) -> bool:
    """Whether one more attempt is allowed, counting it (``peek``: without counting);
    if the count cannot be read, yes (logged)."""
    try:
        return await (limiter.test(item, key) if peek else limiter.hit(item, key))
    except Exception as error:
        log.warning("login attempts could not be counted: %s", error)
        return True


async def viewer(connection: HTTPConnection) -> Player | None:
    """Who is signed in on a WebSocket, if anyone (a revoked token: nobody)."""
    try:
        account = await caller(connection)
    except HTTPException:
        return None
    return None if account is None else Player(account.name, account.id, account.guest)


def player_for(accounts: Accounts, account: Account | None, typed: str | None) -> Player:
    """Who takes a seat: the signed-in account (a typed name must be its own), or a
    typed name that is no account's."""
    if account is not None:
        if typed is not None and name_key(typed) != name_key(account.name):
            raise HTTPException(409, f"you are signed in as {account.name!r}")
        return Player(account.name, account.id, account.guest)
    if typed is None:
        raise HTTPException(401, "sign in (or give a name) to take a seat")
    if accounts.named(typed) is not None or accounts.like(typed) is not None:
        raise HTTPException(409, f"the name {typed!r} belongs to an account, or looks like "
                            "one: log in to play as it")
    why = kept(typed)
    if why is not None:
        raise HTTPException(409, why)
    if accounts.given_up(typed):
        raise HTTPException(409, f"the name {typed!r} was given up lately and is kept for "
                            "a while")
    if accounts.words.in_name(typed):
        raise WordInName("that name holds a word not allowed here")
    try:
        return Player(check_display(typed))
    except ValueError as error:
        raise HTTPException(409, str(error)) from None


def operator_only(networks: tuple[str, ...]) -> Callable[[Request], None]:
    """A route's dependency that answers only the operator: a request from one of
    ``networks``, or one with the token in ``BONES_METRICS_TOKEN`` (403 otherwise).

    >>> check = operator_only(("127.0.0.1/32",))
    >>> from starlette.requests import Request
    >>> check(Request({"type": "http", "client": ("127.0.0.1", 5), "headers": []}))
    >>> check(Request({"type": "http", "client": ("192.0.2.9", 5), "headers": []}))
    Traceback (most recent call last):
    ...
    fastapi.exceptions.HTTPException: 403: these figures are the operator's
    """
    allowed = [ip_network(n.strip(), strict=False) for n in networks if n.strip()]
    token = os.environ.get("BONES_METRICS_TOKEN", "")

    def check(request: Request) -> None:
        given = request.headers.get("authorization", "")
        if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return
        try:
            address = ip_address(client_address(request))
        except ValueError:
            address = None
        if address is None or not any(address in network for network in allowed):
            raise HTTPException(403, "these figures are the operator's")

    return check
