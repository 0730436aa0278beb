"""Reports and moderators in three browsers: a player, an offender and a moderator. The
player reports the offender from their profile; the moderator finds the report, opens the
offender, mutes them (their next line is refused in their words), resolves the report
(the player sees what was done), then bans them: the offender's open table says so at
once; the audit log shows both actions."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Browser, Page

from tests.server.live import Server, admin
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, sign_in


def _say(page: Page, text: str) -> None:
    if page.locator("#chat-lines").count() == 0:
        page.click("#chat-toggle")
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def _moderator(web: Server, page: Page, name: str) -> None:
    sign_in(page, web.url, name)
    admin(web.db, "grant", name, "moderator")


def test_a_report_is_acted_on_and_a_ban_ends_the_offenders_table(
        web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    offender, mod_name = f"Odo{tag}", f"Moe{tag}"
    ann = Player(browser.new_context(**DESKTOP).new_page(), web,  # type: ignore[arg-type]
                 random.Random(1))
    ann.new_game("draw", players=2, target="null", levels=("friend",), name=f"Ann{tag}")
    odo = browser.new_context(**PHONE).new_page()  # type: ignore[arg-type]
    sign_in(odo, web.url, offender)
    odo.goto(ann.page.locator("#invite-link").input_value())
    odo.click("#join button[type=submit]")
    odo.wait_for_selector("#table[data-status=playing]")
    _say(odo, "you play like a goat")
    odo.wait_for_selector("#chat-lines .chat-text:text-is('you play like a goat')")

    report = ann.page.context.new_page()
    report.goto(f"{web.url}/stats/{offender}")
    report.select_option("#lang", "ru")  # the reason travels as a code, read in English
    report.click("#report-player")
    report.fill("#report-dialog textarea", "insults at our table")
    report.click("#send-report")
    report.wait_for_selector("#report-sent")

    mod = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    _moderator(web, mod, mod_name)
    mod.goto(f"{web.url}/mod")
    item = mod.locator(f".report:has-text('{offender}')")
    assert "Insults or harassment" in item.inner_text()  # the first reason, checked
    item.locator("button.link").click()
    mod.wait_for_selector(f"#mod-player-name:has-text('{offender}')")
    assert "you play like a goat" in mod.locator("#mod-player .chat-lines").inner_text()
    mod.select_option("#mod-act select[name=kind]", "mute")
    mod.select_option("#mod-act select[name=minutes]", "60")
    mod.fill("#mod-act input[name=reason]", "insults")
    mod.click("#mod-apply")
    mod.wait_for_selector("#mod-player .sanction-mute")

    odo.click("#sanction-seen")  # told at once, in a dialog the player closes
    _say(odo, "still here")
    odo.wait_for_selector("#chat .form-error:has-text('muted you')")
    assert "still here" not in odo.locator("#chat-lines").inner_text()

    mod.fill(f".report:has-text('{offender}') input[name=reason]", "muted for an hour")
    mod.click(f".report:has-text('{offender}') button[type=submit]")
    mod.wait_for_selector(f".report:has-text('{offender}')", state="detached")
    report.goto(f"{web.url}/account")
    report.wait_for_selector("#my-reports:has-text('muted for an hour')")

    mod.select_option("#mod-act select[name=kind]", "ban")
    mod.select_option("#mod-act select[name=minutes]", "")
    mod.fill("#mod-act input[name=reason]", "insults again")
    mod.click("#mod-apply")
    odo.wait_for_selector("#status:has-text('This account is banned')")
    mod.wait_for_selector("#mod-player .sanction-ban")
    audit = mod.locator("#mod-player .audit-list").inner_text()
    assert "Ban" in audit and "No chat" in audit and mod_name in audit
    odo.reload()  # signed out: a guest now, whose old seat stays closed
    odo.wait_for_selector("#ended:has-text('This account is banned')")


def test_a_followed_player_is_seen_playing_and_a_blocked_ones_chat_stays_away(
        web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    ann = Player(browser.new_context(**DESKTOP).new_page(), web,  # type: ignore[arg-type]
                 random.Random(2))
    ann.new_game("draw", players=2, target="null", levels=("friend",), name=f"Amy{tag}")
    bob = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    sign_in(bob, web.url, f"Bot{tag}")
    bob.goto(ann.page.locator("#invite-link").input_value())
    bob.click("#join button[type=submit]")
    bob.wait_for_selector("#table[data-status=playing]")
    profile = ann.page.context.new_page()
    profile.goto(f"{web.url}/stats/Bot{tag}")
    profile.click("#follow-player")  # followed: in the lobby, playing, one tap to watch
    profile.wait_for_selector("#follow-player[aria-pressed=true]")
    profile.goto(f"{web.url}/lobby")
    friend = profile.locator(f"#friends .person[data-name='Bot{tag}']")
    friend.locator(".badge").wait_for()
    assert friend.locator(".watch-link").count() == 0  # a private table is not to watch
    profile.goto(f"{web.url}/stats/Bot{tag}")
    profile.click("#block-player")
    profile.wait_for_selector("#block-player[aria-pressed=true]")
    _say(bob, "can you hear me")
    bob.wait_for_selector("#chat-lines .chat-text:text-is('can you hear me')")
    _say(ann.page, "a line of my own")  # once Ann's own line is back, Bob's would be too
    ann.page.wait_for_selector("#chat-lines .chat-text:text-is('a line of my own')")
    assert "can you hear me" not in ann.page.locator("#chat-lines").inner_text()
    profile.goto(f"{web.url}/account")
    profile.click(f"#blocked li:has-text('Bot{tag}') button")
    profile.wait_for_selector("#blocked li", state="detached")
    _say(bob, "and now")
    ann.page.wait_for_selector("#chat-lines .chat-text:text-is('and now')")
    ann.page.click("#chat-off")  # all chat off, for Ann alone
    ann.page.wait_for_selector("#chat:has-text('Chat is off')")
    _say(bob, "anyone?")
    bob.wait_for_selector("#chat-lines .chat-text:text-is('anyone?')")
    assert ann.page.locator("#chat-lines").count() == 0
    assert ann.page.locator("#chat-unread").count() == 0
    ann.page.click("#chat-off")
    ann.page.wait_for_selector("#chat-lines .chat-text:text-is('anyone?')")


MARKUP = "<img src=x onerror=window.hacked=1>"
"""Markup a player types, in every field that takes free text."""


def test_markup_in_every_text_field_is_shown_as_text(web: Server, browser: Browser) -> None:
    """A report's reason and note, a sanction's reason, a resolution, a token's label and
    a tournament's name, each written as markup: every page that shows them (the
    reporter's, the offender's, the moderator's, the tournament's, the account's) shows
    it as text and runs nothing."""
    tag = random.randrange(10**6)
    offender, reporter, mod_name = f"Mko{tag}", f"Mkr{tag}", f"Mkm{tag}"
    pages = {name: browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
             for name in (offender, reporter, mod_name)}
    for name, page in pages.items():
        sign_in(page, web.url, name)
        page.goto(f"{web.url}/")
        page.on("dialog", lambda dialog: dialog.dismiss())
    _moderator(web, pages[mod_name], mod_name)
    said = pages[reporter].request.post(f"{web.url}/api/reports", data={
        "kind": "player", "name": offender, "reason": MARKUP, "note": MARKUP})
    assert said.ok, said.text()
    mod = pages[mod_name]
    mod.goto(f"{web.url}/mod")
    mod.wait_for_selector(f".report:has-text('{offender}')")
    report = mod.locator(f".report:has-text('{offender}')")
    assert MARKUP in report.inner_text()
    assert mod.request.post(f"{web.url}/api/mod/players/{offender}/sanctions", data={
        "kind": "warn", "reason": MARKUP}).ok
    mod.reload()
    mod.locator(f".report:has-text('{offender}')").locator("button.link").click()
    mod.wait_for_selector(f"#mod-player-name:has-text('{offender}')")
    assert mod.locator("main").inner_text().count(MARKUP) >= 3  # reason, note, sanction
    report_id = said.json()["id"]
    assert mod.request.post(f"{web.url}/api/mod/reports/{report_id}/resolve",
                            data={"reason": MARKUP}).ok
    for name, where in ((offender, "#my-sanctions"), (reporter, "#my-reports")):
        page = pages[name]
        page.goto(f"{web.url}/account")
        page.wait_for_selector(f"{where} .said")
        assert page.locator(f"{where} .said").first.inner_text() == MARKUP
    for page in pages.values():
        assert page.evaluate("() => window.hacked") is None
        assert page.locator("img[src=x]").count() == 0
    page = pages[reporter]
    made = page.request.post(f"{web.url}/api/tournaments", data={
        "kind": "arena", "name": MARKUP, "minutes": 30, "starts": "2031-01-01T20:00:00+00:00",
        "table": {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}]}})
    assert made.ok, made.text()
    assert page.request.post(f"{web.url}/api/tokens", data={"label": MARKUP}).ok
    page.goto(f"{web.url}/tournament/{made.json()['id']}")
    page.wait_for_selector(f"h1:text-is('{MARKUP}')")
    page.goto(f"{web.url}/account")
    page.wait_for_selector(".token-list li span")
    assert page.locator(".token-list li span").inner_text() == MARKUP
    for one in pages.values():
        assert one.evaluate("() => window.hacked") is None
        assert one.locator("img[src=x]").count() == 0
        one.context.close()


def test_a_warned_player_is_told_at_once_in_their_language(web: Server,
                                                          browser: Browser) -> None:
    """A sanction reaches the player: their open page (in German) shows it at once, in
    a dialog they close, with its kind in their words and the moderator's reason; it
    stays in their notifications, and on the home page while it holds (a mute with its
    end); a muted player's chat box says so."""
    tag = random.randrange(10**6)
    name, mod_name = f"Wpl{tag}", f"Wmo{tag}"
    page = browser.new_context(**PHONE).new_page()  # type: ignore[arg-type]
    sign_in(page, web.url, name)
    page.goto(web.url)
    page.evaluate("localStorage.setItem('bones.lang', 'de')")
    page.reload()
    page.wait_for_selector("#new-game")
    mod = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    _moderator(web, mod, mod_name)
    deadline = time.monotonic() + 60  # the page's notice socket opens as it loads
    while page.locator("#sanction-dialog").count() == 0 and time.monotonic() < deadline:
        warned = mod.request.post(f"{web.url}/api/mod/players/{name}/sanctions",
                                  data={"kind": "warn", "reason": "Beleidigungen im Chat"})
        assert warned.status == 201, warned.text()
        time.sleep(2)
    told = page.locator("#sanction-told").first.inner_text()
    assert told == "Verwarnung: Beleidigungen im Chat", told
    while page.locator("#sanction-seen").count():
        page.locator("#sanction-seen").first.click()
    page.wait_for_selector("#sanction-dialog", state="detached")
    notes = page.evaluate("fetch('/api/notifications').then((r) => r.json())")
    assert notes["items"][0]["kind"] == "sanction"
    assert notes["items"][0]["sanction"]["reason"] == "Beleidigungen im Chat"
    muted = mod.request.post(f"{web.url}/api/mod/players/{name}/sanctions",
                             data={"kind": "mute", "reason": "Spam", "minutes": 60})
    assert muted.status == 201, muted.text()
    page.goto(f"{web.url}/lobby")  # a muted player's chat box says so, in their language
    page.wait_for_selector("#chat-toggle")
    if page.get_attribute("#chat-toggle", "aria-expanded") == "false":
        page.click("#chat-toggle")
    assert "stummgeschaltet" in page.locator("#chat-muted").inner_text()
    assert page.locator("#chat-input").count() == 0
    page.goto(f"{web.url}/")  # the home page says what holds them, until it ends
    listed = page.locator("#sanctions-now li")
    listed.nth(1).wait_for()
    assert listed.all_inner_texts() == ["Verwarnung: Beleidigungen im Chat",
                                        listed.nth(1).inner_text()]
    assert listed.nth(1).inner_text().startswith("Kein Chat (bis ")
    assert listed.nth(1).inner_text().endswith("): Spam")


def test_a_moderator_finds_a_player_by_a_piece_of_the_name(web: Server,
                                                           browser: Browser) -> None:
    """"A moderator web page gains the same search and a player's sessions' addresses":
    a piece of the name lists the accounts holding it, with games and sign-up; the
    player opened shows where they are signed in (browser, address, last seen)."""
    tag = random.randrange(10**6)
    target = f"Fnd{tag}x"
    web.account(target)  # a program: python-httpx
    mod = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    _moderator(web, mod, f"Fmo{tag}")
    mod.goto(f"{web.url}/mod")
    mod.fill("#mod-look-up input", f"fnd{tag}")
    mod.click("#mod-look-up button")
    found = mod.locator(f"#mod-found li:has-text('{target}')")
    found.wait_for()
    assert "0 games · since" in found.inner_text()
    assert mod.locator("#mod-found p").inner_text() == "1 player found"
    found.locator("button.link").click()
    mod.wait_for_selector(f"#mod-player-name:has-text('{target}')")
    devices = mod.locator("#mod-devices").inner_text()
    assert "python-httpx" in devices and "127.0.0.1" in devices and "last seen" in devices


def test_a_banned_player_is_signed_out_everywhere_and_cannot_chat_as_a_guest(
        web: Server, browser: Browser) -> None:
    """"A banned one is signed out everywhere and, as a guest in the same browser, cannot
    chat": the lobby open in two browsers of theirs is told at once; a reload there is a
    guest whose chat box says it may not chat, and the home page says why."""
    tag = random.randrange(10**6)
    name = f"Bnd{tag}"
    pages = [browser.new_context(**size).new_page()  # type: ignore[arg-type]
             for size in (DESKTOP, PHONE)]
    for page in pages:
        sign_in(page, web.url, name)
        page.goto(f"{web.url}/lobby")
        page.wait_for_selector("#chat-toggle")
        if page.get_attribute("#chat-toggle", "aria-expanded") == "false":
            page.click("#chat-toggle")
        page.wait_for_selector("#chat-input")
    mod = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    _moderator(web, mod, f"Bmo{tag}")
    banned = mod.request.post(f"{web.url}/api/mod/players/{name}/sanctions",
                              data={"kind": "ban", "reason": "scam links", "minutes": 60})
    assert banned.status == 201, banned.text()
    for page in pages:  # told at once, in both browsers
        page.wait_for_selector("#sanction-told")
        assert "scam links" in page.locator("#sanction-told").first.inner_text()
    page = pages[0]
    page.goto(f"{web.url}/")
    page.wait_for_selector("#limited-here")
    assert "A banned account played from this browser" in page.locator("#limited-here").inner_text()
    assert "Guest" in page.locator(".playing-as").inner_text()
    page.goto(f"{web.url}/lobby")
    page.wait_for_selector("#chat-toggle")
    if page.get_attribute("#chat-toggle", "aria-expanded") == "false":
        page.click("#chat-toggle")
    page.wait_for_selector("#chat-muted")
    assert page.locator("#chat-input").count() == 0
    for one in (*pages, mod):
        one.context.close()
