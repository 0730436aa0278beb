"""Easy: plays any fitting tile (RULES.md, "Computer opponents")."""

from __future__ import annotations

from bones.bots.base import Bot
from bones.moves import Move
from bones.view import PlayerView


class EasyBot(Bot):
    """Picks uniformly among the legal moves."""

    level = "easy"

    def pick(self, view: PlayerView) -> Move:
        return self.rng.choice(view.legal_moves)
