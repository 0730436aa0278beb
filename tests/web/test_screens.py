"""Every screen, in every language, at a phone's and a desktop's width, checked by
machine: no "null" or "undefined" shown, nothing wider than the screen, every dialog's
buttons on it, no console error or warning (a missing translation warns), and no
serious or critical axe-core finding (contrast included).

The screens' states are made once, over the server's own API, by two accounts (Walker,
whose screens are walked, and Otto, who plays against Walker, offers a rematch and
keeps a table to watch); each language and width is then a browser of Walker's that
opens each screen in turn."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, ConsoleMessage, Page, TimeoutError
from sqlalchemy import update

from bones.server.people.challenges import MINUTES
from bones.server.people.moderation import Moderation
from bones.server.store.records import Store
from bones.server.store.schema import ChallengeRow, now
from tests.server.live import (
    Message,
    Server,
    in_threads,
    play_all,
    play_out,
    play_tournament,
    sqlite_url,
)
from tests.web.test_phone import OUTSIDE

LANGUAGES = ["en", "de", "pl", "ru"]
WIDTHS = [320, 390, 1366]
VARIANTS = ["draw", "block", "kozel", "allfives"]
EASY = {"kind": "bot", "level": "easy"}

SHOWN_WRONG = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\[object ")

ROWS = """() => {
  const tops = [...document.querySelectorAll('#top > *')]
    .filter((e) => e.getBoundingClientRect().width > 0
      && getComputedStyle(e).position !== 'absolute')
    .map((e) => e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2);
  return Math.max(...tops) - Math.min(...tops);
}"""
"""How far apart the middles of the top bar's parts lie: one row, if under a few pixels."""

BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.opponent .name, .opponent .count > *, .badge')) {
    if (el.getBoundingClientRect().width <= 1) continue;  // hidden, or for screen readers
    const range = document.createRange();
    range.selectNodeContents(el);
    let lines = 0, bottom = -Infinity;  // a box wholly below the line before starts one
    for (const r of [...range.getClientRects()].sort((x, y) => x.top - y.top)) {
      if (r.top >= bottom - 1) lines += 1;
      bottom = Math.max(bottom, r.bottom);
    }
    if (lines > 1) out.push(`"${el.textContent}" breaks over ${lines} lines`);
  }
  return out;
}"""
"""A name, a tile count or a badge broken over lines ("anna8 / 812", "7 / Steine")."""

BADGES = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const light = (c) => {
    const [r, g, b] = rgb(c).slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const out = [];
  for (const el of document.querySelectorAll('.badge')) {
    if (!el.getBoundingClientRect().width || !el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    const back = rgb(style.backgroundColor);
    if (back.length === 4 && back[3] < 1) {
      out.push(`badge "${el.textContent}" has a see-through background`);
      continue;
    }
    const [a, b] = [light(style.color), light(style.backgroundColor)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) out.push(`badge "${el.textContent}" contrast ${ratio.toFixed(1)}`);
  }
  return out;
}"""
"""A badge's words against its own background, which must be solid: axe cannot judge
words on a see-through badge over the table's gradient (the Partner badge was dark grey
on green)."""

DIALOG_BUTTONS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const dialog of document.querySelectorAll('dialog[open], [role=dialog]')) {
    for (const button of dialog.querySelectorAll('button, a.button')) {
      const box = button.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < -0.5 || box.right > width + 0.5 || box.top < -0.5) {
        out.push(`${button.textContent} [${Math.round(box.left)}, ${Math.round(box.right)}]`);
      }
    }
  }
  return out;
}"""


@dataclass
class Scenes:
    """What the walk opens: the server, Walker's session and seats, and the paths."""

    server: Server
    cookie: str
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    """A table's path by the screen's name ("kozel mid-round")."""
    tournament: str = ""
    """An arena Walker and Otto joined, to begin in two hours."""
    finished: dict[str, str] = field(default_factory=dict)
    """A Swiss, a duplicate and an arena Walker and Otto played to their end, by format."""


def _seat(made: Message) -> dict[str, Any]:
    return {"seat": made["seat"], "token": made["token"], "invite": made["invite"]}


def _mid_round(message: Message) -> bool:
    """Two moves of one's own made, one's turn again (or the round over too soon)."""
    own = sum(1 for seat, _ in message["view"]["history"] if seat == message["you"])
    return message["table"]["status"] != "playing" or (
        own >= 2 and message["view"]["turn"] == message["you"])


def _round_over(message: Message) -> bool:
    return message["table"]["status"] != "playing"


def _played(server: Server, client: httpx.Client, variant: str, stop: Callable[[Message], bool],
            status: str, **extra: Any) -> Message:
    """A table of ``client``'s against Easy bots, played by random moves until ``stop``,
    and made again until it stopped at ``status`` (a round can end before a second move)."""
    bots = [EASY] * (3 if variant == "kozel" else 1)
    for seed in range(20):
        table = server.create(variant, [{"kind": "human", "me": True}, *bots], client=client,
                              **extra)
        socket = server.socket(table["table"]["id"], table["token"])
        reached = play_out(socket, random.Random(seed), stop)
        socket.close()
        if reached["table"]["status"] == status:
            return table
    raise AssertionError(f"no {variant} table stopped {status}")


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenes]:
    server = Server(sqlite_url(tmp_path_factory.mktemp("walk") / "walk.db"),
                    leave_after=3600, extra=["--between=3600", "--claim-after=3600"]).start()
    walker, otto = server.account("Walker"), server.account("Otto")
    made = Scenes(server, walker.cookies["bones_session"])

    def keep(screen: str, table: Message) -> None:
        made.seats[table["table"]["id"]] = _seat(table)
        made.tables[screen] = f"/t/{table['table']['id']}"

    for n, variant in enumerate(VARIANTS):
        bots = [EASY] * (3 if variant == "kozel" else 1)
        keep(f"{variant} at the start", server.create(
            variant, [{"kind": "human", "me": True}, *bots], client=walker))
        keep(f"{variant} mid-round", _played(server, walker, variant, _mid_round, "playing"))
        keep(f"{variant} round end", _played(server, walker, variant, _round_over, "between"))
        table = server.create(variant, [{"kind": "human", "me": True}, {"kind": "human"},
                                        *bots[1:]], client=walker,
                              options={"target": None}, rated=variant == "draw")
        path = table["table"]["id"]
        joined = server.join(path, None, client=otto)
        sockets = [server.socket(path, table["token"]), server.socket(path, joined["token"])]
        play_all(sockets, seed=n)
        sockets[1].send({"v": 1, "type": "rematch"})
        sockets[0].until(lambda m: m["type"] == "state" and m["table"]["rematch"])
        for socket in sockets:
            socket.close()
        keep(f"{variant} match over, a rematch offered", table)
        made.tables.setdefault("replay", f"/replay/{path}")
    watched = _played(server, otto, "block", _mid_round, "playing", public=True)
    made.tables["spectating"] = f"/t/{watched['table']['id']}"
    waiting = server.create("kozel", [{"kind": "human", "me": True}, {"kind": "human"}, EASY,
                                      EASY], client=otto, public=True)
    made.tables["joining"] = waiting["invite"]
    _moderated(server, walker, otto)
    made.tournament = otto.post("/api/tournaments", json={
        "kind": "arena", "name": "Otto's Sunday arena of the block game", "minutes": 60,
        "starts": (datetime.now(UTC) + timedelta(hours=2)).isoformat(),
        "table": {"variant": "block", "rated": True,
                  "seats": [{"kind": "human"}, {"kind": "human"}]}}).json()["id"]
    for client in (otto, walker):
        client.post(f"/api/tournaments/{made.tournament}/join").raise_for_status()
    made.finished = _tournaments_played(server, walker, otto)
    yield made
    server.stop()


def _tournaments_played(server: Server, walker: httpx.Client, otto: httpx.Client
                        ) -> dict[str, str]:
    """A Swiss of one round, a duplicate of one round of two boards and an arena of a
    minute, Walker against Otto, played to their end: each one's id."""
    made = {}
    for kind, more in (("swiss", {"rounds": 1}), ("duplicate", {"rounds": 1, "boards": 2}),
                       ("arena", {"minutes": 1})):
        made[kind] = otto.post("/api/tournaments", json={
            "kind": kind, "name": f"Otto's {kind} of the draw game", **more,
            "starts": (datetime.now(UTC) + timedelta(seconds=4)).isoformat(),
            "table": {"variant": "draw", "options": {"target": None},
                      "seats": [{"kind": "human"}, {"kind": "human"}]}}).json()["id"]
        for client in (otto, walker):
            client.post(f"/api/tournaments/{made[kind]}/join").raise_for_status()
    in_threads([lambda c=c, k=k, n=n: play_tournament(server, c, made[k], n)
                for n, (c, k) in enumerate(itertools.product((walker, otto), made))])
    return made


def _moderated(server: Server, walker: httpx.Client, otto: httpx.Client) -> None:
    """Walker a moderator with a warning of his own, who reported Rude; Rude's lines,
    reports and sanctions for the moderators' pages."""
    rude = server.account("Rude")
    table = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                          client=rude, options={"target": None})
    server.join(table["table"]["id"], None, client=otto)
    socket = server.socket(table["table"]["id"], table["token"])
    socket.send({"v": 1, "type": "chat", "text": "a long and rather rude line " * 5})
    line = socket.until(lambda m: m["type"] == "chat")
    socket.close()
    otto.post(f"/api/chat/{line['id']}/report", json={"reason": "rude"}).raise_for_status()
    walker.post("/api/reports", json={"kind": "player", "name": "Rude", "reason": "insults",
                                      "note": "at our last table"}).raise_for_status()
    moderation = Moderation(Store(server.db).engine)
    moderation.grant("operator", "Walker", "moderator")
    moderation.sanction("operator", "Walker", "warn", "be kind in the lobby")
    for kind in ("warn", "mute"):
        moderation.sanction("operator", "Rude", kind, "rude at a table", minutes=60)
    moderation.engine.dispose()
    otto.post("/api/challenges", json={"name": "Walker", "table": {  # on every screen
        "variant": "allfives", "options": {"target": 150}, "rated": True,
        "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}}).raise_for_status()


def _keep_challenges_open(scenes: Scenes) -> None:
    """Otto's challenge, made once, open for the next walk: a challenge lasts ten
    minutes, and the twelve walks take longer on a busy machine."""
    engine = Store(scenes.server.db).engine
    with engine.begin() as db:
        db.execute(update(ChallengeRow).where(ChallengeRow.state == "open").values(
            expires=now() + timedelta(minutes=MINUTES)))
    engine.dispose()


class Walk:
    """One browser of Walker's, in one language at one width, and what it found."""

    def __init__(self, browser: Browser, scenes: Scenes, language: str, width: int) -> None:
        url = scenes.server.url
        self.url, self.where = url, f"{language} {width} px"
        storage = [{"name": "bones.lang", "value": language}] + [
            {"name": f"bones.seat.{table}", "value": json.dumps(seat)}
            for table, seat in scenes.seats.items()]
        self.context = browser.new_context(
            viewport={"width": width, "height": 700 if width < 1000 else 900},
            is_mobile=width < 1000, has_touch=width < 1000,
            storage_state={"cookies": [{"name": "bones_session", "value": scenes.cookie,
                                        "url": url}],
                           "origins": [{"origin": url, "localStorage": storage}]})
        self.page = self.context.new_page()
        self.said: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.said.append(f"page error: {error}"))
        self.found: list[str] = []
        self.axe = Axe()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            self.said.append(f"console {message.type}: {message.text}")

    def open(self, path: str, ready: str) -> Page:
        self.page.goto(f"{self.url}{path}")
        try:
            self.page.wait_for_selector(ready, state="attached")
        except TimeoutError:
            shown = self.page.evaluate("() => document.body.innerText")
            raise AssertionError(f"{path} never showed {ready}: {shown!r}") from None
        return self.page

    def check(self, screen: str) -> None:
        """Everything the walk asks of the screen as it now stands."""
        page = self.page
        page.wait_for_timeout(150)  # a resize, a font, a late answer settle
        where = f"{screen} ({self.where})"
        text = page.evaluate("() => document.body.innerText")
        self.found += [f"{where}: shows {m!r}" for m in SHOWN_WRONG.findall(text)]
        self.found += [f"{where}: {out}" for out in page.evaluate(OUTSIDE)]
        if (apart := page.evaluate(ROWS)) > 4:
            self.found.append(f"{where}: the top bar is more than one row ({apart:.0f} px)")
        self.found += [f"{where}: {b}" for b in page.evaluate(BROKEN) + page.evaluate(BADGES)]
        self.found += [f"{where}: dialog button off screen: {b}"
                       for b in page.evaluate(DIALOG_BUTTONS)]
        self.found += [f"{where}: {said}" for said in self.said]
        self.said.clear()
        results = self.axe.run(page, options={"resultTypes": ["violations"]})
        for violation in results.response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                nodes = [n["target"] for n in violation["nodes"]][:4]
                self.found.append(f"{where}: axe {violation['id']} ({violation['impact']}) "
                                  f"at {nodes}")


def _walk_home(walk: Walk) -> None:
    page = walk.open("/", "#new-game")
    for variant in VARIANTS:
        page.check(f"input[name=variant][value={variant}]", force=True)
        walk.check(f"new game, {variant} against bots")
        page.select_option("select[name=seat1]", "friend")
        walk.check(f"new game, {variant} with a friend")
        page.select_option("select[name=seat1]", "easy")
    if page.locator("#menu-button").is_visible():
        page.click("#menu-button")
        walk.check("the menu")
    page.click("#rules-button")
    page.wait_for_selector("#rules[open]")
    walk.check("rules")
    page.click("#close-rules")


def _walk_tables(walk: Walk, scenes: Scenes) -> None:
    for screen, path in scenes.tables.items():
        if screen == "replay":
            walk.open(path, "#replay")
        elif screen == "joining":
            walk.open(path, "#join")
        elif screen == "spectating":
            walk.open(path, "#join").click("#join button[type=button]")
            walk.page.wait_for_selector("#table[data-status=playing]", state="attached")
        elif "match over" in screen:
            walk.open(path, "#match-over .actions button")
        elif "round end" in screen:
            walk.open(path, "#round-end, #match-over")
        else:
            walk.open(path, "#table[data-status=playing]")
        walk.check(screen)


def _walk_pages(walk: Walk, scenes: Scenes) -> None:
    page = walk.open("/play", "#play-form")
    walk.check("play now")
    page.click("#play-now")
    page.wait_for_selector("#seeking")
    walk.check("play now, waiting")
    page.click("#cancel-seek")
    page = walk.open("/lobby", "#people")
    walk.check("lobby")
    page.click("#people summary")
    walk.check("lobby, who is here")
    page.click("#make-challenge-link")
    page.wait_for_selector("#challenge-dialog[open]")
    walk.check("making a challenge link")
    page.click("#send-challenge")
    page.wait_for_selector("#challenge-link")
    walk.check("a challenge link made")
    page.click("#challenge-dialog .dialog-buttons button")  # taken back
    page.wait_for_selector("#challenge-dialog", state="detached")
    if page.locator("#menu-button").is_visible():
        page.click("#menu-button")
    page.click("#inbox-button")
    page.wait_for_selector("#inbox-list li")
    walk.check("notifications")
    page.keyboard.press("Escape")
    walk.open("/leaderboard", "#leaderboard")
    walk.check("leaderboard")
    walk.open("/tournaments", "#make-tournament")
    walk.check("tournaments")
    walk.open(f"/tournament/{scenes.tournament}", "#standings")
    walk.check("a tournament, joined")
    walk.open(f"/tournament/{scenes.finished['swiss']}", "#rounds")
    walk.check("a Swiss, finished")
    walk.open(f"/tournament/{scenes.finished['duplicate']}", "#boards-link")
    walk.check("a duplicate, finished")
    walk.open(f"/tournament/{scenes.finished['duplicate']}/boards", ".board-results")
    walk.check("a duplicate's boards")
    walk.open(f"/tournament/{scenes.finished['arena']}", "#tournament-games")
    walk.check("an arena, finished, its games")
    walk.open("/stats/Walker", "#stats")
    walk.check("profile and statistics")
    walk.open("/account", "#password")
    walk.check("account, with the moderators' warning and my reports")
    _keep_challenges_open(scenes)
    page = walk.open("/stats/Otto", "#report-player")
    page.wait_for_selector("#accept-challenge")
    walk.check("a player's page, challenged by them")
    page.click("#report-player")
    page.wait_for_selector("#report-dialog[open]")
    walk.check("reporting a player")
    page.keyboard.press("Escape")
    page.click("#challenge-player")
    page.wait_for_selector("#challenge-dialog[open]")
    walk.check("challenging a player")
    page = walk.open("/mod", "#moderation .report")
    walk.check("moderation: open reports and the audit log")
    page.fill("#mod-look-up input", "Rude")
    page.click("#mod-look-up button")
    page.wait_for_selector("#mod-player-name")
    walk.check("moderation: a player")
    walk.open("/reset#no-such-link", "#reset")
    walk.check("a new password from a one-time link")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_is_clean(scenes: Scenes, browser: Browser, language: str,
                               width: int) -> None:
    walk = Walk(browser, scenes, language, width)
    try:
        _walk_home(walk)
        _walk_pages(walk, scenes)
        _walk_tables(walk, scenes)
    finally:
        walk.context.close()
    assert not walk.found, "\n".join(walk.found)
