"""Computer opponents. A bot sees only a ``PlayerView`` and answers with a move.

>>> from bones import Round, Rules
>>> rnd = Round.deal(Rules.preset("draw"), seed=2)
>>> bot = get("easy", seed=1)
>>> bot.choose(rnd.view(rnd.turn)) in rnd.legal_moves()
True
"""

from __future__ import annotations

from typing import Any

from bones.bots.base import Bot
from bones.bots.easy import EasyBot
from bones.bots.expert import ExpertBot
from bones.bots.hard import HardBot
from bones.bots.heaviest import HeaviestBot
from bones.bots.master import MasterBot
from bones.bots.medium import MediumBot

__all__ = ["BASELINES", "LEVELS", "Bot", "EasyBot", "ExpertBot", "HardBot", "HeaviestBot",
           "MasterBot", "MediumBot", "get"]

LEVELS: dict[str, type[Bot]] = {
    "easy": EasyBot, "medium": MediumBot, "hard": HardBot, "expert": ExpertBot}
"""The levels players choose from."""
BASELINES: dict[str, type[Bot]] = {"heaviest": HeaviestBot, "master": MasterBot}
"""Bots the arena plays that players do not choose from: yardsticks, and Master, a
candidate level until it measures stronger than Expert (``bench/RESULTS.md``)."""


def get(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot of the given level, deterministic under ``seed``; ``options`` are the level's
    own settings (Hard's and Expert's ``match_bonus``, say).

    >>> get("expert", seed=1, match_bonus=0.0).match_bonus
    0.0
    """
    try:
        made = {**LEVELS, **BASELINES}[level]
    except KeyError:
        known = ", ".join([*LEVELS, *BASELINES])
        raise ValueError(f"unknown bot level {level!r}; choose one of {known}") from None
    return made(seed=seed, **options)
