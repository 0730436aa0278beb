"""Hard facts the sampler lets go of: what a hand held before a draw, and a forced lead.

``PlayerView.lacks`` forgets what a seat showed it lacked once it draws, because the
drawn tile is unseen and may carry those numbers. The tiles it held before the draw
still lack them, though, and a drawn tile that does not fit lacked the numbers open
then too (one that fits is played at once, so it is seen). And a forced lead says that
no hand was dealt a tile that outranks it. The sampler draws deals uniformly under the
looser facts; ``Holdings.log_counts`` weighs each deal by the number of ways its hands
could have come about under all of them, so that the weighted deals are distributed as
every fact says.

The count, per other seat: each tile it holds or has placed from its hand was either
dealt to it or drawn in one of its draws that did not fit; a tile must lack the numbers
open at each of that seat's draws and passes while it held it; a dealt tile may not
outrank a forced lead; each such draw brought exactly one tile.

>>> import numpy as np
>>> from bones import Round, Rules, Tile
>>> rnd = Round.deal(Rules.preset("block"), seed=9)
>>> rnd.lead                       # no higher double was dealt
Lead(seat=0, tile=Tile(1, 1), automatic=True)
>>> facts = Holdings(rnd.view(1))
>>> hands = np.array([[Tile(6, 3).bit, 0], [Tile(3, 3).bit, 0]])
>>> facts.log_counts(hands).tolist()
[0.0, -inf]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from bones.bots.inference import walk
from bones.moves import Play, parse_move
from bones.round import opening_order
from bones.tiles import mask_of
from bones.view import PlayerView

__all__ = ["Holdings", "kept", "undealt"]

DEALT = -1.0
"""The time of the deal, before every move."""


@dataclass
class _Seat:
    """One seat's draws that did not fit (their times), its draws and passes (times and
    the tiles that would have fitted), and its placements from the hand."""

    draws: list[float] = field(default_factory=list)
    shown: list[tuple[int, int]] = field(default_factory=list)
    placed: list[tuple[float, int]] = field(default_factory=list)  # (time, tile bit)
    _options: dict[tuple[int, float], tuple[int, ...] | None] = field(default_factory=dict)

    def fitting(self, bit: int, start: float, end: float) -> bool:
        """Whether a tile held from ``start`` until ``end`` would have fitted at one of
        the seat's draws or passes in between."""
        return any(start <= at < end and bit & fits for at, fits in self.shown)

    def options(self, bit: int, end: float, outranks: int) -> tuple[int, ...] | None:
        """``None`` if a tile held until ``end`` may have been dealt; else the draws
        (their indices) that may have brought it."""
        key = (bit, end)
        if key not in self._options:
            dealt = not bit & outranks and not self.fitting(bit, DEALT, end)
            self._options[key] = None if dealt else tuple(
                j for j, at in enumerate(self.draws)
                if at < end and not self.fitting(bit, at, end))
        return self._options[key]


class Holdings:
    """Counts the ways each deal's hands came about, from a view's history."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.outranks = undealt(view)
        self.seats = _read(view)

    @property
    def informative(self) -> bool:
        """Whether any deal the sampler draws could be ruled out or weighed differently
        (the sampler itself keeps a forced lead's facts for a seat until it keeps a drawn
        tile)."""
        return any((seat, "draw") in self.view.history for seat in self.seats)

    def log_counts(self, hands: np.ndarray) -> np.ndarray:
        """``hands[deal, seat]``: tile masks; the log of each deal's number of ways
        (minus infinity where there is none), up to a constant."""
        out = np.zeros(hands.shape[0])
        for seat, facts in self.seats.items():
            memo: dict[int, int] = {}
            for i, hand in enumerate(hands[:, seat].tolist()):
                if hand not in memo:
                    memo[hand] = self._ways(facts, hand)
                ways = memo[hand]
                out[i] += math.log(ways) if ways else -math.inf
        return out

    def _ways(self, facts: _Seat, hand: int) -> int:
        dealt: list[float] = []
        drawn: list[tuple[int, ...]] = []
        for end, bit in [*((math.inf, 1 << i) for i in range(28) if hand >> i & 1),
                         *facts.placed]:
            draws = facts.options(bit, end, self.outranks)
            if draws is None:
                dealt.append(end)
            else:
                drawn.append(draws)
        return _placements(drawn, facts.draws, dealt)


def undealt(view: PlayerView) -> int:
    """The tiles no hand was dealt, as a mask: those before a forced lead in
    ``opening_order`` (the strongest tile dealt; Kozel's forced 1-1 says nothing)."""
    lead = view.lead
    if lead is None or not lead.automatic:
        return 0
    order = opening_order(view.rules)
    return mask_of(order[:order.index(lead.tile)])


def kept(history: Sequence[tuple[int, str]], at: int) -> bool:
    """Whether the tile drawn at ``history[at]`` may still be in its drawer's hand: it did
    not fit (the drawer drew again or passed), or that is not shown yet (the last move;
    ``Holdings`` then times the draw just after the drawer's state shown at it). A tile
    that fits is placed at once."""
    return at + 1 == len(history) or not isinstance(parse_move(history[at + 1][1]), Play)


def _placements(drawn: list[tuple[int, ...]], draws: list[float], dealt: list[float]) -> int:
    """Ways to give each tile that cannot have been dealt one of its draws (``drawn``: each
    such tile's draws), and each draw left a tile that may have been dealt. Counted draw
    set by draw set (``taken``), the tiles with the fewest draws to choose from first."""
    drawn = sorted(drawn, key=len)

    @cache
    def ways(index: int, taken: int) -> int:
        if index == len(drawn):
            return _fill([at for j, at in enumerate(draws) if not taken >> j & 1], dealt)
        return sum(ways(index + 1, taken | 1 << j) for j in drawn[index] if not taken >> j & 1)

    return ways(0, 0) if len(drawn) <= len(draws) else 0


def _fill(draws: list[float], dealt: list[float]) -> int:
    """Ways to give each draw left a tile of its own among tiles that may have been dealt
    but were held until ``dealt[k]``: a tile drawn at ``at`` was placed after it. The
    latest draw has the fewest tiles to choose from, and every earlier one all of those."""
    ways = 1
    for k, at in enumerate(sorted(draws, reverse=True)):
        ways *= max(0, sum(end > at for end in dealt) - k)
    return ways


def _read(view: PlayerView) -> dict[int, _Seat]:
    """Each other seat's draws, draws and passes, and placements, in time order."""
    seats = {s: _Seat() for s in range(view.rules.players) if s != view.seat}
    history = view.history
    for at, seat, text, move, layout in walk(view):
        facts = seats.get(seat)
        if isinstance(move, Play):
            after_draw = at > 0 and history[at - 1] == (seat, "draw")
            if facts is not None and not after_draw:
                facts.placed.append((at, move.tile.bit))
            continue
        if facts is None or layout.empty:
            continue
        facts.shown.append((at, layout.playable()))
        if text == "draw" and kept(history, at):
            facts.draws.append(at + 0.5 if at + 1 == len(history) else at)  # see ``kept``
    return seats
