"""What a finished game writes besides its record, in the transaction that stores it:
each player's lines in the running totals of statistics, and, for a rated game, the
ratings it moves (OpenSkill's Weng-Lin model, Plackett-Luce). Kept here so that a game,
its totals and its ratings are one write; ``people`` reads them.

>>> from types import SimpleNamespace as Game
>>> won = Game(variant="draw", names=["Ann", "bot:hard"], sides=[0, 1], scores=[104, 60],
...            winner=0, loser=None, accounts=[7, None])
>>> [line[:3] for line in lines(won)]
[(7, 'total', ''), (7, 'variant', 'draw'), (7, 'level', 'hard')]
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from bones.server.store.schema import GameRow, RatedRow, RatingRow

__all__ = ["MODEL", "PROVISIONAL", "REPEATS", "Line", "Total", "damped", "lines",
           "opponents_level", "rate"]

MODEL = PlackettLuce()
"""The rating model: OpenSkill's Plackett-Luce, with its defaults (mu 25, sigma 25/3)."""
PROVISIONAL = 5.0
"""A rating whose uncertainty (sigma) is above this is provisional: shown with a "?",
off the leaderboards, and it moves an established rating little."""
Line = tuple[int, str, str, bool, bool, int]
"""One player's part of one game: account, grouping, group, won, lost, points."""
Total = tuple[str, str, int, int, int, int]
"""A running total: grouping, group, games, wins, losses, points."""
REPEATS = (3, timedelta(hours=24))
"""Rated games two opponents may play that move their ratings, in a day: more are kept
and counted in statistics, unrated, so that no rating is fed by one opponent again and
again (a friend, or an account of one's own)."""


def opponents_level(names: list[str | None], sides: list[int], side: int) -> str:
    """The level the other side played at: a bot level, "people" or "mixed"."""
    levels = {name[4:] if name and name.startswith("bot:") else "people"
              for name, s in zip(names, sides, strict=True) if s != side}
    return levels.pop() if len(levels) == 1 else "mixed"


def lines(game: Any) -> list[Line]:
    """What a finished game adds to each of its players' totals: those with an account
    (a name typed without one counts for nobody)."""
    out: list[Line] = []
    for account, side in zip(game.accounts or [None] * len(game.sides), game.sides,
                             strict=True):
        if account is None:
            continue
        won = game.winner == side
        lost = game.loser == side if game.loser is not None else (
            game.winner is not None and not won)
        points = game.scores[side]
        level = opponents_level(game.names, game.sides, side)
        out += [(account, grouping, group, won, lost, points)
                for grouping, group in (("total", ""), ("variant", game.variant),
                                        ("level", level))]
    return out


def rate(session: Session, game: GameRow) -> None:
    """Rate a finished rated game: each account's rating for the variant and player count
    moves by OpenSkill's update for the ranks of the game's sides."""
    rating: dict[str, Any] = game.rating or {}
    accounts = [a for a in game.accounts or [] if a is not None]
    if not rating.get("ranks") or len(accounts) != len(game.sides):  # between accounts,
        return  # and not aborted
    players = len(accounts)
    rows = {a: _row(session, a, game.variant, players) for a in accounts}
    side_count = max(game.sides) + 1
    teams = [[a for a, s in zip(accounts, game.sides, strict=True) if s == side]
             for side in range(side_count)]
    if _met_often(session, game, teams):  # kept, and marked as not rated, and why
        session.execute(update(GameRow).where(GameRow.table_id == game.table_id)
                        .values(rating={**rating, "unrated": "met"}))
        return
    before = [[MODEL.rating(mu=rows[a].mu, sigma=rows[a].sigma) for a in team]
              for team in teams]
    after = MODEL.rate(before, ranks=rating["ranks"])
    sigmas = {a: rows[a].sigma for a in accounts}  # as they were before this game
    for side, (team, new_team) in enumerate(zip(teams, after, strict=True)):
        others = [a for other, t in enumerate(teams) if other != side for a in t]
        for account, new in zip(team, new_team, strict=True):
            row = rows[account]
            weight = damped(sigmas[account], max(sigmas[a] for a in others))
            mu = row.mu + weight * (new.mu - row.mu)
            sigma = row.sigma + weight * (new.sigma - row.sigma)
            row.opponents += _new_opponents(session, game, account, others)
            session.add(RatedRow(table_id=game.table_id, account_id=account,
                                 variant=game.variant, players=players,
                                 mu_before=row.mu, sigma_before=row.sigma,
                                 mu=mu, sigma=sigma, at=game.finished))
            row.mu, row.sigma, row.games = mu, sigma, row.games + 1
    session.flush()


def damped(mine: float, theirs: float) -> float:
    """How much of OpenSkill's change an established rating (uncertainty ``mine`` at most
    :data:`PROVISIONAL`) takes from a game against an opponent as uncertain as
    ``theirs``: all of it against established players, less the more provisional they
    are (a new account's result moves it a third as far). A provisional rating takes all
    of it, so a new player's rating finds its level as quickly as OpenSkill has it.

    >>> damped(4.0, 4.5), round(damped(4.0, 25 / 3), 2), damped(8.0, 25 / 3)
    (1.0, 0.36, 1.0)
    """
    if mine > PROVISIONAL or theirs <= PROVISIONAL:
        return 1.0
    return (PROVISIONAL / theirs) ** 2


def _new_opponents(session: Session, game: GameRow, account: int, others: list[int]) -> int:
    """How many of ``others`` ``account`` meets across a rated table of this kind for the
    first time."""
    mine = select(RatedRow.table_id).where(RatedRow.account_id == account,
                                           RatedRow.variant == game.variant,
                                           RatedRow.players == len(game.sides))
    met = set(session.scalars(select(RatedRow.account_id).where(
        RatedRow.account_id.in_(others), RatedRow.table_id.in_(mine))))
    return len(set(others) - met)


def _met_often(session: Session, game: GameRow, teams: list[list[int]]) -> bool:
    """Whether two accounts on opposite sides of ``game`` have had :data:`REPEATS` rated
    games together already in the time it allows."""
    count, within = REPEATS
    since = game.finished - within
    for side, team in enumerate(teams):
        for other in teams[side + 1:]:
            for mine, theirs in ((m, t) for m in team for t in other):
                shared = select(RatedRow.table_id).where(RatedRow.account_id == mine,
                                                         RatedRow.at >= since)
                met = session.scalar(select(func.count()).where(
                    RatedRow.account_id == theirs, RatedRow.at >= since,
                    RatedRow.table_id.in_(shared)))
                if met is not None and met >= count:
                    return True
    return False


def _row(session: Session, account: int, variant: str, players: int) -> RatingRow:
    row = session.get(RatingRow, (account, variant, players))
    if row is None:
        row = RatingRow(account_id=account, variant=variant, players=players,
                        mu=MODEL.mu, sigma=MODEL.sigma, games=0, opponents=0)
        session.add(row)
    return row
