"""The line of play on screen: over many real positions of every variant and many board
widths, no two tiles overlap, no open place covers a tile, and every tile placed is drawn
once, with its numbers facing its neighbours."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser

from bones import Round, Rules
from tests.server.live import Server

CHECK = """async ([views, widths]) => {
  const { layout } = await import(new URL('board.js', document.scripts[0].src));
  const apart = (a, b) => a.x + a.w <= b.x + 1e-6 || b.x + b.w <= a.x + 1e-6
                          || a.y + a.h <= b.y + 1e-6 || b.y + b.h <= a.y + 1e-6;
  const halves = (b) => (b.first === b.second  // a double: its middle, either half
    ? [[[b.x + b.w / 2, b.y + b.h / 2], b.first]]
    : b.w > b.h
      ? [[[b.x + 0.5, b.y + 0.5], b.first], [[b.x + 1.5, b.y + 0.5], b.second]]
      : [[[b.x + 0.5, b.y + 0.5], b.first], [[b.x + 0.5, b.y + 1.5], b.second]]);
  const touch = (a, b) => Math.max(a.x - (b.x + b.w), b.x - (a.x + a.w)) <= 1e-6
                          && Math.max(a.y - (b.y + b.h), b.y - (a.y + a.h)) <= 1e-6;
  const problems = [];
  views.forEach((view, n) => {
    for (const width of widths) {
      const { tiles, places } = layout(view, width);
      const boxes = [...tiles, ...Object.values(places)];
      for (let i = 0; i < boxes.length; i += 1)
        for (let j = i + 1; j < boxes.length; j += 1)
          if (!apart(boxes[i], boxes[j])) problems.push([n, width, i, j]);
      if (tiles.length !== view.line.length + Object.values(view.arms).flat().length)
        problems.push([n, width, 'count']);
      for (const tile of tiles.slice(1)) {  // the nearest halves of touching tiles match
        const other = tiles[tile.link];
        let best = null;
        for (const [p, pn] of halves(tile)) for (const [q, qn] of halves(other)) {
          const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
          if (!best || d < best.d - 1e-9) best = { d, same: pn === qn };
        }
        if (!touch(tile, other) || !best.same) problems.push([n, width, 'faces', tile.tile]);
      }
    }
  });
  return problems;
}"""


def _views(count: int) -> list[dict[str, Any]]:
    rng = random.Random(11)
    views = []
    for n in range(count):
        variant = ["draw", "block", "kozel", "allfives"][n % 4]
        rnd = Round.deal(Rules.preset(variant, players=4 if variant != "allfives" else 2),
                         seed=n)
        stop = rng.randrange(4, 40)
        while not rnd.is_over and len(rnd.moves) < stop:
            rnd.push(rng.choice(rnd.legal_moves()))
        views.append(rnd.view(0).to_dict())
    return views


def test_the_snake_never_overlaps(web: Server, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{web.url}/")
    problems = page.evaluate(CHECK, [_views(400), list(range(8, 50, 2))])
    assert problems == []
    page.close()
