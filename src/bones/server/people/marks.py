"""What a ban leaves behind: the browsers and addresses the banned account used, and
the limits of a guest made from one of them for the ban's length (at most
:data:`MARK_DAYS` days).

A ban ends every session of the account; its browsers keep their (dead) session
cookie, so each is marked by that token's hash, and each address its sessions and tokens
were last seen from is marked too. A new guest made from a marked browser, or from a
marked address (one on the internet: never a proxy's), is *limited* until the mark
ends: it may not chat, make, join or be matched to public tables, or sign up (so no
rated play either); it may play bots and friends at a private table. Its own session is
marked in turn, so the browser stays marked however often it starts over. Lifting the
ban lifts its marks; an address shared by many (a school, a carrier's) is why a mark
lasts a month at most.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> from bones.server.people.devices import Where
>>> from bones.server.people.moderation import Moderation
>>> engine = Store("sqlite://").engine
>>> accounts = Accounts(engine)
>>> _, token = accounts.sign_up("Spammer", "correct horse", where=Where("81.2.69.160", ""))
>>> _ = Moderation(engine).sanction("operator", "Spammer", "ban", "scam links")
>>> accounts.guest(Where("81.2.69.160", ""))[0].limited_until is not None  # its address
True
>>> accounts.guest(Where("81.2.69.161", ""), token)[0].limited_until is not None  # browser
True
>>> accounts.guest(Where("81.2.69.161", ""))[0].limited_until is None  # neither
True
"""

from __future__ import annotations

from datetime import datetime, timedelta
from ipaddress import ip_address

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from bones.server.store.schema import MarkRow, SessionRow, TokenRow, now

__all__ = ["MARK_DAYS", "mark", "marked", "unmark"]

MARK_DAYS = 30
"""A ban marks its account's browsers and addresses for this long at most."""


def mark(session: Session, account: int, until: datetime | None) -> None:
    """Mark the browsers and the addresses of the account's sessions and tokens, until
    the ban's end (None: for good) or :data:`MARK_DAYS` days, whichever is first; in
    the ban's transaction, before its sessions end."""
    end = min(until or now() + timedelta(days=MARK_DAYS), now() + timedelta(days=MARK_DAYS))
    browsers = set(session.scalars(select(SessionRow.token_hash).where(
        SessionRow.account_id == account)))
    addresses = {a for a in (*session.scalars(select(SessionRow.address).where(
        SessionRow.account_id == account)), *session.scalars(select(TokenRow.address).where(
            TokenRow.account_id == account))) if a and _public(a)}
    session.add_all([MarkRow(account_id=account, kind="browser", value=value, until=end)
                     for value in browsers])
    session.add_all([MarkRow(account_id=account, kind="address", value=value, until=end)
                     for value in addresses])


def _public(address: str) -> bool:
    """Whether an address is one on the internet: a proxy's own (a loopback, a private
    network's: a server not told to trust its proxy sees only that) is every player's,
    and is never marked.

    >>> _public("81.2.69.160"), _public("127.0.0.1"), _public("10.0.0.7"), _public("?")
    (True, False, False, False)
    """
    try:
        return ip_address(address).is_global
    except ValueError:
        return False


def unmark(session: Session, account: int) -> None:
    """Lift the marks the account's ban left (its ban was lifted)."""
    session.execute(delete(MarkRow).where(MarkRow.account_id == account))


def marked(session: Session, browser: str | None, address: str | None) -> MarkRow | None:
    """The mark in force on this browser (its session token's hash) or address that
    ends last, if any."""
    if browser is None and address is None:
        return None
    return session.scalar(select(MarkRow).where(
        or_((MarkRow.kind == "browser") & (MarkRow.value == (browser or "")),
            (MarkRow.kind == "address") & (MarkRow.value == (address or ""))),
        MarkRow.until > now()).order_by(MarkRow.until.desc()).limit(1))
