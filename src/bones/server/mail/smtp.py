"""The operator's SMTP server, from one URL (``--smtp``, ``BONES_SMTP`` or its ``_FILE``):
``smtps://`` for TLS from the first byte (port 465), ``smtp://`` for STARTTLS (587),
which a server must offer (``?tls=none`` for a relay on the same machine or network
that has none); a user and password in the URL log in.

>>> server = Smtp.parse("smtp://bones:s3cret@mail.example:587", "bones@bones.example")
>>> server.host, server.port, server.tls, server.user
('mail.example', 587, 'starttls', 'bones')
>>> Smtp.parse("smtps://mail.example", "bones@bones.example").port
465
>>> Smtp.parse("smtp://127.0.0.1:2525?tls=none", "bones@bones.example").tls
'none'
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["Smtp", "for_good"]

TIMEOUT = 30.0
"""Seconds a mail server has to answer each step."""
HEADERS = policy.SMTP.clone(max_line_length=998)
"""Lines as long as SMTP allows: a header of one long word (a link) is then sent as it
is, where the usual 78 would have it encoded, and no mail program would find the link
in ``List-Unsubscribe``."""


@dataclass(frozen=True)
class Smtp:
    """Where mail goes out, and as whom (``sender``, the From address)."""

    host: str
    port: int
    tls: Literal["tls", "starttls", "none"]
    user: str | None
    password: str | None
    sender: str

    @classmethod
    def parse(cls, url: str, sender: str) -> Smtp:
        """The server of ``url``; a ``ValueError`` says what is wrong with it."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp is smtp://[user:password@]host[:port] or smtps://...")
        asked = parse_qs(parts.query).get("tls", [""])[0]
        if asked not in ("", "none"):
            raise ValueError("--smtp takes ?tls=none only (smtps:// is TLS, smtp:// STARTTLS)")
        tls: Literal["tls", "starttls", "none"] = (
            "tls" if parts.scheme == "smtps" else "none" if asked == "none" else "starttls")
        return cls(parts.hostname, parts.port or (465 if tls == "tls" else 587), tls,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, sender)

    def send(self, to: str, subject: str, body: str, unsubscribe: str | None = None
             ) -> None:
        """Hand one mail to the server (blocking: a sender's thread calls it); any
        ``OSError`` or ``smtplib.SMTPException`` means it was not taken (:func:`for_good`
        says whether it never will be). A notice's mail carries ``unsubscribe``, the
        link that stops such mails in one click (RFC 8058): mail programs show it as a
        button, and a mail without one is more often taken for spam."""
        message = EmailMessage(policy=HEADERS)
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        message["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        if unsubscribe is not None:
            message["List-Unsubscribe"] = f"<{unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(body)
        context = ssl.create_default_context()
        if self.tls == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT,
                                                    context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        with client:
            if self.tls == "starttls":
                client.starttls(context=context)
            if self.user is not None:
                client.login(self.user, self.password or "")
            client.send_message(message)


def for_good(error: BaseException) -> bool:
    """Whether the server refused the mail's address for good (every recipient answered
    with a 5xx code: no such mailbox, no such domain), not just now: sending it again
    would be refused again.

    >>> for_good(smtplib.SMTPRecipientsRefused({"x@example.org": (550, b"no such user")}))
    True
    >>> for_good(smtplib.SMTPRecipientsRefused({"x@example.org": (451, b"try later")}))
    False
    """
    return isinstance(error, smtplib.SMTPRecipientsRefused) and bool(error.recipients) \
        and all(code >= 500 for code, _ in error.recipients.values())
