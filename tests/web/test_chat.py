"""Chat in the browser: a line that looks like HTML shows as text and runs nothing; a
spectator's line never reaches the players while the game runs; quick phrases in the
player's language; muting a player; reporting a line; the lobby's chat."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, sign_in

XSS = "<img src=x onerror=alert(1)>"


def _open_chat(page: Page) -> None:
    if page.locator("#chat-lines").count() == 0:
        page.click("#chat-toggle")
    page.wait_for_selector("#chat-input")


def _say(page: Page, text: str) -> None:
    _open_chat(page)
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def _lines(page: Page) -> list[str]:
    return page.locator("#chat-lines .chat-text").all_inner_texts()


def test_chat_at_a_table_is_text_and_keeps_its_rooms(web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    host, friend, watching = (browser.new_context(**DESKTOP),  # type: ignore[arg-type]
                              browser.new_context(**PHONE),  # type: ignore[arg-type]
                              browser.new_context(**DESKTOP))  # type: ignore[arg-type]
    dialogs: list[str] = []
    ann = Player(host.new_page(), web, random.Random(1))
    ann.new_game("draw", players=2, target="null", levels=("friend",), name=f"Ch{tag}")
    ben = Player(friend.new_page(), web, random.Random(2))
    sign_in(ben.page, web.url, f"Bh{tag}")
    link = ann.page.locator("#invite-link").input_value()
    ben.page.goto(link)
    ben.page.click("#join button[type=submit]")
    spectator = watching.new_page()
    for page in (ann.page, ben.page, spectator):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    spectator.goto(link)  # a private table is watched through its invite link
    spectator.click("#join button[type=button]")  # watch
    spectator.wait_for_selector("#table")
    for player in (ann, ben):
        player.page.wait_for_selector("#table[data-status=playing]")
    # a spectator sees whose the bottom seat is, and so whose clock shows beside it
    spectator.wait_for_selector("#table[data-status=playing]")
    assert spectator.locator("#bottom-name").inner_text() == f"Ch{tag}"

    _say(ann.page, XSS)
    _open_chat(ben.page)
    ben.page.wait_for_function("t => [...document.querySelectorAll('#chat-lines .chat-text')]"
                               ".some((e) => e.textContent === t)", arg=XSS)
    assert ben.page.locator("#chat-lines img").count() == 0 and dialogs == []
    _say(spectator, "play your double!")
    spectator.wait_for_function("() => document.querySelectorAll('#chat-lines .chat-text')"
                                ".length === 1")
    assert _lines(spectator) == ["play your double!"]  # the players' line is not theirs
    ben.page.click(".quick-phrase >> nth=0")  # a quick phrase: "Hello!"
    ann.page.wait_for_function("() => [...document.querySelectorAll('#chat-lines .chat-text')]"
                               ".some((e) => e.textContent === 'Hello!')")
    assert "play your double!" not in _lines(ann.page) + _lines(ben.page)
    ann.page.screenshot(path="docs/screenshots/desktop-en-chat.png")

    # Ann mutes Ben, then reports his line
    ann.page.click(f".chat-line:has(.chat-name:text-is('Bh{tag}')) .chat-mute")
    assert "Hello!" not in _lines(ann.page)
    ann.page.click(".unmute")
    ann.page.click(f".chat-line:has(.chat-name:text-is('Bh{tag}')) .chat-report")
    ann.page.wait_for_selector(".chat-reported")
    assert dialogs == []
    for context in (host, friend, watching):
        context.close()


def test_the_lobby_chat(web: Server, browser: Browser) -> None:
    one, two = (browser.new_context(**DESKTOP),  # type: ignore[arg-type]
                browser.new_context(**PHONE))  # type: ignore[arg-type]
    pages = [one.new_page(), two.new_page()]
    for page in pages:
        page.goto(f"{web.url}/lobby")
        page.wait_for_selector("#lobby")
        _open_chat(page)  # a phone's lobby opens with its chat closed
    line = f"anyone for Kozel? {random.randrange(10**6)}"
    _say(pages[0], line)
    pages[1].wait_for_function("t => [...document.querySelectorAll('#chat-lines .chat-text')]"
                               ".some((e) => e.textContent === t)", arg=line)
    # Mute and Report are for the others' lines, never one's own
    pages[0].wait_for_selector("#chat-lines .chat-line.mine")
    for page, buttons in ((pages[0], 0), (pages[1], 1)):
        said = page.locator("#chat-lines .chat-line", has_text=line)
        assert said.locator(".chat-mute").count() == buttons
        assert said.locator(".chat-report").count() == buttons
    one.close()
    two.close()


def test_a_chat_box_keeps_lines_in_the_order_said(web: Server, browser: Browser) -> None:
    # A socket hears lines live from the moment it is registered, before the lines said
    # earlier are read back: a live line may arrive first, and one may come twice.
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/")
    shown = page.evaluate("""async () => {
        const { ChatBox } = await import(new URL('chat.js', document.scripts[0].src));
        const box = new ChatBox(() => {}, 'lobby', true);
        const line = (id) => ({ id, room: 'lobby', name: 'A', text: `line ${id}`, at: '' });
        for (const id of [3, 1, 2, 3, 1]) box.add(line(id));
        return [...box.element.querySelectorAll('.chat-text')].map((e) => e.textContent);
    }""")
    assert shown == ["line 1", "line 2", "line 3"]
    context.close()
