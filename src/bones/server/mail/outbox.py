"""The outbox: a mail is a row of the store, written in the transaction that wanted it
sent, and sent off the request path by whichever process claims it first (a claim lasts
:data:`CLAIM`, so a process that died lets it go). A mail server away delays a mail,
never loses it: it is tried again after :data:`BACKOFF` seconds, longer each time. A
mail whose address its server refused for good (``smtp.for_good``) is dropped, and the
account that gave the address loses its confirmation and is told on its account page:
nothing more goes to an address that does not take it.

>>> from bones.server.store.records import Store
>>> outbox = Outbox(Store("sqlite://").engine)
>>> outbox.put("ann@example.org", "Hello", "A body")
>>> [(mail.to, mail.subject) for mail in outbox.claim()]
[('ann@example.org', 'Hello')]
>>> outbox.claim()  # claimed: no other process takes it meanwhile
[]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import time
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from bones.server.mail.smtp import Smtp, for_good
from bones.server.store.schema import AccountRow, MailLinkRow, OutboxRow, now

__all__ = ["BACKOFF", "CLAIM", "Mail", "Outbox", "send_mail"]

log = logging.getLogger("bones.server")

CLAIM = timedelta(minutes=2)
"""How long a process sending a mail holds it."""
BACKOFF = (10, 30, 60, 300, 900, 3600)
"""Seconds until a mail the server did not take is tried again, by attempt (then hourly)."""
AT_ONCE = 20
"""Mails a sender claims at a time."""
TIDY = 3600.0
"""Seconds between a sender's sweeps of the mails' expired links."""


@dataclass(frozen=True)
class Mail:
    id: int
    to: str
    subject: str
    body: str
    attempts: int
    unsubscribe: str | None = None


class Outbox:
    """The mails to send, in the store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.wake = asyncio.Event()
        """Set when a mail was put here: this process's sender looks at once."""
        self.seen_waiting = 0
        """Mails not yet sent at this process's sender's last look (``/metrics``)."""

    @staticmethod
    def add(session: Session, to: str, subject: str, body: str,
            unsubscribe: str | None = None) -> None:
        """Keep a mail to send, in the caller's transaction (it is sent only if that
        commits); ``unsubscribe``: a notice's link that stops such mails."""
        session.add(OutboxRow(to=to, subject=subject[:200], body=body,
                              unsubscribe=unsubscribe))

    def put(self, to: str, subject: str, body: str) -> None:
        """Keep a mail to send, in a transaction of its own."""
        with Session(self.engine) as session, session.begin():
            self.add(session, to, subject, body)

    def claim(self, limit: int = AT_ONCE) -> list[Mail]:
        """The mails due that no live process holds, held by this one for :data:`CLAIM`."""
        at = now()
        free = (OutboxRow.sent.is_(None), OutboxRow.dropped.is_(None), OutboxRow.due <= at,
                or_(OutboxRow.claimed.is_(None), OutboxRow.claimed < at))
        mine: list[Mail] = []
        with Session(self.engine) as session, session.begin():
            for row in session.scalars(select(OutboxRow).where(*free)
                                       .order_by(OutboxRow.due).limit(limit)):
                taken = session.execute(update(OutboxRow).where(OutboxRow.id == row.id, *free)
                                        .values(claimed=at + CLAIM))
                if taken.rowcount:  # type: ignore[attr-defined]
                    mine.append(Mail(row.id, row.to, row.subject, row.body, row.attempts,
                                     row.unsubscribe))
        return mine

    def sent(self, mail: Mail) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(OutboxRow).where(OutboxRow.id == mail.id)
                            .values(sent=now(), claimed=None, error=None,
                                    attempts=mail.attempts + 1))

    def failed(self, mail: Mail, error: str) -> None:
        """Try it again later, longer after each failure."""
        wait = BACKOFF[min(mail.attempts, len(BACKOFF) - 1)]
        with Session(self.engine) as session, session.begin():
            session.execute(update(OutboxRow).where(OutboxRow.id == mail.id).values(
                due=now() + timedelta(seconds=wait), claimed=None, error=error[:300],
                attempts=mail.attempts + 1))

    def refused(self, mail: Mail, error: str) -> None:
        """Drop a mail its address's server refused for good, and take back the
        confirmation of every account that gave that address (so none of its mails is
        kept or sent until it is confirmed again, and its page says why)."""
        at = now()
        with Session(self.engine) as session, session.begin():
            session.execute(update(OutboxRow).where(OutboxRow.id == mail.id).values(
                dropped=at, claimed=None, error=error[:300], attempts=mail.attempts + 1))
            session.execute(update(AccountRow).where(AccountRow.email == mail.to).values(
                email_confirmed=None, email_refused=at))

    def waiting(self) -> int:
        """Mails not yet sent (nor dropped)."""
        with Session(self.engine) as session:
            return int(session.scalar(select(func.count()).where(
                OutboxRow.sent.is_(None), OutboxRow.dropped.is_(None))) or 0)

    def tidy(self) -> int:
        """Forget the mails' links that expired: how many."""
        with Session(self.engine) as session, session.begin():
            gone = session.execute(delete(MailLinkRow).where(MailLinkRow.expires < now()))
            return int(gone.rowcount)  # type: ignore[attr-defined]


async def send_mail(outbox: Outbox, smtp: Smtp, every: float = 5.0) -> None:
    """Send the outbox's mails for as long as the server runs: every ``every`` seconds,
    and at once when this process put one there; every :data:`TIDY` seconds it forgets
    the expired links."""
    tidied = 0.0
    while True:
        try:
            for mail in await asyncio.to_thread(outbox.claim):
                await _send(outbox, smtp, mail)
            outbox.seen_waiting = await asyncio.to_thread(outbox.waiting)
            if time.monotonic() - tidied > TIDY:
                await asyncio.to_thread(outbox.tidy)
                tidied = time.monotonic()
        except SQLAlchemyError as error:  # the store is away: next time
            log.warning("the outbox could not be read: %s", error)
        outbox.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(outbox.wake.wait(), every)


async def _send(outbox: Outbox, smtp: Smtp, mail: Mail) -> None:
    """One mail to the server: marked sent, dropped (its address refused for good) or
    due again later."""
    try:
        await asyncio.to_thread(smtp.send, mail.to, mail.subject, mail.body, mail.unsubscribe)
    except (OSError, smtplib.SMTPException) as error:
        if for_good(error):
            log.warning("a mail's address was refused for good, the mail dropped: %s", error)
            await asyncio.to_thread(outbox.refused, mail, str(error))
        else:
            log.warning("a mail could not be sent (attempt %d), tried again later: %s",
                        mail.attempts + 1, error)
            await asyncio.to_thread(outbox.failed, mail, str(error))
    else:
        await asyncio.to_thread(outbox.sent, mail)
