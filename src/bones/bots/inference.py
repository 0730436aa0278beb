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

All Fives is read as the line games are, its spinner's arms counted among the ends, with
three more features: what a placement scores (a player who passed up 15 points probably
could not make them), and how many of the mover's tiles left, and of all the tiles off
the table, would score next on the layout it leaves.

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

from bones.bots.table import scored
from bones.layout import Line, SpinnerLine
from bones.moves import FITS, PLAYS, Move, Play, parse_move
from bones.tiles import SUIT, tiles_of
from bones.view import PlayerView, infer_lacks

__all__ = ["FEATURES", "MODELS", "SPINNER_FEATURES", "Choice", "ChoiceModel", "Mixture",
           "Model", "choices", "features", "options", "walk"]

Ends = tuple[int, ...] | None
"""The open numbers in the order of ``ENDS`` (the line's two, then the spinner's arms
once they open), or ``None`` before the lead."""


@dataclass(frozen=True)
class Choice:
    """A placement another seat chose: the ends it saw, the move, and every tile it has
    placed since, this one included (its hand then was its hand now and these)."""

    at: int
    """The index of the placement in the view's history."""
    seat: int
    layout: Line
    """The tiles on the table before the placement (a copy: it is not changed)."""
    move: Play
    since: int
    lacks: tuple[frozenset[int], ...]
    """Per seat, the numbers it had shown it lacked by then (as ``PlayerView.lacks``)."""
    placed: int
    """The tiles on the table by then."""
    partner: int | None
    friendly: tuple[bool, ...]
    """Per place (as ``ENDS``), whether it was last extended by the mover's own side."""

    @property
    def ends(self) -> Ends:
        """The open numbers the mover saw."""
        return None if self.layout.empty else self.layout.ends


def choices(view: PlayerView) -> list[Choice]:
    """The other seats' placements that a deal of their hands can explain, oldest first."""
    players = view.rules.players
    shown: list[tuple[int, str, int]] = []  # draws and passes, for ``infer_lacks``
    lead = view.lead
    placed = lead.tile.bit if lead is not None and lead.automatic else 0
    owners = [-1] * 4 if lead is None else [lead.seat] * 2 + [-1] * 2
    made: list[tuple[int, int, Line, Play, tuple[frozenset[int], ...], int,
                     tuple[int, ...]]] = []
    drew: dict[int, int] = {}  # seat -> index in ``made`` after which it last drew
    for at, seat, text, move, layout in walk(view):
        if not isinstance(move, Play):
            shown.append((seat, text, sum(1 << n for n in set(layout.ends))))
            if text == "draw":
                drew[seat] = len(made)
            continue
        made.append((at, seat, layout.copy(), move, infer_lacks(players, shown), placed,
                     tuple(owners)))
        if move.end is None:
            owners[:2] = [seat, seat]
        else:
            owners[move.place] = seat
        placed |= move.tile.bit
    found: list[Choice] = []
    pairs = view.rules.variant == "kozel"
    side = view.rules.side_of
    for n, (at, seat, before, move, known, table, who) in enumerate(made):
        if seat == view.seat or drew.get(seat, -1) > n:
            continue
        since = sum(m.tile.bit for _, s, _, m, *_ in made[n:] if s == seat)
        friendly = tuple(w >= 0 and side(w) == side(seat) for w in who)
        found.append(Choice(at, seat, before, move, since, known, table,
                            (seat + 2) % players if pairs else None, friendly))
    return found


def walk(view: PlayerView) -> Iterator[tuple[int, int, str, Move, Line]]:
    """Each move of the history: its index, seat, text and move, and the layout before
    it (from a forced lead on, which the history leaves out). The layout is one object
    changed as the walk goes on: copy what is kept past the next step."""
    lead = view.lead
    layout = SpinnerLine() if view.rules.spinner else Line()
    if lead is not None and lead.automatic:
        layout.lead(lead.tile)
    for at, (seat, text) in enumerate(view.history):
        move = parse_move(text)
        yield at, seat, text, move, layout
        if isinstance(move, Play):
            _place(layout, move)


def _place(layout: Line, play: Play) -> None:
    if play.end is None:
        layout.lead(play.tile)
    else:
        layout.place(play.tile, play.place)


def options(hand: int, ends: Ends) -> list[Play]:
    """The placements a hand has at these ends, as the engine lists them."""
    if ends is None:
        return [PLAYS[t.index][None] for t in tiles_of(hand)]
    return [play for place, n in enumerate(ends) for play in FITS[place][hand & SUIT[n]]]


def features(hand: int, choice: Choice, play: Play) -> tuple[float, ...]:
    """What a placement says about its mover: the pips it sheds, whether it is a double,
    how many of the tiles left would fit the new ends and how many carry the number it
    opens; whether it covers an end its own side made; how many of the tiles left carry
    the number it covers; and what it does at the table: whether the next seat or the
    partner has shown it lacks the number opened, and how much of that number is out.
    In All Fives (``SPINNER_FEATURES``) also the points it scores, and how many of the
    tiles left, and of all tiles not on the table, would score next on the layout it
    leaves (whoever holds them)."""
    row = _features(np.array([hand], dtype=np.int64), choice, play)[0]
    return tuple(float(x) for x in row)


def _features(hands: np.ndarray, choice: Choice, play: Play) -> np.ndarray:
    """``features`` for many hands at once: one row per hand."""
    tile, end, place = play.tile, play.end, play.place
    rest = hands & ~tile.bit
    before = choice.layout.ends
    after = choice.layout.copy()
    _place(after, play)
    ends = after.ends
    opened = set(ends) if end is None else {ends[place], *ends[len(before):]}
    own = sum(SUIT[n] for n in opened)
    lacks = choice.lacks
    partner = choice.partner is not None and bool(lacks[choice.partner] & opened)
    covered = 0 if end is None else SUIT[before[place]]
    spinner = isinstance(after, SpinnerLine)
    rows = np.empty((len(hands), len(SPINNER_FEATURES if spinner else FEATURES)))
    rows[:, 0] = tile.value / 6
    rows[:, 1] = tile.is_double
    rows[:, 2] = np.bitwise_count(rest & after.playable()) / 3
    rows[:, 3] = np.bitwise_count(rest & own) / 3
    rows[:, 4] = bool(lacks[(choice.seat + 1) % len(lacks)] & opened)
    rows[:, 5] = partner
    rows[:, 6] = ((choice.placed | tile.bit) & own).bit_count() / 7
    rows[:, 7] = end is not None and choice.friendly[place]
    rows[:, 8] = np.bitwise_count(rest & covered) / 3
    if spinner:
        scoring = _scoring(after, choice.placed | tile.bit)
        rows[:, 9] = scored(after.count()) / 10
        rows[:, 10] = np.bitwise_count(rest & scoring) / 3
        rows[:, 11] = scoring.bit_count() / 7
    return rows


def _scoring(layout: Line, out: int) -> int:
    """The tiles not in ``out`` that would score placed somewhere on ``layout``."""
    found = 0
    for place, n in layout.open_places():
        for play in FITS[place][SUIT[n] & ~out & ~found]:
            layout.place(play.tile, place)
            if scored(layout.count()):
                found |= play.tile.bit
            layout.unplace(place)
    return found


FEATURES = ("pips", "double", "fits", "opened kept", "next lacks", "partner lacks",
            "opened out", "own end", "covered kept")
SPINNER_FEATURES = (*FEATURES, "scores", "scoring kept", "scoring out")
"""All Fives' features: the line games' and three of the count."""


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
    "allfives": ChoiceModel((-0.00, 0.98, 0.03, 1.08, 0.10, 0.0, 0.97, -0.19, -1.96,
                             2.28, 2.37, -4.58)),
}
"""Per variant, fitted with ``bench/choices.py`` to Hard's own choices in 2-player draw
and block games and All Fives (1,500 rounds each) and 4-player Kozel (600 rounds); held
out, they predict Hard's choices better than chance by 0.14, 0.27, 0.32 and 0.11 nats a
choice. The
block game mixes in a second style, fitted to 2,151 choices of OpenSpiel's ISMCTS
(random playouts; ``bench/openspiel.py --choices``), which sheds heavy tiles as Hard does
but cares far less which numbers it keeps: Hard's model reads its choices worse than
chance (-1.22 nats a choice against -1.09), its own 0.08 better."""
