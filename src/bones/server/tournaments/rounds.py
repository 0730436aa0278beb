"""Tournaments played in rounds, Swiss and duplicate: what the store's games and drawn
rounds mean. Each round is drawn once, in one transaction (``Tournaments.draw``): a
Swiss's when the round before it is over, by :func:`bones.server.tournaments.swiss.pair`;
a duplicate's all at its start, by its movement. Whoever runs the tournament then seats
each table of the round not yet seated (a duplicate's next board once the one before is
over there), so a process that stops halfway through a round is taken over where it
left off and nobody is seated twice.

A game belongs to the table of its round whose two entrants hold its first two seats
(a Kozel pair's first player one, the other's the next).

>>> teams = [Team(1, (1,), ("Ann",)), Team(2, (2,), ("Bob",)), Team(3, (3,), ("Cy",))]
>>> won = Played("t1", [1, 2], [(0, False), (1, False)], None, True, 1, None, [9, -9])
>>> bye = Played("bye", [3], [(0, False)], None, True, 1)
>>> [(s.name, s.score, s.sheet) for s in swiss_standings(teams, [won, bye])]
[('Ann', 1.0, [1.0]), ('Cy', 1.0, [1.0]), ('Bob', 0.0, [0.0])]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bones.server.protocol import BoardInfo, BoardResult, Pairing, RoundInfo, StandingInfo
from bones.server.tournaments import duplicate, swiss
from bones.server.tournaments.entries import Team
from bones.server.tournaments.games import Played

__all__ = [
    "Tables",
    "board_infos",
    "by_table",
    "duplicate_standings",
    "next_board",
    "round_infos",
    "seats",
    "swiss_round",
    "swiss_standings",
    "unfinished",
]


def _entrant_of(teams: Sequence[Team]) -> dict[int, int]:
    """Each account's entrant: made once a reading, not once a game (a thousand
    entrants' games each read it)."""
    return {account: team.key for team in teams for account in team.accounts}


def _table_of(game: Played, of: Mapping[int, int]) -> tuple[int, int]:
    """The entrants (``of`` each account) holding a game's first and second seats'
    hands."""
    return of[game.accounts[0]], of[game.accounts[1]]


def seats(first: Team, second: Team, first_side: int) -> list[int]:
    """Each seat's account at a table of two entrants, ``first`` holding side
    ``first_side``'s hands (a Kozel pair the side's two seats, partners across)."""
    by_side = (first, second) if first_side == 0 else (second, first)
    if len(first.accounts) == 1:
        return [by_side[0].accounts[0], by_side[1].accounts[0]]
    return [by_side[0].accounts[0], by_side[1].accounts[0],
            by_side[0].accounts[1], by_side[1].accounts[1]]


def _points(game: Played) -> float:
    """The first side's Swiss points in a game: 1 a win, ½ a tie, 0 a loss."""
    assert game.places is not None
    place, shared = game.places[0]
    return 0.5 if shared else 1.0 if place == 0 else 0.0


def _swiss(teams: Sequence[Team], games: Sequence[Played]) -> tuple[list[swiss.Entrant],
                                                                    dict[int, list[float]]]:
    settled = [g for g in games if g.places is not None and g.round is not None]
    of = _entrant_of(teams)
    sheets: dict[int, list[float]] = {t.key: [] for t in teams}
    played, byes = [], []
    for game in sorted(settled, key=lambda g: g.round or 0):
        if game.bye:
            byes.append(game.accounts[0])
            sheets[game.accounts[0]].append(swiss.BYE)
            continue
        first, second = _table_of(game, of)
        points = _points(game)
        played.append((first, second, points))
        sheets[first].append(points)
        sheets[second].append(1.0 - points)
    return swiss.entrants([t.key for t in teams], played, byes), sheets


def swiss_standings(teams: Sequence[Team], games: Sequence[Played]) -> list[StandingInfo]:
    """A Swiss's standings, best first, with their tiebreaks."""
    entrants, sheets = _swiss(teams, games)
    playing = _playing(games)
    by_key = {t.key: t for t in teams}
    return [StandingInfo(name=by_key[e.player].name, players=list(by_key[e.player].names),
                         score=e.score, sheet=sheets[e.player],
                         playing=bool(playing & set(by_key[e.player].accounts)),
                         buchholz=e.buchholz, sonneborn_berger=e.sonneborn_berger,
                         withdrawn=by_key[e.player].withdrawn)
            for e in swiss.ranked(entrants)]


def swiss_round(teams: Sequence[Team], games: Sequence[Played], number: int,
                apart: Mapping[int, Collection[int]] | None = None) -> dict[str, Any]:
    """Round ``number`` of a Swiss drawn from the results so far, among the entrants
    still in it; two entrants a player of one blocked in the other (``apart``, by
    account) are kept apart where the pairing can."""
    entrants, _ = _swiss(teams, games)
    staying = {t.key for t in teams if not t.withdrawn}
    of = _entrant_of(teams)
    kept = {of[a]: {of[b] for b in others if b in of} for a, others in (apart or {}).items()
            if a in of}
    tables, bye = swiss.pair([e for e in entrants if e.player in staying], kept)
    return {"round": number, "tables": [[a, b] for a, b in tables if b is not None],
            "bye": bye}


def _boards(of: Mapping[int, int], games: Sequence[Played]
            ) -> dict[tuple[int, int], list[tuple[Played, tuple[int, int]]]]:
    """The duplicate's games over, by round and board, each with its two entrants (``of``
    each account)."""
    found: dict[tuple[int, int], list[tuple[Played, tuple[int, int]]]] = defaultdict(list)
    for game in games:
        if game.results is not None and game.round is not None and game.board is not None:
            found[game.round, game.board].append((game, _table_of(game, of)))
    return found


def _matchpoints(played: list[tuple[Played, tuple[int, int]]]) -> list[list[int]]:
    """Each table's two entrants' matchpoints on one board, among those who held the
    same seat's hands."""
    per_side = [duplicate.matchpoints({n: game.results[side] for n, (game, _) in enumerate(
        played) if game.results is not None}) for side in (0, 1)]
    return [[per_side[0][n], per_side[1][n]] for n in range(len(played))]


def duplicate_standings(teams: Sequence[Team], games: Sequence[Played]) -> list[StandingInfo]:
    """A duplicate's standings, best first: matchpoints summed over the boards played
    (each board's in the sheet, in order)."""
    sheets: dict[int, list[float]] = {t.key: [] for t in teams}
    for _, played in sorted(_boards(_entrant_of(teams), games).items()):
        for (_, entrants), points in zip(played, _matchpoints(played), strict=True):
            for key, mine in zip(entrants, points, strict=True):
                sheets[key].append(mine)
    playing = _playing(games)
    order = sorted(teams, key=lambda t: -sum(sheets[t.key]))
    return [StandingInfo(name=t.name, players=list(t.names), score=sum(sheets[t.key]),
                         sheet=sheets[t.key], playing=bool(playing & set(t.accounts)),
                         withdrawn=t.withdrawn) for t in order]


def board_infos(teams: Sequence[Team], games: Sequence[Played]) -> list[BoardInfo]:
    """Every board played so far, each table's result side by side."""
    names = {t.key: t.name for t in teams}
    return [BoardInfo(round=r, board=b, results=[
        BoardResult(table=game.table, sides=[names[k] for k in entrants],
                    result=(game.results or [0])[0], matchpoints=points)
        for (game, entrants), points in zip(played, _matchpoints(played), strict=True)])
        for (r, b), played in sorted(_boards(_entrant_of(teams), games).items())]


def round_infos(teams: Sequence[Team], drawn: Sequence[dict[str, Any]],
                games: Sequence[Played], boards: int) -> list[RoundInfo]:
    """Each round drawn: its tables with their games and (once over) each side's
    points there: a Swiss's 1, ½ or 0 (``boards`` 0: its games are no boards), a
    duplicate's matchpoints summed over the round's boards."""
    names = {t.key: t.name for t in teams}
    of = _entrant_of(teams)
    mine = _by_table(of, games)
    earned: dict[tuple[int, int], float] = defaultdict(float)
    for (r, _), played in _boards(of, games).items():
        for (_, entrants), mps in zip(played, _matchpoints(played), strict=True):
            for key, mp in zip(entrants, mps, strict=True):
                earned[r, key] += mp
    shown = []
    for drawn_round in drawn:
        r, tables = drawn_round["round"], []
        for first, second in drawn_round["tables"]:
            found = mine.get((r, frozenset((first, second))), [])
            points: list[float] | None = None
            if found and sum(g.places is not None for g in found) == max(boards, 1):
                points = ([earned[r, first], earned[r, second]] if boards
                          else _swiss_points(found[0], first, of))
            tables.append(Pairing(sides=[names[first], names[second]],
                                  tables=[g.table for g in found], points=points))
        bye = drawn_round.get("bye")
        shown.append(RoundInfo(round=r, tables=tables,
                               bye=None if bye is None else names[bye]))
    return shown


def _swiss_points(game: Played, first: int, of: Mapping[int, int]) -> list[float]:
    """A Swiss game's points, the entrant ``first`` named first."""
    mine = _points(game) if _table_of(game, of)[0] == first else 1.0 - _points(game)
    return [mine, 1.0 - mine]


Tables = dict[tuple[int, frozenset[int]], list[Played]]
"""The games of each table of each round (by its two entrants), by board."""


def by_table(teams: Sequence[Team], games: Sequence[Played]) -> Tables:
    """The games of each table of each round, read once for all of a look's tables."""
    return _by_table(_entrant_of(teams), games)


def _by_table(of: Mapping[int, int], games: Sequence[Played]) -> Tables:
    found: Tables = defaultdict(list)
    for game in games:
        if game.round is not None and not game.bye:
            found[game.round, frozenset(_table_of(game, of))].append(game)
    for played in found.values():
        played.sort(key=lambda g: g.board or 0)
    return found


def unfinished(tables: Tables, drawn: dict[str, Any], boards: int) -> list[tuple[int, int]]:
    """The tables of a drawn round not yet over (``boards`` games each)."""
    return [(a, b) for a, b in drawn["tables"]
            if sum(g.over for g in tables.get((drawn["round"], frozenset((a, b))), [])) < boards]


def next_board(tables: Tables, drawn: dict[str, Any], table: tuple[int, int],
               boards: int) -> int | None:
    """The board (from 1) to seat next at a table of a drawn round: the first, or the
    one after the last once that is over; none while a game is played there or all
    are over."""
    found = tables.get((drawn["round"], frozenset(table)), [])
    if not found:
        return 1
    last = found[-1]
    if not last.over or (last.board or 1) >= boards:
        return None
    return (last.board or 1) + 1


def _playing(games: Sequence[Played]) -> set[int]:
    return {a for g in games if not g.over for a in g.accounts}
