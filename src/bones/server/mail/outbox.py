"""The outbox: a mail is a row of the store, written in the transaction that wanted it
sent, and sent off the request path by whichever process claims it first (a claim lasts
:data:`CLAIM`, so a process that died lets it go). A mail server away delays a mail,
never loses it: it is tried again after :data:`BACKOFF` seconds, longer each time.

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
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from bones.server.mail.smtp import Smtp
from bones.server.store.schema import OutboxRow, now

__all__ = ["BACKOFF", "CLAIM", "Mail", "Outbox", "send_mail"]

log = logging.getLogger("bones.server")

CLAIM = timedelta(minutes=2)
"""How long a process sending a mail holds it."""
BACKOFF = (10, 30, 60, 300, 900, 3600)
"""Seconds until a mail the server did not take is tried again, by attempt (then hourly)."""
AT_ONCE = 20
"""Mails a sender claims at a time."""


@dataclass(frozen=True)
class Mail:
    id: int
    to: str
    subject: str
    body: str
    attempts: int


class Outbox:
    """The mails to send, in the store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.wake = asyncio.Event()
        """Set when a mail was put here: this process's sender looks at once."""
        self.seen_waiting = 0
        """Mails not yet sent at this process's sender's last look (``/metrics``)."""

    @staticmethod
    def add(session: Session, to: str, subject: str, body: str) -> None:
        """Keep a mail to send, in the caller's transaction (it is sent only if that
        commits)."""
        session.add(OutboxRow(to=to, subject=subject[:200], body=body))

    def put(self, to: str, subject: str, body: str) -> None:
        """Keep a mail to send, in a transaction of its own."""
        with Session(self.engine) as session, session.begin():
            self.add(session, to, subject, body)

    def claim(self, limit: int = AT_ONCE) -> list[Mail]:
        """The mails due that no live process holds, held by this one for :data:`CLAIM`."""
        at = now()
        free = (OutboxRow.sent.is_(None), OutboxRow.due <= at,
                or_(OutboxRow.claimed.is_(None), OutboxRow.claimed < at))
        mine: list[Mail] = []
        with Session(self.engine) as session, session.begin():
            for row in session.scalars(select(OutboxRow).where(*free)
                                       .order_by(OutboxRow.due).limit(limit)):
                taken = session.execute(update(OutboxRow).where(OutboxRow.id == row.id, *free)
                                        .values(claimed=at + CLAIM))
                if taken.rowcount:  # type: ignore[attr-defined]
                    mine.append(Mail(row.id, row.to, row.subject, row.body, row.attempts))
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

    def waiting(self) -> int:
        """Mails not yet sent."""
        with Session(self.engine) as session:
            return int(session.scalar(select(func.count()).where(OutboxRow.sent.is_(None)))
                       or 0)


async def send_mail(outbox: Outbox, smtp: Smtp, every: float = 5.0) -> None:
    """Send the outbox's mails for as long as the server runs: every ``every`` seconds,
    and at once when this process put one there."""
    while True:
        try:
            for mail in await asyncio.to_thread(outbox.claim):
                try:
                    await asyncio.to_thread(smtp.send, mail.to, mail.subject, mail.body)
                except (OSError, smtplib.SMTPException) as error:
                    log.warning("a mail could not be sent (attempt %d), tried again later: %s",
                                mail.attempts + 1, error)
                    await asyncio.to_thread(outbox.failed, mail, str(error))
                else:
                    await asyncio.to_thread(outbox.sent, mail)
            outbox.seen_waiting = await asyncio.to_thread(outbox.waiting)
        except SQLAlchemyError as error:  # the store is away: next time
            log.warning("the outbox could not be read: %s", error)
        outbox.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(outbox.wake.wait(), every)
