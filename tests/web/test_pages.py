"""The page around the game: screenshots at phone and desktop size in two languages,
every string translated, reconnecting after a reload, rules in the app, and nothing
loaded from outside the machine."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Page

from tests.server.live import Server
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import READY, Held, Player, play_together, read_record, sign_in

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.mark.parametrize(("size", "device", "lang", "variant"), [
    ("desktop", DESKTOP, "en", "allfives"),
    ("desktop", DESKTOP, "ru", "kozel"),
    ("phone", PHONE, "de", "draw"),
    ("phone", PHONE, "pl", "kozel"),
])
def test_screenshots_mid_round_and_at_round_end(web: Server, browser: Browser, size: str,
                                               device: dict[str, object], lang: str,
                                               variant: str) -> None:
    """Saved under docs/screenshots/ for the README and for looking at."""
    context = browser.new_context(**device, locale=lang)  # type: ignore[arg-type]
    page = context.new_page()
    player = Player(page, web, random.Random(lang))
    player.new_game(variant, players=4 if variant == "draw" else None, target="100",
                    levels=("medium", "medium", "medium"))
    assert page.evaluate("document.documentElement.lang") == lang
    player.play_match(drag_once=False, stop_after=4)
    page.wait_for_function(READY)
    page.wait_for_timeout(300)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{size}-{lang}-{variant}-play.png")
    while player.read()["status"] == "playing":
        player.move(player.read(), drag=False)
        page.wait_for_function(READY, timeout=60_000)
    page.wait_for_selector("#round-end, #match-over")
    page.wait_for_timeout(200)
    page.screenshot(path=SCREENSHOTS / f"{size}-{lang}-{variant}-round-end.png")
    context.close()


def test_every_string_is_translated(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{web.url}/")
    keys = page.evaluate("""async () => {
        const i18n = await import(new URL('i18n.js', document.scripts[0].src));
        const rules = (await import(new URL('rules.js', document.scripts[0].src))).RULES;
        const out = {};
        for (const code of Object.keys(i18n.LANGUAGES)) {
            out[code] = {keys: i18n.keys(code).sort(),
                         rules: Object.fromEntries(Object.entries(rules[code]).map(
                             ([k, v]) => [k, v.length]))};
        }
        return out;
    }""")
    assert set(keys) == {"en", "de", "pl", "ru"}
    for code in ("de", "pl", "ru"):
        assert keys[code]["keys"] == keys["en"]["keys"], code
        assert keys[code]["rules"] == keys["en"]["rules"], code
    page.select_option("#lang", "pl")
    assert page.locator("#new-game h1").inner_text() == "Nowa gra"
    page.click("#rules-button")
    assert "Kozioł" in page.locator("#rules").inner_text()
    page.click("#close-rules")
    page.select_option("#lang", "en")
    page.close()


def test_reload_keeps_the_seat(web: Server, browser: Browser) -> None:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    player = Player(page, web, random.Random(7))
    table = player.new_game("block", players=2, target="null")
    player.play_match(drag_once=False, stop_after=2)
    before = player.read()
    page.reload()
    page.wait_for_function(READY)
    after = player.read()
    assert page.url.endswith(f"/t/{table}")
    assert (after["hand"], after["moves"], after["you"]) == (
        before["hand"], before["moves"], before["you"])
    player.play_match(drag_once=False)
    context.close()


def test_a_friend_joins_by_the_invite_link(web: Server, browser: Browser) -> None:
    host = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    friend = browser.new_context(**PHONE)  # type: ignore[arg-type]
    ann = Player(host.new_page(), web, random.Random(3))
    table = ann.new_game("draw", players=2, target="null", levels=("friend",))
    ann.page.wait_for_selector("#invite-link")
    link = ann.page.locator("#invite-link").input_value()
    assert f"/t/{table}#invite=" in link
    eve = Player(friend.new_page(), web, random.Random(5))  # knows the table, not the link
    eve.page.goto(f"{web.url}/t/{table}")
    eve.page.click("#join button[type=submit]")
    eve.page.wait_for_function(
        "() => document.querySelector('#join .form-error').textContent.includes('private')")
    eve.page.close()
    ben = Player(friend.new_page(), web, random.Random(4))
    sign_in(ben.page, web.url, "Ben")
    ben.page.goto(link)
    ben.page.click("#join button[type=submit]")
    ben.page.wait_for_selector("#table[data-status=playing]")
    ann.page.wait_for_selector("#table[data-status=playing]")
    names = ann.page.locator(".opponent .name").all_inner_texts()
    assert names == ["Ben"]
    host.close()
    friend.close()


def test_play_again_is_an_offer_the_friend_accepts(web: Server, browser: Browser) -> None:
    """After a friend game, "Play again" reaches the friend, who accepts; both are moved
    to the new table. A spectator is offered no "Play again", only to watch on."""
    host, friend, watching = (browser.new_context(**DESKTOP),  # type: ignore[arg-type]
                              browser.new_context(**PHONE),  # type: ignore[arg-type]
                              browser.new_context(**DESKTOP))  # type: ignore[arg-type]
    ann = Player(host.new_page(), web, random.Random(6))
    table = ann.new_game("draw", players=2, target="null", levels=("friend",))
    ann.page.wait_for_selector("#invite-link")
    ben = Player(friend.new_page(), web, random.Random(7))
    sign_in(ben.page, web.url, "Ben")
    link = ann.page.locator("#invite-link").input_value()
    ben.page.goto(link)
    ben.page.click("#join button[type=submit]")
    spectator = watching.new_page()
    spectator.goto(link)  # a private table is watched through its invite link
    spectator.click("#join button[type=button]")
    play_together([ann, ben])
    spectator.wait_for_selector("#match-over")
    assert spectator.locator("#again").count() == 0
    ann.page.click("#again")
    ann.page.wait_for_selector("#rematch-waiting")
    ben.page.wait_for_selector("#rematch-offer")
    assert "Ann" in ben.page.locator("#rematch-offer").inner_text()
    ben.page.click("#again")
    for player in (ann, ben):
        player.page.wait_for_function("t => !location.pathname.endsWith(t)", arg=table)
        player.page.wait_for_selector("#table[data-status=playing]")
    assert ann.page.url.rsplit("/", 1)[-1] == ben.page.url.rsplit("/", 1)[-1]
    assert ben.page.locator(".opponent .name").all_inner_texts() == ["Ann"]
    spectator.wait_for_selector("#watch-next")
    for context in (host, friend, watching):
        context.close()


def test_nothing_is_loaded_from_outside(web: Server, browser: Browser) -> None:
    """Every request the app makes, on every page, goes to this machine."""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    hosts: set[str] = set()
    page.on("request", lambda request: hosts.add(urlparse(request.url).hostname or ""))
    player = Player(page, web, random.Random(5))
    table = player.new_game("allfives", target="null")
    player.play_match(drag_once=False, stop_after=1)
    page.click("#rules-button")
    page.click("#close-rules")
    elsewhere = browser.new_context(**PHONE)  # type: ignore[arg-type]
    stranger = elsewhere.new_page()
    stranger.on("request", lambda request: hosts.add(urlparse(request.url).hostname or ""))
    stranger.goto(f"{web.url}/t/{table}")
    stranger.wait_for_selector("#join")
    assert hosts == {"127.0.0.1"}
    context.close()
    elsewhere.close()


def test_rule_options_reach_the_table(web: Server, browser: Browser) -> None:
    """The block game's 7 tiles for 3 players, and the draw game's scoring of a block."""
    page = browser.new_page()
    page.goto(f"{web.url}/")
    page.check("input[name=variant][value=block]", force=True)
    page.check("input[name=players][value='3']", force=True)
    page.check("input[name=seven]")
    page.check("input[name=target][value='null']", force=True)
    page.click("#start")
    page.wait_for_selector("#table")
    table = web.get(f"/api/tables/{page.url.rsplit('/', 1)[-1]}")
    assert table["rules"]["hand_size"] == 7 and table["rules"]["target"] is None
    page.goto(f"{web.url}/")
    page.check("input[name=variant][value=draw]", force=True)
    page.select_option("select[name=blocked_scoring]", "others")
    page.check("input[name=opening_every_round]")
    page.click("#start")
    page.wait_for_selector("#table")
    rules = web.get(f"/api/tables/{page.url.rsplit('/', 1)[-1]}")["rules"]
    assert rules["blocked_scoring"] == "others" and rules["opening_every_round"] is True
    page.close()


def test_the_page_checks_the_deals_against_the_seal(web: Server, browser: Browser) -> None:
    """The commitment is on the table from the start; at the end the page recomputes
    every deal from the revealed seed, and a changed deal or seed is caught."""
    page = browser.new_page()
    player = Player(page, web, random.Random(12))
    table = player.new_game("kozel", target="null")
    seal = page.locator("#seal").get_attribute("title")
    commitment = web.get(f"/api/tables/{table}")["fair"]
    assert seal is not None and commitment in seal
    check = Held(page, f"**/api/games/{table}/record")  # the page's check, held a moment
    player.play_match(drag_once=False)
    replay = page.locator("#to-replay").element_handle()
    check.release()
    page.wait_for_selector("#fair-check[data-ok=true]")
    assert replay.evaluate("a => a.isConnected")  # the check's line came without a redraw
    results = page.evaluate("""async ([table, shown]) => {
        const { verifyRecord } = await import(new URL('fair.js', document.scripts[0].src));
        const record = await (await fetch(`/api/games/${table}/record`)).json();
        const good = await verifyRecord(record, shown);
        const swapped = structuredClone(record);
        const hands = swapped.deals[0].hands;
        [hands[0][0], hands[1][0]] = [hands[1][0], hands[0][0]];
        const reseeded = structuredClone(record);
        reseeded.fair.seed = '00'.repeat(32);
        return [good, await verifyRecord(swapped, shown), await verifyRecord(reseeded, shown),
                await verifyRecord(record, '0'.repeat(64))];
    }""", [table, commitment])
    assert results[0]["ok"] is True and results[0]["deals"] >= 1
    assert results[1] == {"ok": False, "problem": "deal 1 differs"}
    assert results[2]["problem"] == "seed and salt do not give the commitment"
    assert results[3]["problem"] == "not the commitment shown before the game"
    page.close()


def test_the_page_checks_deals_reordered_by_undo(web: Server, browser: Browser) -> None:
    """A game whose undos reordered the boneyard checks out in the page as with `bones
    verify`, and not once its undos are struck from the record."""
    from bones.server.tables import endings
    from tests.server.test_table import _undo_after_a_draw

    records = []
    for seed in range(40):
        found = _undo_after_a_draw(seed)
        if found is not None:
            table = found[0]
            while table.status == "playing":
                assert table.match is not None and table.turn is not None
                table.play(table.turn, str(table.match.round.legal_moves()[0]))
            records.append(endings.game(table)["record"])
    page = browser.new_page()
    page.goto(f"{web.url}/")
    results = page.evaluate("""async (records) => {
        const { verifyRecord } = await import(new URL('fair.js', document.scripts[0].src));
        const out = [];
        for (const record of records) {
            const struck = structuredClone(record);
            struck.assists = [];
            out.push([(await verifyRecord(record)).ok, (await verifyRecord(struck)).ok]);
        }
        return out;
    }""", records[:5])
    assert len(results) == 5 and all(good and not struck for good, struck in results), results
    page.close()


def test_hint_and_undo_against_bots(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    player = Player(page, web, random.Random(21))
    table = player.new_game("draw", players=2, target="null")
    page.wait_for_function(READY)
    first = player.read()
    page.click("#hint")
    line = page.locator("#hint-line")
    line.wait_for()
    hinted = page.locator(".hand .tile.hinted")
    assert hinted.count() == 1 and hinted.get_attribute("data-legal") == "true"
    assert hinted.get_attribute("data-tile") in line.inner_text()
    player.move(first, drag=False)
    page.wait_for_function(READY)
    page.click("#undo")
    page.wait_for_function("m => +document.querySelector('#table').dataset.moves === m",
                           arg=first["moves"])
    back = player.read()
    assert (back["hand"], back["ends"]) == (first["hand"], first["ends"])
    player.play_match(drag_once=False)
    kinds = [a["kind"] for a in read_record(page, table)["assists"]]
    assert kinds[:2] == ["hint", "undo"]
    page.close()


SAID = """() => {
    window.said = [];
    new MutationObserver(() => window.said.push(document.querySelector('#announce').textContent))
        .observe(document.querySelector('#announce'), {childList: true, characterData: true,
                                                       subtree: true});
}"""


def _tab_to(page: Any, selector: str) -> None:
    for _ in range(80):
        if page.evaluate("s => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_round_by_keyboard_alone(web: Server, browser: Browser) -> None:
    """No mouse: the form, every move (ends chosen by arrows), the round's end; every
    move, draw, pass and the result announced; tiles labelled by their numbers."""
    page = browser.new_page()
    page.goto(f"{web.url}/")
    page.wait_for_selector("#new-game")
    _tab_to(page, "input[name=variant][value=draw]")
    _tab_to(page, "input[name=target]")
    for _ in range(4):
        if page.evaluate("document.activeElement.value") == "null":
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.checked && document.activeElement.value") == "null"
    _tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#table")
    page.wait_for_function("() => document.querySelector('#table')?.dataset.moves !== undefined")
    page.evaluate(SAID)
    heard_from = int(page.evaluate("document.querySelector('#table').dataset.moves"))
    table = page.url.rsplit("/", 1)[-1]
    labels_checked = False
    while True:
        page.wait_for_function(READY, timeout=60_000)
        status = page.evaluate("document.querySelector('#table').dataset.status")
        if status != "playing":
            break
        page.wait_for_function("() => document.activeElement?.closest('.hand')")
        if not labels_checked:
            hand = page.get_by_role("toolbar", name="Your hand")
            first = page.evaluate("document.querySelector('.hand .tile').dataset.tile")
            words = ["zero", "one", "two", "three", "four", "five", "six"]
            name = "–".join(words[int(n)] for n in first.split("-"))
            assert hand.get_by_role("button", name=name).count() == 1
            labels_checked = True
        moves = page.evaluate("+document.querySelector('#table').dataset.moves")
        for _ in range(20):
            if page.evaluate("document.activeElement.dataset.legal") == "true":
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        if page.locator(".place").count():
            page.wait_for_function("() => document.activeElement?.classList.contains('place')")
            page.keyboard.press("ArrowRight")
            assert "Play" in (page.evaluate("document.activeElement.getAttribute('aria-label')"))
            page.keyboard.press("Enter")
        page.wait_for_function(
            "m => { const t = document.querySelector('#table');"
            " return +t.dataset.moves > m || t.dataset.status !== 'playing'; }", arg=moves)
    page.wait_for_function("() => document.activeElement?.id === 'again'")
    said = " ".join(page.evaluate("window.said"))
    record = read_record(page, table)
    assert "You played" in said or "You led" in said
    assert "Your turn. Ends:" in said
    assert "Round over." in said and "Score:" in said
    since = record["moves"][heard_from:]      # what happened while the page listened
    if "draw" in since:
        assert " drew " in said
    if "pass" in since:
        assert " passed." in said
    tree = page.locator("#match-over").aria_snapshot()
    assert "dialog" in tree and "button" in tree
    page.close()


WATCH_FOCUS = """() => {
    window.dropped = [];
    setInterval(() => {
        const table = document.querySelector('#table');
        if (table && document.activeElement === document.body) {
            window.dropped.push(`${table.dataset.status} ${table.dataset.moves} `
                                + `turn ${table.dataset.turn} you ${table.dataset.you} `
                                + `${document.querySelectorAll('.place').length} places`);
        }
    }, 10);
}"""


def _match_by_keyboard(page: Page) -> int:
    """Play one match by keyboard alone, checking where focus is at every step; the
    number of round ends seen."""
    active = "() => document.activeElement"
    rounds = 0
    while True:
        page.wait_for_function(READY, timeout=60_000)
        status = page.evaluate("() => document.querySelector('#table').dataset.status")
        if status == "over":
            assert page.evaluate(f"({active})().id") == "again"
            return rounds
        if status == "between":
            assert page.evaluate(f"({active})().id") == "ready"
            rounds += 1
            page.keyboard.press("Enter")
            page.wait_for_function("r => +document.querySelector('#table').dataset.round === r"
                                   " || document.querySelector('#table').dataset.status === 'over'",
                                   arg=rounds)
            continue
        assert page.evaluate(f"() => !!({active})().closest('.hand')")
        moves = page.evaluate("() => +document.querySelector('#table').dataset.moves")
        for _ in range(20):
            if page.evaluate(f"() => ({active})().dataset.legal") == "true":
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        if page.locator(".place").count():
            page.wait_for_function(f"() => ({active})().classList.contains('place')")
            page.keyboard.press("Enter")
        page.wait_for_function(
            "m => { const t = document.querySelector('#table');"
            " return +t.dataset.moves > m || t.dataset.status !== 'playing'; }", arg=moves)


def test_the_keyboard_never_falls_to_the_page(web: Server, browser: Browser) -> None:
    """Whole matches by keyboard: on every turn focus is on the hand, at every round's
    end on "Next round", after it back on the table, at the end on "Play again" — and
    never on the page's body in between. A deal can end a match in its first round, so
    matches are played until one has had a round's end."""
    page = browser.new_page()
    player = Player(page, web, random.Random(44))
    rounds = 0
    for _ in range(6):
        player.new_game("draw", players=2, target="50", name="Keys")
        page.evaluate(WATCH_FOCUS)
        rounds = _match_by_keyboard(page)
        assert page.evaluate("() => window.dropped") == []
        if rounds:
            break
    assert rounds >= 1, "six matches, each over in its first round"
    page.close()


def test_the_page_rides_out_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    """SIGKILL the server under an open page, start it again: the page reconnects by
    itself, says the game was interrupted, shows the same table and plays on (no
    reload)."""
    from tests.server.live import sqlite_url

    running = Server(sqlite_url(tmp_path / "restart.db")).start()
    page = browser.new_page()
    try:
        player = Player(page, running, random.Random(41))
        player.new_game("draw", players=2, target="null")
        player.play_match(drag_once=False, stop_after=2)
        before = player.read()
        running.kill()
        page.wait_for_function("() => document.querySelector('#online')?.textContent !== ''")
        running = Server(running.db, port=running.port).start()
        page.wait_for_function("() => document.querySelector('#online')?.textContent === ''",
                               timeout=30_000)
        page.wait_for_function(READY, timeout=30_000)
        page.wait_for_function(  # said once, in the page's language
            "() => document.querySelector('#note').textContent"
            ".startsWith('The game was interrupted')")
        after = player.read()
        assert (after["hand"], after["moves"]) == (before["hand"], before["moves"])
        assert player.play_match(drag_once=False)["status"] == "over"
    finally:
        page.close()
        running.stop()


def test_a_page_of_a_release_no_process_has_any_more_loads_the_new_one(
        web: Server, browser: Browser) -> None:
    """During an upgrade a page names its release with each call; a process of another
    turns it away (503, code ``release``) and the page asks again, and once no process
    has its release (the upgrade is over) it loads the new one: the player never sees
    a call answered by another release's API."""
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        page.goto(f"{web.url}/")
        release = page.evaluate("new URL(document.scripts[0].src).pathname.split('/')[2]")
        assert len(release) == 16
        asked: list[str | None] = []

        def elsewhere(route: Any) -> None:
            asked.append(route.request.headers.get("bones-release"))
            route.fulfill(status=503, json={"detail": "another release", "code": "release"})

        page.route("**/api/variants", elsewhere)
        page.wait_for_load_state()
        loads: list[tuple[str, int]] = []  # each page load, and the calls asked before it
        page.on("request", lambda r: loads.append((r.url, len(asked)))
                if r.resource_type == "document" else None)
        page.evaluate("() => { import(new URL('net.js', document.scripts[0].src))"
                      ".then((net) => net.api('/api/variants')); }")
        for _ in range(150):
            if loads:
                break
            page.wait_for_timeout(200)
        assert loads, "the page never loaded the new release"
        url, before = loads[0]  # asked again (6 times, the page's own calls too), then loaded
        assert url == f"{web.url}/" and before >= 6
        assert asked[:6] == [release] * 6
    finally:
        context.close()
