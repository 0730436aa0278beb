"""Email, optional and real: a site given an SMTP server (here aiosmtpd, in this process)
mails a member a link to confirm their address and, asked by address, a one-time link
that sets a new password; the links in the mails received are followed. The same asked
for an unknown address answers the same and sends nothing; a mail server away delays a
mail, never loses it; a site without one says so."""

from __future__ import annotations

import contextlib
import re
import ssl
import time
from collections.abc import Iterator
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bones.server.mail.addresses import Addresses
from bones.server.mail.outbox import BACKOFF, Outbox
from bones.server.people.accounts import Accounts
from bones.server.people.own import Own
from bones.server.store.records import Store
from bones.server.store.schema import MailLinkRow
from tests.deploy.proxy import certificate
from tests.server.live import Server, admin, free_port, sqlite_url

PASSWORD = "correct horse"


class Inbox:
    """Every mail the SMTP server took, in order; it refuses the addresses in
    ``refuse`` for good, as a server with no such mailbox does."""

    def __init__(self) -> None:
        self.mails: list[Message] = []
        self.refuse: set[str] = set()
        self.refused: list[str] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any,  # noqa: N802
                          address: str, options: list[str]) -> str:
        if address in self.refuse:
            self.refused.append(address)
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.mails.append(message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, count: int, timeout: float = 60) -> Message:
        """The ``count``-th mail (from 1), once it came."""
        deadline = time.monotonic() + timeout
        while len(self.mails) < count:
            assert time.monotonic() < deadline, f"mail {count} did not come"
            time.sleep(0.1)
        return self.mails[count - 1]


def _subject(mail: Message) -> str:
    return str(make_header(decode_header(mail["Subject"])))


def _link(mail: Message, path: str) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    found = re.search(rf"http://\S+/{path}#(\S+)", body.decode())
    assert found, body
    return found[1]


@pytest.fixture
def mailing(tmp_path: Path) -> Iterator[tuple[Server, Inbox, Controller]]:
    """A site with an SMTP server, the mails it took, and the server (to stop)."""
    inbox = Inbox()
    relay = Controller(inbox, hostname="127.0.0.1", port=free_port())
    relay.start()
    port = free_port()
    site = Server(sqlite_url(tmp_path / "mail.db"), port=port, extra=[
        f"--smtp=smtp://127.0.0.1:{relay.port}?tls=none", f"--origin=http://127.0.0.1:{port}",
        "--mail-from=bones@bones.test"]).start()
    yield site, inbox, relay
    site.stop()
    with contextlib.suppress(RuntimeError, AssertionError):  # stopped by the test
        relay.stop()


@pytest.mark.parametrize("scheme", ["smtp", "smtps"])
def test_mail_goes_over_tls_with_a_login(tmp_path: Path, scheme: str) -> None:
    """"TLS and authentication": a mail server that takes mail only over TLS (STARTTLS
    on ``smtp://``, TLS from the first byte on ``smtps://``) and from a login is given
    the mail, its certificate checked against the machine's trusted ones (here a
    self-signed one made trusted for the site's process). (aiosmtpd offers a login over
    TLS from the first byte only when not told to wait for STARTTLS.)"""
    cert, key = certificate(tmp_path, "127.0.0.1")
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)
    logins: list[tuple[bytes, bytes]] = []

    def login(server: Any, session: Any, envelope: Any, mechanism: str, data: Any
              ) -> AuthResult:
        logins.append((data.login, data.password))
        return AuthResult(success=(data.login, data.password) == (b"bones", b"s3 cret"))

    inbox = Inbox()
    relay = Controller(inbox, hostname="127.0.0.1", port=free_port(), authenticator=login,
                       auth_required=True, **(
                           {"tls_context": tls, "require_starttls": True} if scheme == "smtp"
                           else {"ssl_context": tls, "auth_require_tls": False}))
    relay.start()
    port = free_port()
    site = Server(sqlite_url(tmp_path / "tls.db"), port=port, env={"SSL_CERT_FILE": str(cert)},
                  extra=[f"--smtp={scheme}://bones:s3%20cret@127.0.0.1:{relay.port}",
                         f"--origin=http://127.0.0.1:{port}"]).start()
    try:
        ann = site.account("Ann")
        assert ann.put("/api/me/email", json={"email": "ann@example.org"}).status_code == 202
        assert inbox.wait(1)["To"] == "ann@example.org"
        assert logins == [(b"bones", b"s3 cret")]
    finally:
        site.stop()
        relay.stop()


def test_a_forgotten_password_comes_back_by_mail(
        mailing: tuple[Server, Inbox, Controller]) -> None:
    site, inbox, _ = mailing
    assert httpx.get(f"{site.url}/api/site").json() == {"signups": "open", "mail": True}
    ann = site.account("Ann")
    other_device = site.account("Ann")
    given = ann.put("/api/me/email", json={"email": "Ann@Example.org", "lang": "de"})
    assert given.status_code == 202 and given.json() == {
        "email": "ann@example.org", "confirmed": False, "about": [], "refused": False}
    confirming = inbox.wait(1)
    assert confirming["To"] == "ann@example.org" and confirming["From"] == "bones@bones.test"
    assert _subject(confirming) == "bones: bestätige deine Adresse"
    stranger = httpx.Client(base_url=site.url)
    assert stranger.post("/api/password/forgot", json={  # not confirmed yet: nothing
        "email": "ann@example.org"}).status_code == 202
    token = _link(confirming, "confirm")
    assert stranger.post("/api/email/confirm", json={"token": token}).json() == {
        "email": "ann@example.org", "confirmed": True, "about": [], "refused": False}
    assert stranger.post("/api/email/confirm", json={"token": token}).status_code == 404
    assert ann.get("/api/me/email").json() == {"email": "ann@example.org", "confirmed": True,
                                               "about": [], "refused": False}

    unknown = stranger.post("/api/password/forgot", json={"email": "bob@example.org"})
    asked = stranger.post("/api/password/forgot", json={"email": "ANN@example.org "})
    assert (unknown.status_code, unknown.content) == (asked.status_code, asked.content)
    assert asked.status_code == 202
    resetting = inbox.wait(2)
    assert resetting["To"] == "ann@example.org" and _subject(resetting) == "bones: a new password"
    time.sleep(1)
    assert len(inbox.mails) == 2  # none to the unknown address, none before confirming
    reset = stranger.post("/api/password/reset", json={"token": _link(resetting, "reset"),
                                                        "new": "battery staple"})
    assert reset.status_code == 200 and reset.json()["name"] == "Ann"
    assert ann.get("/api/me").status_code == 401  # every other session signed out
    assert other_device.get("/api/me").status_code == 401
    assert site.account("Ann", "battery staple").get("/api/me").json()["name"] == "Ann"
    found = admin(site.db, "users", "ANN@example.org")  # "users" finds by the whole address
    assert "│ Ann " in found and "ann@example.org" in found
    assert "│ Ann " not in admin(site.db, "users", "example.org")  # never by a piece
    moderator = site.account("Mod")
    admin(site.db, "grant", "Mod", "moderator")
    listed = moderator.get("/api/mod/players", params={"q": "ann@example.org"}).json()
    assert [f["name"] for f in listed] == ["Ann"] and "ann@example.org" not in str(listed)


def test_a_mail_server_away_delays_a_mail_and_loses_none(
        mailing: tuple[Server, Inbox, Controller]) -> None:
    site, inbox, relay = mailing
    bo = site.account("Bo")
    relay.stop()
    assert bo.put("/api/me/email", json={"email": "bo@example.org"}).status_code == 202
    _metric_reaches(site, "bones_mail_waiting 1.0")  # tried, refused: kept for later
    back = Controller(inbox, hostname="127.0.0.1", port=relay.port)
    back.start()
    try:
        mail = inbox.wait(1, timeout=BACKOFF[0] + 60)
    finally:
        back.stop()
    assert mail["To"] == "bo@example.org" and _subject(mail) == "bones: confirm your address"
    _metric_reaches(site, "bones_mail_waiting 0.0")


def _metric_reaches(site: Server, line: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while line not in httpx.get(f"{site.url}/metrics").text.splitlines():
        assert time.monotonic() < deadline, f"/metrics never said {line!r}"
        time.sleep(0.5)


def test_a_site_without_mail_says_so(server: Server) -> None:
    assert httpx.get(f"{server.url}/api/site").json()["mail"] is False
    asked = httpx.post(f"{server.url}/api/password/forgot", json={"email": "ann@example.org"})
    assert asked.status_code == 404 and "operator" in asked.json()["detail"]


def test_a_site_with_mail_needs_its_origin(tmp_path: Path) -> None:
    """A mail's link goes to the configured origin, never to the Host a request gave."""
    site = Server(sqlite_url(tmp_path / "no.db"), extra=["--smtp=smtp://127.0.0.1:25"])
    with pytest.raises(RuntimeError, match="exited"):
        site.start()


def test_a_member_who_chose_it_is_mailed_a_challenge(
        mailing: tuple[Server, Inbox, Controller]) -> None:
    site, inbox, _ = mailing
    cy, dee = site.account("Cy"), site.account("Dee")
    dee.put("/api/me/email", json={"email": "dee@example.org", "lang": "pl"})
    dee.post("/api/email/confirm", json={"token": _link(inbox.wait(1), "confirm")})
    assert dee.put("/api/me/email/about", json={"about": ["challenge"]}).status_code == 204
    assert dee.get("/api/me/email").json()["about"] == ["challenge"]
    assert cy.put("/api/me/email/about", json={"about": ["challenge"]}).status_code == 409
    made = cy.post("/api/challenges", json={"name": "Dee", "table": {
        "variant": "draw", "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}})
    assert made.status_code == 201, made.text
    mail = inbox.wait(2)
    assert mail["To"] == "dee@example.org" and _subject(mail) == "bones: Cy wyzywa cię"
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    assert f"{site.url}/challenge/{made.json()['id']}" in body.decode()
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # RFC 8058
    stop = re.fullmatch(r"<(\S+)>", mail["List-Unsubscribe"])
    assert stop and stop[1].startswith(f"{site.url}/api/email/stop?token=")
    for _ in range(2):  # as a mail program posts it, with no session; as often as it asks
        stopped = httpx.post(stop[1], data={"List-Unsubscribe": "One-Click"})
        assert stopped.status_code == 204, stopped.text
    assert httpx.post(f"{site.url}/api/email/stop?token=made-up").status_code == 404
    assert dee.get("/api/me/email").json()["about"] == []
    cy.post("/api/challenges", json={"name": "Dee", "table": {
        "variant": "block", "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}})
    time.sleep(2)
    assert len(inbox.mails) == 2  # no more once she stopped them


def test_an_address_its_server_refuses_is_mailed_no_more(
        mailing: tuple[Server, Inbox, Controller]) -> None:
    """A confirmed address whose server then refuses a mail for good (550): the mail is
    dropped, not tried again; the address is no longer confirmed, the account page
    says why, and nothing more is sent to it until it is given and confirmed again."""
    site, inbox, _ = mailing
    eve, fox = site.account("Eve"), site.account("Fox")
    eve.put("/api/me/email", json={"email": "eve@example.org"})
    eve.post("/api/email/confirm", json={"token": _link(inbox.wait(1), "confirm")})
    eve.put("/api/me/email/about", json={"about": ["challenge"]})
    inbox.refuse.add("eve@example.org")  # the mailbox is gone
    challenge = {"name": "Eve", "table": {
        "variant": "draw", "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}}
    assert fox.post("/api/challenges", json=challenge).status_code == 201
    deadline = time.monotonic() + 60
    while not eve.get("/api/me/email").json()["refused"]:
        assert time.monotonic() < deadline, "the refusal was never told"
        time.sleep(0.3)
    assert eve.get("/api/me/email").json() == {
        "email": "eve@example.org", "confirmed": False, "about": ["challenge"], "refused": True}
    _metric_reaches(site, "bones_mail_waiting 0.0")  # dropped: not kept to try again
    assert inbox.refused == ["eve@example.org"]
    assert httpx.post(f"{site.url}/api/password/forgot", json={
        "email": "eve@example.org"}).status_code == 202
    time.sleep(2)
    assert inbox.refused == ["eve@example.org"] and len(inbox.mails) == 1  # nothing more
    inbox.refuse.clear()  # it takes mail again: given again, it is confirmed again
    assert eve.put("/api/me/email", json={"email": "eve@example.org"}).json()["refused"] is False
    eve.post("/api/email/confirm", json={"token": _link(inbox.wait(2), "confirm")})
    assert eve.get("/api/me/email").json()["confirmed"] is True


def test_a_tournament_starting_is_mailed_only_to_those_who_chose_it() -> None:
    engine = Store("sqlite://").engine
    accounts = Accounts(engine)
    addresses = Addresses(Outbox(engine), "https://bones.example")
    ann, _ = accounts.sign_up("Ann", "correct horse")
    bo, _ = accounts.sign_up("Bo", "correct horse")
    for who, lang in ((ann, "ru"), (bo, "en")):
        addresses.give(who.id, f"{who.name}@example.org", lang)
    for mail in addresses.outbox.claim():
        addresses.confirm(re.findall(r"/confirm#(\S+)", mail.body)[0])
    addresses.choose(ann.id, {"tournament"})
    addresses.choose(bo.id, {"challenge"})
    assert addresses.notify([ann.id, bo.id], "tournament", None, "/tournament/t1") == 1
    [mail] = addresses.outbox.claim()
    assert (mail.to, mail.subject) == ("ann@example.org", "bones: ваш турнир начинается")
    assert "https://bones.example/tournament/t1" in mail.body


def test_an_address_is_in_the_export_and_goes_with_a_closed_account() -> None:
    """"Everything bones holds about one account" holds its address, its confirmation
    and its choices; closing the account erases them, its mails' links and the mails
    not yet sent to it."""
    engine = Store("sqlite://").engine
    ann, _ = Accounts(engine).sign_up("Ann", PASSWORD)
    addresses = Addresses(Outbox(engine), "https://bones.example")
    addresses.give(ann.id, "ann@example.org", "pl")
    [mail] = addresses.outbox.claim()
    addresses.confirm(re.findall(r"/confirm#(\S+)", mail.body)[0])
    addresses.choose(ann.id, {"challenge"})
    own = Own(engine)
    exported = own.export(ann.id).account
    assert (exported.email, exported.mail_about, exported.mail_lang) == (
        "ann@example.org", ["challenge"], "pl")
    assert exported.email_confirmed is not None and exported.email_refused is None
    addresses.forgot("ann@example.org", "pl")  # a link, and a mail not sent yet
    own.close(ann.id)
    assert addresses.outbox.waiting() == 0
    assert addresses.of(ann.id) == (None, False, [], False)
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(MailLinkRow)) == 0
