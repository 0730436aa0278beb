"""An account's name changed by the site (a moderator's rename, or its closing): the new
name shown everywhere the old one was (its seats, its chat lines, its finished games'
names, which lists, replays and moderators read), while the audit log keeps the old; and
the old name kept from everyone else for the days the operator sets
(``--kept-names-days``), look-alikes too, so nobody takes a name over the moment its
owner lost it.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> accounts = Accounts(Store("sqlite://").engine)
>>> ann, _ = accounts.sign_up("Ann", "correct horse")
>>> with Session(accounts.engine) as session, session.begin():
...     show_as(session, ann.id, "Player123456", "Ann", "renamed", days=30)
>>> kept_until(accounts.engine, "ANN") is not None, kept_until(accounts.engine, "Bob")
(True, None)
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.names import name_key, skeleton
from bones.server.store.schema import (
    AccountRow,
    ChatRow,
    GameRow,
    KeptNameRow,
    PlayRow,
    SeatRow,
    names_of,
    now,
)

__all__ = ["KEPT_DAYS", "kept_until", "show_as"]

KEPT_DAYS = 180.0
"""Days an old name is kept from others by default."""


def show_as(session: Session, account: int, new: str, old: str, why: str,
            days: float = KEPT_DAYS) -> None:
    """Name ``account`` ``new`` everywhere it is shown, and keep ``old`` (``why``:
    ``renamed`` or ``closed``) from others for ``days``."""
    row = session.get_one(AccountRow, account)
    row.name, row.name_key = new, name_key(new)
    row.skeleton = skeleton(new) if why == "renamed" else None
    session.execute(update(SeatRow).where(SeatRow.account_id == account).values(name=new))
    session.execute(update(ChatRow).where(ChatRow.account_id == account).values(name=new))
    for game in session.scalars(select(GameRow).join(
            PlayRow, PlayRow.table_id == GameRow.table_id).where(PlayRow.account_id == account)):
        game.names = names_of(game.names, game.accounts, {account: new})
    if days > 0:
        form = skeleton(old)
        session.execute(delete(KeptNameRow).where(KeptNameRow.skeleton == form))
        session.add(KeptNameRow(skeleton=form, until=now() + timedelta(days=days), why=why))


def kept_until(engine: Engine, name: str) -> datetime | None:
    """Until when ``name`` (or one that looks like it) is kept from new accounts, if it
    is."""
    with Session(engine) as session:
        return session.scalar(select(KeptNameRow.until).where(
            KeptNameRow.skeleton == skeleton(name), KeptNameRow.until > now()))
