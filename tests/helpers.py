"""Building rounds from explicit hands, for the rules tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from bones import DOUBLE_SIX, Round, Rules, Tile


def tiles(text: str) -> list[Tile]:
    """``"6-6 5-4"`` -> ``[Tile(6, 6), Tile(5, 4)]``."""
    return [Tile.parse(t) for t in text.split()]


def rest_of(*groups: Sequence[Tile]) -> list[Tile]:
    """The tiles in none of the groups, high first."""
    used = {t for group in groups for t in group}
    return [t for t in reversed(DOUBLE_SIX) if t not in used]


def make_round(variant: str, hands: Sequence[str], *, top: str = "", leader: int | None = None,
               scores: Sequence[int] | None = None, **options: Any) -> Round:
    """A round from hands written as text. In the draw games the boneyard is ``top``
    (top first) followed by every tile not dealt."""
    if variant in ("draw", "block"):
        options.setdefault("players", len(hands))
    options.setdefault("hand_size", len(hands[0].split()))
    rules = Rules.preset(variant, **options)
    dealt = [tiles(h) for h in hands]
    boneyard: list[Tile] = []
    if rules.draws:
        boneyard = tiles(top)
        boneyard += rest_of(*dealt, boneyard)
    return Round.from_hands(rules, dealt, boneyard, leader=leader, scores=scores)


def random_positions(rules: Rules, seeds: range, rng: random.Random, most: int,
                     **deal: Any) -> Iterator[Round]:
    """Rounds dealt from each seed and played on by up to ``most`` random moves; those
    that ended on the way are left out."""
    for seed in seeds:
        rnd = Round.deal(rules, seed=seed, **deal)
        for _ in range(rng.randrange(most)):
            if rnd.is_over:
                break
            rnd.push(rng.choice(rnd.legal_moves()))
        if not rnd.is_over:
            yield rnd


def play(rnd: Round, *moves: str) -> Round:
    for move in moves:
        rnd.push(move)
    return rnd


def texts(moves: Sequence[object]) -> list[str]:
    return [str(m) for m in moves]
