"""The lobby in the browser: a table listed from one browser appears in another's lobby
without a reload; a stranger takes its free seat with one click and both play, the
player to move's clock counting down. A lobby left while it reconnects stays closed, and
one opened while signing in is the only one; a screen answered late draws nothing."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page, Route, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player


def test_a_stranger_finds_a_table_in_the_lobby_and_sits_down(web: Server,
                                                             browser: Browser) -> None:
    watching, hosting = (browser.new_context(**PHONE),  # type: ignore[arg-type]
                         browser.new_context(**DESKTOP))  # type: ignore[arg-type]
    stranger = watching.new_page()
    stranger.goto(f"{web.url}/")
    stranger.click("#menu-button")  # on a phone the lobby is in the top bar's menu
    stranger.click("#lobby-link")
    stranger.wait_for_selector("#lobby")
    loads = []
    stranger.on("load", lambda _page: loads.append(1))

    host = Player(hosting.new_page(), web, random.Random(3))
    page = host.page
    table = host.new_game("block", players=2, target="null", levels=("friend",), name=None,
                          public=True)

    listed = stranger.locator(f"#open-tables li[data-table='{table}']")
    listed.wait_for()  # pushed: no reload
    assert loads == []
    assert "Block game" in listed.inner_text() and "free seat" in listed.inner_text()
    assert "15 s + 2 min" in listed.inner_text()  # the clock, with the target's line
    assert "Listed in the lobby" in page.locator("#listed").inner_text()  # the host is told
    stranger.screenshot(path="docs/screenshots/phone-en-lobby.png")
    wide = hosting.new_page()
    wide.goto(f"{web.url}/lobby")
    wide.locator(f"#open-tables li[data-table='{table}']").wait_for()
    wide.screenshot(path="docs/screenshots/desktop-en-lobby.png")
    wide.close()
    listed.locator(".join-button").click()
    stranger.wait_for_selector("#table[data-status=playing]")
    page.wait_for_selector("#table[data-status=playing]")
    assert stranger.url.endswith(f"/t/{table}")
    # the table has the form's clock (15 s a move, a 2-minute bank), the mover's counting
    first = stranger.wait_for_function(  # the text and its seconds read together
        "() => { const c = document.querySelector('.seat-clock.running');"
        " return /^0:1\\d \\(\\+2:00\\)$/.test(c?.textContent || '') && +c.dataset.move; }"
    ).json_value()
    try:
        stranger.wait_for_function(
            "m => +(document.querySelector('.seat-clock.running')?.dataset.move ?? m) < m",
            arg=first)
    except PlaywrightTimeout:  # say what the page showed (in CI: a second lobby over the table)
        shown = stranger.evaluate(
            "() => { const c = document.querySelector('.seat-clock.running'),"
            " t = document.querySelector('#table');"
            " return [location.pathname, t?.dataset.status, t?.dataset.turn, t?.dataset.moves,"
            " c?.textContent, c?.dataset.move, c?.dataset.bank, document.visibilityState,"
            " [...document.querySelector('main > .screen').children].map((e) =>"
            " `${e.tagName}#${e.id}.${e.className}: ${e.textContent.slice(0, 80)}`)]; }")
        raise AssertionError(f"the clock stood at {first} s: {shown}") from None
    watching.close()
    hosting.close()


def test_a_player_leaves_a_table_before_it_begins(web: Server, browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    host = Player(context.new_page(), web, random.Random(5))
    table = host.new_game("draw", players=2, target="null", levels=("friend",), name=None,
                          public=True)
    host.page.click("#leave")
    host.page.wait_for_selector("#lobby")
    assert web.get(f"/api/tables/{table}")["seats"][0]["name"] is None
    context.close()


def test_a_lobby_left_while_it_reconnects_stays_closed(web: Server, browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.add_init_script("""
        window.sockets = [];
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) { super(...args); window.sockets.push(this); }
        };""")
    page.goto(f"{web.url}/lobby")
    page.wait_for_selector("#lobby")
    # the lobby's socket drops, and the player goes home before it comes back (250 ms on)
    page.evaluate("""() => new Promise((done) => {
        const ws = sockets.find((s) => s.url.includes("/ws/lobby"));
        ws.addEventListener("close", () => setTimeout(() => {
          document.querySelector("a.brand").click();
          done();
        }));
        ws.close();
      })""")
    page.wait_for_timeout(1500)  # past the reconnect's 250 ms, and its answer's arrival
    lobbies = page.evaluate("() => sockets.filter((s) => s.url.includes('/ws/lobby')).length")
    assert lobbies == 1, "a lobby socket opened after the lobby was left"
    assert page.locator("#lobby").count() == 0
    context.close()


def test_a_lobby_opened_while_signing_in_is_the_only_one(web: Server, browser: Browser) -> None:
    """The header's links work before signing in has ended, and its end routes again. Two
    routes at once must leave one screen: a second lobby, never closed, would draw over the
    table its player sat down at (the page showed the lobby at a table's address)."""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    held: list[Route] = []
    page.route("**/api/guest", lambda route: held.append(route))
    page.route("**/api/variants", lambda route: held.append(route))
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{web.url}/")
    page.click("#lobby-link")  # a route that waits for the variants
    _holding(page, held, 2)  # the guest's sign-in and the lobby's variants
    next(r for r in held if r.request.url.endswith("/api/guest")).continue_()
    _holding(page, held, 3)  # signed in, the page routes again and waits for the variants too
    for waiting in held:
        if waiting.request.url.endswith("/api/variants"):
            waiting.continue_()
    page.wait_for_selector("#lobby")
    page.click("#play-now-link")
    page.wait_for_selector("#play-form")
    lobbies = [ws for ws in sockets if ws.url.endswith("/ws/lobby")]
    assert len(lobbies) == 1, f"{len(lobbies)} lobby sockets opened"
    if not lobbies[0].is_closed():
        lobbies[0].wait_for_event("close", timeout=5000)
    context.close()


def test_a_screen_answered_late_draws_nothing_over_the_next(web: Server, browser: Browser) -> None:
    """The leaderboard is drawn when its rows come; a player who has gone to the lobby by
    then keeps the lobby."""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{web.url}/")
    page.wait_for_selector("#new-game")
    held: list[Route] = []
    page.route("**/api/leaderboard*", lambda route: held.append(route))
    page.click("#leaderboard-link")
    _holding(page, held, 1)
    page.click("#lobby-link")
    page.wait_for_selector("#lobby")
    with page.expect_request_finished(lambda request: "/api/leaderboard" in request.url):
        held[0].continue_()
    page.wait_for_timeout(200)  # the page reads the rows it was sent
    assert page.locator("#leaderboard").count() == 0
    assert page.locator("#lobby").is_visible()
    context.close()


def _holding(page: Page, held: list[Route], n: int) -> None:
    """Wait until ``n`` requests the test holds back have come (five seconds at most)."""
    for _ in range(200):
        if len(held) >= n:
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"{len(held)} requests held, not {n}")


def test_the_lobby_shows_who_is_here_and_a_game_to_watch(web: Server, browser: Browser) -> None:
    """PlayOK's and GameColony's regulars look for how many are on and who: the lobby
    counts the people here and those playing each game, lists them (those playing
    first, with their game), and a public game's player links to it."""
    page = browser.new_page()
    page.goto(f"{web.url}/lobby")
    page.wait_for_selector("#here-counts")
    name = f"Seen{random.randrange(10**6)}"
    made = web.create("allfives", [{"kind": "human", "me": True},
                                   {"kind": "bot", "level": "easy"}],
                      public=True, client=web.account(name))
    seat = web.socket(made["table"]["id"], made["token"])
    person = page.locator(f"#people li[data-name={name}]")
    page.click("#people summary")
    person.wait_for()
    assert "All Fives" in person.inner_text()
    assert "All Fives" in page.locator("#here-counts").inner_text()
    person.locator(".watch-link").click()
    page.wait_for_selector("#table[data-status=playing]", state="attached")
    assert page.url.endswith(f"/t/{made['table']['id']}?watch")
    seat.close()
    page.close()
