"""How a table's match ends: played to its end, or given up — resigned, lost on time,
or claimed by the others from a player who left — and what the store keeps of it: the
game with its names, sides, scores and record (the fair deck's secret revealed, and the
seats whose player never moved: ``idle``) and,
for a rated game, the places it gives each side (none if a player never moved: the
game is aborted, as lichess aborts one; none either if it was given up before each
player made :data:`LEAST_MOVES` choices of their own: too short to be a real game).
Written with the last change, in the same transaction.

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

import time
from typing import Any

from bones.server.people.ratings import rank_game
from bones.server.tables.seats import Entry, TableError
from bones.server.tables.table import Table

__all__ = ["LEAST_MOVES", "aborted", "absent_left", "claim", "game", "idle", "resign",
           "short"]

LEAST_MOVES = 3
"""Choices of their own each player must have made for a match given up to be a real
game (rated, scored in an arena)."""


def resign(table: Table, seat: int, how: str = "resigned") -> list[Entry]:
    """``seat`` gives the match up (``how``: ``resigned``, or ``time`` when a rated
    game's clock ran out): it ends at once, their side losing (``Match.resign``). Only
    at a table with another person: against bots, a player just leaves."""
    if table.status not in ("playing", "between"):
        raise TableError("not_now", f"no match is being played (the table is {table.status})")
    if not any(s.kind == "human" for n, s in enumerate(table.seats) if n != seat):
        raise TableError("not_now", "a match is resigned only against another person; "
                         "against bots, just leave the table")
    assert table.match is not None
    table.match.resign(seat, how)
    table.seq += 1
    return [("forfeit", seat, {"how": how})]


def absent_left(table: Table, seat: int, after: float, now: float | None = None
                ) -> float | None:
    """Seconds before the others may claim a rated match from ``seat``'s absent player
    (0: they may now), or before a bot takes the seat at a casual table; None while its
    player is here (or it is a bot's)."""
    since = table.seats[seat].absent_since
    if since is None or table.seats[seat].kind != "human" or table.status == "over":
        return None
    return max(0.0, round(since + after - (time.time() if now is None else now), 1))


def claim(table: Table, seat: int, after: float) -> list[Entry]:
    """``seat`` claims a rated match from a player of the other side who has been away
    ``after`` seconds: the absent player loses it as by resignation."""
    if not table.rated:
        raise TableError("not_now", "a match is claimed only at a rated table; at a casual "
                         "one a bot takes an absent player's seat")
    side = table.rules.side_of(seat)
    gone = [n for n in range(len(table.seats)) if table.rules.side_of(n) != side
            and absent_left(table, n, after) == 0]
    if not gone:
        raise TableError("not_now", "nobody of the other side has been away long enough "
                         "to claim the match")
    return resign(table, gone[0], "absent")


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
        "record": {**match.record(), "fair": table.deck.reveal(), "assists": table.assists,
                   "idle": idle(table), "short": short(table)},
        "rating": _rating(table, sides) if table.rated else None,
        "public": table.invite is None,
    }


def short(table: Table) -> bool:
    """A match given up (resigned, lost on time, claimed) before each of its players had
    made :data:`LEAST_MOVES` choices of their own: not a real game, whichever way it went,
    so a puppet that makes a move and resigns (or leaves, or lets its clock run out)
    feeds nobody's rating or arena score. A match played to its end is a real game
    however short."""
    match = table.match
    return (match is not None and match.forfeit is not None
            and any(s.kind == "human" and s.chose - s.stood_in < LEAST_MOVES
                    for s in table.seats))


def idle(table: Table) -> list[int]:
    """The seats whose player never made a move of their own (a bot, or the clock, made
    every one): a tournament counts the game as missed by them."""
    return [n for n, s in enumerate(table.seats)
            if s.kind == "human" and s.chose - s.stood_in == 0]


def aborted(table: Table) -> bool:
    """A rated match that was no real game: a player never made a move of their own, or
    it was given up too soon (:func:`short`). It rates nobody, so no rating is farmed
    from puppets that never play."""
    return table.rated and (bool(idle(table)) or short(table))


def _rating(table: Table, sides: list[int]) -> dict[str, Any]:
    """The places a rated game gives each side: by the final scores (Kozel's are
    penalties), the side of a player who gave the match up, or left, last; none for an
    aborted game, which says so."""
    assert table.match is not None
    if idle(table):
        return {"ranks": None, "left": [], "unrated": "aborted"}
    if short(table):
        return {"ranks": None, "left": [], "unrated": "short"}
    forfeit = table.match.forfeit
    left = set() if forfeit is None else {forfeit.seat}
    return {"ranks": rank_game(list(table.match.scores), sides, left,
                               lower_wins=table.rules.variant == "kozel"),
            "left": sorted(left)}
