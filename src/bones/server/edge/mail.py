"""Mail over HTTP: whether this site sends any, a member's address and its confirming
link, and a forgotten password asked for by address.

Asking for a new password answers 202 whatever the address: whether an account has it
is nobody's business but its owner's, who gets the mail. It is limited per asking
address (429 says so, as it is the asker's own) and, silently, per mail address (a
flood of requests for one address mails it a few times an hour at most).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from limits import RateLimitItemPerHour
from limits.aio.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field

from bones.server import logs
from bones.server.edge.auth import InSession, attempt, client_address
from bones.server.mail.addresses import Addresses
from bones.server.mail.letters import LANGUAGES
from bones.server.names import address_key
from bones.server.people.accounts import Refused
from bones.server.protocol import BAD_BODY
from bones.server.sites.counting import limit_storage

__all__ = ["mail_router"]

Lang = Annotated[str, Field(default="en", pattern="^(" + "|".join(LANGUAGES) + ")$",
                            description="the language of the mail: the page's")]
NO_MAIL: dict[int | str, dict[str, Any]] = {
    404: {"description": "This site sends no mail (its operator gave no --smtp), or no "
          "such link"}}
PER_ACCOUNT, PER_EMAIL, PER_ADDRESS = 5, 3, 20
"""Mails an hour: addresses given by one member, password mails to one address, and
password requests from one address."""


class GiveAddress(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    email: str = Field(min_length=3, max_length=254)
    lang: Lang = "en"


class MyAddress(BaseModel):
    email: str | None
    confirmed: bool
    about: list[str] = []
    """What you chose to be mailed about: ``challenge`` (one to you), ``tournament``
    (one you joined starting)."""
    refused: bool = False
    """Its mail server refused a mail to it for good since it was given (it is no longer
    confirmed: give it again, or another)."""


class MailAbout(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    about: list[Literal["challenge", "tournament"]] = Field(max_length=2)


class Confirming(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=128)


class Forgot(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    email: str = Field(min_length=3, max_length=254)
    lang: Lang = "en"


def mail_router(addresses: Addresses | None, redis: str | None) -> APIRouter:
    """The mail routes; without ``addresses`` (no SMTP) each says so with 404."""
    router = APIRouter()
    limiter = MovingWindowRateLimiter(limit_storage(redis))

    def mailing() -> Addresses:
        if addresses is None:
            raise HTTPException(404, "this site sends no mail: ask its operator")
        return addresses

    async def allowed(key: str, per_hour: int) -> bool:
        return await attempt(limiter, key, RateLimitItemPerHour(per_hour))

    @router.get("/api/me/email", responses={401: {"description": "Not signed in"}, **NO_MAIL})
    async def mine(account: InSession) -> MyAddress:
        """Your address, and whether you confirmed it."""
        email, confirmed, about, refused = await run_in_threadpool(mailing().of, account.id)
        return MyAddress(email=email, confirmed=confirmed, about=about, refused=refused)

    @router.put("/api/me/email/about", status_code=204, responses={
        **BAD_BODY, 401: {"description": "Not signed in"},
        409: {"description": "No address given yet"}, **NO_MAIL})
    async def choose(body: MailAbout, account: InSession) -> None:
        """Be mailed (at your confirmed address) about a challenge to you, a tournament
        you joined starting, both or neither."""
        try:
            await run_in_threadpool(mailing().choose, account.id, set(body.about))
        except Refused as error:
            raise HTTPException(409, str(error)) from None

    @router.put("/api/me/email", status_code=202, responses={
        **BAD_BODY, 401: {"description": "Not signed in"}, 409: {
            "description": "Not an address, a guest's, or confirmed by another account"},
        429: {"description": "Addresses given too often"}, **NO_MAIL})
    async def give(body: GiveAddress, account: InSession) -> MyAddress:
        """Give your address: a link to confirm it is mailed to it (within a day)."""
        box = mailing()
        if not await allowed(f"mail:account:{account.id}", PER_ACCOUNT):
            raise HTTPException(429, "addresses given too often; try again later",
                                {"Retry-After": "600"})
        try:
            kept = await run_in_threadpool(box.give, account.id, body.email, body.lang)
        except Refused as error:
            raise HTTPException(409, str(error)) from None
        logs.audit("email_given", account=account.id)
        return MyAddress(email=kept, confirmed=False)

    @router.delete("/api/me/email", status_code=204,
                   responses={401: {"description": "Not signed in"}, **NO_MAIL})
    async def remove(account: InSession) -> None:
        """Forget your address: no mail goes to it any more."""
        await run_in_threadpool(mailing().remove, account.id)

    @router.post("/api/email/confirm", responses={**BAD_BODY, **NO_MAIL})
    async def confirm(body: Confirming) -> MyAddress:
        """Confirm an address with the link mailed to it."""
        try:
            email = await run_in_threadpool(mailing().confirm, body.token)
        except Refused as error:
            raise HTTPException(404, str(error)) from None
        return MyAddress(email=email, confirmed=True)

    @router.post("/api/email/stop", status_code=204, responses=NO_MAIL)
    async def stop(token: str = Query(min_length=1, max_length=128)) -> None:
        """Stop every notice's mail with the link a notice's mail carried: the one-click
        ``List-Unsubscribe`` of RFC 8058, which a mail program posts without a
        session."""
        try:
            await run_in_threadpool(mailing().stop, token)
        except Refused as error:
            raise HTTPException(404, str(error)) from None

    @router.post("/api/password/forgot", status_code=202, response_class=Response, responses={
        **BAD_BODY, 429: {"description": "Too many requests from this address"}, **NO_MAIL})
    async def forgot(body: Forgot, request: Request) -> Response:
        """Ask for a one-time link that sets a new password (within an hour), mailed to
        the account whose confirmed address this is. The answer is the same whether or
        not there is one."""
        box = mailing()
        if not await allowed(f"forgot:address:{client_address(request)}", PER_ADDRESS):
            raise HTTPException(429, "too many requests from this address; try again later",
                                {"Retry-After": "600"})
        if await allowed(f"forgot:email:{address_key(body.email)}", PER_EMAIL):
            mailed = await run_in_threadpool(box.forgot, body.email, body.lang)
            logs.audit("password_mail" if mailed else "password_mail_none")
        return Response(status_code=202)

    return router
