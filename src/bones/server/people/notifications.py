"""A player's notifications list: what was for them alone (a challenge to them and the
answer to theirs, a rematch offered at a table they played, a tournament starting),
kept in the store so that a page opened later, at any process, lists it; read or not.
A line is kept :data:`DAYS` days.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> accounts = Accounts(Store("sqlite://").engine)
>>> ann, _ = accounts.sign_up("Ann", "correct horse")
>>> bob, _ = accounts.sign_up("Bob", "correct horse")
>>> notifications = Notifications(accounts.engine)
>>> line = notifications.add(bob.id, "rematch", ann.id, table="t1", spec={"variant": "draw"})
>>> line.by, line.table, notifications.listed(bob.id).unread
('Ann', 't1', 1)
>>> notifications.read(bob.id, line.id)
>>> notifications.listed(bob.id).unread
0
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.protocol import NoticeKind, Notification, NotificationList, SanctionInfo
from bones.server.store.schema import AccountRow, NotificationRow, now

__all__ = ["DAYS", "SHOWN", "Notifications"]

DAYS = 30
"""Days a line is kept."""
SHOWN = 50
"""Lines a list holds at most, newest first."""


class Notifications:
    """The notifications of every player in a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, account: int, kind: NoticeKind, by: int | None = None, *,
            challenge: str | None = None, table: str | None = None,
            tournament: str | None = None, spec: dict[str, Any] | None = None
            ) -> Notification:
        """A new line for ``account``: ``kind`` done by ``by``, leading to ``challenge``,
        ``table`` or ``tournament``; lines older than :data:`DAYS` go."""
        return self.add_all([account], kind, by, challenge=challenge, table=table,
                            tournament=tournament, spec=spec)[account]

    def add_all(self, accounts: list[int], kind: NoticeKind, by: int | None = None, *,
                challenge: str | None = None, table: str | None = None,
                tournament: str | None = None, spec: dict[str, Any] | None = None
                ) -> dict[int, Notification]:
        """The same line for each of ``accounts``, in one transaction (a thousand
        entrants told a tournament began, one by one, held its first pairing up 30 s);
        each one's line."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(NotificationRow).where(
                NotificationRow.account_id.in_(accounts),
                NotificationRow.created < now() - timedelta(days=DAYS)))
            rows = [NotificationRow(account_id=account, kind=kind, created=now(), read=False,
                                    by_id=by, challenge_id=challenge, table_id=table,
                                    tournament_id=tournament, spec=spec)
                    for account in accounts]
            session.add_all(rows)
            session.flush()
            made = [row.id for row in rows]
        return dict(self._read(NotificationRow.id.in_(made)))

    def listed(self, account: int) -> NotificationList:
        """The newest :data:`SHOWN` lines of ``account``, and how many are unread."""
        with Session(self.engine) as session:
            unread = session.scalar(select(func.count()).where(
                NotificationRow.account_id == account, NotificationRow.read.is_(False)))
        return NotificationList(unread=unread or 0, items=[line for _, line in self._read(
            NotificationRow.account_id == account, limit=SHOWN)])

    def read(self, account: int, upto: int) -> None:
        """``account`` has seen every line up to the one numbered ``upto``."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(NotificationRow).where(
                NotificationRow.account_id == account, NotificationRow.id <= upto,
                NotificationRow.read.is_(False)).values(read=True))

    def _read(self, *where: Any, limit: int | None = None) -> list[tuple[int, Notification]]:
        """The lines ``where`` picks, newest first, each with its account."""
        query = (select(NotificationRow, AccountRow.name)
                 .outerjoin(AccountRow, AccountRow.id == NotificationRow.by_id)
                 .where(*where).order_by(NotificationRow.id.desc()).limit(limit))
        with Session(self.engine) as session:
            return [(row.account_id, Notification(
                id=row.id, kind=cast(NoticeKind, row.kind), created=row.created.isoformat(),
                read=row.read, by=name, challenge=row.challenge_id, table=row.table_id,
                tournament=row.tournament_id,
                **({"sanction": SanctionInfo.model_validate(row.spec)}
                   if row.kind == "sanction" else {"table_spec": row.spec})))
                for row, name in session.execute(query)]
