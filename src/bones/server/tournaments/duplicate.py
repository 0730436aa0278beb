"""A duplicate: every table plays the same boards (deals sealed before the tournament),
so that a result is compared only with those who held the same hands, and the luck of
the deal is out of it, as in duplicate bridge.

The movement. Entrants (players of a two-player game, or the pairs of Kozel) meet in the
rounds of a round robin (the circle method: with ``n`` entrants, ``n - 1`` rounds in
which each meets every other once; with an odd number one sits out each round). Every
table of a round plays that round's boards, the first-named entrant holding the first
seat's hand on odd-numbered boards and the second's on even-numbered ones, so that each
holds both hands of a round.

>>> movement([1, 2, 3, 4], rounds=3)
[[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]

The score. On one board, each result (a side's points in the deal less the other's)
is compared with every other result of those who held the same seat's hand: 2
matchpoints for each beaten, 1 for each equalled; summed over the boards.

>>> matchpoints({"ann": 12, "bob": 12, "cy": 30, "dee": -5})
{'ann': 3, 'bob': 3, 'cy': 6, 'dee': 0}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

__all__ = ["matchpoints", "movement", "seat_of"]

K = TypeVar("K", bound=Hashable)
E = TypeVar("E")


def movement(entrants: Sequence[E], rounds: int) -> list[list[tuple[E, E]]]:
    """The tables of each of ``rounds`` rounds (at most ``len(entrants) - 1``, or as many
    as there are entrants when their number is odd), each a pair of entrants."""
    field: list[E | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    if rounds > len(field) - 1:
        raise ValueError(f"{len(entrants)} entrants meet each other in at most "
                         f"{len(field) - 1} rounds")
    schedule = []
    for _ in range(rounds):
        half = len(field) // 2
        pairs = zip(field[:half], reversed(field[half:]), strict=True)
        schedule.append([(a, b) for a, b in pairs if a is not None and b is not None])
        field = [field[0], field[-1], *field[1:-1]]  # the first stays, the others turn
    return schedule


def seat_of(table: tuple[E, E], entrant: E, board: int) -> int:
    """The seat whose hand ``entrant`` holds at ``table`` on board number ``board`` (from
    1): the first-named entrant the first seat's on odd boards."""
    first = table[0] == entrant
    return 0 if first == (board % 2 == 1) else 1


def matchpoints(results: Mapping[K, float]) -> dict[K, int]:
    """Each entrant's matchpoints on one board, among those who held the same hand:
    ``results`` maps each to their result (their side's points less the other's)."""
    return {who: sum(2 if mine > theirs else 1 if mine == theirs else 0
                     for other, theirs in results.items() if other != who)
            for who, mine in results.items()}
