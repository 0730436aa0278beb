"""The table's own justice in the browser, two players in two browsers: a rated game
looks rated (the mark, each rating, every seat's clock counting), is resigned with a
confirming step, both see how it ended and each rating's change, and the replay says
so; a player who closes the tab is shown gone within seconds and the win claimed; a
bot standing in at a casual table is told to both; the move list is the record's."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from bones import Match
from bones.server.tables.endings import LEAST_MOVES
from tests.server.live import Server, sqlite_url
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import READY, Player, read_record, sign_in, timed_pair


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server where an absent player may be claimed from, or stood in for, after two
    seconds."""
    running = Server(sqlite_url(tmp_path_factory.mktemp("quick") / "quick.db"),
                     leave_after=2, limits={"claim-after": 2}).start()
    yield running
    running.stop()


def _rated_pair(server: Server, browser: Browser, tag: str
                ) -> tuple[list[BrowserContext], list[Player], str]:
    """Two accounts at a rated two-player draw game to 150, on a desktop and a phone,
    both at the table: the contexts, the players and the table."""
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]  # type: ignore[arg-type]
    host = Player(contexts[0].new_page(), server, random.Random(1))
    table = host.new_game("draw", players=2, target="150", levels=("friend",),
                          name=f"Ho{tag}", rated=True)
    guest = Player(contexts[1].new_page(), server, random.Random(2))
    sign_in(guest.page, server.url, f"Gu{tag}")
    guest.page.goto(host.page.locator("#invite-link").input_value())
    guest.page.click("#join button[type=submit]")
    for player in (host, guest):
        player.page.wait_for_selector("#table[data-status=playing]")
    return contexts, [host, guest], table


def _both_move(players: list[Player]) -> None:
    """Play by clicking (and say ready between rounds) until each player has made the
    moves of their own a rated game needs to rate when given up."""
    moved = [0] * len(players)
    deadline = time.monotonic() + 90
    while min(moved) < LEAST_MOVES and time.monotonic() < deadline:
        for n, player in enumerate(players):
            now = player.read()
            if now and now["status"] == "playing" and now["turn"] == now["you"] and now["legal"]:
                player.move(now, drag=False)
                moved[n] += 1
            elif now and now["status"] == "between":
                player.page.evaluate("() => document.querySelector('#ready')?.click()")
        players[0].page.wait_for_timeout(100)
        assert now.get("status") != "over", f"over after moves of each player's own: {moved}"
    assert min(moved) >= LEAST_MOVES, f"moves of each player's own: {moved}"


def _seconds(page: Page, selector: str) -> float:
    return float(page.locator(selector).get_attribute("data-move") or 0)


def test_a_rated_game_resigned(web: Server, browser: Browser) -> None:
    tag = str(random.randrange(10**6))
    contexts, players, table = _rated_pair(web, browser, tag)
    host, guest = (p.page for p in players)
    for page in (host, guest):
        page.wait_for_selector("#rated")
        assert page.locator(".badge.rating[data-rating='1500']").count() == 2  # both seats
        assert page.locator(".badge.rating .provisional").count() == 2
        assert page.locator(".seat-clock").count() == 2
    mover = next(p for p in players if p.read()["turn"] == p.read()["you"]).page
    running = mover.locator(".seat-clock.running")
    first = _seconds(mover, ".seat-clock.running")
    mover.wait_for_function("s => +(document.querySelector('.seat-clock.running')?.dataset"
                            ".move ?? s) < s", arg=first)
    assert running.count() == 1
    _both_move(players)
    guest.screenshot(path="docs/screenshots/phone-en-rated.png")
    host.click("#resign")
    host.wait_for_selector("#resign-confirm")
    host.screenshot(path="docs/screenshots/desktop-en-resign.png")
    host.click("#resign-no")  # changed their mind: nothing happens
    assert host.locator("#table[data-status=playing]").count() == 1
    host.click("#resign")
    host.click("#resign-yes")
    for page, words in ((host, "You resigned"), (guest, f"Ho{tag} resigned")):
        page.wait_for_selector("#match-over")
        assert page.locator("#match-over .headline").inner_text() == words
        page.wait_for_selector("#rating-changes li")
        changes = page.locator("#rating-changes li")
        assert changes.count() == 2
        assert all("1500 →" in text for text in changes.all_inner_texts())
    ratings = web.get(f"/api/profile/Gu{tag}")["ratings"]
    assert len(ratings) == 1 and ratings[0]["games"] == 1
    host.screenshot(path="docs/screenshots/desktop-en-resigned.png")
    record = read_record(host, table)
    rows = host.locator("#move-list li").all_inner_texts()
    match = Match.from_record(record)
    played = [str(m).split(" ")[0] for m in match.round.moves if str(m) not in ("draw", "pass")]
    shown = [row.split(": ")[1].split(" ")[0] for row in rows
             if ": " in row and row.split(": ")[1][:1].isdigit()]
    lead = match.round.lead
    assert shown == ([str(lead.tile)] if lead and lead.automatic else []) + played
    host.click("#to-replay")
    host.wait_for_selector("#replay")
    host.click("#last")
    host.wait_for_function("() => document.querySelector('#grade-line')?.textContent"
                           ".includes('resigned')")
    for context in contexts:
        context.close()


def test_a_closed_tab_is_shown_and_the_win_claimed(quick: Server, browser: Browser) -> None:
    tag = str(random.randrange(10**6))
    contexts, players, table = _rated_pair(quick, browser, tag)
    host = players[0].page
    _both_move(players)
    contexts[1].close()  # the guest closes the tab
    host.wait_for_selector(".badge.absent", timeout=5_000)
    host.wait_for_selector("#claim:not([hidden])", timeout=15_000)
    host.click("#claim")
    host.wait_for_selector("#match-over")
    assert host.locator("#match-over .headline").inner_text() == (
        f"Gu{tag} left: the match was claimed")
    assert read_record(host, table)["forfeit"] == {"seat": 1, "how": "absent"}
    contexts[0].close()


def test_a_bot_standing_in_is_told_to_both(web: Server, browser: Browser) -> None:
    """A casual table with a one-second clock and no bank: the player to move does
    nothing, a bot moves for them, and both pages say so."""
    contexts, pages = timed_pair(web, browser, 1, 0)
    for page in pages:
        page.wait_for_function("() => (document.querySelector('#note')?.textContent || '')"
                               ".startsWith('A bot played for')", timeout=30_000)
    for context in contexts:
        context.close()


def test_a_player_back_from_away_is_told_what_the_bot_did(quick: Server, browser: Browser
                                                          ) -> None:
    """Ben leaves a casual table: after a while a bot plays for him, Ann is told so as
    it moves; back at the table, Ben is told how many moves it made for him."""
    contexts, (ann, ben) = timed_pair(quick, browser, None, None)
    table = ann.url.rsplit("/", 1)[-1]
    ben.goto(f"{quick.url}/")  # away: his socket closes
    ann.wait_for_selector(".badge.absent", timeout=5_000)
    player = Player(ann, quick, random.Random(3))
    told = ("() => (document.querySelector('#note')?.textContent || '')"
            ".startsWith('A bot played for')")
    deadline = time.monotonic() + 60
    while not ann.evaluate(told) and time.monotonic() < deadline:  # Ann plays her turns
        now = player.read()
        if now["status"] == "playing" and now["turn"] == now["you"] and now["legal"]:
            player.move(now, drag=False)
        ann.wait_for_timeout(100)
    assert ann.evaluate(told), "Ann was not told of the bot"
    ben.goto(f"{quick.url}/t/{table}")
    ben.wait_for_function("() => (document.querySelector('#note')?.textContent || '')"
                          ".startsWith('While you were away a bot made')", timeout=15_000)
    for context in contexts:
        context.close()


def test_a_rated_game_lost_on_time(web: Server, browser: Browser) -> None:
    """With the least clock a rated table may have (5 s a move, a 30 s bank), a player
    who stops moving loses on time: no bot plays on for them, and both are told."""
    tag = str(random.randrange(10**6))
    names = (f"Ta{tag}", f"Tb{tag}")
    # a draw game: a block game of two may be blocked before each made their moves
    contexts, pages = timed_pair(web, browser, 5, 30, rated=names, variant="draw")
    players = [Player(page, web, random.Random(n)) for n, page in enumerate(pages)]
    _both_move(players)
    still = next(p for p in players if p.read()["turn"] == p.read()["you"])
    name = names[players.index(still)]
    for player in players:
        player.page.wait_for_selector("#match-over", timeout=90_000)
        assert player.page.locator("#match-over .headline").inner_text() == (
            "You lost on time" if player is still else f"{name} lost on time")
    for context in contexts:
        context.close()



def test_a_tile_tapped_while_the_server_is_away_says_so(browser: Browser, tmp_path: Path
                                                        ) -> None:
    """Away from the server (killed, then back) the hand goes grey and the turn's line
    says so; a tile tapped then is not dropped in silence."""
    db = sqlite_url(tmp_path / "away.db")
    server = Server(db).start()
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    try:
        player = Player(context.new_page(), server, random.Random(7))
        page = player.page
        player.new_game("draw", players=2, target="null", levels=("easy",), name=None)
        page.wait_for_function(READY, timeout=60_000)
        now = player.read()
        server.kill()
        page.wait_for_selector("#table.offline", timeout=30_000)
        assert page.locator("#status").inner_text() == "Reconnecting…"
        page.locator(f".hand .tile[data-tile='{now['legal'][0]}']").click()
        page.wait_for_function("() => (document.querySelector('#note')?.textContent || '')"
                               ".startsWith('Not connected to the server')")
        server = Server(db, port=server.port).start()
        page.wait_for_selector("#table:not(.offline)", timeout=30_000)
        assert player.read()["moves"] == now["moves"]
    finally:
        context.close()
        server.stop()
