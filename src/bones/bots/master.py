"""Master: information-set search over Expert's deals.

Hard and Expert play every move out in each sampled deal as if they could see it. Master
searches the information sets instead (``bones.kernel.ismcts``): tens of thousands of
walks, each in one of the deals Expert would draw (exact uniform deals, weighed by what
the others' choices and draws say), its own choices shared by every deal it cannot tell
apart, each other player's by the hand it holds in the deal, the rest of the round
played out by the heuristic. The move taken is the root's most visited. It measures as
strong as Expert, not stronger (``bench/RESULTS.md``), so it is not yet a level.

>>> from bones import Round, Rules
>>> rnd = Round.deal(Rules.preset("draw", players=2), seed=4)
>>> bot = MasterBot(seed=1, iterations=2000)
>>> bot.choose(rnd.view(rnd.turn)) in rnd.legal_moves()
True
"""

from __future__ import annotations

from bones import kernel
from bones.bots.expert import ExpertBot
from bones.view import PlayerView

SCALE = {"kozel": 60.0, "allfives": 40.0}
"""What a margin is divided by to make a reward near the unit the exploration term
assumes, per variant; 30 points elsewhere."""


class MasterBot(ExpertBot):
    """ISMCTS with ``iterations`` walks over ``samples`` of Expert's deals, exploring by
    ``c``; rewards are margins (and bonuses, as Expert counts them) over ``scale``."""

    level = "master"

    def __init__(self, seed: int | None = None, iterations: int = 20_000,
                 samples: int = 360, c: float = 0.7, scale: float | None = None,
                 **expert: object) -> None:
        super().__init__(seed, samples=samples, **expert)  # type: ignore[arg-type]
        self.iterations, self.c, self.scale = iterations, c, scale

    def evaluate(self, view: PlayerView) -> list[float]:
        """The visits of each legal move at the root, the most visited best."""
        variant = view.rules.variant
        scale = SCALE.get(variant, 30.0) if self.scale is None else self.scale
        visits, _ = kernel.ismcts(self.positions(view), view.legal_moves, self.iterations,
                                  self.c, win_bonus=self.bonus(variant),
                                  match_bonus=self.match_bonus, scale=scale,
                                  seed=self.rng.getrandbits(32))
        return [float(v) for v in visits]
