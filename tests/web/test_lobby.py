"""The lobby in the browser: a table listed from one browser appears in another's lobby
without a reload; a stranger takes its free seat with one click and both play."""

from __future__ import annotations

import random

from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player


def test_a_stranger_finds_a_table_in_the_lobby_and_sits_down(web: Server,
                                                             browser: Browser) -> None:
    watching, hosting = (browser.new_context(**PHONE),  # type: ignore[arg-type]
                         browser.new_context(**DESKTOP))  # type: ignore[arg-type]
    stranger = watching.new_page()
    stranger.goto(f"{web.url}/")
    stranger.click("#lobby-link")
    stranger.wait_for_selector("#lobby")
    loads = []
    stranger.on("load", lambda _page: loads.append(1))

    host = Player(hosting.new_page(), web, random.Random(3))
    page = host.page
    page.goto(f"{web.url}/")
    page.wait_for_selector("#new-game")
    page.check("input[name=variant][value=block]", force=True)
    page.check("input[name=players][value='2']", force=True)
    page.select_option("select[name=seat1]", "friend")
    page.check("input[name=target][value='null']", force=True)
    page.check("input[name=public]")
    page.click("#start")
    page.wait_for_selector("#table")
    table = page.url.rsplit("/", 1)[-1]

    listed = stranger.locator(f"#open-tables li[data-table='{table}']")
    listed.wait_for()  # pushed: no reload
    assert loads == []
    assert "Block game" in listed.inner_text() and "free seat" in listed.inner_text()
    stranger.screenshot(path="docs/screenshots/phone-en-lobby.png")
    listed.locator(".join-button").click()
    stranger.wait_for_selector("#table[data-status=playing]")
    page.wait_for_selector("#table[data-status=playing]")
    assert stranger.url.endswith(f"/t/{table}")
    watching.close()
    hosting.close()
