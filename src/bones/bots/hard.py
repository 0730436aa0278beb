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
a pair shedding its heaviest tiles, and its points per deal from 25.8 to 30.8.
It deals 360 times a decision: against itself at 120 deals, 360 win 55.1% of Kozel rounds
(+7.8 points a deal; 300 pairs) and 51.6% of 2-player block rounds (500 pairs), where
three hidden hands, or a hand among 21 unseen tiles, need more deals to be seen well; 720
gain nothing more over 360 (50.8% in Kozel).
Each move is played out once in each deal: the heuristic playout is nearly deterministic
(only ties are drawn), and one is as strong as the four Hard played before, for a fifth to
a third less CPU (1,000 duplicate pairs each, rounds won by one playout against four:
Kozel 49.2% [47.0, 51.4], 2-player draw 50.5% [48.3, 52.6], All Fives 50.5% [48.3, 52.7],
4-player block 49.1% [46.9, 51.3]; ``bench/RESULTS.md``).
"""

from __future__ import annotations

import numpy as np

from bones import kernel
from bones.bots.base import Bot
from bones.bots.sampler import Determinization, Sampler
from bones.moves import Move
from bones.view import PlayerView

WIN_BONUS = {"kozel": 30.0}
"""The bonus for a round won, per variant; 10 points elsewhere."""


class HardBot(Bot):
    """``samples`` deals of the hidden tiles; in each, every move is played out
    ``playouts`` times, or solved exactly where a search of ``budget`` positions can;
    a round won is worth ``win_bonus`` points more (by default as ``WIN_BONUS`` says),
    a round that wins the match ``match_bonus`` more."""

    level = "hard"
    thinks = True

    def __init__(self, seed: int | None = None, samples: int = 360, playouts: int = 1,
                 policy: str = "heuristic", budget: int = 3000,
                 win_bonus: float | None = None, solvable: int = 16,
                 match_bonus: float = 0.0) -> None:
        super().__init__(seed)
        self.samples, self.playouts, self.policy = samples, playouts, policy
        self.budget, self.win_bonus, self.solvable = budget, win_bonus, solvable
        self.match_bonus = match_bonus

    def pick(self, view: PlayerView) -> Move:
        values = self.evaluate(view)
        best = max(values)
        choices = [m for m, v in zip(view.legal_moves, values, strict=True) if v >= best - 1e-9]
        return self.rng.choice(choices)

    def deals(self, view: PlayerView) -> list[Determinization]:
        """The deals of the hidden tiles to play the moves out in: uniform samples."""
        sampler = Sampler(view)
        return [sampler.sample(self.rng) for _ in range(self.samples)]

    def positions(self, view: PlayerView) -> list[np.ndarray]:
        """The kernel's states of the position in each of ``deals``."""
        return [kernel.position(view.rules, d.hands, d.boneyard, view) for d in self.deals(view)]

    def bonus(self, variant: str) -> float:
        """What a round won is worth in this variant."""
        return WIN_BONUS.get(variant, 10.0) if self.win_bonus is None else self.win_bonus

    def evaluate(self, view: PlayerView) -> list[float]:
        """The average margin of each legal move, over the sampled deals."""
        positions = self.positions(view)
        states = kernel.successors(positions, view.legal_moves)
        values = kernel.evaluate(states, view.rules.side_of(view.seat),
                                 self.playouts, self.policy, self.budget,
                                 self.bonus(view.rules.variant),
                                 seed=self.rng.getrandbits(32), solvable=self.solvable,
                                 match_bonus=self.match_bonus)
        return [float(v) for v in
                values.reshape(len(positions), len(view.legal_moves)).mean(axis=0)]
