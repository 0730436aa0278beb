"""The games a tournament's pairings made, in the store: who sits where (and each seat's
token, for its player alone), and once a game is over, each seat's place in it, taken
from the finished game the table stored (at whichever process held it).

A place is by the match's final scores (in Kozel the lower wins: its points are
penalties), the winner first and the side that gave the match up (or left) last; sides
tied share their place. With two sides each also gets a result: its points less the
other's (Kozel's penalties the other way round), a duplicate's score on the board; a side
that gave the game up scores :data:`FORFEIT` below nothing, the other as far above.

A player the pairing seated who never made a move of their own missed the game; one who
misses two in a row is withdrawn (and told, by the runner). An arena's game in which a
player never moved, or that was given up before each made a few moves of their own, was
not really played: it scores nobody (its places are empty), as such a rated game rates
nobody (``tables.endings``).

A game is reserved in the store before its table is made, under the table's id, and
refused if any of its players is at a game of the tournament not yet over (or, in
rounds, if the table's game of that round and board is reserved already): two
processes pairing one tournament at once (a lease lost to a slow tick) seat nobody
twice. A reservation whose table was never made (its process died in between) is let
go after :data:`STALE` seconds.

>>> places(["a", "b"], sides=[0, 1], scores=[52, 31], winner=0, loser=1, variant="draw")
[(0, False), (1, False)]
>>> places(["a", "b", "c"], sides=[0, 1, 2], scores=[20, 20, 51], winner=2, loser=None,
...        variant="block")
[(1, True), (1, True), (0, False)]
>>> results([0, 18], "kozel", forfeit=None), results([12, 0], "draw", forfeit=1)
([18, -18], [1000, -1000])
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.people.ratings import ranks
from bones.server.store.schema import EntryRow, GameRow, TableRow, TournamentGameRow, now

__all__ = ["FORFEIT", "LATE", "MISSED", "SINCE", "STALE", "Planned", "Played", "TournamentGames",
           "places", "results"]

FORFEIT = 1000
"""A forfeited game's result, each way."""
MISSED = 2
"""Games missed in a row that withdraw a player."""
STALE = timedelta(seconds=30)
"""How long a reservation waits for its table before it is let go."""
SINCE = 500
"""The most new games :meth:`TournamentGames.since` names in its query."""
LATE = timedelta(minutes=5)
"""How long before the last game known to have ended another may end and be taken in
(its store write late, at another process): :meth:`TournamentGames.since` looks that far
back."""


@dataclass(frozen=True)
class Played:
    """A tournament game: its table, each seat's account, each seat's place (none while it
    is played) and when it ended."""

    table: str
    accounts: list[int]
    places: list[tuple[int, bool]] | None
    """Each seat's place; none while it is played, empty for an arena's game that was
    not really played (a player never moved), which scores nobody."""
    ended: datetime | None
    over: bool = False
    """Over, whether or not its result was taken in yet."""
    round: int | None = None
    board: int | None = None
    results: list[int] | None = None
    """With two sides, once taken in: each side's result (:func:`results`)."""

    @property
    def bye(self) -> bool:
        """A Swiss's bye: one player, no game."""
        return len(self.accounts) == 1


def places(seats: Sequence[object], sides: Sequence[int], scores: Sequence[int],
           winner: int | None, loser: int | None, variant: str) -> list[tuple[int, bool]]:
    """Each seat's ``(place, shared)`` in a finished match (place 0 first)."""
    last = set() if loser is None else {loser}
    by_side = ranks(scores, lower_wins=variant == "kozel", last=last)
    if winner is not None:  # a forfeit's winner, whatever the scores said
        by_side = [1 if side == winner else max(2, r) for side, r in enumerate(by_side)]
    return [(by_side[sides[n]] - 1, by_side.count(by_side[sides[n]]) > 1)
            for n in range(len(seats))]


def results(scores: Sequence[int], variant: str, forfeit: int | None) -> list[int]:
    """Each of two sides' result: its points less the other's (Kozel's penalties the
    other way round); ``forfeit``, the side that gave the game up, gets -:data:`FORFEIT`."""
    if forfeit is not None:
        return [-FORFEIT if side == forfeit else FORFEIT for side in (0, 1)]
    sign = -1 if variant == "kozel" else 1
    return [sign * (scores[0] - scores[1]), sign * (scores[1] - scores[0])]


def _idle(record: dict[str, Any]) -> set[int]:
    return set(record.get("idle") or ())


@dataclass(frozen=True)
class Planned:
    """A table a pairing is to make: its id, each seat's account, its round and board."""

    table: str
    accounts: list[int]
    round: int | None = None
    board: int | None = None


class TournamentGames:
    """Every tournament's games in a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def reserve(self, tournament: str, planned: list[Planned]) -> list[Planned]:
        """Keep each planned table (not made yet) for its accounts (by seat), in a
        round, on a board (noted with each player's entry too, where :meth:`mine` reads
        it once the table is made), in one transaction; those kept. A process that stops
        right after making a table leaves its players their seats (theirs by their
        account: no token is kept). One is refused if any of its players is at a game of
        the tournament not over (or seated by one planned before it), or if that round's
        board is reserved for them already."""
        with Session(self.engine) as session, session.begin():
            rows = session.execute(select(TournamentGameRow.accounts, GameRow.table_id)
                                   .outerjoin(GameRow, GameRow.table_id ==
                                              TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament,
                TournamentGameRow.settled.is_(None))).all()
            taken = {a for accounts, over in rows if over is None for a in accounts}
            drawn = {(r, b, frozenset(accounts)) for r, b, accounts in session.execute(
                select(TournamentGameRow.round, TournamentGameRow.board,
                       TournamentGameRow.accounts).where(
                    TournamentGameRow.tournament_id == tournament,
                    TournamentGameRow.round.in_({p.round for p in planned} - {None})))}
            kept = []
            for plan in planned:
                if taken & set(plan.accounts) or (
                        plan.round, plan.board, frozenset(plan.accounts)) in drawn:
                    continue
                taken |= set(plan.accounts)
                kept.append(plan)
                session.add(TournamentGameRow(
                    table_id=plan.table, tournament_id=tournament, accounts=plan.accounts,
                    created=now(), round=plan.round, board=plan.board))
                for seat, account in enumerate(plan.accounts):
                    session.execute(update(EntryRow).where(
                        EntryRow.tournament_id == tournament,
                        EntryRow.account_id == account).values(
                        table_id=plan.table, seat=seat))
            return kept

    def unmade(self, tournament: str, table: str | None = None) -> None:
        """Let go of ``table``'s reservation (its table could not be made), or of every
        reservation of the tournament whose table was not made in :data:`STALE`."""
        with Session(self.engine) as session, session.begin():
            if table is not None:
                session.execute(delete(TournamentGameRow).where(
                    TournamentGameRow.table_id == table))
                return
            stale = session.scalars(select(TournamentGameRow.table_id).outerjoin(
                TableRow, TableRow.id == TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament,
                TournamentGameRow.settled.is_(None), TableRow.id.is_(None),
                TournamentGameRow.created < now() - STALE)).all()
            if stale:
                session.execute(delete(TournamentGameRow).where(
                    TournamentGameRow.table_id.in_(stale)))

    def bye(self, tournament: str, round_: int, account: int) -> None:
        """A Swiss's bye in ``round_``: a game of one, won (once, however often told)."""
        with Session(self.engine) as session, session.begin():
            key = f"bye-{tournament}-{round_}"
            if session.get(TournamentGameRow, key) is None:
                session.add(TournamentGameRow(
                    table_id=key, tournament_id=tournament, accounts=[account],
                    created=now(), places=[[0, False]], settled=now(), round=round_))

    def settle(self, tournament: str) -> list[int]:
        """Take in the places (and results) of the tournament's games that ended; the
        players withdrawn for missing :data:`MISSED` games in a row."""
        with Session(self.engine) as session, session.begin():
            found = session.execute(select(TournamentGameRow, GameRow).join(
                GameRow, GameRow.table_id == TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament,
                TournamentGameRow.settled.is_(None))
                .order_by(GameRow.finished)).all()
            gone: list[int] = []
            for mine, game in found:
                idle = _idle(game.record)
                mine.settled = game.finished
                gone += _missed(session, tournament,
                                [a for n, a in enumerate(mine.accounts) if n in idle],
                                [a for n, a in enumerate(mine.accounts) if n not in idle])
                if (idle or game.record.get("short")) and mine.round is None:
                    # an arena's game that was not really played
                    mine.places = []
                    continue
                mine.places = [list(p) for p in places(
                    game.names, game.sides, game.scores, game.winner, game.loser, game.variant)]
                if len(game.scores) == 2:
                    forfeit = (game.record.get("forfeit") or {}).get("seat")
                    mine.results = results(game.scores, game.variant,
                                           None if forfeit is None else game.sides[forfeit])
            return gone

    def played(self, tournament: str, *where: Any) -> list[Played]:
        """The tournament's games (those ``where`` holds), those ended first (in the
        order they ended), then those being played."""
        with Session(self.engine) as session:
            rows = session.execute(select(TournamentGameRow, GameRow.table_id).outerjoin(
                GameRow, GameRow.table_id == TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament, *where)).all()
            games = [Played(r.table_id, list(r.accounts),
                            None if r.places is None else [(p, s) for p, s in r.places],
                            r.settled, ended is not None or r.settled is not None,
                            r.round, r.board, r.results) for r, ended in rows]
        return sorted(games, key=lambda g: (g.ended is None, g.ended or now(), g.table))

    def since(self, tournament: str, known: Collection[str],
              latest: datetime | None = None) -> list[Played]:
        """The games whose results were taken in, but for those ``known`` (by table), and
        those not taken in yet: what an arena's runner adds to the standings it keeps.
        One small query reads which are taken in (those that ended after ``latest``, the
        last known to have ended, less :data:`LATE`: not the twenty thousand before);
        only the new ones are read whole."""
        if not known:
            return self.played(tournament)
        with Session(self.engine) as session:
            settled = set(session.scalars(select(TournamentGameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament,
                TournamentGameRow.settled.is_not(None) if latest is None
                else TournamentGameRow.settled > latest - LATE)))
        new = settled.difference(known)
        if len(new) > SINCE:  # a runner long away: all of them, as a long list would
            return self.played(tournament)
        return self.played(tournament, TournamentGameRow.settled.is_(None)
                           | TournamentGameRow.table_id.in_(new))

    def finished(self, tournament: str, offset: int = 0, limit: int = 100) -> list[GameRow]:
        """The tournament's finished games, the latest first, ``limit`` from ``offset``."""
        with Session(self.engine) as session:
            rows = list(session.scalars(select(GameRow).join(
                TournamentGameRow, TournamentGameRow.table_id == GameRow.table_id).where(
                TournamentGameRow.tournament_id == tournament)
                .order_by(GameRow.finished.desc(), GameRow.table_id)
                .offset(offset).limit(limit)))
            session.expunge_all()
        return rows

    def mine(self, tournament: str, account: int) -> tuple[str, int] | None:
        """The player's game being played (made, and not over: over, it is not theirs to
        play even before its result is taken in): its table and their seat, which their
        socket takes signed in to their account."""
        with Session(self.engine) as session:
            found = session.execute(select(EntryRow.table_id, EntryRow.seat)
                                    .join(TableRow, TableRow.id == EntryRow.table_id)
                                    .outerjoin(GameRow, GameRow.table_id == EntryRow.table_id)
                                    .where(EntryRow.tournament_id == tournament,
                                           EntryRow.account_id == account,
                                           GameRow.table_id.is_(None))).first()
        if found is None or found.table_id is None or found.seat is None:
            return None
        return found.table_id, found.seat


def _missed(session: Session, tournament: str, idle: list[int], played: list[int]) -> list[int]:
    """Count a game missed by the ``idle`` and start again for those who ``played``;
    withdraw whoever missed :data:`MISSED` in a row: those withdrawn."""
    staying = (EntryRow.tournament_id == tournament, EntryRow.withdrawn.is_(None))
    if played:
        session.execute(update(EntryRow).where(*staying, EntryRow.account_id.in_(played))
                        .values(missed=0))
    if not idle:
        return []
    session.execute(update(EntryRow).where(*staying, EntryRow.account_id.in_(idle))
                    .values(missed=EntryRow.missed + 1))
    gone = list(session.scalars(select(EntryRow.account_id).where(
        *staying, EntryRow.account_id.in_(idle), EntryRow.missed >= MISSED)))
    if gone:
        session.execute(update(EntryRow).where(*staying, EntryRow.account_id.in_(gone))
                        .values(withdrawn=now()))
    return gone

