"""Finding people, as the operator and the moderators do: accounts by a piece of their
name or by their whole mail address, with when each signed up and was last seen, how
many games it played and what sanctions hold it; and every account a sanction of one
kind holds now.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> engine = Store("sqlite://").engine
>>> _ = Accounts(engine).sign_up("Anna", "correct horse")
>>> [(found.name, found.games, found.sanctions) for found in search(engine, "ANN")]
[('Anna', 0, [])]
>>> [found.name for found in search(engine, "anna@example.org")]  # none gave it
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.names import address_key, name_key
from bones.server.people.moderation import UNTIL
from bones.server.store.schema import (
    FOR_GOOD,
    AccountRow,
    PlayRow,
    SanctionRow,
    SessionRow,
    TokenRow,
    now,
)

__all__ = ["Found", "Held", "held", "search"]

@dataclass(frozen=True)
class Found:
    """An account as a search lists it: ``seen`` is its last session's or token's use,
    ``sanctions`` the kinds in force now (``ban``, ``mute``, ``suspend``), ``email`` the
    address it gave (confirmed or not; the operator is shown it, a moderator is not)."""

    name: str
    guest: bool
    created: datetime
    seen: datetime | None
    games: int
    sanctions: list[str]
    email: str | None = None


@dataclass(frozen=True)
class Held:
    """An account a sanction holds now: until when (None: for good), by whom and why
    (its latest sanction of that kind)."""

    name: str
    until: datetime | None
    by: str
    reason: str
    at: datetime


def search(engine: Engine, text: str = "", limit: int = 50, guests: bool = False
           ) -> list[Found]:
    """The accounts whose name holds ``text`` (any case; every account for none), or
    with an ``@`` in it the account that gave that whole address (a piece of one finds
    nothing: an address is not for browsing), members first by name, guests only with
    ``guests``."""
    if "@" in text:
        query = select(AccountRow).where(AccountRow.email == address_key(text))
    else:
        key = name_key(text).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = select(AccountRow).where(AccountRow.name_key.like(f"%{key}%", escape="\\"))
    if not guests:
        query = query.where(AccountRow.password.is_not(None))
    with Session(engine) as session:
        rows = session.scalars(query.order_by(AccountRow.password.is_(None),
                                              AccountRow.name_key).limit(limit)).all()
        ids = [row.id for row in rows]
        games = dict(session.execute(select(PlayRow.account_id, func.count()).where(
            PlayRow.account_id.in_(ids)).group_by(PlayRow.account_id)).all())
        seen = dict(session.execute(select(SessionRow.account_id, func.max(SessionRow.seen))
                                    .where(SessionRow.account_id.in_(ids))
                                    .group_by(SessionRow.account_id)).all())
        used = dict(session.execute(select(TokenRow.account_id, func.max(TokenRow.used))
                                    .where(TokenRow.account_id.in_(ids))
                                    .group_by(TokenRow.account_id)).all())
        at = now()
        return [Found(row.name, row.password is None, row.created,
                      max(filter(None, (seen.get(row.id), used.get(row.id))), default=None),
                      games.get(row.id, 0),
                      [kind for kind, column in UNTIL.items()
                       if (end := getattr(row, column)) is not None and end > at],
                      row.email)
                for row in rows]


def held(engine: Engine, kind: str = "ban", limit: int = 200) -> list[Held]:
    """Every account a sanction of ``kind`` holds now, the latest given first."""
    column = getattr(AccountRow, UNTIL[kind])
    at = now()
    with Session(engine) as session:
        latest = (select(SanctionRow.account_id, func.max(SanctionRow.id).label("id"))
                  .where(SanctionRow.kind == kind, SanctionRow.lifted.is_(None))
                  .group_by(SanctionRow.account_id).subquery())
        rows = session.execute(
            select(AccountRow.name, column, SanctionRow.by, SanctionRow.reason, SanctionRow.at)
            .join(latest, latest.c.account_id == AccountRow.id)
            .join(SanctionRow, SanctionRow.id == latest.c.id)
            .where(column > at).order_by(SanctionRow.id.desc()).limit(limit)).all()
        return [Held(name, None if until is None or until >= FOR_GOOD else until, by, reason,
                     when)
                for name, until, by, reason, when in rows]
