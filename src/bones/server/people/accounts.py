"""Who is playing: guests, accounts with a password, their sessions and API tokens.

Everyone who opens the site is an account at once, a guest with a generated name held by
a session cookie; signing up gives that same account the name and password chosen, so
its games and statistics stay with it. A program plays as an account through a personal
API token, and the account is shown as a bot from then on. Passwords are argon2 hashes;
session and API tokens are kept as SHA-256 hashes, so a copy of the database signs
nobody in.

>>> from bones.server.store.records import Store
>>> accounts = Accounts(Store("sqlite://").engine)
>>> guest, session = accounts.guest()
>>> guest.name.startswith("Guest"), guest.guest
(True, True)
>>> ann, _ = accounts.sign_up("Ann", "correct horse", session)
>>> (ann.id, ann.name, ann.guest) == (guest.id, "Ann", False)
True
>>> accounts.log_in("ann", "wrong password")
Traceback (most recent call last):
...
bones.server.people.accounts.Refused: wrong name or password
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import bindparam, delete, exists, select, update
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bones.server.names import check_display, kept, name_key, skeleton
from bones.server.people.devices import Where, revoke_tokens, revoking, stamp
from bones.server.people.hashing import Hasher
from bones.server.people.invites import use, valid
from bones.server.people.marks import marked
from bones.server.people.renaming import kept_until
from bones.server.people.words import Words
from bones.server.store.records import hash_token
from bones.server.store.schema import (
    FOR_GOOD,
    AccountRow,
    ChatRow,
    MarkRow,
    ReportRow,
    ResetRow,
    SeatRow,
    SessionRow,
    TokenRow,
    now,
)

__all__ = [
    "GUEST_DAYS",
    "NAME",
    "SESSION_DAYS",
    "Account",
    "Accounts",
    "ApiToken",
    "Coded",
    "InviteNeeded",
    "Refused",
    "Sanctioned",
    "Signups",
    "SignupsClosed",
    "WordInName",
    "WordInText",
    "check_name",
    "check_sanction",
    "forget_guests",
    "reset_link",
]

SESSION_DAYS = 30
"""A session lasts this long after it was last renewed (renewed halfway through)."""
TOKEN_PREFIX = "bones_"
GUEST_DIGITS = (6, 8, 10, 12)
"""The digits of a guest's name: more once the shorter are hard to find free."""
RESET_HOURS = 24
"""Hours a one-time link to set a new password works."""
GUEST_DAYS = 1
"""Days after which a guest who never played nor chatted is forgotten."""
FORGOTTEN_AT_ONCE = 10_000
"""Guests forgotten in one transaction at most."""
NAME = r"^[^\W_][\w-]{1,23}$"
"""The form of a name an account may claim (Python's and JSON Schema's regex)."""


log = logging.getLogger("bones.server")


Signups = Literal["open", "invite", "closed"]
"""Who may sign up (``--signups``): anyone, whoever has an invitation, or nobody."""


class Refused(ValueError):
    """A request about an account that cannot be done: the text says why."""


class Coded(Refused):
    """A refusal the page says in the player's words, by its ``code``; the answer's
    HTTP ``status``."""

    code = "refused"
    status = 400
    until: datetime | None = None


class WordInName(Coded):
    """A name holding a word the operator refuses (``--words``)."""

    code, status = "word_in_name", 409


class WordInText(Coded):
    """A text the site shows to others (a tournament's name, a token's label) holding a
    word the operator refuses."""

    code, status = "word_in_text", 409


class SignupsClosed(Coded):
    """Sign-ups are closed (``--signups closed``)."""

    code, status = "signups_closed", 403


class InviteNeeded(SignupsClosed):
    """Sign-ups are by invitation (``--signups invite``) and none valid was given."""

    code = "invite_needed"


class Sanctioned(Coded):
    """What a sanction in force forbids (``code``: ``banned``, ``suspended``, ``muted``
    or ``limited``), until when (None: for good)."""

    status = 403

    def __init__(self, code: str, until: datetime | None) -> None:
        self.code, self.until = code, None if until == FOR_GOOD else until
        end = "for good" if self.until is None else f"until {self.until:%Y-%m-%d %H:%M} UTC"
        super().__init__(f"{WHAT[code]} {end}")


WHAT = {"banned": "this account is banned",
        "suspended": "you may play only bots (suspended)",
        "muted": "you may not chat (muted)",
        "limited": "a banned account used this browser or address: no chat, public tables, "
                   "play now or sign-up"}


@dataclass(frozen=True)
class Account:
    """A player as the rest of the server sees one: with the roles the operator gave
    them and the ends of the sanctions in force (:mod:`.moderation`), read with the
    account on every request."""

    id: int
    name: str
    guest: bool
    bot: bool
    roles: frozenset[str] = frozenset()
    muted_until: datetime | None = None
    suspended_until: datetime | None = None
    limited_until: datetime | None = None
    """A guest of a banned account's browser or address (:mod:`.marks`)."""

    def check(self, *kinds: str) -> None:
        """Refuse (:class:`Sanctioned`) what a sanction of ``kinds`` in force forbids
        (``suspended``, ``muted``, ``limited``)."""
        for code in kinds:
            check_sanction(code, getattr(self, f"{code}_until"))


@dataclass(frozen=True)
class ApiToken:
    """A personal API token as listed to its owner (the token itself is shown once)."""

    id: int
    label: str
    created: datetime
    used: datetime | None
    address: str | None = None
    """Where it was last used from, and by what program (``people.devices``)."""
    browser: str | None = None


def check_name(name: str) -> str:
    """A name an account may claim: 2-24 letters, digits, ``_`` or ``-``, starting with a
    letter or digit, of one script and nothing that renders blank; names that look like
    those the server gives (guests, closed accounts, bots, renamed players) are kept.

    >>> check_name("Ann_2")
    'Ann_2'
    >>> check_name("guest-12")
    Traceback (most recent call last):
    ...
    bones.server.people.accounts.Refused: names starting with "guest" or "deleted" are kept
    """
    if not re.fullmatch(NAME, name):
        raise Refused("a name has 2-24 letters, digits, _ or -, and starts with a letter "
                      "or digit")
    try:
        check_display(name)
    except ValueError as error:
        raise Refused(str(error)) from None
    why = kept(name)
    if why is not None:
        raise Refused(why)
    return name


_NAMED = select(AccountRow.id, AccountRow.name, AccountRow.guest.label("guest"),
                AccountRow.bot).where(AccountRow.name_key == bindparam("key"))


_LIKE = select(AccountRow.id, AccountRow.name, AccountRow.guest.label("guest"),
               AccountRow.bot).where(AccountRow.skeleton == bindparam("skeleton"))


def _account(row: AccountRow | Row[int, str, bool, bool]) -> Account:
    if isinstance(row, AccountRow):
        return Account(row.id, row.name, row.guest, row.bot, frozenset(row.roles.split()),
                       row.muted_until, row.suspended_until, row.limited_until)
    return Account(row.id, row.name, row.guest, row.bot)


def check_sanction(code: str, until: datetime | None) -> None:
    """Refuse (:class:`Sanctioned`) what a sanction (``code``) ending at ``until``
    forbids, if it is in force."""
    if until is not None and until > now():
        raise Sanctioned(code, until)


class Accounts:
    """The accounts in a store. Each method is one transaction."""

    def __init__(self, engine: Engine, hasher: Hasher | None = None,
                 words: Words | None = None, signups: Signups = "open") -> None:
        self.engine = engine
        self.hasher = hasher or Hasher()
        self.words = words or Words(None)
        """The operator's refused words (``--words``): no name may hold one."""
        self.signups: Signups = signups

    # -- signing in ----------------------------------------------------------------------

    def guest(self, where: Where | None = None, old: str | None = None
              ) -> tuple[Account, str]:
        """A new guest account and the token of its session. Its name is ``Guest`` and
        six digits while those are easily found free, then longer: the names never run
        out (and guests who never played are forgotten, :meth:`forget_guests`). Made
        from a browser (its ``old`` session token) or an address a banned account used,
        it is limited as :mod:`.marks` says."""
        for attempt in range(GUEST_DIGITS[-1]):
            digits = GUEST_DIGITS[min(attempt // 3, len(GUEST_DIGITS) - 1)]
            name = f"Guest{secrets.randbelow(10**digits):0{digits}d}"
            try:
                with Session(self.engine) as session, session.begin():
                    found = marked(session, old and hash_token(old), where and where.address)
                    row = AccountRow(name=name, name_key=name_key(name), bot=False,
                                     skeleton=skeleton(name))
                    if found is not None:
                        row.muted_until = row.limited_until = found.until
                    session.add(row)
                    session.flush()
                    token = self._session(session, row.id, where)
                    if found is not None:  # the browser stays marked
                        session.add(MarkRow(account_id=found.account_id, kind="browser",
                                            value=hash_token(token), until=found.until))
                    return _account(row), token
            except IntegrityError:
                continue
        raise Refused("no guest name is free just now; try again")

    def forget_guests(self, before: datetime) -> int:
        """Forget the guests made before ``before`` who never took a seat or said a
        word (their sessions with them): how many."""
        idle = (select(AccountRow.id).where(
            AccountRow.password.is_(None), AccountRow.created < before,
            ~exists().where(SeatRow.account_id == AccountRow.id),
            ~exists().where(ChatRow.account_id == AccountRow.id),
            ~exists().where(ReportRow.reporter_id == AccountRow.id)))
        with Session(self.engine) as session, session.begin():
            ids = list(session.scalars(idle.limit(FORGOTTEN_AT_ONCE)))
            if ids:
                session.execute(delete(SessionRow).where(SessionRow.account_id.in_(ids)))
                session.execute(delete(AccountRow).where(AccountRow.id.in_(ids)))
            return len(ids)

    def sign_up(self, name: str, password: str, token: str | None = None,
                where: Where | None = None, invite: str | None = None
                ) -> tuple[Account, str]:
        """Claim ``name`` with ``password``. The guest of ``token``'s session becomes
        the account, keeping its games; anyone else gets a new one. Answers the account
        and the token of a new session (the old one ends). While sign-ups are by
        invitation, ``invite`` is one (:mod:`.invites`), spent here."""
        self._may_sign_up(invite)
        check_name(name)
        if self.words.in_name(name):
            raise WordInName("that name holds a word not allowed here")
        if self.named(name) is not None or self.like(name) is not None:  # before the hash
            raise Refused(f"the name {name!r} is taken, or looks like one that is")
        if self.given_up(name):
            raise Refused(f"the name {name!r} was given up lately and is kept for a while")
        current = self.by_session(token) if token else None
        if current is not None and current.guest:
            current.check("limited")
        else:
            with Session(self.engine) as session:
                found = marked(session, None, where and where.address)
            check_sanction("limited", None if found is None else found.until)
        hashed = self.hasher.hash(password)
        try:
            with Session(self.engine) as session, session.begin():
                if current is not None and current.guest:
                    row = session.get_one(AccountRow, current.id)
                    row.name, row.name_key, row.password = name, name_key(name), hashed
                    row.skeleton = skeleton(name)
                    self._end(session, token)
                else:
                    row = AccountRow(name=name, name_key=name_key(name), password=hashed,
                                     bot=False, skeleton=skeleton(name))
                    session.add(row)
                session.flush()
                if self.signups == "invite" and not use(session, invite or "", row.id):
                    raise InviteNeeded("this invitation has been used or has expired")
                return _account(row), self._session(session, row.id, where)
        except IntegrityError:
            raise Refused(f"the name {name!r} is taken, or looks like one that is") from None

    def _may_sign_up(self, invite: str | None) -> None:
        """Refuse a sign-up the site's mode does not let in, before anything is read
        of the name (nobody uninvited learns which names are taken)."""
        if self.signups == "closed":
            raise SignupsClosed("sign-ups are closed on this site")
        if self.signups == "invite" and not (invite and valid(self.engine, invite)):
            raise InviteNeeded("sign-ups here are by invitation: this one is missing, used "
                               "or expired")

    def log_in(self, name: str, password: str, where: Where | None = None
               ) -> tuple[Account, str]:
        """The account of that name (any case) if the password is right, and the token
        of a new session. The password is checked with no transaction open, so logins
        waiting for the hasher hold none of the store's connections."""
        with Session(self.engine) as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
        if row is None or row.password is None or not self.hasher.verify(row.password, password):
            raise Refused("wrong name or password")
        check_sanction("banned", row.banned_until)
        again = self.hasher.hash(password) if self.hasher.check_needs_rehash(row.password) else None
        with Session(self.engine) as session, session.begin():
            if again is not None:
                session.execute(update(AccountRow).where(AccountRow.id == row.id)
                                .values(password=again))
            return _account(row), self._session(session, row.id, where)

    def confirm(self, account: int, password: str | None) -> None:
        """Refuse (:class:`Refused`) unless ``password`` is the account's (a guest has
        none to give): what closing an account asks."""
        with Session(self.engine) as session:
            hashed = session.get_one(AccountRow, account).password
        if hashed is not None and (password is None or not self.hasher.verify(hashed, password)):
            raise Refused("the password is wrong")

    def log_out(self, token: str) -> None:
        with Session(self.engine) as session, session.begin():
            self._end(session, token)

    def change_password(self, token: str, old: str, new: str, revoke_tokens: bool = False
                        ) -> None:
        """A new password for the session's account: every other session of it ends, and
        with ``revoke_tokens`` every API token; this one goes on (its pages' sockets stay
        open). The old password is checked before the new one is hashed: a wrong one
        costs one hash, not two."""
        account = self.by_session(token)
        if account is None or account.guest:
            raise Refused("sign up before you set a password")
        with Session(self.engine) as session:
            current = session.get_one(AccountRow, account.id).password
        if current is None or not self.hasher.verify(current, old):
            raise Refused("the old password is wrong")
        hashed = self.hasher.hash(new)
        with Session(self.engine) as session, session.begin():
            session.execute(update(AccountRow).where(AccountRow.id == account.id)
                            .values(password=hashed))
            session.execute(delete(SessionRow).where(
                SessionRow.account_id == account.id,
                SessionRow.token_hash != hash_token(token)))
            if revoke_tokens:
                session.execute(revoking(account.id))

    def reset_token(self, name: str) -> str:
        """A one-time token that sets a new password for the account called ``name``
        within :data:`RESET_HOURS` hours (the operator hands it over as a link); an
        earlier one stops working."""
        with Session(self.engine) as session, session.begin():
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            if row is None or row.password is None:
                raise Refused(f"no signed-up account {name!r}")
            return reset_link(session, row.id, timedelta(hours=RESET_HOURS))

    def reset_password(self, token: str, new: str, where: Where | None = None
                       ) -> tuple[Account, str]:
        """Set a new password with a one-time token: every session of the account ends,
        and a new one begins (answered with the account)."""
        with Session(self.engine) as session:
            row = session.get(ResetRow, hash_token(token))
            if row is None or row.expires <= now():
                raise Refused("this link has been used or has expired; ask for another")
            account = row.account_id
        hashed = self.hasher.hash(new)
        with Session(self.engine) as session, session.begin():
            gone = session.execute(delete(ResetRow).where(
                ResetRow.token_hash == hash_token(token)))
            if not gone.rowcount:  # type: ignore[attr-defined]
                raise Refused("this link has been used or has expired; ask for another")
            found = session.get_one(AccountRow, account)
            check_sanction("banned", found.banned_until)
            found.password = hashed
            session.execute(delete(SessionRow).where(SessionRow.account_id == account))
            return _account(found), self._session(session, account, where)

    @staticmethod
    def _session(session: Session, account: int, where: Where | None) -> str:
        token = secrets.token_urlsafe(32)
        row = SessionRow(token_hash=hash_token(token), account_id=account,
                         expires=now() + timedelta(days=SESSION_DAYS))
        stamp(row, where)
        session.add(row)
        return token

    @staticmethod
    def _end(session: Session, token: str | None) -> None:
        if token:
            session.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(token)))

    # -- who is asking -------------------------------------------------------------------

    def by_session(self, token: str, where: Where | None = None) -> Account | None:
        """The account signed in with this session token, if it has not expired; a
        session past half its life is renewed, and one used from ``where`` says so
        (``devices.stamp``)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(SessionRow, hash_token(token))
            if row is None or row.expires <= now():
                return None
            if row.expires - now() < timedelta(days=SESSION_DAYS / 2):
                row.expires = now() + timedelta(days=SESSION_DAYS)
            stamp(row, where)
            return _account(session.get_one(AccountRow, row.account_id))

    def by_api_token(self, token: str, where: Where | None = None) -> Account | None:
        """The account of a personal API token not revoked (used now, from ``where``); it
        is a bot account from now on."""
        with Session(self.engine) as session, session.begin():
            row = session.scalar(select(TokenRow).where(
                TokenRow.token_hash == hash_token(token), TokenRow.revoked.is_(None)))
            if row is None:
                return None
            row.used = now()
            stamp(row, where)
            account = session.get_one(AccountRow, row.account_id)
            account.bot = True
            return _account(account)

    def named(self, name: str) -> Account | None:
        """The account called ``name`` (in any case)."""
        # Asked twice for every table two guests make and join: a core statement built
        # once costs about a fifth of an ORM session's query (150 against 650 µs here).
        with self.engine.connect() as connection:
            row = connection.execute(_NAMED, {"key": name_key(name)}).first()
            return None if row is None else _account(row)

    def given_up(self, name: str) -> bool:
        """Whether ``name`` (or a look-alike) was given up lately by a renamed or closed
        account and is kept from others for now (``people.renaming``)."""
        return kept_until(self.engine, name) is not None

    def like(self, name: str) -> Account | None:
        """The account whose name ``name`` would pass for (the same skeleton)."""
        with self.engine.connect() as connection:
            row = connection.execute(_LIKE, {"skeleton": skeleton(name)}).first()
            return None if row is None else _account(row)

    # -- API tokens ----------------------------------------------------------------------

    def create_token(self, account: Account, label: str) -> tuple[ApiToken, str]:
        """A new personal API token: the token is answered here and never again."""
        if account.guest:
            raise Refused("sign up before you make API tokens")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with Session(self.engine) as session, session.begin():
            row = TokenRow(account_id=account.id, token_hash=hash_token(token), label=label)
            session.add(row)
            session.flush()
            return ApiToken(row.id, row.label, row.created, None), token

    def tokens(self, account: Account) -> list[ApiToken]:
        """The account's tokens not revoked, oldest first."""
        with Session(self.engine) as session:
            rows = session.scalars(select(TokenRow).where(
                TokenRow.account_id == account.id, TokenRow.revoked.is_(None))
                .order_by(TokenRow.id))
            return [ApiToken(r.id, r.label, r.created, r.used, r.address, r.browser)
                    for r in rows]

    def revoke(self, account: Account, token_id: int) -> None:
        """The token stops working at once (the next request with it is refused)."""
        if not revoke_tokens(self.engine, account.id, token_id):
            raise Refused(f"no token {token_id} of yours to revoke")


def reset_link(session: Session, account: int, lasting: timedelta) -> str:
    """A one-time token that sets a new password for ``account`` within ``lasting`` (an
    earlier one stops working), made in the caller's transaction."""
    session.execute(delete(ResetRow).where(ResetRow.account_id == account))
    token = secrets.token_urlsafe(32)
    session.add(ResetRow(token_hash=hash_token(token), account_id=account,
                         expires=now() + lasting))
    return token


async def forget_guests(accounts: Accounts, every: float = 3600.0) -> None:
    """Forget the idle guests of more than :data:`GUEST_DAYS` days, every ``every``
    seconds, for as long as the server runs (each process does it: the same rows)."""
    while True:
        try:
            before = now() - timedelta(days=GUEST_DAYS)
            forgotten = await asyncio.to_thread(accounts.forget_guests, before)
            if forgotten:
                log.info("%d idle guests forgotten", forgotten)
        except Exception as error:  # the store is away: next time
            log.warning("idle guests could not be forgotten: %s", error)
        await asyncio.sleep(every)
