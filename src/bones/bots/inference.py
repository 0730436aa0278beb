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
[3, 0, 1, 3, 0, 1]
>>> truth = [mask_of(h) for h in rnd.hands]
>>> MODELS["kozel"].log_likelihood(choices(view), truth) < 0
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from bones.moves import FITS, PLAYS, Move, Play, parse_move
from bones.tiles import SUIT, tiles_of
from bones.view import PlayerView, infer_lacks

__all__ = ["FEATURES", "MODELS", "Choice", "ChoiceModel", "Mixture", "Model", "choices",
           "features", "options", "walk"]

Ends = tuple[int, int] | None
"""The line's two open numbers, or ``None`` before the lead."""


@dataclass(frozen=True)
class Choice:
    """A placement another seat chose: the ends it saw, the move, and every tile it has
    placed since, this one included (its hand then was its hand now and these)."""

    at: int
    """The index of the placement in the view's history."""
    seat: int
    ends: Ends
    move: Play
    since: int
    lacks: tuple[frozenset[int], ...]
    """Per seat, the numbers it had shown it lacked by then (as ``PlayerView.lacks``)."""
    placed: int
    """The tiles on the table by then."""
    partner: int | None
    friendly: tuple[bool, bool]
    """Whether each end was last extended by the mover's own side."""


def choices(view: PlayerView) -> list[Choice]:
    """The other seats' placements that a deal of their hands can explain, oldest first.
    Only line games (not All Fives' spinner) are read."""
    if view.rules.variant == "allfives":
        return []
    lead = view.lead
    players = view.rules.players
    shown: list[tuple[int, str, int]] = []  # draws and passes, for ``infer_lacks``
    placed = lead.tile.bit if lead is not None and lead.automatic else 0
    owners = [-1, -1] if lead is None else [lead.seat, lead.seat]
    made: list[tuple[int, int, Ends, Play, tuple[frozenset[int], ...], int,
                     tuple[int, int]]] = []
    drew: dict[int, int] = {}  # seat -> index in ``made`` after which it last drew
    for at, seat, text, move, ends in walk(view):
        if not isinstance(move, Play):
            shown.append((seat, text, 0 if ends is None else 1 << ends[0] | 1 << ends[1]))
            if text == "draw":
                drew[seat] = len(made)
            continue
        made.append((at, seat, ends, move, infer_lacks(players, shown), placed,
                     (owners[0], owners[1])))
        if move.end is None:
            owners = [seat, seat]
        else:
            owners[move.end == "right"] = seat
        placed |= move.tile.bit
    found: list[Choice] = []
    pairs = view.rules.variant == "kozel"
    side = view.rules.side_of
    for n, (at, seat, before, move, known, table, who) in enumerate(made):
        if seat == view.seat or drew.get(seat, -1) > n:
            continue
        since = sum(m.tile.bit for _, s, _, m, *_ in made[n:] if s == seat)
        friendly = (who[0] >= 0 and side(who[0]) == side(seat),
                    who[1] >= 0 and side(who[1]) == side(seat))
        found.append(Choice(at, seat, before, move, since, known, table,
                            (seat + 2) % players if pairs else None, friendly))
    return found


def walk(view: PlayerView) -> Iterator[tuple[int, int, str, Move, Ends]]:
    """Each move of a line game's history: its index, seat, text and move, and the open
    numbers before it (from a forced lead on, which the history leaves out)."""
    lead = view.lead
    ends: Ends = (lead.tile.high, lead.tile.low) if lead is not None and lead.automatic else None
    for at, (seat, text) in enumerate(view.history):
        move = parse_move(text)
        yield at, seat, text, move, ends
        if isinstance(move, Play):
            ends = _after(ends, move)


def _after(ends: Ends, play: Play) -> tuple[int, int]:
    tile = play.tile
    if ends is None:
        return (tile.high, tile.low)
    left, right = ends
    if play.end == "left":
        return (tile.other(left), right)
    return (left, tile.other(right))


def options(hand: int, ends: Ends) -> list[Play]:
    """The placements a hand has at these ends, as the engine lists them."""
    if ends is None:
        return [PLAYS[t.index][None] for t in tiles_of(hand)]
    return [*FITS[0][hand & SUIT[ends[0]]], *FITS[1][hand & SUIT[ends[1]]]]


def features(hand: int, choice: Choice, play: Play) -> tuple[float, ...]:
    """What a placement says about its mover: the pips it sheds, whether it is a double,
    how many of the tiles left would fit the new ends and how many carry the number it
    opens; whether it covers an end its own side made; how many of the tiles left carry
    the number it covers; and what it does at the table: whether the next seat or the
    partner has shown it lacks the number opened, and how much of that number is out."""
    row = _features(np.array([hand], dtype=np.int64), choice, play)[0]
    return tuple(float(x) for x in row)


def _features(hands: np.ndarray, choice: Choice, play: Play) -> np.ndarray:
    """``features`` for many hands at once: one row per hand."""
    tile, end = play.tile, play.end
    rest = hands & ~tile.bit
    ends = _after(choice.ends, play)
    opened = set(ends) if end is None else {ends[end == "right"]}
    own = sum(SUIT[n] for n in opened)
    lacks = choice.lacks
    partner = choice.partner is not None and bool(lacks[choice.partner] & opened)
    covered = 0 if end is None or choice.ends is None else SUIT[choice.ends[end == "right"]]
    rows = np.empty((len(hands), len(FEATURES)))
    rows[:, 0] = tile.value / 6
    rows[:, 1] = tile.is_double
    rows[:, 2] = np.bitwise_count(rest & (SUIT[ends[0]] | SUIT[ends[1]])) / 3
    rows[:, 3] = np.bitwise_count(rest & own) / 3
    rows[:, 4] = bool(lacks[(choice.seat + 1) % len(lacks)] & opened)
    rows[:, 5] = partner
    rows[:, 6] = ((choice.placed | tile.bit) & own).bit_count() / 7
    rows[:, 7] = end is not None and choice.friendly[end == "right"]
    rows[:, 8] = np.bitwise_count(rest & covered) / 3
    return rows


FEATURES = ("pips", "double", "fits", "opened kept", "next lacks", "partner lacks",
            "opened out", "own end", "covered kept")


class Model(ABC):
    """A way of choosing moves, to read the others' choices with: how likely each choice
    was given the mover's hand (``ChoiceModel``, or a ``Mixture`` of several)."""

    @abstractmethod
    def log_probability(self, hand: int, choice: Choice) -> float:
        """log P(the choice | the mover held ``hand`` then)."""

    @abstractmethod
    def log_likelihoods(self, made: Sequence[Choice], hands: np.ndarray) -> np.ndarray:
        """``log_likelihood`` of many deals at once: ``hands[deal, seat]`` are masks."""

    def log_likelihood(self, made: Sequence[Choice], hands: Sequence[int]) -> float:
        """log P(every choice in ``made`` | the hands now are ``hands``)."""
        return float(self.log_likelihoods(made, np.array([hands], dtype=np.int64))[0])


@dataclass(frozen=True)
class ChoiceModel(Model):
    """Weights of ``features``: a move's score is their dot product."""

    weights: tuple[float, ...]

    def log_probability(self, hand: int, choice: Choice) -> float:
        return float(self._log_probabilities(np.array([hand], dtype=np.int64), choice)[0])

    def log_likelihoods(self, made: Sequence[Choice], hands: np.ndarray) -> np.ndarray:
        total = np.zeros(len(hands))
        for choice in made:
            then = hands[:, choice.seat] | choice.since
            total += self._log_probabilities(then, choice)
        return total

    def _log_probabilities(self, hands: np.ndarray, choice: Choice) -> np.ndarray:
        weights = np.array(self.weights)
        scores: list[np.ndarray] = []
        chosen = None
        for play in options(ALL & ~choice.placed, choice.ends):
            held = (hands >> play.tile.index & 1).astype(bool)
            if play is choice.move:
                chosen = len(scores)
            scores.append(np.where(held, _features(hands, choice, play) @ weights, -np.inf))
        if chosen is None:
            raise ValueError(f"{choice.move} does not fit the ends {choice.ends}")
        table = np.array(scores)
        top = table.max(axis=0)
        logs: np.ndarray = table[chosen] - top - np.log(np.exp(table - top).sum(axis=0))
        return logs


@dataclass(frozen=True)
class Mixture(Model):
    """Several ways of choosing, each as likely as the others before anything is seen:
    a player whose style is not known in advance. A deal's likelihood is the mean of the
    models' likelihoods, so the choices themselves tell which style explains them.

    >>> from bones import Round, Rules
    >>> from bones.tiles import mask_of
    >>> rnd = Round.deal(Rules.preset("block", players=2), seed=3)
    >>> for _ in range(6):
    ...     rnd.push(rnd.legal_moves()[0])
    >>> view, truth = rnd.view(rnd.turn), [mask_of(h) for h in rnd.hands]
    >>> made = choices(view)
    >>> one = MODELS["block"].models[0].log_likelihood(made, truth)
    >>> both = Mixture((MODELS["block"].models[0],) * 2).log_likelihood(made, truth)
    >>> round(one - both, 9)
    0.0
    """

    models: tuple[ChoiceModel, ...]

    def log_probability(self, hand: int, choice: Choice) -> float:
        logs = np.array([model.log_probability(hand, choice) for model in self.models])
        return float(_log_mean_exp(logs))

    def log_likelihoods(self, made: Sequence[Choice], hands: np.ndarray) -> np.ndarray:
        return _log_mean_exp(np.array([model.log_likelihoods(made, hands)
                                       for model in self.models]))


def _log_mean_exp(logs: np.ndarray) -> np.ndarray:
    """log of the mean of exp(logs) along the first axis, without overflow."""
    top = logs.max(axis=0)
    mean: np.ndarray = top + np.log(np.exp(logs - top).mean(axis=0))
    return mean


ALL = (1 << 28) - 1

MODELS: dict[str, Model] = {
    "draw": ChoiceModel((0.24, 0.66, -0.76, 2.33, 0.17, 0.0, 3.26, -0.59, -1.81)),
    "block": Mixture((
        ChoiceModel((1.16, 0.69, -0.25, 3.68, 0.59, 0.0, 3.39, -0.34, -4.64)),
        ChoiceModel((0.99, 0.55, -0.49, 1.08, 0.79, 0.0, 0.68, -0.06, -0.65)),
    )),
    "kozel": ChoiceModel((0.26, 1.07, -0.82, 2.05, 0.40, -0.56, 2.22, -0.20, -0.85)),
}
"""Per variant, fitted with ``bench/choices.py`` to Hard's own choices in 2-player draw
and block games (1,500 rounds each) and 4-player Kozel (600 rounds); held out, they
predict Hard's choices better than chance by 0.14, 0.27 and 0.11 nats a choice. The
block game mixes in a second style, fitted to 2,151 choices of OpenSpiel's ISMCTS
(random playouts; ``bench/openspiel.py --choices``), which sheds heavy tiles as Hard does
but cares far less which numbers it keeps: Hard's model reads its choices worse than
chance (-1.22 nats a choice against -1.09), its own 0.08 better."""
