"""Statistics per player, kept as running totals so that reading them costs the same
however many games the store holds.

When a game finishes, the store adds one line per human seat and per grouping (in
all, per variant, per opponents' level) to its totals in the game's own transaction
(``store.results.lines``), and :func:`stats_from` reads the totals back. Games with
hints or undo are kept and listed but not counted.

>>> stats_from("Ann", [("level", "hard", 1, 1, 0, 104)]).by_level["hard"]
StatsRow(games=1, wins=1, losses=0, points=104.0)
"""

from __future__ import annotations

from collections.abc import Iterable

from bones.server.protocol import Stats, StatsRow
from bones.server.store.results import Total

__all__ = ["stats_from"]


def stats_from(name: str, totals: Iterable[Total]) -> Stats:
    """``name``'s games, wins, losses and average points: in all, per variant and per
    opponents' level, from the store's running totals."""
    rows: dict[tuple[str, str], StatsRow] = {}
    for grouping, group, games, wins, losses, points in totals:
        if games:
            rows[(grouping, group)] = StatsRow(games=games, wins=wins, losses=losses,
                                               points=round(points / games, 1))
    return Stats(name=name, total=rows.get(("total", ""), StatsRow()),
                 by_variant={g: r for (kind, g), r in rows.items() if kind == "variant"},
                 by_level={g: r for (kind, g), r in rows.items() if kind == "level"})
