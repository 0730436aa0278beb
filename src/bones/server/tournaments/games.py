"""The games a tournament's pairings made, in the store: who sits where (and each seat's
token, for its player alone), and once a game is over, each seat's place in it, taken
from the finished game the table stored (at whichever process held it).

A place is by the match's final scores (in Kozel the lower wins: its points are
penalties), the winner first and the side that gave the match up (or left) last; sides
tied share their place.

>>> places(["a", "b"], sides=[0, 1], scores=[52, 31], winner=0, loser=1, variant="draw")
[(0, False), (1, False)]
>>> places(["a", "b", "c"], sides=[0, 1, 2], scores=[20, 20, 51], winner=2, loser=None,
...        variant="block")
[(1, True), (1, True), (0, False)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.people.ratings import ranks
from bones.server.store.schema import GameRow, TournamentGameRow, now

__all__ = ["Played", "TournamentGames", "places"]


@dataclass(frozen=True)
class Played:
    """A tournament game: its table, each seat's account, each seat's place (none while it
    is played) and when it ended."""

    table: str
    accounts: list[int]
    places: list[tuple[int, bool]] | None
    ended: datetime | None
    over: bool = False
    """Over, whether or not its result was taken in yet."""


def places(seats: Sequence[object], sides: Sequence[int], scores: Sequence[int],
           winner: int | None, loser: int | None, variant: str) -> list[tuple[int, bool]]:
    """Each seat's ``(place, shared)`` in a finished match (place 0 first)."""
    last = set() if loser is None else {loser}
    by_side = ranks(scores, lower_wins=variant == "kozel", last=last)
    if winner is not None:  # a forfeit's winner, whatever the scores said
        by_side = [1 if side == winner else max(2, r) for side, r in enumerate(by_side)]
    return [(by_side[sides[n]] - 1, by_side.count(by_side[sides[n]]) > 1)
            for n in range(len(seats))]


class TournamentGames:
    """Every tournament's games in a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def seated(self, tournament: str, table: str, accounts: list[int],
               tokens: list[str]) -> None:
        """The pairing seated ``accounts`` (by seat) at ``table``."""
        with Session(self.engine) as session, session.begin():
            session.add(TournamentGameRow(table_id=table, tournament_id=tournament,
                                          accounts=accounts, tokens=tokens, created=now()))

    def settle(self, tournament: str) -> int:
        """Take in the places of the tournament's games that ended; how many."""
        with Session(self.engine) as session, session.begin():
            found = session.execute(select(TournamentGameRow, GameRow).join(
                GameRow, GameRow.table_id == TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament,
                TournamentGameRow.settled.is_(None))).all()
            for mine, game in found:
                mine.places = [list(p) for p in places(
                    game.names, game.sides, game.scores, game.winner, game.loser, game.variant)]
                mine.settled = game.finished
            return len(found)

    def played(self, tournament: str) -> list[Played]:
        """The tournament's games, those ended first (in the order they ended), then those
        being played."""
        with Session(self.engine) as session:
            rows = session.execute(select(TournamentGameRow, GameRow.table_id).outerjoin(
                GameRow, GameRow.table_id == TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament)).all()
            games = [Played(r.table_id, list(r.accounts),
                            None if r.places is None else [(p, s) for p, s in r.places],
                            r.settled, ended is not None) for r, ended in rows]
        return sorted(games, key=lambda g: (g.ended is None, g.ended or now(), g.table))

    def mine(self, tournament: str, account: int) -> tuple[str, int, str] | None:
        """The player's game being played (over, it is not theirs to play even before
        its result is taken in): its table, their seat and its token."""
        with Session(self.engine) as session:
            rows = session.scalars(select(TournamentGameRow).outerjoin(
                GameRow, GameRow.table_id == TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament,
                TournamentGameRow.settled.is_(None), GameRow.table_id.is_(None))
                .order_by(TournamentGameRow.created.desc())).all()
        for row in rows:
            if account in row.accounts:
                seat = row.accounts.index(account)
                return row.table_id, seat, row.tokens[seat]
        return None
