"""Whole matches of every variant played through the page in Chromium: tiles clicked,
ends chosen, one tile dragged; every screen checked against the engine."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser

from bones import Match
from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, check_against_engine, read_record

EASY = ("easy", "easy", "easy")
MATCHES = [
    ("draw", 2, "50", DESKTOP, EASY),
    ("draw", 4, "single", PHONE, EASY),
    ("block", 3, "50", DESKTOP, EASY),
    ("kozel", None, "50", DESKTOP, ("expert", "hard", "medium")),
    ("allfives", None, "50", PHONE, EASY),
]


@pytest.mark.parametrize(("variant", "players", "target", "device", "levels"), MATCHES,
                         ids=[f"{m[0]}-{m[1] or ''}-{'phone' if m[3] is PHONE else 'desktop'}"
                              for m in MATCHES])
def test_a_whole_match_through_the_page(web: Server, browser: Browser, variant: str,
                                        players: int | None, target: str,
                                        device: dict[str, object],
                                        levels: tuple[str, ...]) -> None:
    context = browser.new_context(**device)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console",  # a Content-Security-Policy refusal is a console error
            lambda m: errors.append(m.text) if m.type == "error" else None)
    player = Player(page, web, random.Random(variant))
    table = player.new_game(variant, players=players,
                            target="null" if target == "single" else target, levels=levels)
    end = player.play_match()
    record = read_record(page, table)
    match = Match.from_record(record)
    assert end["status"] == "over" and match.is_over
    seats = web.get(f"/api/tables/{table}")["seats"]
    assert [s["level"] for s in seats[1:]] == list(levels[:len(seats) - 1])
    checked = check_against_engine(player.shown, match)
    assert checked >= len(match.rounds) + 1  # every round's end, and a move at the least
    assert player.dragged
    winner = page.locator("#match-over .winner").inner_text()
    assert winner
    fair = page.locator("#fair-check")
    fair.wait_for()
    assert fair.get_attribute("data-ok") == "true", fair.inner_text()
    assert not errors, errors
    context.close()


def test_choosing_between_two_places(web: Server, browser: Browser) -> None:
    """A tile that fits both ends lights both places; tapping one plays it there."""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    player = Player(page, web, random.Random(1))
    both = page.locator(".hand .tile[data-places='left right']")
    table, now = player.turn_where(lambda: bool(both.count()), "block")
    tile = both.first.get_attribute("data-tile")
    both.first.click()
    assert page.locator(".place").count() == 2
    assert tile in page.locator("#status").inner_text()
    page.locator(".place[data-place=right]").click()
    page.wait_for_function(
        "m => +document.querySelector('#table').dataset.moves > m", arg=now["moves"])
    player.play_match(drag_once=False)
    record = read_record(page, table)
    assert f"{tile} right" in record["moves"]
    context.close()


def test_a_tap_holds_while_the_hand_is_drawn_anew(web: Server, browser: Browser) -> None:
    """A message (here a hint's answer) may redraw the hand between a finger's down and
    up; the tap still takes the tile pressed: played, or its places lit when it fits
    both ends. (It was lost: the pressed button was gone, and its listeners with it.)"""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    player = Player(page, web, random.Random(4))
    # a turn of this player's with a tile to play (a block game's round may end first)
    _, now = player.turn_where(lambda: True, "block")
    handle = page.locator(".hand .tile[data-legal=true]").first.element_handle()
    tile, box = handle.get_attribute("data-tile"), handle.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => document.querySelector('#hint').click()")
    page.locator(".hand .tile.hinted").wait_for()
    assert not handle.evaluate("button => button.isConnected")  # the hand was drawn anew
    page.mouse.up()
    page.wait_for_function("m => +document.querySelector('#table').dataset.moves > m"
                           " || !!document.querySelector('.place')", arg=now["moves"])
    taken = page.locator(f".board-wrap [data-tile='{tile}'],"
                         f" .hand .tile.selected[data-tile='{tile}']")
    assert taken.count() == 1
    context.close()


def test_a_bubble_goes_without_redrawing_the_hand(web: Server, browser: Browser) -> None:
    """A bot's "drew" or "passed" bubble fades after a while; the hand stays as it is
    drawn (a whole redraw then replaced the buttons under a player's finger)."""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    player = Player(page, web, random.Random(6))
    bubble = page.locator(".opponent .bubble")
    player.turn_where(lambda: bool(bubble.count()), "draw")
    button = page.locator(".hand .tile").first.element_handle()
    bubble.wait_for(state="detached")
    assert button.evaluate("b => b.isConnected")
    context.close()
