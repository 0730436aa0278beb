"""Soft inference: how well a deal of the hidden tiles explains what the others chose.

The sampler counts every deal consistent with the hard facts (sizes, voids) as equally
likely. Players do not choose at random, though: a player who led 1-0 with a hand of
sixes behaved unusually. A ``ChoiceModel`` scores each legal move from the mover's hand
and the open ends, and a move is chosen with probability in proportion to
``exp(score)`` (a conditional logit). Over a deal, the product of these probabilities
for every choice the other players made is that deal's weight.

A choice can be replayed only where the mover's hand at the time is known in the deal:
its hand now plus the tiles it placed since. In the draw game a player who drew after
a choice held other tiles then, so that choice is left out.

>>> from bones import Round, Rules
>>> from bones.tiles import mask_of
>>> rnd = Round.deal(Rules.preset("kozel"), seed=3)
>>> for _ in range(8):
...     rnd.push(rnd.legal_moves()[0])
>>> view = rnd.view(rnd.turn)
>>> [c.seat for c in choices(view)]
[2, 3, 1, 2, 3]
>>> truth = [mask_of(h) for h in rnd.hands]
>>> MODEL.log_likelihood(choices(view), truth) < 0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bones.moves import Play, parse_move
from bones.tiles import DOUBLE_SIX, SUIT, Tile
from bones.view import PlayerView

__all__ = ["MODEL", "Choice", "ChoiceModel", "choices", "features", "options"]

Ends = tuple[int, int] | None
"""The line's two open numbers, or ``None`` before the lead."""


@dataclass(frozen=True)
class Choice:
    """A placement another seat chose: the ends it saw, what it placed where, and the
    tiles it placed afterwards (its hand then was its hand now and these)."""

    seat: int
    ends: Ends
    tile: Tile
    end: str | None
    later: int


def choices(view: PlayerView) -> list[Choice]:
    """The other seats' placements that a deal of their hands can explain, oldest first.
    Only line games (not All Fives' spinner) are read."""
    if view.rules.variant == "allfives":
        return []
    ends: Ends = None
    lead = view.lead
    if lead is not None and lead.automatic:
        ends = (lead.tile.high, lead.tile.low)
    made: list[tuple[int, Ends, Play]] = []
    drew: dict[int, int] = {}  # seat -> index in ``made`` after which it last drew
    for seat, text in view.history:
        move = parse_move(text)
        if not isinstance(move, Play):
            if text == "draw":
                drew[seat] = len(made)
            continue
        made.append((seat, ends, move))
        ends = _after(ends, move.tile, move.end)
    found: list[Choice] = []
    for n, (seat, before, move) in enumerate(made):
        if seat == view.seat or drew.get(seat, -1) > n:
            continue
        later = sum(m.tile.bit for s, _, m in made[n + 1:] if s == seat)
        found.append(Choice(seat, before, move.tile, move.end, later))
    return found


def _after(ends: Ends, tile: Tile, end: str | None) -> tuple[int, int]:
    if ends is None:
        return (tile.high, tile.low)
    left, right = ends
    if end == "left":
        return (tile.other(left), right)
    return (left, tile.other(right))


def options(hand: int, ends: Ends) -> list[tuple[Tile, str | None]]:
    """The placements a hand has at these ends, in the engine's order."""
    tiles = [t for t in DOUBLE_SIX if hand & t.bit]
    if ends is None:
        return [(t, None) for t in reversed(tiles)]
    found = []
    for end, number in zip(("left", "right"), ends, strict=True):
        found += [(t, end) for t in reversed(tiles) if t.has(number)]
    return found


def features(hand: int, ends: Ends, tile: Tile, end: str | None) -> tuple[float, ...]:
    """What a placement says about its mover: the pips it sheds, whether it is a double,
    how many of the tiles left would fit the new ends, and how many carry the number it
    opens."""
    rest = hand & ~tile.bit
    after = _after(ends, tile, end)
    fits = rest & (SUIT[after[0]] | SUIT[after[1]])
    opened = fits if end is None else rest & SUIT[after[0] if end == "left" else after[1]]
    return (tile.value / 6, float(tile.is_double), fits.bit_count() / 3,
            opened.bit_count() / 3)


@dataclass(frozen=True)
class ChoiceModel:
    """Weights of ``features``: a move's score is their dot product."""

    weights: tuple[float, ...]

    def log_probability(self, hand: int, choice: Choice) -> float:
        """log P(the choice | the mover held ``hand`` then)."""
        scores = []
        chosen = None
        for tile, end in options(hand, choice.ends):
            score = sum(w * f for w, f in zip(self.weights, features(hand, choice.ends, tile,
                                                                      end), strict=True))
            scores.append(score)
            if tile is choice.tile and end == choice.end:
                chosen = score
        if chosen is None:  # the deal cannot explain it (a rule the sampler missed)
            return -math.inf
        top = max(scores)
        return chosen - top - math.log(sum(math.exp(s - top) for s in scores))

    def log_likelihood(self, made: Sequence[Choice], hands: Sequence[int]) -> float:
        """log P(every choice in ``made`` | the hands now are ``hands``)."""
        return sum(self.log_probability(hands[c.seat] | c.later | c.tile.bit, c) for c in made)


MODEL = ChoiceModel((1.0, 0.0, 0.0, 0.0))
"""Fitted to Hard's own choices (``bench/choices.py``)."""
