"""Players among others: whom they follow, to see which of them are online and what they
play (from who is here, :mod:`bones.server.meeting.presence`) and to watch in one tap;
and whom they block, to keep them away for good: the blocked one's chat lines do not
reach the blocker (at tables and in the lobby), quick match never seats the two together
(:mod:`bones.server.meeting.matching`), and they cannot follow the blocker. Each list is
the player's to read and undo.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> accounts = Accounts(Store("sqlite://").engine)
>>> ann, _ = accounts.sign_up("Ann", "correct horse")
>>> bob, _ = accounts.sign_up("Bob", "correct horse")
>>> blocks, follows = Blocks(accounts.engine), Follows(accounts.engine)
>>> follows.add(bob.id, "ann")
>>> blocks.add(ann.id, "bob")
>>> blocks.listed(ann.id), blocks.deaf(bob.id, [ann.id]), blocks.apart(bob.id)
(['Bob'], {1}, {1})
>>> follows.listed(bob.id)  # a block ends the blocked one's follow
[]
>>> blocks.among([ann.id, bob.id]) == {ann.id: {bob.id}, bob.id: {ann.id}}
True
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import delete, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session

from bones.server.people.moderation import named_row
from bones.server.store.schema import AccountRow, BlockRow, FollowRow, now

__all__ = ["Blocks", "Follows"]

Column = InstrumentedAttribute[int]


class _Pairs:
    """One kind of pair of accounts (who follows whom, who blocked whom) in a store:
    of ``row``'s ``columns``, the first holds who made the pair, the second the other
    (a tuple: a column alone on the class would be read as a descriptor). Each method
    is one transaction."""

    row: type[BlockRow] | type[FollowRow]
    columns: tuple[Column, Column]
    verb: str

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, who: int, name: str) -> None:
        """``who`` now follows (blocks) the account called ``name``; again: nothing
        changes."""
        other = self.id_of(name)
        if other == who:
            raise ValueError(f"you cannot {self.verb} yourself")
        self._allowed(who, other, name)
        try:
            with Session(self.engine) as session, session.begin():
                mine, theirs = self.columns
                session.add(self.row(**{mine.key: who, theirs.key: other}, at=now()))
                self._added(session, who, other)
        except IntegrityError:
            pass  # so already

    def _allowed(self, who: int, other: int, name: str) -> None:
        """Refuse (``PermissionError``) a pair that may not be."""

    def _added(self, session: Session, who: int, other: int) -> None:
        """What else changes with a new pair."""

    def remove(self, who: int, name: str) -> None:
        mine, theirs = self.columns
        with Session(self.engine) as session, session.begin():
            session.execute(delete(self.row).where(mine == who, theirs == self.id_of(name)))

    def listed(self, who: int) -> list[str]:
        """The names of those ``who`` follows (blocked), by name."""
        mine, theirs = self.columns
        with Session(self.engine) as session:
            return sorted(session.scalars(select(AccountRow.name).join(
                self.row, theirs == AccountRow.id).where(mine == who)), key=str.casefold)

    def id_of(self, name: str) -> int:
        """The id of the account called ``name`` (``Unknown`` if there is none)."""
        with Session(self.engine) as session:
            return named_row(session, name).id


class Follows(_Pairs):
    """Who follows whom. Nobody follows a player who blocked them."""

    row, columns, verb = FollowRow, (FollowRow.follower_id, FollowRow.followed_id), "follow"

    def _allowed(self, who: int, other: int, name: str) -> None:
        if Blocks(self.engine).deaf(who, [other]):
            raise PermissionError(f"{name} does not take followers from you")


class Blocks(_Pairs):
    """Who blocked whom. A block ends the blocked one's follow."""

    row, columns, verb = BlockRow, (BlockRow.blocker_id, BlockRow.blocked_id), "block"

    def _added(self, session: Session, who: int, other: int) -> None:
        session.execute(delete(FollowRow).where(FollowRow.follower_id == other,
                                                FollowRow.followed_id == who))

    def deaf(self, speaker: int, listeners: Collection[int]) -> set[int]:
        """Those of ``listeners`` who blocked ``speaker``: they do not hear them."""
        if not listeners:
            return set()
        with self.engine.connect() as connection:
            return set(connection.scalars(select(BlockRow.blocker_id).where(
                BlockRow.blocked_id == speaker, BlockRow.blocker_id.in_(listeners))))

    def among(self, accounts: Collection[int]) -> dict[int, set[int]]:
        """The blocks between ``accounts`` (either way): whom each is kept apart from."""
        query = select(BlockRow.blocker_id, BlockRow.blocked_id).where(
            BlockRow.blocker_id.in_(accounts), BlockRow.blocked_id.in_(accounts))
        kept: dict[int, set[int]] = {}
        with self.engine.connect() as connection:
            for a, b in connection.execute(query):
                kept.setdefault(a, set()).add(b)
                kept.setdefault(b, set()).add(a)
        return kept

    def apart(self, account: int) -> set[int]:
        """The accounts the account blocked, or that blocked it: never seated with it."""
        query = select(BlockRow.blocker_id, BlockRow.blocked_id).where(
            or_(BlockRow.blocker_id == account, BlockRow.blocked_id == account))
        with self.engine.connect() as connection:
            return {a if b == account else b for a, b in connection.execute(query)}
