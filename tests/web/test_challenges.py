"""A challenge in two browsers: Ann challenges Bob from his page; Bob, on another page,
sees it at once, accepts, and both are at one new table; a declined challenge tells the
challenger."""

from __future__ import annotations

import random

from playwright.sync_api import Browser

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import sign_in


def test_a_challenge_is_seen_at_once_accepted_and_seats_both(web: Server,
                                                             browser: Browser) -> None:
    tag = random.randrange(10**6)
    ann = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    bob = browser.new_context(**PHONE).new_page()  # type: ignore[arg-type]
    sign_in(ann, web.url, f"Cann{tag}")
    sign_in(bob, web.url, f"Cbob{tag}")
    bob.goto(f"{web.url}/leaderboard")
    bob.wait_for_selector("#leaderboard")
    ann.goto(f"{web.url}/stats/Cbob{tag}")
    ann.click("#challenge-player")
    ann.click("#challenge-dialog input[name=variant][value=block] + *, "
              "#challenge-dialog label:has(input[value=block])")
    ann.click("#send-challenge")
    ann.wait_for_selector("#challenge-sent")
    bob.wait_for_selector(f"#notice:has-text('Cann{tag}')")
    assert "Block" in bob.locator("#notice").inner_text()
    bob.click("#accept-challenge")
    for page in (ann, bob):
        page.wait_for_selector("#table[data-status=playing]")
    assert ann.url == bob.url and "/t/" in ann.url

    ann.goto(f"{web.url}/stats/Cbob{tag}")  # again, and Bob declines
    ann.click("#challenge-player")
    ann.click("#send-challenge")
    bob.wait_for_selector("#decline-challenge")
    bob.click("#decline-challenge")
    ann.wait_for_selector(f"#notice:has-text('Cbob{tag} declined')")
