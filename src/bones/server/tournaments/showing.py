"""What a tournament's page shows, read from the store: the tournament, its standings in
its format (an arena's points and streaks, a Swiss's wins and tiebreaks, a duplicate's
matchpoints) and its rounds drawn. The REST answers and the page's socket both read it
here.
"""

from __future__ import annotations

from bones.server.protocol import StandingInfo, TournamentInfo, TournamentMessage
from bones.server.tournaments import rounds
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import Played, TournamentGames
from bones.server.tournaments.running import ends, shown, sides, standings

__all__ = ["page", "standings_of"]


def standings_of(book: Tournaments, games: TournamentGames, tournament: str,
                 ) -> list[StandingInfo]:
    """The standings, best first, those who withdrew too."""
    return _standings(book, book.get(tournament), games.played(tournament))


def page(book: Tournaments, games: TournamentGames, tournament: str) -> TournamentMessage:
    """The whole page: the tournament, its standings and its rounds."""
    info = book.get(tournament)
    played = games.played(tournament)
    drawn = book.pairings(tournament)
    return TournamentMessage(
        info=info, standings=_standings(book, info, played),
        rounds=rounds.round_infos(book.teams(tournament), drawn, played, info.boards or 0)
        if drawn else [])


def _standings(book: Tournaments, info: TournamentInfo, played: list[Played]
               ) -> list[StandingInfo]:
    if info.kind == "arena":
        return shown(standings(book.entered(info.id, True), played, ends(info), sides(info)))
    teams = book.teams(info.id)
    if info.kind == "swiss":
        return rounds.swiss_standings(teams, played)
    return rounds.duplicate_standings(teams, played)
