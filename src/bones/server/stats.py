"""Statistics per player, kept as running totals so that reading them costs the same
however many games the store holds.

When a game finishes, :func:`lines` turns it into one line per human seat and per
grouping (in all, per variant, per opponents' level); the store adds those lines to its
totals in the game's own transaction, and :func:`stats_from` reads the totals back.
Games with hints or undo are kept and listed but not counted.

>>> from types import SimpleNamespace as Game
>>> won = Game(variant="draw", names=["Ann", "bot:hard"], sides=[0, 1], scores=[104, 60],
...            winner=0, loser=None, accounts=[7, None])
>>> [line[:3] for line in lines(won)]
[(7, 'total', ''), (7, 'variant', 'draw'), (7, 'level', 'hard')]
>>> stats_from("Ann", [("level", "hard", 1, 1, 0, 104)]).by_level["hard"]
StatsRow(games=1, wins=1, losses=0, points=104.0)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from bones.server.protocol import Stats, StatsRow

__all__ = ["Line", "Total", "lines", "name_key", "opponents_level", "stats_from"]

Line = tuple[int, str, str, bool, bool, int]
"""One player's part of one game: account, grouping, group, won, lost, points."""
Total = tuple[str, str, int, int, int, int]
"""A running total: grouping, group, games, wins, losses, points."""


def name_key(name: str) -> str:
    """The form names are compared in: "Ann", "ANN" and "ann" are one player."""
    return unicodedata.normalize("NFC", name).casefold()


def opponents_level(names: list[str | None], sides: list[int], side: int) -> str:
    """The level the other side played at: a bot level, "people" or "mixed"."""
    levels = {name[4:] if name and name.startswith("bot:") else "people"
              for name, s in zip(names, sides, strict=True) if s != side}
    return levels.pop() if len(levels) == 1 else "mixed"


def lines(game: Any) -> list[Line]:
    """What a finished game adds to each of its players' totals: those with an account
    (a name typed without one counts for nobody)."""
    out: list[Line] = []
    for account, side in zip(game.accounts or [None] * len(game.sides), game.sides,
                             strict=True):
        if account is None:
            continue
        won = game.winner == side
        lost = game.loser == side if game.loser is not None else (
            game.winner is not None and not won)
        points = game.scores[side]
        level = opponents_level(game.names, game.sides, side)
        out += [(account, grouping, group, won, lost, points)
                for grouping, group in (("total", ""), ("variant", game.variant),
                                        ("level", level))]
    return out


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
