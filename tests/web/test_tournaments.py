"""An arena in the browser: two players open its page and join; it starts, pairs them,
and their pages take both to one table; they play the game out and, back on the
tournament's page (one of them withdrew during the game, which still counts), see the
standings move."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, play_together, sign_in

STANDINGS = """() => [...document.querySelectorAll('#standings tbody tr')]
  .map((row) => row.querySelector('.sheet').textContent)"""


def test_two_players_join_an_arena_are_paired_and_see_the_standings(
        web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    made = web.account(f"Host{tag}").post("/api/tournaments", json={
        "kind": "arena", "name": f"Test arena {tag}", "minutes": 3,
        "starts": datetime.now(UTC).isoformat(),
        "table": {"variant": "draw", "options": {"target": None},
                  "seats": [{"kind": "human"}, {"kind": "human"}]}}).json()
    pages = [browser.new_context(**DESKTOP).new_page(),  # type: ignore[arg-type]
             browser.new_context(**PHONE).new_page()]  # type: ignore[arg-type]
    path = f"{web.url}/tournament/{made['id']}"
    for n, page in enumerate(pages):
        sign_in(page, web.url, f"Arp{n}{tag}")
        page.goto(path)
        page.click("#join-tournament")
        page.wait_for_selector("#withdraw")
    for page in pages:  # paired: each page goes to the table by itself
        page.wait_for_selector("#table[data-status=playing]", timeout=30_000)
    assert pages[0].url == pages[1].url
    left = pages[1].request.post(f"{web.url}/api/tournaments/{made['id']}/withdraw")
    assert left.status == 204  # (else the two would be paired again as soon as it ends)
    rng = random.Random(tag)
    play_together([Player(page, web, rng) for page in pages])  # a game begun still counts
    assert pages[0].locator("#match-over #again").count() == 0  # no rematch in an arena
    pages[0].click("#back-to-tournament")
    pages[1].goto(path)
    pages[0].wait_for_function(
        f"() => {{ const s = ({STANDINGS})(); return s.length === 2 && s.every((x) => x); }}")
    sheets = pages[0].evaluate(STANDINGS)
    assert sorted(sheets) in (["0", "2"], ["1", "1"]), sheets
    pages[1].wait_for_selector("#standings tbody tr:nth-child(2)")  # the one who left too
