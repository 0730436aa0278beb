"""The tournaments in a store, and who entered them: made by a player (or the site),
listed while upcoming, running and finished, joined and left.

Who may enter: anyone signed in for an unrated tournament; only those who signed up for
a rated one; a bot account only where the tournament allows bots; and, where it asks
for one, only a player whose rating in its game reaches its least rating. A finished
tournament takes nobody.

>>> from datetime import UTC, datetime
>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> from bones.server.protocol import Tournamenting
>>> accounts = Accounts(Store("sqlite://").engine)
>>> ann, _ = accounts.sign_up("Ann", "correct horse")
>>> book = Tournaments(accounts.engine)
>>> made = book.make(ann, Tournamenting(kind="arena", name="Evening arena", minutes=30,
...     starts=datetime(2026, 12, 6, 20, tzinfo=UTC),
...     table={"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}]}))
>>> book.join(made, ann)
>>> info = book.get(made)
>>> info.name, info.by, info.entrants, info.state
('Evening arena', 'Ann', ['Ann'], 'upcoming')
"""

from __future__ import annotations

import secrets

from sqlalchemy import Select, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.names import name_key
from bones.server.people.accounts import Account
from bones.server.people.moderation import Unknown
from bones.server.people.ratings import Ratings, shown
from bones.server.protocol import CreateTable, TournamentInfo, Tournamenting
from bones.server.store.schema import AccountRow, EntryRow, TournamentRow, now

__all__ = ["Tournaments"]

SHOWN = 50
"""Tournaments a list holds at most."""


class Tournaments:
    """The tournaments of a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.ratings = Ratings(engine)

    def make(self, by: Account | None, body: Tournamenting) -> str:
        """A new tournament made by ``by`` (none: the site); its id."""
        made = secrets.token_urlsafe(8)
        with Session(self.engine) as session, session.begin():
            session.add(TournamentRow(
                id=made, kind=body.kind, name=body.name,
                spec=body.table.model_dump(mode="json"),
                starts=body.starts, minutes=body.minutes, rounds=body.rounds,
                boards=body.boards, state="upcoming", created=now(),
                created_by=None if by is None else by.id, public=body.public,
                least_rating=body.least_rating, bots=body.bots))
        return made

    def listed(self, state: str) -> list[TournamentInfo]:
        """The public tournaments in ``state``: the upcoming soonest first, the others
        latest first."""
        order = (TournamentRow.starts if state == "upcoming" else TournamentRow.starts.desc())
        return self._infos(select(TournamentRow.id).where(
            TournamentRow.state == state, TournamentRow.public.is_(True)).order_by(order))

    def entered_by(self, name: str) -> list[TournamentInfo]:
        """The public tournaments the player called ``name`` entered, latest first."""
        return self._infos(select(TournamentRow.id).join(
            EntryRow, EntryRow.tournament_id == TournamentRow.id).join(
            AccountRow, AccountRow.id == EntryRow.account_id).where(
            AccountRow.name_key == name_key(name), TournamentRow.public.is_(True))
            .order_by(TournamentRow.starts.desc()))

    def get(self, tournament: str) -> TournamentInfo:
        """One tournament (a private one too: its id is its link)."""
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament)
            if row is None:
                raise Unknown(f"no tournament {tournament!r}")
            by = None if row.created_by is None else session.get_one(
                AccountRow, row.created_by).name
            return TournamentInfo(
                id=row.id, kind=row.kind, name=row.name,  # type: ignore[arg-type]
                table=CreateTable.model_validate(row.spec), starts=row.starts.isoformat(),
                minutes=row.minutes, rounds=row.rounds, boards=row.boards,
                state=row.state, by=by, public=row.public,  # type: ignore[arg-type]
                least_rating=row.least_rating, bots=row.bots,
                entrants=[name for _, name, _ in self.entered(tournament)])

    def join(self, tournament: str, account: Account) -> None:
        """Enter ``account`` (again, after withdrawing). Refused (``PermissionError``)
        where it may not enter, (``ValueError``) once the tournament is over."""
        info = self.get(tournament)
        if info.state == "finished":
            raise ValueError("this tournament is over")
        if info.table.rated and account.guest:
            raise PermissionError("a rated tournament is for players who signed up")
        if account.bot and not info.bots:
            raise PermissionError("this tournament is for people: no bot accounts")
        if info.least_rating is not None and self._rating(account, info) < info.least_rating:
            raise PermissionError(f"this tournament asks for a rating of "
                                  f"{info.least_rating} in its game")
        with Session(self.engine) as session, session.begin():
            entry = session.get(EntryRow, (tournament, account.id))
            if entry is None:
                session.add(EntryRow(tournament_id=tournament, account_id=account.id,
                                     joined=now()))
            elif entry.withdrawn is not None:
                entry.withdrawn, entry.joined = None, now()

    def withdraw(self, tournament: str, account: int) -> None:
        """``account`` leaves the tournament (they may come back while it is not over)."""
        self.get(tournament)
        with Session(self.engine) as session, session.begin():
            done = session.execute(update(EntryRow).where(
                EntryRow.tournament_id == tournament, EntryRow.account_id == account,
                EntryRow.withdrawn.is_(None)).values(withdrawn=now()))
            if not done.rowcount:  # type: ignore[attr-defined]
                raise ValueError("you are not entered in this tournament")

    def due(self) -> list[TournamentInfo]:
        """The arenas to run: those running, and those upcoming whose start has come."""
        return self._infos(select(TournamentRow.id).where(
            TournamentRow.kind == "arena",
            (TournamentRow.state == "running")
            | ((TournamentRow.state == "upcoming") & (TournamentRow.starts <= now()))))

    def begin(self, tournament: str) -> list[int]:
        """The tournament is under way: its entrants, to tell."""
        self._mark(tournament, "running")
        return [account for account, _, _ in self.entered(tournament)]

    def end(self, tournament: str) -> None:
        self._mark(tournament, "finished")

    def _mark(self, tournament: str, state: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(TournamentRow).where(TournamentRow.id == tournament)
                            .values(state=state))

    def _infos(self, ids: Select[str]) -> list[TournamentInfo]:
        """The tournaments whose ids the query selects (the first :data:`SHOWN`)."""
        with Session(self.engine) as session:
            found = session.scalars(ids.limit(SHOWN)).all()
        return [self.get(one) for one in found]

    def entered(self, tournament: str, withdrawn: bool = False) -> list[tuple[int, str, bool]]:
        """Each entrant (those who withdrew too, with ``withdrawn``): account, name and
        whether a guest."""
        staying = [] if withdrawn else [EntryRow.withdrawn.is_(None)]
        with Session(self.engine) as session:
            return [(a, n, g) for a, n, g in session.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.guest).join(
                    EntryRow, EntryRow.account_id == AccountRow.id).where(
                    EntryRow.tournament_id == tournament, *staying)
                .order_by(EntryRow.joined, AccountRow.id))]

    def _rating(self, account: Account, info: TournamentInfo) -> int:
        players = info.table.rules().players
        found = self.ratings.seated([account.id], info.table.variant, players)
        return shown(found[account.id]) if account.id in found else 0
