"""The clock in the browser: at a table with a short clock, the player to move who does
nothing sees the move's seconds run out, then the bank counting down, then a move made
for them; the other player sees it too."""

from __future__ import annotations

import random

from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.conftest import DESKTOP
from tests.web.driver import Player

MOVES = "() => +document.querySelector('#table')?.dataset.moves"


def test_the_move_time_then_the_bank_run_out_and_a_move_is_made(web: Server,
                                                                 browser: Browser) -> None:
    contexts = [browser.new_context(**DESKTOP) for _ in range(2)]  # type: ignore[arg-type]
    pages = [c.new_page() for c in contexts]
    for page in pages:
        page.goto(f"{web.url}/")
        page.wait_for_selector("#new-game")
    made = pages[0].request.post(f"{web.url}/api/tables", data={
        "variant": "block", "options": {"target": None}, "clock": 3, "bank": 3,
        "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}).json()
    table = made["table"]["id"]
    pages[0].evaluate("([t, s]) => localStorage.setItem(`bones.seat.${t}`, JSON.stringify(s))",
                      [table, {"seat": made["seat"], "token": made["token"],
                               "invite": made["invite"]}])
    pages[0].goto(f"{web.url}/t/{table}")
    pages[1].goto(f"{web.url}{made['invite']}")
    pages[1].click("#join button[type=submit]")
    players = [Player(p, web, random.Random(i)) for i, p in enumerate(pages)]
    for page in pages:
        page.wait_for_selector("#table[data-status=playing]")
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
