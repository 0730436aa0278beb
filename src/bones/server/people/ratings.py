"""Ratings: OpenSkill's Weng-Lin model (Plackett-Luce), one rating per account, variant
and player count; free-for-all for three or four players, teams for Kozel.

A rated game is rated in the transaction that stores its result (``store.results.rate``),
and each (game, account) row of the history is written once, so a restart
never rates a game twice. A player who gave the match up (resigned, lost on time, or
claimed from after leaving) is ranked last (in Kozel their pair is); a rated game in
which a player never moved, or given up before each player made a few moves of their
own, rates nobody (``tables.endings``). So that no rating is bought with puppet
accounts: a provisional opponent moves an established rating little
(``store.results.damped``), and a leaderboard lists established players only.

>>> ranks([104, 60], lower_wins=False, last=set())
[1, 2]
>>> ranks([12, 30], lower_wins=True, last=set())
[1, 2]
>>> ranks([70, 20, 20], lower_wins=False, last={0})
[3, 1, 1]
>>> shown(Rating(25.0, 25 / 3))
1500
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.names import name_key
from bones.server.store.results import PROVISIONAL
from bones.server.store.schema import AccountRow, RatedRow, RatingRow

__all__ = ["ESTABLISHED", "NEW", "PROVISIONAL", "Rating", "Ratings", "rank_game", "ranks",
           "shown"]
ESTABLISHED = 5
"""Different opponents an account must have met in rated games of a kind, its rating no
longer provisional, to be listed on that kind's leaderboard (as lichess lists only
established players): a rating made against a few accounts of one's own is listed
nowhere."""
SCALE = 60
"""Shown rating points per skill point: a new player's 25 shows as 1500."""


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def provisional(self) -> bool:
        """Too uncertain yet to mean much: shown with a "?"."""
        return self.sigma > PROVISIONAL

    @property
    def ordinal(self) -> float:
        """What leaderboards sort by: a skill the player very likely has (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


NEW = Rating(25.0, 25 / 3)
"""The rating of an account before its first rated game of a kind (OpenSkill's)."""


def shown(rating: Rating) -> int:
    """The number players see."""
    return round(rating.mu * SCALE)


def ranks(scores: Sequence[int], *, lower_wins: bool, last: set[int]) -> list[int]:
    """Each side's place (1 first, ties share) by its final score; the sides in ``last``
    come after everyone else, tied among themselves."""
    key = [(side in last, score if lower_wins else -score) for side, score in enumerate(scores)]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def rank_game(scores: Sequence[int], sides: Sequence[int], left: set[int],
              lower_wins: bool) -> list[int]:
    """Each side's place, the sides of the seats that ``left`` last."""
    return ranks(scores, lower_wins=lower_wins, last={sides[seat] for seat in left})


class Ratings:
    """Reading the ratings in a store: leaderboards and an account's own."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def board(self, variant: str, players: int, limit: int = 50,
              offset: int = 0) -> list[tuple[str, bool, Rating, int]]:
        """The established accounts of a variant and player count, best first (by
        ordinal): name, bot account, rating, games. Established: a rating no longer
        provisional, from games against :data:`ESTABLISHED` different opponents."""
        query = (select(AccountRow.name, AccountRow.bot, RatingRow.mu, RatingRow.sigma,
                        RatingRow.games)
                 .join(AccountRow, AccountRow.id == RatingRow.account_id)
                 .where(RatingRow.variant == variant, RatingRow.players == players,
                        RatingRow.sigma <= PROVISIONAL, RatingRow.opponents >= ESTABLISHED)
                 .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), AccountRow.name)
                 .offset(offset).limit(limit))
        with self.engine.connect() as connection:
            return [(name, bot, Rating(mu, sigma), games)
                    for name, bot, mu, sigma, games in connection.execute(query)]

    def of(self, account: int) -> list[tuple[str, int, Rating, int]]:
        """An account's ratings: variant, players, rating, games."""
        query = (select(RatingRow).where(RatingRow.account_id == account)
                 .order_by(RatingRow.variant, RatingRow.players))
        with Session(self.engine) as session:
            return [(r.variant, r.players, Rating(r.mu, r.sigma), r.games)
                    for r in session.scalars(query)]

    def shown(self, wanted: set[tuple[str, str, int]]) -> dict[tuple[str, str, int], int]:
        """The ratings players see for (name, variant, players), where they have one."""
        keys = {name_key(name): name for name, _, _ in wanted}
        query = (select(AccountRow.name_key, RatingRow.variant, RatingRow.players,
                        RatingRow.mu, RatingRow.sigma)
                 .join(AccountRow, AccountRow.id == RatingRow.account_id)
                 .where(AccountRow.name_key.in_(keys)))
        with self.engine.connect() as connection:
            found = {(keys[key], variant, players): shown(Rating(mu, sigma))
                     for key, variant, players, mu, sigma in connection.execute(query)}
        return {k: v for k, v in found.items() if k in wanted}

    def seated(self, accounts: list[int], variant: str, players: int) -> dict[int, Rating]:
        """The ratings of ``accounts`` in one kind of game, where they have one."""
        query = select(RatingRow).where(RatingRow.account_id.in_(accounts),
                                        RatingRow.variant == variant,
                                        RatingRow.players == players)
        with Session(self.engine) as session:
            return {r.account_id: Rating(r.mu, r.sigma) for r in session.scalars(query)}

    def of_game(self, table_id: str) -> list[tuple[int, Rating, Rating]]:
        """What a rated game did to its players' ratings: account, before, after (none
        for a game that rated nobody)."""
        query = select(RatedRow).where(RatedRow.table_id == table_id)
        with Session(self.engine) as session:
            return [(r.account_id, Rating(r.mu_before, r.sigma_before), Rating(r.mu, r.sigma))
                    for r in session.scalars(query)]

    def history(self, account: int, limit: int = 500) -> list[RatedRow]:
        """An account's rated games, oldest first (the last ``limit``)."""
        query = (select(RatedRow).where(RatedRow.account_id == account)
                 .order_by(RatedRow.at.desc()).limit(limit))
        with Session(self.engine) as session:
            rows = list(session.scalars(query))
            session.expunge_all()
        return rows[::-1]
