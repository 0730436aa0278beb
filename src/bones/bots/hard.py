"""Hard: deals the hidden tiles hundreds of times consistently with everything it has
seen, plays every legal move out to the end of the round in each deal, and takes the
move with the best average (perfect-information Monte Carlo).

The playouts run in the rollout kernel, all moves of all deals in one batch. What it
maximizes is its side's points minus the other sides' (their mean, with 3 or 4
players): in Kozel the penalties the other pair writes minus its own pair's; in All
Fives count points count.
"""

from __future__ import annotations

import numpy as np

from bones import kernel
from bones.bots.base import Bot
from bones.bots.sampler import Sampler
from bones.bots.table import as_array
from bones.kernel import core, encode_move
from bones.moves import Move
from bones.view import PlayerView


class HardBot(Bot):
    """``samples`` deals of the hidden tiles, ``playouts`` heuristic playouts of every
    move in each."""

    level = "hard"

    def __init__(self, seed: int | None = None, samples: int = 120, playouts: int = 4,
                 policy: str = "heuristic") -> None:
        super().__init__(seed)
        self.samples, self.playouts, self.policy = samples, playouts, policy

    def pick(self, view: PlayerView) -> Move:
        values = self.evaluate(view)
        best = max(values)
        choices = [m for m, v in zip(view.legal_moves, values, strict=True) if v >= best - 1e-9]
        return self.rng.choice(choices)

    def evaluate(self, view: PlayerView) -> list[float]:
        """The average margin of each legal move, over the sampled deals."""
        moves = [encode_move(m) for m in view.legal_moves]
        sampler = Sampler(view)
        states = []
        for _ in range(self.samples):
            deal = sampler.sample(self.rng)
            base = kernel.position(view.rules, deal.hands, deal.boneyard, view)
            for code in moves:
                state = base.copy()
                core.apply(state, code)
                states.append(state)
        points = kernel.playouts(as_array(states), self.playouts, self.policy,
                                 seed=self.rng.getrandbits(32))
        margins = margin(view, points).reshape(self.samples, len(moves), -1)
        return [float(v) for v in margins.mean(axis=(0, 2))]


def margin(view: PlayerView, points: np.ndarray) -> np.ndarray:
    """Per playout: the seat's side's points minus the mean of the other sides'
    (penalties count the other way in Kozel)."""
    rules = view.rules
    mine = rules.side_of(view.seat)
    others = [side for side in range(rules.sides) if side != mine]
    value: np.ndarray = points[..., mine] - points[..., others].mean(axis=-1)
    return -value if rules.variant == "kozel" else value
