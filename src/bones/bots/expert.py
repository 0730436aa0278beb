"""Expert: Hard's search over deals that explain what the other players chose.

Hard deals the hidden tiles uniformly among everything consistent with the facts. Expert
deals ``pool`` times as many, weighs each deal by how likely it makes the placements the
others chose (``bones.bots.inference``), and keeps ``samples`` of them drawn in
proportion to those weights, before it plays every move out as Hard does.
"""

from __future__ import annotations

import math

from bones.bots.hard import HardBot
from bones.bots.inference import MODEL, ChoiceModel, choices
from bones.bots.sampler import Determinization, Sampler
from bones.tiles import mask_of
from bones.view import PlayerView


class ExpertBot(HardBot):
    """Hard with soft inference: ``pool`` times ``samples`` uniform deals, ``samples``
    of them kept by weight under ``model``."""

    level = "expert"

    def __init__(self, seed: int | None = None, samples: int = 120, pool: int = 4,
                 model: ChoiceModel = MODEL, **hard: object) -> None:
        super().__init__(seed, samples=samples, **hard)  # type: ignore[arg-type]
        self.pool, self.model = pool, model

    def deals(self, view: PlayerView) -> list[Determinization]:
        made = choices(view)
        if not made:
            return super().deals(view)
        sampler = Sampler(view)
        drawn = [sampler.sample(self.rng) for _ in range(self.samples * self.pool)]
        logs = [self.model.log_likelihood(made, [mask_of(h) for h in d.hands]) for d in drawn]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        return self.rng.choices(drawn, weights=weights, k=self.samples)
