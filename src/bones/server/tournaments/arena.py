"""An arena: players come and go for a fixed time; whenever a player's game ends they
wait to be paired again, with those waiting nearest them in the standings.

Scoring (the rules page says the same). A game won scores :data:`WIN` (2). With three or
four players, the runner-up scores :data:`SECOND` (1); a tie for first scores 1 each;
everyone else 0. In Kozel the pair is one side: a won match is a win for both partners.
Two wins in a row start a streak: each win after them counts double, until a game is not
won (that game scores as usual and ends the streak).

>>> ann = Standing(1)
>>> for place in (0, 0, 0, 1, 0):   # won, won, won on fire, second of three, won
...     _ = ann.record(place, players=3)
>>> ann.sheet, ann.score, ann.on_fire
([2, 2, 4, 1, 2], 11, False)

Pairing. The players waiting are paired in one wave by a maximum-weight matching
(networkx): the nearer two are in the standings the better, two who just played each
other are paired again only when nobody else is waiting for either, and two kept apart
(one blocked the other) never where anyone else can be. With three or four players a
table, the waiting are seated in groups in order of the standings, each group passing
over the nearest who is kept apart from it or just played it where another will do.

>>> standings = [Standing(n, score=s) for n, s in ((1, 9), (2, 8), (3, 4), (4, 3))]
>>> standings[0].last = (2,)   # 1 and 2 just played each other
>>> sorted(sorted(t) for t in pair(standings, seats=2))
[[1, 3], [2, 4]]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = ["NEAR", "SECOND", "WHOLE", "WIN", "Standing", "pair", "points", "ranked"]

WIN = 2
"""Points for a game won."""
SECOND = 1
"""Points for second place at a table of three or four, or for a shared first place."""
WHOLE = 64
"""Waiting players up to which each may be paired with any other ..."""
NEAR = 16
"""... and beyond which with one of the nearest this many below them in the standings."""


def points(place: int, players: int, shared: bool = False) -> int:
    """What finishing ``place`` (0: first) of ``players`` sides scores, before any
    streak; ``shared``: tied with another side for that place.

    >>> points(0, 2), points(1, 2), points(1, 4), points(0, 2, shared=True)
    (2, 0, 1, 1)
    """
    if place == 0:
        return SECOND if shared else WIN
    return SECOND if place == 1 and players > 2 and not shared else 0


@dataclass
class Standing:
    """One player's place in an arena: their score, each game's points as counted, their
    run of wins and whom they played last."""

    player: int
    score: int = 0
    sheet: list[int] = field(default_factory=list)
    run: int = 0
    """Games won in a row, up to now."""
    last: tuple[int, ...] = ()
    """The players of their last game."""

    @property
    def on_fire(self) -> bool:
        """On a streak: their next win counts double."""
        return self.run >= 2

    def record(self, place: int, players: int, shared: bool = False,
               opponents: tuple[int, ...] = ()) -> int:
        """A game of theirs ended at ``place``; what it counted."""
        won = place == 0 and not shared
        counted = points(place, players, shared) * (2 if won and self.on_fire else 1)
        self.score += counted
        self.sheet.append(counted)
        self.run = self.run + 1 if won else 0
        self.last = opponents
        return counted


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """The standings, best first: by score, then by fewer games (the same score in
    fewer games is the better), then by who came first (their number)."""
    return sorted(standings, key=lambda s: (-s.score, len(s.sheet), s.player))


def _groups(order: list[Standing], seats: int,
            apart: Mapping[int, Collection[int]]) -> list[tuple[int, ...]]:
    """Tables of three or four in standings order: each group takes the best placed left,
    then the nearest who is kept apart from none of it and played none of it last, else
    the nearest kept apart from none, else the nearest."""
    def cost(s: Standing, group: list[Standing]) -> tuple[bool, bool]:
        return (any(s.player in apart.get(g.player, ()) or g.player in apart.get(s.player, ())
                    for g in group),
                any(s.player in g.last or g.player in s.last for g in group))

    left, tables = list(order), []
    while len(left) >= seats:
        group = [left.pop(0)]
        while len(group) < seats:
            group.append(left.pop(min(range(len(left)), key=lambda n: (cost(left[n], group), n))))
        tables.append(tuple(s.player for s in group))
    return tables


def pair(waiting: Sequence[Standing], seats: int = 2,
         apart: Mapping[int, Collection[int]] | None = None) -> list[tuple[int, ...]]:
    """The tables of one wave: the waiting players seated ``seats`` at a table, each
    group as near in the standings as can be; ``apart``: whom each player is not to
    meet. Players left over wait for the next wave."""
    apart = apart or {}
    order = ranked(waiting)
    if seats != 2:
        return _groups(order, seats, apart)
    place = {s.player: n for n, s in enumerate(order)}
    graph: nx.Graph[int] = nx.Graph()
    # A rematch costs more than every distance of a wave together, and two kept apart
    # more than every rematch: each is made only when no pairing of as many tables
    # avoids it.
    # A large field is paired among neighbours, each with the nearest below it: the
    # matching's time grows with the edges, and nobody is to be paired far from their
    # place anyway.
    again_cost = len(order) ** 2
    apart_cost = again_cost * len(order)
    near = len(order) if len(order) <= WHOLE else NEAR
    for n, a in enumerate(order):
        for b in order[n + 1:n + 1 + near]:
            again = b.player in a.last or a.player in b.last
            kept = b.player in apart.get(a.player, ()) or a.player in apart.get(b.player, ())
            graph.add_edge(a.player, b.player, weight=2 * apart_cost - (
                place[b.player] - place[a.player]) - (again_cost if again else 0)
                - (apart_cost if kept else 0))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((tuple(sorted(pair, key=place.__getitem__)) for pair in matched),
                  key=lambda table: place[table[0]])
