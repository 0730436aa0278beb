"""The replay viewer and the statistics page: a finished game stepped through move by
move with every hand (checked against the engine) before its grades come, then the
graded mistakes, a record file opened from disk, and the player's statistics as a table
and a chart."""

from __future__ import annotations

import json
import random
from pathlib import Path

from playwright.sync_api import Browser

from bones import Match
from tests.server.live import Server
from tests.web.conftest import DESKTOP
from tests.web.driver import Held, Player, read_record
from tests.web.test_pages import SCREENSHOTS

HANDS = "[...document.querySelectorAll('.replay-hand')].map((h) => h.dataset.hand)"


def _engine_hands(match: Match, number: int, index: int) -> list[str]:
    return [" ".join(str(t) for t in hand) for hand in match.rounds[number].rewound(index).hands]


def test_replay_and_statistics(web: Server, browser: Browser, tmp_path: Path) -> None:
    context = browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console",  # a Content-Security-Policy refusal is a console error
            lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("response",
            lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    player = Player(page, web, random.Random(31))
    table = player.new_game("allfives", target="null", name="Rex")
    player.play_match(drag_once=False)
    page.click("#my-games")
    page.wait_for_selector("#stats-table")
    assert page.locator("#stats-table tr[data-row=total] td").first.inner_text() == "1"
    assert page.locator("#stats-table tr[data-row=level-easy]").count() == 1
    assert page.locator(".stats-chart .chart-bar").count() == 2
    page.screenshot(path=SCREENSHOTS / "desktop-en-stats.png", full_page=True)
    grades = Held(page, "**/analysis?graded=true")  # the positions show without them
    page.click(".replay-link")
    page.wait_for_selector("#replay[data-graded=false]")
    assert "…" in page.locator("#grader").inner_text()
    match = Match.from_record(read_record(page, table))
    for step in range(6):
        at = page.locator("#replay")
        number, index = int(at.get_attribute("data-round")), int(at.get_attribute("data-index"))
        assert page.evaluate(HANDS) == _engine_hands(match, number, index), step
        page.click("#next")
    page.keyboard.press("End")
    assert page.locator("#replay").get_attribute("data-index") == str(len(match.rounds[-1].moves))
    page.keyboard.press("Home")
    assert page.locator("#replay").get_attribute("data-at") == "0"
    page.click("#next")
    grades.release()  # the page asked for them at once
    page.wait_for_selector("#replay[data-graded=true]", timeout=60_000)
    assert page.locator("#replay").get_attribute("data-at") == "1", "the grades keep the frame"
    mistakes = page.locator("#mistakes button")
    if mistakes.count():
        mistakes.first.click()
        assert "costly" in (page.locator("#grade-line").get_attribute("class") or "")
        assert "cost" in page.locator("#grade-line").inner_text()
    else:  # the random player made no costly move: every choice is the best one
        analysis = read_record(page, table, "analysis")
        assert all(g["loss"] < 0.5 for g in analysis["grades"])
    page.screenshot(path=SCREENSHOTS / "desktop-en-replay.png")
    record = tmp_path / "game.json"
    record.write_text(json.dumps(read_record(page, table)))
    page.click("#my-games")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#replay[data-graded=true]", timeout=60_000)
    assert not problems, problems
    assert page.evaluate(HANDS) == _engine_hands(match, 0, 0)
    context.close()
