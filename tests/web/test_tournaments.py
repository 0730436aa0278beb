"""An arena in the browser: four players open its page and join (one then goes on to the
lobby, one to a game against a bot); it starts, pairs them at two tables, and every
page, the tournament's or another, takes each to their own (the one at a game of theirs
is asked first); they play the games out and,
back on the tournament's page (each withdrew during the game, which still counts), see
the standings move."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, play_together, sign_in

STANDINGS = """() => [...document.querySelectorAll('#standings tbody tr')]
  .map((row) => row.querySelector('.sheet').textContent)"""


def test_four_players_join_an_arena_are_paired_and_see_the_standings(
        web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    made = web.account(f"Host{tag}").post("/api/tournaments", json={
        "kind": "arena", "name": f"Test arena {tag}", "minutes": 5,
        "starts": (datetime.now(UTC) + timedelta(seconds=20)).isoformat(),
        "table": {"variant": "draw", "options": {"target": None},
                  "seats": [{"kind": "human"}, {"kind": "human"}]}}).json()
    pages = [browser.new_context(**(DESKTOP if n % 2 else PHONE)).new_page()  # type: ignore[arg-type]
             for n in range(4)]
    path = f"{web.url}/tournament/{made['id']}"
    for n, page in enumerate(pages):
        sign_in(page, web.url, f"Arp{n}{tag}")
        page.goto(path)
        page.click("#join-tournament")
        page.wait_for_selector("#withdraw")
    pages[0].wait_for_function(  # the others' joins pushed to the first page
        "() => document.querySelectorAll('#standings tbody tr').length === 4")
    pages[2].goto(f"{web.url}/lobby")  # elsewhere in bones: still paired, taken to the game
    casual = Player(pages[3], web, random.Random(tag)).new_game(  # at a game: asked
        "draw", target="null", levels=("easy",), name=None)
    pages[3].click("#open-tournament-game", timeout=60_000)
    pages[3].wait_for_url(lambda url: casual not in url)
    for page in pages:  # paired: each page goes to its table by itself
        page.wait_for_selector("#table[data-status=playing]", timeout=60_000)
    tables = Counter(page.url for page in pages)
    assert sorted(tables.values()) == [2, 2], tables
    for page in pages:  # (else each would be paired again as soon as their game ends)
        left = page.request.post(f"{web.url}/api/tournaments/{made['id']}/withdraw")
        assert left.status == 204
    rng = random.Random(tag)
    play_together([Player(page, web, rng) for page in pages])  # games begun still count
    assert pages[0].locator("#match-over #again").count() == 0  # no rematch in an arena
    pages[0].click("#back-to-tournament")
    pages[0].wait_for_function(
        f"() => {{ const s = ({STANDINGS})(); return s.length === 4 && s.every((x) => x); }}")
    sheets = pages[0].evaluate(STANDINGS)
    assert sorted(sheets) in (["0", "0", "2", "2"], ["0", "1", "1", "2"],
                              ["1", "1", "1", "1"]), sheets
