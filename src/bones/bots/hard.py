"""Hard: deals the hidden tiles hundreds of times consistently with everything it has
seen, plays every legal move out to the end of the round in each deal, and takes the
move with the best average (perfect-information Monte Carlo).

The playouts run in the rollout kernel, all moves of all deals in one batch; once
little is left, a deal is solved exactly instead. What it maximizes is its side's
points minus the other sides' (their mean, with 3 or 4 players): in Kozel the
penalties the other pair writes minus its own pair's; in All Fives count points count.
Winning the round is worth a bonus on top, measured in the arena (300 duplicate deal
pairs): 10 points lift All Fives from 59% to 63% of rounds won against Medium with no
loss of points; in Kozel 30 points lift a Hard pair from 69.8% to 73.7% of rounds against
a pair shedding its heaviest tiles, and its points per deal from 25.8 to 30.8; 60 points
with exact search from 20 tiles left (12,000 positions) took it from 71.1% to 74.8% on
another 300 pairs, its points from 26.1 to 27.3.
"""

from __future__ import annotations

from bones import kernel
from bones.bots.base import Bot
from bones.bots.sampler import Sampler
from bones.bots.table import as_array
from bones.kernel import core, encode_move
from bones.moves import Move
from bones.view import PlayerView

WIN_BONUS = {"kozel": 60.0}
"""The bonus for a round won, per variant; 10 points elsewhere."""
EXACT = {"kozel": (20, 12_000)}
"""Per variant: from how many tiles left a deal is solved exactly, and within how many
positions; (16, 3,000) elsewhere."""


class HardBot(Bot):
    """``samples`` deals of the hidden tiles; in each, every move is played out
    ``playouts`` times, or solved exactly once ``solvable`` tiles are left, where a search
    of ``budget`` positions can; a round won is worth ``win_bonus`` points more (by
    default as ``WIN_BONUS`` and ``EXACT`` say for the variant)."""

    level = "hard"
    thinks = True

    def __init__(self, seed: int | None = None, samples: int = 120, playouts: int = 4,
                 policy: str = "heuristic", budget: int | None = None,
                 win_bonus: float | None = None, solvable: int | None = None) -> None:
        super().__init__(seed)
        self.samples, self.playouts, self.policy = samples, playouts, policy
        self.budget, self.win_bonus, self.solvable = budget, win_bonus, solvable

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
        variant = view.rules.variant
        bonus = WIN_BONUS.get(variant, 10.0) if self.win_bonus is None else self.win_bonus
        solvable, budget = EXACT.get(variant, (16, 3000))
        values = kernel.evaluate(as_array(states), view.rules.side_of(view.seat),
                                 self.playouts, self.policy,
                                 budget if self.budget is None else self.budget, bonus,
                                 seed=self.rng.getrandbits(32),
                                 solvable=solvable if self.solvable is None else self.solvable)
        return [float(v) for v in values.reshape(self.samples, len(moves)).mean(axis=0)]
