"""A challenge in two browsers: Ann challenges Bob from his page; Bob, on another page,
sees it at once, accepts, and both are at one new table; a declined challenge tells the
challenger; each finds what they were told in their notifications. A challenge link
made in the lobby seats whoever takes it, and a rematch offer reaches the other player
on another page."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Player, play_together, sign_in


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
    _listed(ann, bob, tag)


def _listed(ann: Page, bob: Page, tag: int) -> None:
    """What each was told is in their notifications, the unseen counted on the bell
    (on a phone, in the menu) until the list is opened."""
    assert ann.locator("#inbox-button .inbox-count").inner_text() == "2"  # accepted, declined
    ann.click("#inbox-button")
    ann.wait_for_selector("#inbox-list li")
    lines = ann.locator("#inbox-list li").all_inner_texts()
    assert lines[0].startswith(f"Cbob{tag} declined") and f"Cbob{tag} accepted" in lines[1]
    ann.wait_for_selector("#inbox-button .inbox-count", state="hidden")  # all seen now
    bob.click("#menu-button")
    bob.click("#inbox-button")
    bob.wait_for_selector("#inbox-list li")
    first = bob.locator("#inbox-list li").first
    assert f"Cann{tag} challenges you" in first.inner_text()
    first.locator(".inbox-open").click()  # its page: answered already
    bob.wait_for_selector("#challenge")
    assert bob.locator("#accept-link").count() == 0


def test_a_challenge_link_from_the_lobby_seats_whoever_takes_it(web: Server,
                                                                browser: Browser) -> None:
    """Ann makes a link in the lobby; Cy, a first visit with no account, opens it and
    accepts: both are at one table, and Ann's notifications say Cy took it. Then Ann
    offers a rematch, and Cy, elsewhere, is told and goes back to the table."""
    tag = random.randrange(10**6)
    ann = browser.new_context(**DESKTOP).new_page()  # type: ignore[arg-type]
    cy = browser.new_context(**PHONE).new_page()  # type: ignore[arg-type]
    sign_in(ann, web.url, f"Lann{tag}")
    ann.goto(f"{web.url}/lobby")
    ann.click("#make-challenge-link")
    ann.click("#challenge-dialog label:has(input[name=target][value=''])")  # one round
    ann.click("#send-challenge")
    link = ann.locator("#challenge-link").input_value()
    cy.goto(link)
    cy.click("#accept-link")
    for page in (ann, cy):
        page.wait_for_selector("#table[data-status=playing]")
    assert ann.url == cy.url
    table = ann.url
    rng = random.Random(tag)
    play_together([Player(ann, web, rng), Player(cy, web, rng)])
    ann.wait_for_selector("#match-over #again")
    cy.goto(f"{web.url}/leaderboard")
    cy.wait_for_selector("#leaderboard")
    ann.click("#match-over #again")
    cy.wait_for_selector("#open-rematch")
    cy.click("#open-rematch")
    cy.wait_for_url(table)
    ann.click("#inbox-button")
    ann.wait_for_selector("#inbox-list li")
    assert "accepted your challenge" in ann.locator("#inbox-list li").first.inner_text()
