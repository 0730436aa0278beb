"""Which devices an account is signed in on: its sessions (a browser each) and API tokens
(a program each), where each was last seen from and when, and signing one out.

A session is named to its player by a short id, the first 16 hex digits of its token's
hash: it opens nothing (the cookie holds the token, the store its whole hash) and it is
the ``device`` a socket tells the server (``edge.auth.device``), so that the sockets of
a session signed out can be found and closed at every process (``Presence.recheck``).
Where a session was seen is stamped when it is used, at most every :data:`SEEN_EVERY`
from one place: a request costs no write.

>>> browser_of("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")
'Firefox · Linux'
>>> browser_of("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
...            "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
'Safari · iOS'
>>> browser_of("python-httpx/0.28.1")
'python-httpx'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Literal, NamedTuple

from sqlalchemy import Update, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.store.records import hash_token
from bones.server.store.schema import SessionRow, TokenRow, now

__all__ = ["SEEN_EVERY", "Device", "Where", "browser_of", "device_id", "devices",
           "live_devices", "revoke_tokens", "revoking", "sign_out", "stamp"]

SEEN_EVERY = timedelta(minutes=5)
"""A session seen again from where it was is stamped no oftener than this."""
ID_DIGITS = 16
"""Hex digits of a session's id (64 bits): unguessable, and never the token."""
BROWSERS = (("Edg", "Edge"), ("OPR", "Opera"), ("SamsungBrowser", "Samsung Internet"),
            ("YaBrowser", "Yandex"), ("Firefox", "Firefox"), ("FxiOS", "Firefox"),
            ("CriOS", "Chrome"), ("Chromium", "Chromium"), ("Chrome", "Chrome"),
            ("HeadlessChrome", "Chrome"),
            ("Version", "Safari"))
"""A product token of a browser's User-Agent and its name, the first found winning
(Edge and Opera say Chrome too, Chrome says Safari)."""
SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iOS"), ("CrOS", "ChromeOS"),
           ("Windows", "Windows"), ("Mac OS X", "macOS"), ("Linux", "Linux"))


class Where(NamedTuple):
    """Where a request comes from: its address (as the proxy gave it, behind
    ``--trust-proxy``) and its browser (:func:`browser_of`)."""

    address: str
    browser: str


@dataclass(frozen=True)
class Device:
    """A session (``kind`` ``session``, its :func:`device_id`) or an API token (``token``,
    its number and label) of an account, where and when it was last seen."""

    kind: Literal["session", "token"]
    id: str
    label: str
    browser: str | None
    address: str | None
    created: datetime
    seen: datetime | None


@lru_cache(maxsize=1024)
def browser_of(user_agent: str) -> str:
    """A browser's name and system from its User-Agent (``Firefox · Android``), or a
    program's first product token (``python-httpx``); empty when it says nothing. Asked
    on every signed-in request, of a few strings: each is read once."""
    if not user_agent.startswith("Mozilla/"):
        return user_agent.split("/", 1)[0].split(" ", 1)[0][:40]
    products = dict(re.findall(r"([A-Za-z][\w.-]*)/([\w.]+)", user_agent))
    browser = next((name for token, name in BROWSERS if token in products), None)
    system = next((name for token, name in SYSTEMS if token in user_agent), None)
    return " · ".join(part for part in (browser, system) if part)


def device_id(token: str) -> str:
    """The id of the session (or token) ``token``, as its player and sockets know it.

    >>> device_id("some session token")
    'fb81b6dd8479ef78'
    """
    return hash_token(token)[:ID_DIGITS]


def stamp(row: SessionRow | TokenRow, where: Where | None) -> None:
    """Note on a session's or a token's row that it was just used from ``where``: at once
    from a new place, else every :data:`SEEN_EVERY` (the caller's transaction writes
    it)."""
    if where is None:
        return
    place = (where.address[:45], where.browser[:40])  # as the columns keep them
    moved = (row.address, row.browser) != place
    due = isinstance(row, SessionRow) and (row.seen is None or now() - row.seen >= SEEN_EVERY)
    if moved or due:
        row.address, row.browser = place
        if isinstance(row, SessionRow):
            row.seen = now()


def devices(engine: Engine, account: int) -> list[Device]:
    """The account's sessions not expired, last seen first, then its API tokens not
    revoked, oldest first."""
    with Session(engine) as session:
        found = [Device("session", s.token_hash[:ID_DIGITS], "", s.browser, s.address,
                        s.created, s.seen or s.created)
                 for s in session.scalars(select(SessionRow).where(
                     SessionRow.account_id == account, SessionRow.expires > now()))]
        found.sort(key=lambda d: d.seen or d.created, reverse=True)
        found += [Device("token", str(t.id), t.label, t.browser, t.address, t.created, t.used)
                  for t in session.scalars(select(TokenRow).where(
                      TokenRow.account_id == account, TokenRow.revoked.is_(None))
                      .order_by(TokenRow.id))]
        return found


def sign_out(engine: Engine, account: int, *, only: str | None = None,
             keep: str | None = None) -> int:
    """End the account's session whose id is ``only``, or every one but ``keep``'s:
    how many ended. Their sockets are closed by ``Presence.recheck``."""
    ended = delete(SessionRow).where(SessionRow.account_id == account)
    if only is not None:
        if not re.fullmatch(f"[0-9a-f]{{{ID_DIGITS}}}", only):
            return 0
        ended = ended.where(SessionRow.token_hash.startswith(only, autoescape=True))
    if keep is not None:
        ended = ended.where(~SessionRow.token_hash.startswith(keep, autoescape=True))
    with Session(engine) as session, session.begin():
        return int(session.execute(ended).rowcount)  # type: ignore[attr-defined]


def revoking(account: int, only: int | None = None) -> Update:
    """The statement that revokes the account's API token numbered ``only``, or every
    one not yet revoked, now (for a transaction of the caller's: a ban, a new password)."""
    revoked = update(TokenRow).where(TokenRow.account_id == account,
                                     TokenRow.revoked.is_(None))
    if only is not None:
        revoked = revoked.where(TokenRow.id == only)
    return revoked.values(revoked=now())


def revoke_tokens(engine: Engine, account: int, only: int | None = None) -> int:
    """Revoke the account's API token numbered ``only``, or every one: how many were."""
    with Session(engine) as session, session.begin():
        return int(session.execute(revoking(account, only)).rowcount)  # type: ignore[attr-defined]


def live_devices(engine: Engine, account: int) -> set[str]:
    """The ids of the account's sessions not expired and of its tokens not revoked, as
    sockets give them (:func:`device_id`): a socket of any other was signed out."""
    with Session(engine) as session:
        hashes = session.scalars(select(SessionRow.token_hash).where(
            SessionRow.account_id == account, SessionRow.expires > now()))
        tokens = session.scalars(select(TokenRow.token_hash).where(
            TokenRow.account_id == account, TokenRow.revoked.is_(None)))
        return {h[:ID_DIGITS] for h in (*hashes, *tokens)}
