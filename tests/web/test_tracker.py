"""The tile tracker, an option (UX.md: "a tile tracker ... offer it as an option"): off
until a player turns it on and kept on across visits; at every turn of a whole match it
counts what the engine's view of that seat holds (the unseen tiles carrying each number,
and the numbers each other player has shown it lacks); it fits a phone."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser

from bones import Match
from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import READY, Player, check_against_engine, read_record
from tests.web.test_phone import OUTSIDE


@pytest.mark.parametrize(("variant", "device"), [("draw", DESKTOP), ("allfives", PHONE)],
                         ids=["draw-desktop", "allfives-phone"])
def test_the_tracker_counts_what_the_seat_has_not_seen(
        web: Server, browser: Browser, variant: str, device: dict[str, object]) -> None:
    context = browser.new_context(**device)  # type: ignore[arg-type]
    page = context.new_page()
    player = Player(page, web, random.Random(variant))
    table = player.new_game(variant, players=2 if variant == "draw" else None, target="50")
    page.wait_for_function(READY)
    toggle = page.locator("#tracker-toggle")
    assert page.locator("#tracker").count() == 0, "an option: off until turned on"
    toggle.click()
    assert page.locator("#tracker .unseen").count() == 7
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_function(READY)
    assert page.locator("#tracker .unseen").count() == 7, "kept on across visits"
    if device is PHONE:
        page.set_viewport_size({"width": 320, "height": 640})
        assert page.evaluate(OUTSIDE) == []
        page.set_viewport_size(device["viewport"])  # type: ignore[arg-type]
    toggle.click()
    assert page.locator("#tracker").count() == 0
    assert page.locator(".opponent .lacks").count() == 0
    toggle.click()
    player.play_match(drag_once=False)
    match = Match.from_record(read_record(page, table))
    check_against_engine(player.shown, match)
    tracked = [s for s in player.shown if s["status"] == "playing"]
    assert tracked and all(s["tracker"] is not None for s in tracked)
    if variant == "draw":  # Easy draws when it cannot follow: what it lacks is shown
        assert any(lacks for s in tracked for lacks in s["lacks"].values())
    context.close()
