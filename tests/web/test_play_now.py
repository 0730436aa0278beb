"""Play now in the browser: strangers who never met press "Play now" and are seated at
one table by the server. Two who signed up play a rated game to the end and get the
ratings OpenSkill computes; four play Kozel in pairs, two of them friends who queued as
a pair by a link; a seek can be cancelled."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, Page

from bones.server.people.ratings import rank_game
from tests.server.live import Server
from tests.server.skill import openskill_after
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, play_together, sign_in


def _play_now(page: Page, url: str, variant: str, *, players: int | None = None,
              target: str = "null", rated: bool = False, pair: bool = False,
              via: str = "home") -> None:
    """Fill the Play-now form (reached from the new-game screen, or the lobby's) and
    press the button."""
    page.goto(f"{url}/" if via == "home" else f"{url}/{via}")
    page.click(f"#play-now-{via}")
    page.wait_for_selector("#play-form")
    page.check(f"#play-form input[name=variant][value={variant}]", force=True)
    if players is not None:
        page.check(f"#play-form input[name=players][value='{players}']", force=True)
    page.check(f"#play-form input[name=target][value='{target}']", force=True)
    if rated:
        page.check("#play-form input[name=rated]")
    if pair:
        page.check("#play-form input[name=pair]")
    page.click("#play-now")
    page.wait_for_selector("#seeking, #table")  # the last one a group needs goes at once


def _seated(page: Page) -> str:
    page.wait_for_selector("#table[data-status=playing]", timeout=60_000)
    return page.url.rsplit("/", 1)[-1]


def test_two_strangers_play_now_a_rated_game(web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    names = (f"Quinn{tag}", f"Quill{tag}")
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]  # type: ignore[arg-type]
    players = [Player(c.new_page(), web, random.Random(i)) for i, c in enumerate(contexts)]
    for player, name in zip(players, names, strict=True):
        sign_in(player.page, web.url, name)
    first = players[0].page
    _play_now(first, web.url, "draw", players=2, target="50", rated=True)
    # the rating band shows while the first waits alone: once the second seeks, the two
    # are seated at once and the seeking screen is gone
    first.wait_for_function("() => (document.querySelector('#seek-status')?.textContent"
                            " || '').includes('±')")
    _play_now(players[1].page, web.url, "draw", players=2, target="50", rated=True)
    tables = [_seated(p.page) for p in players]
    assert tables[0] == tables[1], "the two were seated at different tables"
    info = web.get(f"/api/tables/{tables[0]}")
    assert info["rated"] and info["rules"]["target"] == 50
    assert sorted(s["name"] for s in info["seats"]) == sorted(names)
    play_together(players, timeout=300)
    over = web.get(f"/api/tables/{tables[0]}")
    by_seat = [[s["name"]] for s in over["seats"]]
    expected = openskill_after(by_seat, rank_game(over["scores"], [0, 1], set(),
                                                  lower_wins=False))
    for name in names:
        [rating] = web.get(f"/api/profile/{name}")["ratings"]
        assert (rating["mu"], rating["sigma"]) == pytest.approx(expected[name])
    for context in contexts:
        context.close()


def test_four_strangers_play_kozel_in_pairs(web: Server, browser: Browser) -> None:
    contexts = [browser.new_context(**DESKTOP) for _ in range(4)]  # type: ignore[arg-type]
    players = [Player(c.new_page(), web, random.Random(10 + i)) for i, c in enumerate(contexts)]
    pages = [p.page for p in players]
    for page in pages:  # guests: a casual game
        page.goto(f"{web.url}/")
        page.wait_for_selector("#new-game")
    _play_now(pages[0], web.url, "kozel", target="50", pair=True)
    link = pages[0].locator("#pair-link")
    link.wait_for()
    pages[1].goto(link.input_value())
    pages[1].click("#join-pair")
    pages[1].wait_for_selector("#seeking")
    pages[0].wait_for_selector("#pair-link", state="detached")  # the friend has come
    for page in pages[2:]:
        _play_now(page, web.url, "kozel", target="50")
    tables = [_seated(page) for page in pages]
    assert len(set(tables)) == 1
    you = [int(page.locator("#table").get_attribute("data-you") or -1) for page in pages]
    assert sorted(you) == [0, 1, 2, 3] and abs(you[0] - you[1]) == 2, "friends sit opposite"
    play_together(players, timeout=600)
    assert web.get(f"/api/tables/{tables[0]}")["status"] == "over"
    for context in contexts:
        context.close()


def test_a_seek_is_cancelled(web: Server, browser: Browser) -> None:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    _play_now(page, web.url, "allfives", target="150", via="lobby")
    page.screenshot(path="docs/screenshots/phone-en-seeking.png")
    page.wait_for_function("() => +(document.querySelector('#seek-status')?.dataset.waiting"
                           " || 0) >= 1")
    page.click("#cancel-seek")
    page.wait_for_selector("#play-form")
    page.screenshot(path="docs/screenshots/phone-en-play-now.png")
    assert page.evaluate("() => sessionStorage.getItem('bones.seek')") is None
    context.close()
