"""Challenges over HTTP: challenge a player by name (or make a link for anyone) to a
table of your rules, clock and rating; the challenged sees it at once on their notice
socket (``/ws/me``, at whichever process it is) and accepts, which seats both at a new
table, or declines; the challenger may cancel. Blocks refuse challenges either way.
Each notice is kept in the player's notifications list, read here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, HTTPException, Request

from bones.server.edge.auth import Caller, Needed, client_address
from bones.server.edge.stored import stored
from bones.server.meeting.notices import Notices
from bones.server.people.accounts import Account, Accounts
from bones.server.people.challenges import Challenge, Challenges
from bones.server.people.moderation import Unknown
from bones.server.people.players import Player
from bones.server.protocol import (
    BAD_BODY,
    ChallengeInfo,
    ChallengeSeat,
    Challenging,
    CreateTable,
    HumanSeat,
    Joined,
    NoticeKind,
    NotificationList,
    ReadUpTo,
)
from bones.server.tables import showing
from bones.server.tables.hub import Hub
from bones.server.tables.seats import TableError

__all__ = ["challenges_router"]

T = TypeVar("T")
ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in"},
    403: {"description": "Not yours to answer, a block between you, or suspended"},
    404: {"description": "No such challenge or player"},
    409: {"description": "Answered, cancelled or expired already"}}


def _seats(spec: CreateTable) -> tuple[int, int]:
    """The challenger's seat (``me``) and the challenged's (the other human seat)."""
    people = [n for n, s in enumerate(spec.seats) if isinstance(s, HumanSeat)]
    mine = [n for n in people if spec.seats[n].mine]  # type: ignore[union-attr]
    if len(people) != 2 or len(mine) != 1:
        raise HTTPException(422, "a challenge's table has two people's seats: yours (me) "
                            "and the one challenged; bots in any others")
    return mine[0], next(n for n in people if n != mine[0])


def _info(found: Challenge, viewer: int | None) -> ChallengeInfo:
    """As ``viewer`` may see it: the seat is the challenger's alone to be shown."""
    return ChallengeInfo(
        id=found.id, by=found.by, to=found.to, table_spec=found.spec, state=found.state,
        expires=found.expires.isoformat(), link=f"/challenge/{found.id}", table=found.table,
        seat=ChallengeSeat.model_validate(found.seat) if found.seat and viewer == found.by_id
        else None)


def challenges_router(hub: Hub, notices: Notices, accounts: Accounts) -> APIRouter:
    """The challenges' routes."""
    router = APIRouter()
    challenges = Challenges(hub.store.engine)

    async def call(job: Callable[..., T], *args: Any) -> T:
        return await stored(job, *args, conflict=409)

    async def tell(account: int | None, kind: NoticeKind, found: Challenge, by: int) -> None:
        if account is not None:
            await notices.tell(account, kind, by, _info(found, account))

    @router.post("/api/challenges", status_code=201, responses={**BAD_BODY, **ANSWERS})
    async def challenge(body: Challenging, account: Needed) -> ChallengeInfo:
        """Challenge the player called ``name`` (none: a link for anyone) to ``table``;
        they are told at once."""
        account.check("suspended")
        _seats(body.table)
        if body.name is not None and body.name.casefold() == account.name.casefold():
            raise HTTPException(400, "you cannot challenge yourself")
        made = await call(challenges.make, account.id, body.name,
                          body.table.model_dump(mode="json"))
        found = await call(challenges.get, made)
        if body.name is not None:
            await tell(found.to_id, "challenge", found, account.id)
        return _info(found, account.id)

    @router.get("/api/challenges", responses={401: {"description": "Not signed in"}})
    async def waiting(account: Needed) -> list[ChallengeInfo]:
        """The open challenges to me and from me, newest first."""
        return [_info(c, account.id) for c in await call(challenges.waiting, account.id)]

    @router.get("/api/challenges/{challenge_id}", responses={404: ANSWERS[404]})
    async def one(challenge_id: str, account: Caller) -> ChallengeInfo:
        """A challenge (a link's, to whoever opens it)."""
        return _info(await call(challenges.get, challenge_id),
                     None if account is None else account.id)

    @router.post("/api/challenges/{challenge_id}/accept", responses=ANSWERS)
    async def accept(challenge_id: str, request: Request, account: Needed) -> Joined:
        """Accept: a new table with both of you seated; your seat's token here, the
        challenger's seat told to them (theirs by their account: its token is kept
        nowhere)."""
        account.check("suspended")
        await hub.may_make(client_address(request), account.id)
        found = await call(challenges.take, challenge_id, account.id)
        spec = CreateTable.model_validate(found.spec)
        theirs, mine = _seats(spec)
        challenger = await call(_by, accounts, found.by)
        try:
            table, tokens = await hub.seat_together(spec, {
                theirs: Player(challenger.name, challenger.id, challenger.guest),
                mine: Player(account.name, account.id, account.guest)},
                client_address(request))
        except TableError as error:
            await call(challenges.end, challenge_id, found.by_id, "cancelled")
            raise HTTPException(403, str(error)) from None
        info, link = showing.info(table), showing.invite_link(table)
        seat = ChallengeSeat(table=info, seat=theirs, invite=link)
        await call(challenges.seated, challenge_id, table.id, seat.model_dump(mode="json"))
        await tell(found.by_id, "accepted", await call(challenges.get, challenge_id), account.id)
        return Joined(table=info, seat=mine, token=tokens[mine], invite=link)

    @router.post("/api/challenges/{challenge_id}/decline", status_code=204, responses=ANSWERS)
    async def decline(challenge_id: str, account: Needed) -> None:
        """Decline a challenge to you; the challenger is told."""
        found = await call(challenges.end, challenge_id, account.id, "declined")
        await tell(found.by_id, "declined", await call(challenges.get, challenge_id), account.id)

    @router.delete("/api/challenges/{challenge_id}", status_code=204, responses=ANSWERS)
    async def cancel(challenge_id: str, account: Needed) -> None:
        """Take your challenge back; the one challenged is told."""
        await call(challenges.end, challenge_id, account.id, "cancelled")
        found = await call(challenges.get, challenge_id)
        await tell(found.to_id, "cancelled", found, account.id)

    @router.get("/api/notifications", responses={401: ANSWERS[401]})
    async def notifications(account: Needed) -> NotificationList:
        """My notifications, newest first, and how many I have not seen."""
        return await call(notices.notifications.listed, account.id)

    @router.post("/api/notifications/read", status_code=204,
                 responses={**BAD_BODY, 401: ANSWERS[401]})
    async def seen(body: ReadUpTo, account: Needed) -> None:
        """I have seen my notifications up to ``upto``."""
        await call(notices.notifications.read, account.id, body.upto)

    return router


def _by(accounts: Accounts, name: str) -> Account:
    found = accounts.named(name)
    if found is None:
        raise Unknown(f"no account {name!r}")
    return found

