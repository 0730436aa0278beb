"""What a tournament's page shows, read from the store: the tournament, its standings in
its format (an arena's points and streaks, a Swiss's wins and tiebreaks, a duplicate's
matchpoints) and its rounds drawn. The REST answers and the page's socket both read it
here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bones.server.protocol import PAGE, StandingInfo, TournamentInfo, TournamentMessage
from bones.server.store.schema import EntryRow, TournamentGameRow, TournamentRow
from bones.server.tournaments import rounds
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import Played, TournamentGames
from bones.server.tournaments.running import ends, shown, sides, standings

__all__ = ["page", "stamp", "standings_of"]


def stamp(book: Tournaments, tournament: str) -> tuple[Any, ...]:
    """What a page depends on, in two small queries: the tournament's state and rounds,
    its entries (how many, withdrawn, latest joined), its games (how many, how many
    over and taken in, latest made). The same stamp, the same page: a thousand
    entrants' page took half a second to make, and it is looked at every second."""
    with Session(book.engine) as session:
        row = session.get(TournamentRow, tournament)
        entries = session.execute(select(
            func.count(), func.count(EntryRow.withdrawn), func.max(EntryRow.joined)).where(
            EntryRow.tournament_id == tournament)).one()
        played = session.execute(select(
            func.count(), func.count(TournamentGameRow.settled),
            func.max(TournamentGameRow.created)).where(
            TournamentGameRow.tournament_id == tournament)).one()
    return (None if row is None else (row.state, len(row.pairings or [])),
            tuple(entries), tuple(played))


def standings_of(book: Tournaments, games: TournamentGames, tournament: str,
                 ) -> list[StandingInfo]:
    """The standings, best first, those who withdrew too."""
    return _standings(book, book.get(tournament), games.played(tournament))


def page(book: Tournaments, games: TournamentGames, tournament: str) -> TournamentMessage:
    """The page: the tournament, the first :data:`PAGE` of its standings and its
    rounds (each with its first tables)."""
    info = book.get(tournament)
    played = games.played(tournament)
    drawn = book.pairings(tournament)
    board = _standings(book, info, played)
    shown = rounds.round_infos(book.teams(tournament), drawn, played,
                               info.boards or 0) if drawn else []
    for one in shown:
        del one.tables[PAGE:]
    return TournamentMessage(
        info=info.model_copy(update={"entrants": []}), entered=len(info.entrants),
        standings=board[:PAGE], total=len(board), rounds=shown)


def _standings(book: Tournaments, info: TournamentInfo, played: list[Played]
               ) -> list[StandingInfo]:
    if info.kind == "arena":
        return shown(standings(book.entered(info.id, True), played, ends(info), sides(info)))
    teams = book.teams(info.id)
    if info.kind == "swiss":
        return rounds.swiss_standings(teams, played)
    return rounds.duplicate_standings(teams, played)
