"""How the table feels: sounds that wait for the player's first touch and keep quiet when
muted (and remember it), a placed tile that slides in unless the system asks for less
motion, the tab's title when your turn comes while you look away, and an installable
app whose files come from the browser's cache."""

from __future__ import annotations

import io
import json
import random

import httpx
from PIL import Image
from playwright.sync_api import Browser, Page

from tests.server.live import Server
from tests.web.conftest import DESKTOP
from tests.web.driver import READY, Player

PLAYED = ("async () => (await import(new URL('feel.js', document.scripts[0].src)))"
          ".sounds.played.slice()")
"""What the page's own sounds module (its version's, as the page names it) played."""


def _moves(page: Page) -> int:
    return int(page.evaluate("() => +document.querySelector('#table').dataset.moves"))


def test_sounds_wait_for_a_touch_and_keep_quiet_when_muted(web: Server,
                                                           browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    made = web.create("draw", [{"kind": "human", "name": "Ears"},
                               {"kind": "bot", "level": "easy"}], options={"target": None})
    page.goto(f"{web.url}/")
    page.evaluate("([t, s]) => localStorage.setItem(`bones.seat.${t}`, JSON.stringify(s))",
                  [made["table"]["id"], {"seat": 0, "token": made["token"]}])
    page.goto(f"{web.url}/t/{made['table']['id']}")   # no click, no key yet
    page.wait_for_function(READY)
    assert page.evaluate(PLAYED) == []                 # the turn began, silently
    player = Player(page, web, random.Random(2))
    player.move(player.read(), drag=False)             # a touch: sound from now on
    page.wait_for_function(READY)
    heard = page.evaluate(PLAYED)
    assert "place" in heard
    page.click("#mute")
    assert page.locator("#mute").get_attribute("aria-pressed") == "false"
    quiet = len(page.evaluate(PLAYED))
    if player.read()["status"] == "playing":
        player.move(player.read(), drag=False)
        page.wait_for_function(READY)
    assert len(page.evaluate(PLAYED)) == quiet
    page.reload()
    assert page.evaluate("() => localStorage.getItem('bones.mute')") == "1"
    assert page.locator("#mute").get_attribute("aria-pressed") == "false"
    context.close()


def _tile_slides(browser: Browser, web: Server, reduced: bool) -> tuple[int, int]:
    context = browser.new_context(**DESKTOP,  # type: ignore[arg-type]
                                  reduced_motion="reduce" if reduced else "no-preference")
    page = context.new_page()
    page.add_init_script("""window.slid = 0; const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) { window.slid += 1;
                                                         return animate.apply(this, args); };""")
    player = Player(page, web, random.Random(5))
    player.new_game("draw", players=2, target="null", name="Eyes")
    for _ in range(3):
        page.wait_for_function(READY)
        if player.read()["status"] != "playing":
            break
        player.move(player.read(), drag=False)
    slid = int(page.evaluate("() => window.slid"))
    running = int(page.evaluate("() => document.getAnimations().length"))
    context.close()
    return slid, running


def test_tiles_slide_in_unless_the_system_asks_for_less_motion(web: Server,
                                                               browser: Browser) -> None:
    slid, _ = _tile_slides(browser, web, reduced=False)
    assert slid > 0
    still, running = _tile_slides(browser, web, reduced=True)
    assert still == 0 and running == 0


def test_the_title_says_your_turn_while_the_tab_is_hidden(web: Server,
                                                          browser: Browser) -> None:
    page = browser.new_page()
    player = Player(page, web, random.Random(8))
    player.new_game("draw", players=2, target="null", name="Away")
    page.wait_for_function(READY)
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState',
                              { value: 'hidden', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    moves = _moves(page)
    player.move(player.read(), drag=False)
    page.wait_for_function("m => +document.querySelector('#table').dataset.moves > m"
                           " && (document.title.startsWith('Your turn')"
                           "     || document.querySelector('#table').dataset.status !== 'playing')",
                           arg=moves)
    if player.read()["status"] == "playing":
        assert document_title(page).startswith("Your turn")
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState',
                              { value: 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    assert document_title(page) == "bones"
    page.close()


def document_title(page: Page) -> str:
    return str(page.evaluate("() => document.title"))


def test_the_app_installs_and_keeps_its_files(web: Server, browser: Browser) -> None:
    manifest = httpx.get(f"{web.url}/static/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = json.loads(manifest.text)
    assert data["start_url"] == "/" and data["display"] == "standalone"
    for icon in data["icons"]:
        got = httpx.get(f"{web.url}{icon['src']}")
        assert got.status_code == 200
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            assert Image.open(io.BytesIO(got.content)).size == (size, size)
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/")
    page.wait_for_selector("#new-game")
    cached = page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        const keys = await caches.keys();
        const hit = await caches.match(new URL('app.js', document.scripts[0].src).pathname);
        return [keys, !!hit];
    }""")
    assert any(k.startswith("bones-") for k in cached[0]) and cached[1]
    context.set_offline(True)  # the server out of reach: the page still opens from the cache
    page.reload()
    page.wait_for_selector("#top .brand")
    context.close()
