"""Statistics per display name, from the finished games the store keeps.

>>> from types import SimpleNamespace as Game
>>> won = Game(variant="draw", names=["Ann", "bot:hard"], sides=[0, 1], scores=[104, 60],
...            winner=0, loser=None)
>>> stats_of("Ann", [won]).by_level["hard"]
StatsRow(games=1, wins=1, losses=0, points=104.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bones.server.protocol import Stats, StatsRow

__all__ = ["opponents_level", "stats_of"]


def opponents_level(names: list[str | None], sides: list[int], side: int) -> str:
    """The level the other side played at: a bot level, "people" or "mixed"."""
    levels = {name[4:] if name and name.startswith("bot:") else "people"
              for name, s in zip(names, sides, strict=True) if s != side}
    return levels.pop() if len(levels) == 1 else "mixed"


def stats_of(name: str, games: Iterable[Any]) -> Stats:
    """``name``'s games, wins, losses and average points: in all, per variant and per
    opponents' level."""
    rows: dict[tuple[str, str], list[tuple[bool, bool, int]]] = {}
    for game in games:
        if name not in game.names:
            continue
        side = game.sides[game.names.index(name)]
        won = game.winner == side
        lost = game.loser == side if game.loser is not None else (
            game.winner is not None and not won)
        outcome = (won, lost, game.scores[side])
        level = opponents_level(game.names, game.sides, side)
        for key in (("total", ""), ("variant", game.variant), ("level", level)):
            rows.setdefault(key, []).append(outcome)

    def row(outcomes: list[tuple[bool, bool, int]]) -> StatsRow:
        return StatsRow(games=len(outcomes), wins=sum(o[0] for o in outcomes),
                        losses=sum(o[1] for o in outcomes),
                        points=round(sum(o[2] for o in outcomes) / len(outcomes), 1))

    return Stats(name=name, total=row(rows[("total", "")]) if rows else StatsRow(),
                 by_variant={k: row(v) for (kind, k), v in rows.items() if kind == "variant"},
                 by_level={k: row(v) for (kind, k), v in rows.items() if kind == "level"})
