"""A Swiss: a set number of rounds; each round every player meets one of about their
score, never one they met before where that can be avoided, and with an odd number one
player sits out with a bye.

Scores are the chess ones: 1 a win, ½ a draw (a tie), 0 a loss; a bye scores 1 and is
given to the lowest-placed player who has had none. Ties in the standings are broken by
Buchholz (the sum of the opponents' scores) and then by Sonneborn-Berger (the scores of
the opponents beaten, and half those of the opponents tied with); a bye adds to neither.

The pairing is a maximum-weight matching (networkx) over every two players: the nearer
their scores the better, and a pair who met before, or kept apart by a block, only when
no pairing of everyone avoids it.

>>> games = [(1, 2, 1.0), (3, 4, 0.5)]          # round 1: 1 beat 2, 3 and 4 tied
>>> players = entrants([1, 2, 3, 4, 5], games, byes=[5])
>>> [(e.player, e.score) for e in ranked(players)]
[(1, 1.0), (5, 1.0), (3, 0.5), (4, 0.5), (2, 0.0)]
>>> pair(players)        # 2 sits out; 3 and 4 met already, so 1-3 and 5-4
([(1, 3), (5, 4)], 2)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = ["BYE", "Entrant", "entrants", "pair", "ranked"]

BYE = 1.0
"""What a bye scores."""


@dataclass
class Entrant:
    """A player of a Swiss: their score, whom they met with what result, their byes, and
    the tiebreaks (once :func:`entrants` has worked them out)."""

    player: int
    score: float = 0.0
    met: list[tuple[int, float]] = field(default_factory=list)
    """Each game's opponent and this player's result in it (1, ½ or 0)."""
    byes: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0


def entrants(players: Iterable[int], games: Iterable[tuple[int, int, float]],
             byes: Iterable[int] = ()) -> list[Entrant]:
    """Every player's standing from the games played, ``(first, second, first's result)``,
    and the byes given (a player per bye)."""
    found = {p: Entrant(p) for p in players}
    for first, second, result in games:
        for me, them, mine in ((first, second, result), (second, first, 1.0 - result)):
            found[me].met.append((them, mine))
            found[me].score += mine
    for player in byes:
        found[player].byes += 1
        found[player].score += BYE
    for e in found.values():
        e.buchholz = sum((found[o].score for o, _ in e.met), 0.0)
        e.sonneborn_berger = sum((found[o].score * r for o, r in e.met), 0.0)
    return list(found.values())


def ranked(players: Sequence[Entrant]) -> list[Entrant]:
    """The standings, best first: score, Buchholz, Sonneborn-Berger, then entry order."""
    return sorted(players, key=lambda e: (-e.score, -e.buchholz, -e.sonneborn_berger, e.player))


def pair(players: Sequence[Entrant], apart: Mapping[int, Collection[int]] | None = None
         ) -> tuple[list[tuple[int, int | None]], int | None]:
    """The next round's tables, best placed first, and the player given the bye (none
    with an even number). ``apart``: whom each player is kept from (a block, either
    way), avoided as a rematch is. A table ``(p, None)`` would be a player nobody could
    be paired with; it does not happen while there are two players or more."""
    apart = apart or {}
    order = ranked(players)
    bye = None
    if len(order) % 2:
        bye = min(order, key=lambda e: (e.byes, -order.index(e))).player
        order = [e for e in order if e.player != bye]
    place = {e.player: n for n, e in enumerate(order)}
    # A score gap (in half points) costs its square, and more than any distance in the
    # standings, which settles the rest; a rematch costs more than a whole round's costs.
    size = len(order)
    widest = round(2 * (order[0].score - order[-1].score)) if order else 0
    again_cost = size * (widest * widest * size + size) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(place)
    for a in order:
        before = {o for o, _ in a.met} | set(apart.get(a.player, ()))
        for b in order:
            if place[a.player] < place[b.player]:
                gap = round(2 * abs(a.score - b.score))
                cost = gap * gap * size + place[b.player] - place[a.player]
                kept = b.player in before or a.player in apart.get(b.player, ())
                graph.add_edge(a.player, b.player, weight=2 * again_cost - cost - (
                    again_cost if kept else 0))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    tables: list[tuple[int, int | None]] = [
        (a, b) if place[a] < place[b] else (b, a) for a, b in matched]
    paired = {p for table in tables for p in table}
    tables += [(p, None) for p in place if p not in paired]
    return sorted(tables, key=lambda t: place[t[0]]), bye
