"""A baseline, not a level: always plays its heaviest fitting tile (the yardstick of
the strength tests: a pair of these is what a Hard pair must beat in Kozel)."""

from __future__ import annotations

from bones.bots.base import Bot
from bones.moves import Move, Play
from bones.view import PlayerView


class HeaviestBot(Bot):
    level = "heaviest"

    def pick(self, view: PlayerView) -> Move:
        plays = [m for m in view.legal_moves if isinstance(m, Play)]
        top = max(m.tile.value for m in plays)
        return self.rng.choice([m for m in plays if m.tile.value == top])
