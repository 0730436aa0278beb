"""A rated game between two friends who signed up, played in two browsers: the profile
page shows the ratings OpenSkill computes and their history; the leaderboard lists
neither yet (established players only)."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, play_together, sign_in


def test_a_rated_game_between_friends(web: Server, browser: Browser) -> None:
    tag = random.randrange(10**6)
    names = (f"Rita{tag}", f"Raul{tag}")
    host, friend = (browser.new_context(**DESKTOP),  # type: ignore[arg-type]
                    browser.new_context(**PHONE))  # type: ignore[arg-type]
    rita = Player(host.new_page(), web, random.Random(1))
    table = rita.new_game("draw", players=2, target="null", levels=("friend",),
                          name=names[0], rated=True)
    assert web.get(f"/api/tables/{table}")["rated"] is True
    raul = Player(friend.new_page(), web, random.Random(2))
    sign_in(raul.page, web.url, names[1])
    raul.page.goto(rita.page.locator("#invite-link").input_value())
    raul.page.click("#join button[type=submit]")
    for player in (rita, raul):
        player.page.wait_for_selector("#table[data-status=playing]")
    play_together([rita, raul])
    scores = web.get(f"/api/tables/{table}")["scores"]
    ranks = [1 + sum(other > mine for other in scores) for mine in scores]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)

    page = rita.page
    page.click("#my-games")
    page.wait_for_selector("#ratings-table tr[data-rating=draw-2]")
    cell = page.locator("#ratings-table tr[data-rating=draw-2] td").first.inner_text()
    assert cell == f"{round(expected[0][0].mu * 60)}?"  # one game: still provisional
    assert page.locator("#rating-chart circle").count() == 2  # from 1500, after the game
    for name, [new] in zip(names, expected, strict=True):
        [line] = web.get(f"/api/profile/{name}")["ratings"]
        assert (line["mu"], line["sigma"]) == pytest.approx((new.mu, new.sigma))
    page.click("#leaderboard-link")
    page.wait_for_selector("#leaders-who")  # one game each: not established, not listed
    listed = page.locator("#leaders tbody td:nth-child(2)").all_inner_texts()
    assert not set(names) & set(listed)
    page.screenshot(path="docs/screenshots/desktop-en-leaderboard.png")
    page.goto(f"{web.url}/stats/{names[0]}")
    page.wait_for_selector("#rating-chart")
    page.screenshot(path="docs/screenshots/desktop-en-profile.png")
    phone = browser.new_context(**PHONE)  # type: ignore[arg-type]
    small = phone.new_page()
    small.goto(f"{web.url}/stats/{names[1]}")
    small.wait_for_selector("#rating-chart")
    small.screenshot(path="docs/screenshots/phone-en-profile.png")
    phone.close()
    host.close()
    friend.close()
