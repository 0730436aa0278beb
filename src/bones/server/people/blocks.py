"""Blocks: a player keeps another away for good. The blocked one's chat lines do not
reach the blocker (at tables and in the lobby), and quick match never seats the two
together (:mod:`bones.server.meeting.matching`); the blocker lists and undoes them.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> accounts = Accounts(Store("sqlite://").engine)
>>> ann, _ = accounts.sign_up("Ann", "correct horse")
>>> bob, _ = accounts.sign_up("Bob", "correct horse")
>>> blocks = Blocks(accounts.engine)
>>> blocks.block(ann.id, "bob")
>>> blocks.listed(ann.id), blocks.deaf(bob.id, [ann.id]), blocks.apart(bob.id)
(['Bob'], {1}, {1})
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import delete, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bones.server.names import name_key
from bones.server.people.moderation import Unknown
from bones.server.store.schema import AccountRow, BlockRow, now

__all__ = ["Blocks"]


class Blocks:
    """Who blocked whom, in a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def block(self, blocker: int, name: str) -> None:
        """``blocker`` blocks the account called ``name`` (again: nothing changes)."""
        blocked = self._id(name)
        if blocked == blocker:
            raise ValueError("you cannot block yourself")
        try:
            with Session(self.engine) as session, session.begin():
                session.add(BlockRow(blocker_id=blocker, blocked_id=blocked, at=now()))
        except IntegrityError:
            pass  # blocked already

    def unblock(self, blocker: int, name: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(delete(BlockRow).where(BlockRow.blocker_id == blocker,
                                                   BlockRow.blocked_id == self._id(name)))

    def listed(self, blocker: int) -> list[str]:
        """The names ``blocker`` blocked, in the order blocked."""
        with Session(self.engine) as session:
            return list(session.scalars(select(AccountRow.name).join(
                BlockRow, BlockRow.blocked_id == AccountRow.id)
                .where(BlockRow.blocker_id == blocker).order_by(BlockRow.at)))

    def deaf(self, speaker: int, listeners: Collection[int]) -> set[int]:
        """Those of ``listeners`` who blocked ``speaker``: they do not hear them."""
        if not listeners:
            return set()
        with self.engine.connect() as connection:
            return set(connection.scalars(select(BlockRow.blocker_id).where(
                BlockRow.blocked_id == speaker, BlockRow.blocker_id.in_(listeners))))

    def apart(self, account: int) -> set[int]:
        """The accounts the account blocked, or that blocked it: never seated with it."""
        query = select(BlockRow.blocker_id, BlockRow.blocked_id).where(
            or_(BlockRow.blocker_id == account, BlockRow.blocked_id == account))
        with self.engine.connect() as connection:
            return {a if b == account else b for a, b in connection.execute(query)}

    def _id(self, name: str) -> int:
        with self.engine.connect() as connection:
            found = connection.scalar(select(AccountRow.id)
                                      .where(AccountRow.name_key == name_key(name)))
        if found is None:
            raise Unknown(f"no account {name!r}")
        return int(found)
