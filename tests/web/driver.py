"""A player at the page: starts games from the new-game screen, plays by clicking and
dragging tiles, and notes what the page shows so it can be checked against the engine."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route

from bones import Match
from tests.server.live import Server

READ = """() => {
  const t = document.querySelector('#table');
  if (!t) return null;
  const all = (q) => [...document.querySelectorAll(q)];
  return {
    status: t.dataset.status, round: +t.dataset.round, moves: +t.dataset.moves,
    turn: t.dataset.turn, you: t.dataset.you,
    hand: all('.hand .tile').map((b) => b.dataset.tile),
    legal: all('.hand .tile[data-legal=true]').map((b) => b.dataset.tile),
    ends: document.querySelector('.ends')?.dataset.ends ?? null,
    counts: Object.fromEntries(all('.opponent').map((o) => [o.dataset.seat, +o.dataset.count])),
    scores: all('.scorebar .score').map((s) => +s.dataset.score),
    boneyard: document.querySelector('.boneyard')?.dataset.boneyard ?? null,
    revealed: all('.reveal-hand').map((r) => r.dataset.hand),
    after: all('.score-table td[data-score]').map((s) => +s.dataset.score),
    tracker: document.querySelector('#tracker')
      ? all('#tracker .unseen').map((u) => +u.dataset.unseen) : null,
    lacks: Object.fromEntries(all('.opponent .lacks').map(
      (b) => [b.closest('.opponent').dataset.seat, b.dataset.lacks])),
  };
}"""

READY = """() => {
  const t = document.querySelector('#table');
  if (!t) return false;
  const s = t.dataset.status;
  return s === 'over' || (s === 'between' && !!document.querySelector('#ready'))
    || (s === 'playing' && t.dataset.turn === t.dataset.you
        && !!document.querySelector('.hand .tile[data-legal=true]'));
}"""


class Held:
    """The page's requests to ``pattern`` held back at a Playwright route: what the page
    does before an answer comes."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.page, self.pattern = page, pattern
        self.routes: list[Route] = []
        page.route(pattern, lambda route: self.routes.append(route))

    def release(self) -> None:
        """Wait for the one request held (the page asks in its own time), let it through,
        and hold no more."""
        for _ in range(200):
            if self.routes:
                break
            self.page.wait_for_timeout(50)
        assert len(self.routes) == 1
        self.routes[0].continue_()
        self.page.unroute(self.pattern)


def sign_in(page: Page, url: str, name: str, password: str = "correct horse") -> None:
    """Sign the page's browser in as ``name`` (signing up the first time), as the
    account page does; the page reads who it is when it next loads."""
    body = {"name": name, "password": password}
    if page.request.post(f"{url}/api/login", data=body).status == 401:
        assert page.request.post(f"{url}/api/signup", data=body).ok


def read_record(page: Page, table: str, part: str = "record") -> dict[str, Any]:
    """A finished game's record (or another ``part``: ``analysis``) as the page's player
    reads it: with their session and the seat's token the browser keeps (a private
    table's game is its players' alone)."""
    return dict(page.evaluate("""async ([table, part]) => {
        const seat = JSON.parse(localStorage.getItem(`bones.seat.${table}`) || "null");
        const answer = await fetch(`/api/games/${table}/${part}`,
                                   { headers: seat?.token ? { "bones-seat": seat.token } : {} });
        return answer.json();
    }""", [table, part]))


@dataclass
class Player:
    page: Page
    server: Server
    rng: random.Random
    shown: list[dict[str, Any]] = field(default_factory=list)
    """What the page showed at each of this player's turns and round ends."""
    dragged: bool = False
    chose_place: bool = False

    def new_game(self, variant: str, *, players: int | None = None, target: str = "50",
                 levels: tuple[str, ...] = ("easy", "easy", "easy"),
                 name: str | None = "Ann", rated: bool = False, public: bool = False) -> str:
        """Start a game from the new-game form, signed in as ``name`` (None: as the
        browser is, a guest at first); its table's id."""
        page = self.page
        if name is not None:
            sign_in(page, self.server.url, name)
        page.goto(f"{self.server.url}/")
        page.wait_for_selector("#new-game")
        page.check(f"input[name=variant][value={variant}]", force=True)
        if players is not None:
            page.check(f"input[name=players][value='{players}']", force=True)
        for seat, level in enumerate(levels[: (players or {"kozel": 4}.get(variant, 2)) - 1],
                                     start=1):
            page.select_option(f"select[name=seat{seat}]", level)
        page.check(f"input[name=target][value='{target}']", force=True)
        if rated:
            page.check("input[name=rated]")
        if public:
            page.check("input[name=public]")
        page.click("#start")
        page.wait_for_selector("#table")
        return page.url.rsplit("/", 1)[-1]

    def read(self) -> dict[str, Any]:
        return dict(self.page.evaluate(READ))

    def turn_where(self, found: Callable[[], bool], variant: str, games: int = 10,
                   ) -> tuple[str, dict[str, Any]]:
        """New 2-player single rounds of ``variant`` against Easy, played by random clicks
        until it is this player's turn and ``found()`` holds: the table and what the page
        shows then. For a test of something that only some turns bring."""
        for _ in range(games):
            table = self.new_game(variant, players=2, target="null")
            while True:
                self.page.wait_for_function(READY, timeout=60_000)
                now = self.read()
                if now["status"] != "playing":
                    break
                if found():
                    return table, now
                self.move(now, drag=False)
        raise AssertionError(f"no such turn in {games} games")

    def play_match(self, drag_once: bool = True, stop_after: int | None = None) -> dict[str, Any]:
        """Play to the end of the match (or ``stop_after`` own moves): random legal tiles,
        a place chosen where a tile fits two, one move made by dragging."""
        mine = 0
        while True:
            self.page.wait_for_function(READY, timeout=60_000)
            now = self.read()
            if now["status"] == "over":
                self.shown.append(now)
                return now
            if now["status"] == "between":
                self.shown.append(now)
                self.page.click("#ready")
                self.page.wait_for_function(
                    "r => document.querySelector('#table')?.dataset.round !== String(r)"
                    " || document.querySelector('#table')?.dataset.status === 'over'",
                    arg=now["round"], timeout=60_000)
                continue
            if stop_after is not None and mine >= stop_after:
                return now
            self.shown.append(now)
            self.move(now, drag=drag_once and not self.dragged)
            mine += 1

    def move(self, now: dict[str, Any], drag: bool) -> None:
        page = self.page
        tile = self.rng.choice(now["legal"])
        button = page.locator(f".hand .tile[data-tile='{tile}']")
        if drag:
            box = button.bounding_box()
            assert box is not None
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x + 12, y - 20, steps=3)
            places = page.locator(".place")
            places.first.wait_for()
            target = places.nth(self.rng.randrange(places.count())).bounding_box()
            assert target is not None
            page.mouse.move(target["x"] + target["width"] / 2,
                            target["y"] + target["height"] / 2, steps=8)
            page.mouse.up()
            self.dragged = True
        else:
            button.click()
            page.wait_for_function(  # played at once, or places to choose among shown
                "m => { const t = document.querySelector('#table');"
                " return !t || +t.dataset.moves > m || t.dataset.status !== 'playing'"
                " || !!document.querySelector('.place'); }", arg=now["moves"], timeout=30_000)
            places = page.locator(".place")
            if places.count():
                places.nth(self.rng.randrange(places.count())).click()
                self.chose_place = True
        page.wait_for_function(
            "m => { const t = document.querySelector('#table');"
            " return !t || +t.dataset.moves > m || t.dataset.status !== 'playing'; }",
            arg=now["moves"], timeout=30_000)


def check_against_engine(shown: list[dict[str, Any]], match: Match) -> int:
    """Every noted screen against the engine's view at that point; returns how many."""
    for screen in shown:
        number, seat = screen["round"], int(screen["you"])
        rnd = match.rounds[number]
        if screen["status"] == "playing":
            rnd = rnd.rewound(screen["moves"])
        view = rnd.view(seat)
        where = f"round {number}, move {screen['moves']}"
        assert screen["hand"] == [str(t) for t in view.hand], where
        assert screen["ends"] == ",".join(map(str, view.ends)), where
        for other, count in screen["counts"].items():
            assert count == view.hand_counts[int(other)], where
        if screen["boneyard"] is not None:
            assert int(screen["boneyard"]) == view.boneyard_count, where
        if screen["status"] == "playing":
            assert screen["scores"] == list(view.scores), where
            if screen["tracker"] is not None:  # the tile tracker, when it is on
                assert screen["tracker"] == [sum(t.has(n) for t in view.unseen)
                                             for n in range(7)], where
                lacks = {str(s): ",".join(map(str, sorted(numbers)))
                         for s, numbers in enumerate(view.lacks) if s != seat}
                assert screen["lacks"] == lacks, where
        else:
            assert screen["revealed"] == [" ".join(map(str, h)) for h in rnd.hands], where
            assert screen["after"] == list(match.scores_after[number]), where
    return len(shown)


def play_together(players: list[Player], timeout: float = 120) -> None:
    """People at one table, each in their own browser, play random moves by clicking
    (and say they are ready for each next round) until the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [p.read() for p in players]
        if all(s and s["status"] == "over" for s in states):
            return
        for player, now in zip(players, states, strict=True):
            if now and now["status"] == "playing" and now["turn"] == now["you"] and now["legal"]:
                player.move(now, drag=False)
            elif now and now["status"] == "between":  # (gone at once if the round began)
                player.page.evaluate("() => document.querySelector('#ready')?.click()")
    raise AssertionError("the game did not end in time")


def timed_pair(server: Server, browser: Browser, clock: float | None, bank: float | None,
               rated: tuple[str, str] | None = None, variant: str = "block",
               ) -> tuple[list[BrowserContext], list[Page]]:
    """Two people in two desktop browsers at a single round of ``variant`` with a clock of
    ``clock`` seconds a move and a bank of ``bank`` (None: no clock), the game begun:
    casual, or ``rated`` between the two accounts named."""
    contexts = [browser.new_context(viewport={"width": 1440, "height": 900})
                for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    for n, page in enumerate(pages):
        if rated:
            sign_in(page, server.url, rated[n])
        page.goto(f"{server.url}/")
        page.wait_for_selector("#new-game")
    made = pages[0].request.post(f"{server.url}/api/tables", data={
        "variant": variant, "options": {"target": None}, "clock": clock, "bank": bank,
        "rated": rated is not None,
        "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}).json()
    table = made["table"]["id"]
    pages[0].evaluate("([t, s]) => localStorage.setItem(`bones.seat.${t}`, JSON.stringify(s))",
                      [table, {"seat": made["seat"], "token": made["token"],
                               "invite": made["invite"]}])
    pages[0].goto(f"{server.url}/t/{table}")
    pages[1].goto(f"{server.url}{made['invite']}")
    pages[1].click("#join button[type=submit]")
    for page in pages:  # begun: with a one-second clock it may be over by the time a busy
        # machine has drawn the second page (bots standing in for both, a move a second)
        page.wait_for_selector("#table:not([data-status=waiting])", state="attached")
    return contexts, pages

