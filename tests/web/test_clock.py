"""The clock in the browser: at a table with a short clock, the player to move who does
nothing sees the move's seconds run out, then the bank counting down, then a move made
for them; the other player sees it too."""

from __future__ import annotations

import random

from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.driver import Player, timed_pair

MOVES = "() => +document.querySelector('#table')?.dataset.moves"


def test_the_move_time_then_the_bank_run_out_and_a_move_is_made(web: Server,
                                                                 browser: Browser) -> None:
    contexts, pages = timed_pair(web, browser, 3, 3)
    players = [Player(p, web, random.Random(i)) for i, p in enumerate(pages)]
    now = players[0].read()
    mover = next(p for p in players if p.read()["turn"] == p.read()["you"])
    page = mover.page
    before = page.evaluate(MOVES)
    page.wait_for_function("() => /^0:0\\d \\(\\+0:0\\d\\)$/.test("
                           "document.querySelector('#clock')?.textContent || '')")
    page.wait_for_function("() => (document.querySelector('#clock')?.textContent || '')"
                           ".startsWith('Bank 0:0')", timeout=10_000)
    page.wait_for_function(f"m => ({MOVES})() > m", arg=before, timeout=15_000)
    other = next(p for p in players if p is not mover).page
    other.wait_for_function(f"m => ({MOVES})() > m", arg=before, timeout=15_000)
    assert now["status"] == "playing"
    for context in contexts:
        context.close()
