"""Challenges: a player asks another by name (or whoever opens a link) to a table of
the rules, clock and rating they chose. The challenged accepts or declines; the
challenger may cancel; a challenge not answered within :data:`MINUTES` minutes is gone.
Nobody challenges a player they blocked or who blocked them, nor floods one
(:mod:`bones.server.people.quotas`). Accepting is taken by one
answer only (the first of two at once wins), and the table is made by the server
(:meth:`bones.server.tables.hub.Hub.seat_together`) with both in their seats.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> accounts = Accounts(Store("sqlite://").engine)
>>> ann, _ = accounts.sign_up("Ann", "correct horse")
>>> bob, _ = accounts.sign_up("Bob", "correct horse")
>>> challenges = Challenges(accounts.engine)
>>> made = challenges.make(ann.id, "bob", {"variant": "draw"})
>>> [c.by for c in challenges.waiting(bob.id)], challenges.take(made, bob.id).by
(['Ann'], 'Ann')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, aliased

from bones.server.people.moderation import Unknown
from bones.server.people.quotas import CHALLENGES, CHALLENGES_OPEN, CHALLENGES_TO_ONE, TooMany
from bones.server.people.relations import Blocks
from bones.server.store.schema import AccountRow, ChallengeRow, now

__all__ = ["MINUTES", "Challenge", "Challenges"]

MINUTES = 10
"""Minutes a challenge waits for its answer."""


@dataclass(frozen=True)
class Challenge:
    """A challenge as its two players see it."""

    id: str
    by: str
    by_id: int
    to: str | None
    """The player challenged; none for a link's (until it is taken)."""
    to_id: int | None
    spec: dict[str, Any]
    state: str
    expires: datetime
    table: str | None = None
    seat: dict[str, Any] | None = None


class Challenges:
    """The challenges in a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.blocks = Blocks(engine)

    def make(self, by: int, name: str | None, spec: dict[str, Any]) -> str:
        """A challenge from ``by`` to the player called ``name`` (none: a link for
        anyone) to the table ``spec`` describes; its id."""
        to = None if name is None else self.blocks.id_of(name)
        if to == by:
            raise ValueError("you cannot challenge yourself")
        if to is not None and to in self.blocks.apart(by):
            raise PermissionError(f"{name} cannot be challenged by you")
        made = secrets.token_urlsafe(12)
        with Session(self.engine) as session, session.begin():
            self._limit(session, by, to)
            session.add(ChallengeRow(id=made, from_id=by, to_id=to, spec=spec, created=now(),
                                     expires=now() + timedelta(minutes=MINUTES), state="open"))
        return made

    @staticmethod
    def _limit(session: Session, by: int, to: int | None) -> None:
        """Refuse (:class:`TooMany`) a challenge past what one player may make: one open
        to the same player, :data:`CHALLENGES_TO_ONE` to them in an hour,
        :data:`CHALLENGES_OPEN` open at once, :data:`CHALLENGES` in an hour in all."""
        mine = select(func.count()).select_from(ChallengeRow).where(ChallengeRow.from_id == by)
        live = (ChallengeRow.state == "open", ChallengeRow.expires > now())
        if to is not None:
            if session.scalar(mine.where(ChallengeRow.to_id == to, *live)):
                raise TooMany("you have challenged this player already; wait for their "
                              "answer", 60)
            CHALLENGES_TO_ONE.check(session.scalar(mine.where(
                ChallengeRow.to_id == to, ChallengeRow.created >= CHALLENGES_TO_ONE.since()))
                or 0, "challenges to one player")
        CHALLENGES_OPEN.check(session.scalar(mine.where(*live)) or 0, "open challenges")
        CHALLENGES.check(session.scalar(mine.where(
            ChallengeRow.created >= CHALLENGES.since())) or 0, "challenges")

    def get(self, challenge: str) -> Challenge:
        found = self._read(ChallengeRow.id == challenge)
        if not found:
            raise Unknown(f"no challenge {challenge!r}")
        return found[0]

    def waiting(self, account: int) -> list[Challenge]:
        """The open challenges to ``account`` and from it, newest first."""
        return self._read(ChallengeRow.state == "open", ChallengeRow.expires > now(),
                          (ChallengeRow.to_id == account) | (ChallengeRow.from_id == account))

    def take(self, challenge: str, account: int) -> Challenge:
        """``account`` accepts: the challenge is theirs to seat (no other answer counts
        from now on). Refused (``PermissionError``) if it is not theirs to take,
        (``ValueError``) if it is no longer open."""
        found = self.get(challenge)
        if found.by_id == account:
            raise PermissionError("this is your own challenge")
        if account in self.blocks.apart(found.by_id):
            raise PermissionError("this challenge is not open to you")
        with Session(self.engine) as session, session.begin():
            row = session.get_one(ChallengeRow, challenge)
            if row.to_id not in (None, account):
                raise PermissionError("this challenge is for another player")
            done = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge, ChallengeRow.state == "open",
                ChallengeRow.expires > now()).values(state="taken", to_id=account))
            if not done.rowcount:  # type: ignore[attr-defined]
                raise ValueError("this challenge was answered, cancelled or has expired")
        return found

    def seated(self, challenge: str, table: str, seat: dict[str, Any]) -> None:
        """The table is made: the challenger's ``seat`` is kept for them to read."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(ChallengeRow).where(ChallengeRow.id == challenge)
                            .values(state="accepted", table_id=table, seat=seat))

    def end(self, challenge: str, account: int, state: str) -> Challenge:
        """``declined`` by the player challenged, or ``cancelled`` by the challenger
        (``open`` again, when seating it failed)."""
        found = self.get(challenge)
        if account != (found.by_id if state == "cancelled" else found.to_id):
            raise PermissionError("this challenge is not yours to answer")
        with Session(self.engine) as session, session.begin():
            session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge, ChallengeRow.state.in_(("open", "taken")))
                .values(state=state))
        return found

    def _read(self, *where: Any) -> list[Challenge]:
        by, to = aliased(AccountRow), aliased(AccountRow)
        query = (select(ChallengeRow, by.name, to.name)
                 .join(by, by.id == ChallengeRow.from_id)
                 .outerjoin(to, to.id == ChallengeRow.to_id)
                 .where(*where).order_by(ChallengeRow.created.desc()).limit(50))
        with Session(self.engine) as session:
            return [Challenge(row.id, by_name, row.from_id, to_name, row.to_id, row.spec,
                              row.state, row.expires, row.table_id, row.seat)
                    for row, by_name, to_name in session.execute(query)]
