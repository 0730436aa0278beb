"""Dealing the hidden tiles again, uniformly among every deal a seat cannot rule out.

From a ``PlayerView`` the seat knows its own hand, the tiles on the table, every hand's
size, the boneyard's size, what each player has shown it lacks, and that no hand was
dealt a tile that outranks a forced lead. Every way to give the unseen tiles to the
other hands (sizes kept, no hand holding a number its player lacks, nor, until it keeps
a tile it drew, a tile that outranks the forced lead) and the rest to the boneyard (in
any order) and out of play is equally likely; ``Sampler.sample`` draws one of them
exactly uniformly.

How: tiles fall into a few types by which opponents may hold them. The number of ways
to finish a deal depends only on how many tiles of each type are left and how much room
each hand has, so it is counted once (exactly, in big integers) and reused; a sample
then picks, type by type, how many of its tiles each hand gets, in proportion to the
number of deals that choice leaves, and shuffles within the type.

>>> from bones import Round, Rules
>>> rnd = Round.deal(Rules.preset("kozel"), seed=2)
>>> deal = Sampler(rnd.view(rnd.turn)).sample(random.Random(1))
>>> [len(h) for h in deal.hands] == [len(h) for h in rnd.hands]
True
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from math import factorial
from typing import NamedTuple

from bones.bots.holdings import kept, undealt
from bones.tiles import Tile
from bones.view import PlayerView

__all__ = ["Dealt", "Determinization", "Sampler"]


class Determinization(NamedTuple):
    """One complete deal consistent with a view: every hand, and the boneyard top first."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]


class Dealt(NamedTuple):
    """A deal as the kernel takes it (``bones.kernel.dealt``): a tile mask a seat, and
    the boneyard's tile indices, the top first."""

    hands: tuple[int, ...]
    boneyard: tuple[int, ...]


class Sampler:
    """Uniform deals of the tiles a seat cannot see, given its view."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self._own = sum(t.bit for t in view.hand)
        unseen = view.unseen
        self.opponents = [s for s in range(view.rules.players) if s != view.seat]
        self.room = tuple(view.hand_counts[s] for s in self.opponents)
        self.pool = len(unseen) - sum(self.room)  # the boneyard and the tiles out of play
        if self.pool < view.boneyard_count:
            raise ValueError("the view's counts do not add up to the set")
        history = view.history
        drew = {seat for at, (seat, move) in enumerate(history)
                if move == "draw" and kept(history, at)}
        outranking = undealt(view)
        groups: dict[int, list[Tile]] = {}
        for tile in unseen:
            allowed = 0
            for i, seat in enumerate(self.opponents):
                if view.lacks[seat] & {tile.high, tile.low}:
                    continue
                if tile.bit & outranking and seat not in drew:
                    continue
                allowed |= 1 << i
            groups.setdefault(allowed, []).append(tile)
        self.types = sorted(groups.items())
        self._sizes = tuple(len(tiles) for _, tiles in self.types)
        self._masks = tuple(mask for mask, _ in self.types)
        self.count = _ways(self._masks, self._sizes, 0, self.room)
        if self.count == 0:
            raise ValueError("no deal fits what this seat has seen")

    def sample(self, rng: random.Random) -> Determinization:
        """One deal, every consistent deal as likely as any other."""
        hands, pool = self._draw(rng)
        full: list[tuple[Tile, ...]] = []
        for seat in range(self.view.rules.players):
            hand = self.view.hand if seat == self.view.seat else hands[
                self.opponents.index(seat)]
            full.append(tuple(sorted(hand, key=lambda t: -t.index)))
        return Determinization(tuple(full), tuple(pool[:self.view.boneyard_count]))

    def sample_dealt(self, rng: random.Random) -> Dealt:
        """The deal ``sample`` draws from the same generator state, as masks and indices:
        what a bot dealing hundreds of times hands the kernel, without sorting tiles.

        >>> from bones import Round, Rules
        >>> from bones.tiles import mask_of
        >>> rnd = Round.deal(Rules.preset("draw", players=2), seed=2)
        >>> sampler = Sampler(rnd.view(rnd.turn))
        >>> deal, dealt = sampler.sample(random.Random(7)), sampler.sample_dealt(random.Random(7))
        >>> dealt.hands == tuple(mask_of(h) for h in deal.hands)
        True
        >>> dealt.boneyard == tuple(t.index for t in deal.boneyard)
        True
        """
        hands, pool = self._draw(rng)
        masks = [sum(t.bit for t in hand) for hand in hands]
        return Dealt(tuple(self._own if seat == self.view.seat else masks[
            self.opponents.index(seat)] for seat in range(self.view.rules.players)),
            tuple(t.index for t in pool[:self.view.boneyard_count]))

    def _draw(self, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
        """The opponents' hands, and the rest shuffled (the boneyard is its top)."""
        room = self.room
        hands: list[list[Tile]] = [[] for _ in self.opponents]
        pool: list[Tile] = []
        for index, (_, tiles) in enumerate(self.types):
            split = _pick(self._masks, self._sizes, index, room, rng)
            shuffled = rng.sample(tiles, len(tiles))
            start = 0
            for i, share in enumerate(split):
                hands[i] += shuffled[start:start + share]
                start += share
            pool += shuffled[start:]
            room = tuple(r - s for r, s in zip(room, split, strict=True))
        rng.shuffle(pool)
        return hands, pool


def _splits(mask: int, size: int, room: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to give up to ``size`` tiles of a type to the hands allowed by ``mask``."""
    out: list[tuple[int, ...]] = [()]
    for i, space in enumerate(room):
        most = min(space, size) if mask >> i & 1 else 0
        out = [(*s, n) for s in out for n in range(most + 1) if sum(s) + n <= size]
    return out


@cache
def _ways(masks: tuple[int, ...], sizes: tuple[int, ...], index: int,
          room: tuple[int, ...]) -> int:
    """Deals of the types from ``index`` on with ``room`` left in the hands (the pool
    takes whatever the hands do not)."""
    if index == len(sizes):
        return 1 if not any(room) else 0
    if sum(sizes[index:]) < sum(room):
        return 0
    total = 0
    for split, weight in _options(masks, sizes, index, room):
        total += weight * _ways(masks, sizes, index + 1,
                                tuple(r - s for r, s in zip(room, split, strict=True)))
    return total


@cache
def _options(masks: tuple[int, ...], sizes: tuple[int, ...], index: int,
             room: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each split of type ``index`` with its number of tile arrangements."""
    size = sizes[index]
    out = []
    for split in _splits(masks[index], size, room):
        arrangements = factorial(size) // factorial(size - sum(split))
        for share in split:
            arrangements //= factorial(share)
        out.append((split, arrangements))
    return tuple(out)


def _pick(masks: tuple[int, ...], sizes: tuple[int, ...], index: int,
          room: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    splits, bounds = _table(masks, sizes, index, room)
    return splits[bisect_right(bounds, rng.randrange(bounds[-1]))]


@cache
def _table(masks: tuple[int, ...], sizes: tuple[int, ...], index: int,
           room: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The splits of type ``index`` and the running total of the deals each leaves: a
    ticket below the total picks the first split whose bound exceeds it. Cached, since a
    bot draws hundreds of deals from one view."""
    splits, bounds, total = [], [], 0
    for split, arrangements in _options(masks, sizes, index, room):
        rest = tuple(r - s for r, s in zip(room, split, strict=True))
        total += arrangements * _ways(masks, sizes, index + 1, rest)
        splits.append(split)
        bounds.append(total)
    return tuple(splits), tuple(bounds)
