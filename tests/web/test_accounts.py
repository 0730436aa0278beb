"""Accounts in the browser: a guest plays at once and keeps the game on signing up; log
out, a wrong password, log in; the login limit; a personal API token shown once."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from tests.server.live import Server, admin, sqlite_url
from tests.web.conftest import DESKTOP
from tests.web.driver import READ, Player, sign_in

PASSWORD = "correct horse"
PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Mobile Safari/537.36")


def _account_form(page: Page, form: str, name: str, password: str) -> None:
    page.fill(f"#{form} input[name=name]", name)
    page.fill(f"#{form} input[name=password]", password)
    page.click(f"#{form} button[type=submit]")


def _games_counted(page: Page) -> str:
    page.click("#my-games")
    row = page.locator("#stats-table tr[data-row=total] td").first
    row.wait_for()
    return row.inner_text()


def test_a_guest_plays_signs_up_and_keeps_the_game(web: Server, browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/")
    page.wait_for_selector("#new-game .playing-as")
    guest = page.locator(".playing-as").inner_text()
    assert "Guest" in guest and page.locator("#account-link").inner_text() == "Sign up"
    guest_player = Player(page, web, random.Random(1))
    guest_player.new_game("draw", players=2, target="null", name=None)
    guest_player.play_match(drag_once=False)
    assert _games_counted(page) == "1"

    name = f"Gwen{random.randrange(10**6)}"
    page.click("#account-link")
    _account_form(page, "signup", name, PASSWORD)
    page.wait_for_function("n => document.querySelector('#account-link')?.textContent === n",
                           arg=name)
    assert _games_counted(page) == "1"  # the guest's game is the account's
    context.close()


def test_log_out_a_wrong_password_and_log_in(web: Server, browser: Browser) -> None:
    name = f"Lou{random.randrange(10**6)}"
    web.account(name)  # signed up elsewhere
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/account")
    page.wait_for_selector("#login")
    _account_form(page, "login", name, "not the password")
    page.wait_for_function(
        "() => document.querySelector('#login .form-error').textContent.length > 0")
    assert page.locator("#login .form-error").inner_text() == "Wrong name or password"
    _account_form(page, "login", name.upper(), PASSWORD)
    page.wait_for_selector("#logout")
    assert page.locator("#account-link").inner_text() == name
    page.reload()  # the session is the cookie's: it outlives the page
    page.wait_for_selector("#logout")
    cookies = {c["name"]: c for c in context.cookies()}
    assert cookies["bones_session"]["httpOnly"] and cookies["bones_session"]["sameSite"] == "Lax"
    page.click("#logout")
    page.wait_for_selector("#signup")
    assert page.locator("#account-link").inner_text() == "Sign up"  # a new guest
    context.close()


def test_a_token_is_shown_once_and_revoked(web: Server, browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/account")
    _account_form(page, "signup", f"Tok{random.randrange(10**6)}", PASSWORD)
    page.wait_for_selector("#tokens")
    page.fill("#tokens input[name=label]", "my <b>bot</b>")
    page.click("#tokens button[type=submit]")
    token = page.locator("#new-token").inner_text()
    assert token.startswith("bones_")
    assert page.locator(".token-list li span").inner_text() == "my <b>bot</b>"  # as text
    assert page.request.get(f"{web.url}/api/me",
                            headers={"authorization": f"Bearer {token}"}).ok
    page.click(".token-list li button")
    page.wait_for_function("() => !document.querySelector('.token-list li')")
    assert page.locator("#new-token").count() == 0  # shown once
    assert page.request.get(f"{web.url}/api/me",
                            headers={"authorization": f"Bearer {token}"}).status == 401
    context.close()


def test_login_attempts_are_limited(browser: Browser, tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "limited.db"),
                    limits={"logins-per-name": 3}).start()
    try:
        httpx.post(f"{server.url}/api/signup", json={"name": "Lim", "password": PASSWORD})
        page = browser.new_page()
        page.goto(f"{server.url}/account")
        page.wait_for_selector("#login")
        for _ in range(3):
            _account_form(page, "login", "Lim", "not the password")
            page.wait_for_function("() => document.querySelector('#login .form-error')"
                                   ".textContent === 'Wrong name or password'")
            page.evaluate("() => { document.querySelector('#login .form-error')"
                          ".textContent = ''; }")
        _account_form(page, "login", "Lim", PASSWORD)  # right, but too late
        page.wait_for_function("() => document.querySelector('#login .form-error')"
                               ".textContent.includes('Too many tries')")
        page.close()
    finally:
        server.stop()


def test_a_player_downloads_their_data_and_closes_their_account(web: Server,
                                                                  browser: Browser) -> None:
    """The account page's own data: the download is everything bones holds (its own
    games), and closing signs the browser out for good, its games under "deleted player"."""
    name = f"Own{random.randrange(10**6)}"
    page = browser.new_context(**DESKTOP, accept_downloads=True).new_page()  # type: ignore[arg-type]
    player = Player(page, web, random.Random(3))
    player.new_game("draw", players=2, target="null", name=name)
    player.play_match()
    page.goto(f"{web.url}/account")
    with page.expect_download() as download:
        page.click("#export")
    data = json.loads(Path(download.value.path()).read_text())
    assert data["account"]["name"] == name and len(data["games"]) == 1
    page.check("#close-account input[name=sure]")
    page.fill("#close-account input[name=password]", "wrong horse")
    page.click("#close-account button[type=submit]")
    page.wait_for_selector("#close-account .form-error:text('The password is wrong')")
    page.fill("#close-account input[name=password]", PASSWORD)
    page.click("#close-account button[type=submit]")
    page.wait_for_selector("#signup")  # a new guest
    page.goto(f"{web.url}/replay/{data['games'][0]['table']}")
    page.wait_for_selector("#replay")
    assert "deleted player" in page.locator("#replay").inner_text()
    assert name not in page.locator("#replay").inner_text()


def test_a_members_seat_follows_them_to_another_browser(web: Server, browser: Browser
                                                        ) -> None:
    """"Seats follow the account" (issue: a member who opens their own unfinished game on
    another browser got "This table has no free seat"): signed in to the same account
    there, the table opens in their seat, with their hand, and a move made there is
    the game's; the first browser is told the game goes on elsewhere, takes it back with
    "Play here" (and the second is told); a guest opening the same address is offered
    to watch. The home page and the top bar list the game in progress, and open it."""
    name = f"Dev{random.randrange(10**6)}"
    contexts = [browser.new_context(**DESKTOP) for _ in range(3)]  # type: ignore[arg-type]
    try:
        first, second, stranger = (c.new_page() for c in contexts)
        table = Player(first, web, random.Random(2)).new_game(
            "draw", players=2, target="null", levels=("easy",), name=name)
        first.wait_for_selector(".hand .tile")
        sign_in(second, web.url, name)
        second.goto(f"{web.url}/t/{table}")
        elsewhere = Player(second, web, random.Random(3))
        second.wait_for_function("() => { const t = document.querySelector('#table');"
                                 " return t?.dataset.status === 'playing'"
                                 " && t.dataset.turn === t.dataset.you; }", timeout=30_000)
        now = elsewhere.read()
        assert now["you"] == "0" and now["hand"] == first.evaluate(READ)["hand"]
        first.wait_for_selector("#play-here")  # told at once, its tiles no longer playable
        assert "another device" in first.locator("#status").inner_text()
        elsewhere.move(now, drag=False)
        second.wait_for_function("m => +document.querySelector('#table').dataset.moves > m",
                                 arg=now["moves"])
        first.click("#play-here")
        second.wait_for_selector("#play-here")
        first.wait_for_function("m => +document.querySelector('#table').dataset.moves > m",
                                arg=now["moves"])
        assert not first.locator("#play-here").count()
        stranger.goto(f"{web.url}/t/{table}")
        stranger.wait_for_selector("#join")
        assert stranger.locator(".hand .tile").count() == 0
        second.goto(f"{web.url}/")  # the home page and the top bar: your games in progress
        second.wait_for_selector(f"#games-now a[href='/t/{table}']")
        assert second.locator("#games-now-link").inner_text() == "Games: 1"
        second.click(f"#games-now a[href='/t/{table}']")
        second.wait_for_selector("#table[data-you='0']")
    finally:
        for context in contexts:
            context.close()


def test_a_member_signs_out_a_device_and_its_page_is_told(web: Server, browser: Browser
                                                         ) -> None:
    """"Sessions you can see": the account page lists where the member is signed in
    (browser, address, last seen; this device marked), signs the phone out, and the
    phone's open page says so at once; a reload there is nobody's."""
    name = f"Ses{random.randrange(10**6)}"
    laptop_context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    phone_context = browser.new_context(user_agent=PHONE, viewport={"width": 390, "height": 844})
    try:
        laptop, phone = laptop_context.new_page(), phone_context.new_page()
        sign_in(phone, web.url, name)
        phone.goto(f"{web.url}/")
        phone.wait_for_selector("#new-game .playing-as")
        sign_in(laptop, web.url, name)
        laptop.goto(f"{web.url}/account")
        listed = laptop.locator("#devices .device-list li")
        listed.nth(1).wait_for()
        assert listed.count() == 2
        assert "this device" in listed.nth(0).inner_text()
        assert listed.nth(0).locator(".sign-out").count() == 0
        assert "Chrome · Android" in listed.nth(1).inner_text()
        assert "127.0.0.1" in listed.nth(1).inner_text()
        listed.nth(1).locator(".sign-out").click()
        phone.wait_for_selector("#signed-out")
        assert phone.locator("#signed-out").inner_text() == (
            "This device was signed out of your account.")
        laptop.wait_for_function("() => document.querySelectorAll('#devices li').length === 1")
        assert laptop.locator("#sign-out-others").count() == 0
        phone.click("#notice button.primary")  # Reload: a new guest now
        phone.wait_for_selector("#new-game .playing-as")
        assert "Guest" in phone.locator(".playing-as").inner_text()
    finally:
        laptop_context.close()
        phone_context.close()


def test_sign_ups_by_invitation_in_the_browser(browser: Browser, tmp_path: Path) -> None:
    """While sign-ups are by invitation, the account page says so and offers only the
    login; the invitation's link opens the sign-up form, which takes it."""
    site = Server(sqlite_url(tmp_path / "invite.db"), extra=["--signups=invite"]).start()
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        page.goto(f"{site.url}/account")
        note = page.locator("#signups-note")
        note.wait_for()
        assert "by invitation" in note.inner_text() and page.locator("#signup").count() == 0
        assert page.locator("#login").count() == 1
        link = admin(site.db, "invite", "--site", site.url).strip()
        page.goto(link)
        page.reload()  # a new fragment alone does not load the page again
        _account_form(page, "signup", "Invited", PASSWORD)
        page.wait_for_function("() => document.querySelector('#account-link')?.textContent"
                               " === 'Invited'")
    finally:
        context.close()
        site.stop()
