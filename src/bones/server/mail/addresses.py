"""The addresses members give: one each, confirmed by a link mailed to it, and the way
back into an account whose password was forgotten, by a link mailed to its confirmed
address. Each mail is put in the outbox in the transaction that made its link.

Asking for a new password answers the same whether or not an account has the address
(the caller says so to everyone): nothing tells a stranger who plays here.

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> from bones.server.mail.outbox import Outbox
>>> engine = Store("sqlite://").engine
>>> ann, _ = Accounts(engine).sign_up("Ann", "correct horse")
>>> addresses = Addresses(Outbox(engine), "https://bones.example")
>>> addresses.give(ann.id, "Ann@Example.org", "en")
'ann@example.org'
>>> [mail.subject for mail in addresses.outbox.claim()]
['bones: confirm your address']
>>> addresses.forgot("ann@example.org", "en")  # not confirmed yet: nothing is sent
False
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from bones.server.mail.letters import ABOUT, letter
from bones.server.mail.outbox import Outbox
from bones.server.names import address_key
from bones.server.people.accounts import Refused, reset_link
from bones.server.store.records import hash_token
from bones.server.store.schema import AccountRow, MailLinkRow, now

__all__ = ["ADDRESS", "CONFIRM", "RESET", "STOP", "Addresses"]

ADDRESS = r"^[^@\s<>\"',;]{1,64}@[^@\s<>\"',;]+\.[^@\s<>\"',;.]+$"
"""An address as a mail server takes it (its server is asked no more than that)."""
CONFIRM = timedelta(days=1)
"""How long a confirming link works."""
RESET = timedelta(hours=1)
"""How long a mailed password link works (the operator's lasts a day)."""
STOP = timedelta(days=30)
"""How long a notice's one-click link that stops such mails works."""


class Addresses:
    """The members' mail addresses, over a store and its outbox; links to ``site``."""

    def __init__(self, outbox: Outbox, site: str) -> None:
        self.engine = outbox.engine
        self.outbox = outbox
        self.site = site.rstrip("/")

    def give(self, account: int, email: str, lang: str) -> str:
        """Set the member's address (not confirmed until its link is opened) and mail it
        the link: answers it as kept. A guest has none; an address confirmed by another
        account is refused."""
        email = address_key(email)
        if len(email) > 254 or not re.fullmatch(ADDRESS, email):
            raise Refused("that is not a mail address")
        with Session(self.engine) as session, session.begin():
            row = session.get_one(AccountRow, account)
            if row.password is None:
                raise Refused("sign up before you give an address")
            if self._owner(session, email, confirmed=True) not in (None, account):
                raise Refused("another account has confirmed that address")
            row.email, row.email_confirmed, row.mail_lang = email, None, lang
            row.email_refused = None
            session.execute(delete(MailLinkRow).where(MailLinkRow.account_id == account,
                                                      MailLinkRow.purpose == "confirm"))
            token = _linked(session, account, "confirm", email, CONFIRM)
            self.outbox.add(session, email, *letter(
                "confirm", lang, f"{self.site}/confirm#{token}", row.name))
        self.outbox.wake.set()
        return email

    def confirm(self, token: str) -> str:
        """Confirm the address a link was mailed to (once): answers it."""
        with Session(self.engine) as session, session.begin():
            link = _working(session, token, "confirm")
            if link is None:
                raise Refused("this link has been used or has expired; ask for another")
            row = session.get_one(AccountRow, link.account_id)
            session.delete(link)
            if row.email != link.email:
                raise Refused("the account has another address now")
            if self._owner(session, link.email, confirmed=True) not in (None, row.id):
                raise Refused("another account has confirmed that address")
            row.email_confirmed = now()
            return link.email

    def remove(self, account: int) -> None:
        """Forget the member's address: no mail goes to it any more."""
        with Session(self.engine) as session, session.begin():
            row = session.get_one(AccountRow, account)
            row.email, row.email_confirmed = None, None
            session.execute(delete(MailLinkRow).where(MailLinkRow.account_id == account))

    def forgot(self, email: str, lang: str) -> bool:
        """Mail a one-time link that sets a new password to the account whose confirmed
        address this is: whether one was mailed (never told to the asker)."""
        with Session(self.engine) as session, session.begin():
            account = self._owner(session, address_key(email), confirmed=True)
            if account is None:
                return False
            row = session.get_one(AccountRow, account)
            if row.password is None or row.email is None:
                return False
            token = reset_link(session, account, RESET)
            self.outbox.add(session, row.email, *letter(
                "reset", lang, f"{self.site}/reset#{token}", row.name))
        self.outbox.wake.set()
        return True

    def of(self, account: int) -> tuple[str | None, bool, list[str], bool]:
        """The member's address, whether it is confirmed, what they chose to be mailed
        about, and whether its mail server refused a mail to it since it was given."""
        with Session(self.engine) as session:
            row = session.get_one(AccountRow, account)
            return (row.email, row.email_confirmed is not None, row.mail_about.split(),
                    row.email_refused is not None)

    def choose(self, account: int, about: set[str]) -> None:
        """Mail the member about these notices (of :data:`~.letters.ABOUT`), or none."""
        if about - set(ABOUT):
            raise Refused(f"mail is sent about {', '.join(ABOUT)} only")
        with Session(self.engine) as session, session.begin():
            row = session.get_one(AccountRow, account)
            if row.email is None:
                raise Refused("give an address first")
            row.mail_about = " ".join(sorted(about))

    def notify(self, accounts: list[int], kind: str, by: int | None, path: str) -> int:
        """Mail those of ``accounts`` who chose to be mailed about ``kind`` (to their
        confirmed address, in their language) a link to ``path``, done by the account
        ``by``: how many."""
        if kind not in ABOUT or not accounts:
            return 0
        with Session(self.engine) as session, session.begin():
            who = None if by is None else session.get(AccountRow, by)
            rows = session.scalars(select(AccountRow).where(
                AccountRow.id.in_(accounts), AccountRow.email_confirmed.is_not(None),
                AccountRow.mail_about.contains(kind))).all()
            for row in rows:
                if row.email is not None and kind in row.mail_about.split():
                    token = _linked(session, row.id, "stop", row.email, STOP)
                    self.outbox.add(session, row.email, *letter(
                        kind, row.mail_lang or "en", f"{self.site}{path}", row.name,
                        "" if who is None else who.name),
                        unsubscribe=f"{self.site}/api/email/stop?token={token}")
        if rows:
            self.outbox.wake.set()
        return len(rows)

    def stop(self, token: str) -> None:
        """Mail no more notices to the account a notice's one-click link was mailed for
        (as often as a mail program asks, while the link works)."""
        with Session(self.engine) as session, session.begin():
            link = _working(session, token, "stop")
            if link is None:
                raise Refused("this link has expired; choose on your account page")
            session.get_one(AccountRow, link.account_id).mail_about = ""

    @staticmethod
    def _owner(session: Session, email: str, confirmed: bool) -> int | None:
        """The account whose address this is (kept in lower case), confirmed if asked."""
        query = select(AccountRow.id).where(AccountRow.email == email)
        if confirmed:
            query = query.where(AccountRow.email_confirmed.is_not(None))
        return session.scalar(query.limit(1))


def _linked(session: Session, account: int, purpose: str, email: str, lasts: timedelta
            ) -> str:
    """A new link's token for ``purpose``, kept (as its hash) in the caller's
    transaction, working for ``lasts``."""
    token = secrets.token_urlsafe(32)
    session.add(MailLinkRow(token_hash=hash_token(token), account_id=account,
                            purpose=purpose, email=email, expires=now() + lasts))
    return token


def _working(session: Session, token: str, purpose: str) -> MailLinkRow | None:
    """The link of ``token``, if it is one for ``purpose`` and has not expired."""
    link = session.get(MailLinkRow, hash_token(token))
    return link if link is not None and link.purpose == purpose and link.expires > now() \
        else None
