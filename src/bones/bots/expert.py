"""Expert: Hard's search over deals that explain what the other players chose.

Hard deals the hidden tiles uniformly among everything consistent with the facts its
sampler keeps. Expert deals ``pool`` times as many, weighs each deal by how likely it
makes the placements the others chose (``bones.bots.inference``) and by the number of
ways the draws could have brought it about (``bones.bots.holdings``: the tiles a player
held when it drew lacked the numbers open then, which the sampler forgets at the draw),
and keeps ``samples`` of them drawn in proportion to those weights, before it plays every
move out as Hard does. It also plays for the match: a round that wins it is worth
``MATCH_BONUS`` points more, one that loses it as much less (not in Kozel, whose target
is a loss).

>>> from bones import Round, Rules
>>> rnd = Round.deal(Rules.preset("kozel"), seed=4)
>>> for _ in range(6):
...     rnd.push(rnd.legal_moves()[-1])
>>> expert = ExpertBot(seed=1)
>>> expert.choose(rnd.view(rnd.turn)) in rnd.legal_moves()
True
>>> len(expert.deals(rnd.view(rnd.turn)))  # the deals kept, by weight
360
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from bones.bots.hard import HardBot
from bones.bots.holdings import Holdings
from bones.bots.inference import MODELS, Model, choices
from bones.bots.sampler import Dealt, Sampler
from bones.view import PlayerView

MATCH_BONUS = 100.0
"""What a round that ends the match is worth beyond its points: as much as a whole match
to 100, so that near the target the match outweighs any margin a round could bring."""


class ExpertBot(HardBot):
    """Hard with soft inference: ``pool`` times ``samples`` uniform deals, ``samples``
    of them kept by weight under ``model``; the match counts ``match_bonus``."""

    level = "expert"

    def __init__(self, seed: int | None = None, samples: int = 360, pool: int = 8,
                 model: Model | None = None, match_bonus: float = MATCH_BONUS,
                 **hard: object) -> None:
        hard.setdefault("playouts", 4)  # as measured against ISMCTS and Hard
        hard.setdefault("tolerance", None)  # every deal, as measured against ISMCTS
        super().__init__(seed, samples=samples, match_bonus=match_bonus,
                         **hard)  # type: ignore[arg-type]
        self.pool, self.model = pool, model

    def dealing(self, view: PlayerView) -> Iterator[Dealt]:
        """The deals kept by weight: the whole pool is drawn before any is played out."""
        return iter(self._weighed(view))

    def _weighed(self, view: PlayerView) -> list[Dealt]:
        made = choices(view)
        model = self.model or MODELS.get(view.rules.variant)
        facts = Holdings(view)
        if not (made and model) and not facts.informative:
            return list(super().dealing(view))
        sampler = Sampler(view)
        drawn = [sampler.sample_dealt(self.rng) for _ in range(self.samples * self.pool)]
        hands = np.array([d.hands for d in drawn], dtype=np.int64)
        logs = facts.log_counts(hands)
        if made and model:
            logs += model.log_likelihoods(made, hands)
        if not np.isfinite(logs.max()):
            return drawn[:self.samples]  # none of the pool fits: the looser facts only
        weights = np.exp(logs - logs.max())
        return self.rng.choices(drawn, weights=weights.tolist(), k=self.samples)
