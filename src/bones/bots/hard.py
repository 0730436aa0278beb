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
The deals come in batches of 30, and from the second batch on it stops dealing once the
move ahead is, by 2.5 standard errors of the deal-by-deal differences, at most a point
worse than any other: most choices are settled long before the 360th deal, and the rest
(near ties) are where more deals change little of what the choice is worth. With 2
standard errors All Fives lost 2.4 points a deal pair [-3.8, -1.0] to the Hard that took
every deal (1,000 duplicate pairs; ``bench/RESULTS.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

import numpy as np

from bones import kernel
from bones.bots.base import Bot
from bones.bots.sampler import Dealt, Sampler
from bones.moves import Move
from bones.view import PlayerView

WIN_BONUS = {"kozel": 30.0}
"""The bonus for a round won, per variant; 10 points elsewhere."""


class HardBot(Bot):
    """Up to ``samples`` deals of the hidden tiles; in each, every move is played out
    ``playouts`` times, or solved exactly where a search of ``budget`` positions can;
    a round won is worth ``win_bonus`` points more (by default as ``WIN_BONUS`` says),
    a round that wins the match ``match_bonus`` more. Deals come ``batch`` at a time
    until the choice is ``settled`` by ``confidence`` and ``tolerance`` (None: all)."""

    level = "hard"
    thinks = True

    def __init__(self, seed: int | None = None, samples: int = 360, playouts: int = 1,
                 policy: str = "heuristic", budget: int = 3000,
                 win_bonus: float | None = None, solvable: int = 16,
                 match_bonus: float = 0.0, batch: int = 30,
                 tolerance: float | None = 1.0, confidence: float = 2.5) -> None:
        super().__init__(seed)
        self.samples, self.playouts, self.policy = samples, playouts, policy
        self.budget, self.win_bonus, self.solvable = budget, win_bonus, solvable
        self.match_bonus = match_bonus
        self.batch, self.tolerance, self.confidence = batch, tolerance, confidence

    def pick(self, view: PlayerView) -> Move:
        values = self.evaluate(view)
        best = max(values)
        choices = [m for m, v in zip(view.legal_moves, values, strict=True) if v >= best - 1e-9]
        return self.rng.choice(choices)

    def dealing(self, view: PlayerView) -> Iterator[Dealt]:
        """The deals of the hidden tiles to play the moves out in, uniform samples, each
        drawn when it is needed: a choice settled early draws no more."""
        sampler = Sampler(view)
        return (sampler.sample_dealt(self.rng) for _ in range(self.samples))

    def deals(self, view: PlayerView) -> list[Dealt]:
        """All ``samples`` deals."""
        return list(self.dealing(view))

    def positions(self, view: PlayerView, deals: Iterable[Dealt] | None = None) -> np.ndarray:
        """The kernel's states of the position in each of ``deals`` (all of ``deals(view)``
        by default), a row each."""
        made = self.deals(view) if deals is None else deals
        return _states(kernel.public(view.rules, view), made)

    def bonus(self, variant: str) -> float:
        """What a round won is worth in this variant."""
        return WIN_BONUS.get(variant, 10.0) if self.win_bonus is None else self.win_bonus

    def evaluate(self, view: PlayerView) -> list[float]:
        """The average margin of each legal move, over the deals it took to settle."""
        moves, rules = view.legal_moves, view.rules
        size = self.samples if self.tolerance is None else self.batch
        table, deals = kernel.public(rules, view), self.dealing(view)
        values = np.empty((0, len(moves)))
        while batch := list(islice(deals, size)):
            states = kernel.successors(_states(table, batch), moves)
            values = np.concatenate([values, kernel.evaluate(
                states, rules.side_of(view.seat), self.playouts, self.policy, self.budget,
                self.bonus(rules.variant), seed=self.rng.getrandbits(32),
                solvable=self.solvable, match_bonus=self.match_bonus,
            ).reshape(len(batch), len(moves))])
            if (self.tolerance is not None and len(values) > size
                    and settled(values, self.confidence, self.tolerance)):
                break
        return [float(v) for v in values.mean(axis=0)]


def _states(table: np.ndarray, deals: Iterable[Dealt]) -> np.ndarray:
    """The kernel's states of ``deals`` on the public ``table`` (``kernel.public``)."""
    made = list(deals)
    hands = np.array([d.hands for d in made], dtype=np.int64)
    boneyards = np.array([d.boneyard for d in made], dtype=np.int64).reshape(len(made), -1)
    return kernel.dealt(table, hands, boneyards)


def settled(values: np.ndarray, confidence: float, tolerance: float) -> bool:
    """Whether the move ahead (the best mean of ``values``, a row a deal, a column a
    move) is, by ``confidence`` standard errors, at most ``tolerance`` worse than every
    other: the moves share the deals, so it is their differences deal by deal that count.

    >>> settled(np.array([[5.0, 1.0], [6.0, 0.0], [5.5, 1.5]]), 2.0, 1.0)
    True
    >>> settled(np.array([[5.0, 1.0], [0.0, 6.0], [5.5, 1.5]]), 2.0, 1.0)
    False
    """
    leader = int(values.mean(axis=0).argmax())
    lead = values[:, [leader]] - np.delete(values, leader, axis=1)
    error = lead.std(axis=0, ddof=1) / np.sqrt(len(values))
    return bool(np.all(lead.mean(axis=0) - confidence * error > -tolerance))
