"""A forgotten password comes back by mail, in the browser: a member gives their address
on the account page and confirms it with the link mailed to it; signed out, the login
page mails a link (the same words for an unknown address, which gets nothing), the link
sets a new password and signs the browser in, and the other sessions are signed out. A
site without mail says on its login page to ask the operator."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, Page

from tests.server.live import Server, free_port, sqlite_url
from tests.server.test_mail import Inbox, _link
from tests.web.conftest import DESKTOP

PASSWORD = "correct horse"


@pytest.fixture
def mailing(tmp_path: Path) -> Iterator[tuple[Server, Inbox]]:
    inbox = Inbox()
    relay = Controller(inbox, hostname="127.0.0.1", port=free_port())
    relay.start()
    port = free_port()
    site = Server(sqlite_url(tmp_path / "mail.db"), port=port, extra=[
        f"--smtp=smtp://127.0.0.1:{relay.port}?tls=none",
        f"--origin=http://127.0.0.1:{port}"]).start()
    yield site, inbox
    site.stop()
    relay.stop()


def _said(page: Page, form: str) -> str:
    page.wait_for_function(f"() => document.querySelector('{form} .form-error')"
                           ".textContent.length > 0")
    return page.locator(f"{form} .form-error").inner_text()


def test_a_password_is_reset_through_a_real_mail_server(
        mailing: tuple[Server, Inbox], browser: Browser) -> None:
    site, inbox = mailing
    name = f"Mia{random.randrange(10**6)}"
    elsewhere = site.account(name)  # another device, signed in
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{site.url}/account")
    page.fill("#login input[name=name]", name)
    page.fill("#login input[name=password]", PASSWORD)
    page.click("#login button[type=submit]")
    page.fill("#address input[name=email]", "mia@example.org")
    page.click("#address button[type=submit]")
    assert _said(page, "#address").startswith("A link to confirm it is on its way")
    page.goto(f"{site.url}/confirm#{_link(inbox.wait(1), 'confirm')}")
    page.wait_for_selector("#confirmed:has-text('mia@example.org is confirmed')")
    page.goto(f"{site.url}/account")
    assert "confirmed" in page.locator("#address-state").inner_text()
    page.check("#mail-about input[name=challenge]")  # mailed about challenges from now on
    deadline = time.monotonic() + 30
    while page.evaluate("fetch('/api/me/email').then((r) => r.json())")["about"] != [
            "challenge"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    page.click("#logout")

    page.fill("#forgot input[name=email]", "nobody@example.org")
    page.click("#forgot button[type=submit]")
    unknown = _said(page, "#forgot")
    page.evaluate("document.querySelector('#forgot .form-error').textContent = ''")
    page.fill("#forgot input[name=email]", "mia@example.org")
    page.click("#forgot button[type=submit]")
    assert _said(page, "#forgot") == unknown  # the same words either way
    assert unknown.startswith("If an account has confirmed this address")
    mail = inbox.wait(2)
    time.sleep(1)
    assert len(inbox.mails) == 2 and mail["To"] == "mia@example.org"  # none to nobody@
    page.goto(f"{site.url}/reset#{_link(mail, 'reset')}")
    page.fill("#reset input[name=new]", "battery staple")
    page.click("#reset button[type=submit]")
    page.wait_for_function("n => document.querySelector('#account-link')?.textContent === n",
                           arg=name)
    assert elsewhere.get("/api/me").status_code == 401  # the old sessions signed out
    assert site.account(name, "battery staple").get("/api/me").json()["name"] == name
    context.close()


def test_without_mail_the_login_page_says_to_ask_the_operator(web: Server,
                                                               browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/account")
    told = page.locator("#forgot-operator")
    told.wait_for()
    assert "ask its operator" in told.inner_text() and page.locator("#forgot").count() == 0
    assert httpx.get(f"{web.url}/api/site").json()["mail"] is False
    context.close()
