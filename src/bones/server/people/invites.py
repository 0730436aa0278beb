"""Invitations to sign up, while the operator keeps sign-ups to them (``--signups
invite``): ``bones admin invite`` prints links, each signs up one account within
:data:`INVITE_DAYS` days. Kept as hashes, as every token.

>>> from bones.server.store.records import Store
>>> engine = Store("sqlite://").engine
>>> token = invite(engine)
>>> valid(engine, token), valid(engine, "made up")
(True, False)
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.store.records import hash_token
from bones.server.store.schema import InviteRow, now

__all__ = ["INVITE_DAYS", "invite", "use", "valid"]

INVITE_DAYS = 14
"""Days an invitation works."""


def invite(engine: Engine, days: float = INVITE_DAYS) -> str:
    """A new invitation's token, working ``days`` days."""
    token = secrets.token_urlsafe(24)
    with Session(engine) as session, session.begin():
        session.add(InviteRow(token_hash=hash_token(token),
                              expires=now() + timedelta(days=days)))
    return token


def valid(engine: Engine, token: str) -> bool:
    """Whether the invitation is there, unused and not expired (its use may still lose
    a race: :func:`use` decides)."""
    with Session(engine) as session:
        row = session.get(InviteRow, hash_token(token))
        return row is not None and row.used is None and row.expires > now()


def use(session: Session, token: str, account: int) -> bool:
    """Spend the invitation on ``account``, in the sign-up's transaction: whether it
    could be (once only)."""
    spent = session.execute(update(InviteRow).where(
        InviteRow.token_hash == hash_token(token), InviteRow.used.is_(None),
        InviteRow.expires > now()).values(used=now(), account_id=account))
    return bool(spent.rowcount)  # type: ignore[attr-defined]
