"""How a table's match ends up in the store: the finished game with its names, sides,
scores and record (the fair deck's secret revealed), and, for a rated game, the places
it gives each side. Written with the last move, in the same transaction.

>>> from bones.rules import Rules
>>> from bones.server.tables.seats import Seat
>>> table = Table("t", Rules.preset("draw", target=None), [Seat("human", name="Ann"),
...                                                         Seat("bot", level="easy")])
>>> _ = table.start()
>>> while table.status == "playing":
...     _ = table.play(table.turn, str(table.match.round.legal_moves()[0]))
>>> kept = game(table)
>>> kept["names"], kept["rating"]
(['Ann', 'bot:easy'], None)
"""

from __future__ import annotations

from typing import Any

from bones.server.people.ratings import abandoned, rank_game
from bones.server.tables.table import Table

__all__ = ["game"]


def game(table: Table) -> dict[str, Any]:
    """A finished match as the store keeps it."""
    match = table.match
    assert match is not None and match.is_over
    seats = table.seats
    sides = [table.rules.side_of(n) for n in range(len(seats))]
    return {
        "variant": table.rules.variant,
        "names": [s.name if s.kind == "human" else f"bot:{s.level}" for s in seats],
        "sides": sides,
        "accounts": [s.account_id if s.kind == "human" else None for s in seats],
        "scores": list(match.scores), "winner": match.winner, "loser": match.loser,
        "record": {**match.record(), "fair": table.deck.reveal(), "assists": table.assists},
        "rating": _rating(table, sides) if table.rated else None,
        "public": table.invite is None,
    }


def _rating(table: Table, sides: list[int]) -> dict[str, Any]:
    """The places a rated game gives each side: by the final scores (Kozel's are
    penalties), the sides of players who left last."""
    assert table.match is not None
    seats = table.seats
    left = abandoned([s.chose for s in seats], [s.stood_in for s in seats],
                     [s.timeouts for s in seats])
    return {"ranks": rank_game(list(table.match.scores), sides, left,
                               lower_wins=table.rules.variant == "kozel"),
            "left": sorted(left)}
