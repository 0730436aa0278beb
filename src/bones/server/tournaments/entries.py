"""The tournaments in a store, and who entered them: made by a player (or the site),
listed while upcoming, running and finished, joined and left.

Who may enter: anyone signed in for an unrated tournament; only those who signed up for
a rated one; a bot account only where the tournament allows bots; and, where it asks
for one, only a player whose rating in its game reaches its least rating. A finished
tournament takes nobody, nor does a Swiss or a duplicate once under way (its rounds are
drawn for those entered).

In Kozel played in rounds an entrant is a pair: each player may name a partner, and
when the tournament begins two who named each other play together; the others are paired
in the order they joined, and one left over is withdrawn (and told).

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
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bones.fair import FairDeck
from bones.server.names import name_key
from bones.server.people.accounts import Account
from bones.server.people.moderation import Unknown
from bones.server.people.quotas import TOURNAMENTS, TOURNAMENTS_UPCOMING
from bones.server.people.ratings import Ratings, shown
from bones.server.protocol import CreateTable, TournamentInfo, Tournamenting
from bones.server.store.schema import AccountRow, EntryRow, TournamentRow, now

__all__ = ["Team", "Tournaments", "in_pairs"]

SHOWN = 50
"""Tournaments a list holds at most."""


def in_pairs(info: TournamentInfo) -> bool:
    """Kozel played in rounds: its entrants are pairs."""
    return info.kind != "arena" and info.table.variant == "kozel"


@dataclass(frozen=True)
class Team:
    """An entrant: a player, or in Kozel played in rounds a pair, named by its first
    player's account."""

    key: int
    accounts: tuple[int, ...]
    names: tuple[str, ...]
    withdrawn: bool = False

    @property
    def name(self) -> str:
        return " & ".join(self.names)


def _limit(session: Session, account: int) -> None:
    """Refuse (``TooMany``) a tournament past what one account may make: at most
    :data:`TOURNAMENTS_UPCOMING` of its own not started yet, :data:`TOURNAMENTS` a day."""
    made = select(func.count()).select_from(TournamentRow).where(
        TournamentRow.created_by == account)
    TOURNAMENTS_UPCOMING.check(session.scalar(made.where(
        TournamentRow.state == "upcoming")) or 0, "upcoming tournaments of your own")
    TOURNAMENTS.check(session.scalar(made.where(
        TournamentRow.created >= TOURNAMENTS.since())) or 0, "tournaments made")


class Tournaments:
    """The tournaments of a store; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.ratings = Ratings(engine)

    def make(self, by: Account | None, body: Tournamenting, made: str | None = None) -> str:
        """A new tournament made by ``by`` (none: the site); its id. ``made``: the id it
        is to have (the site's tournaments: already made, it is left as it is)."""
        if made is not None and self.exists(made):
            return made
        try:
            return self._make(by, body, made or secrets.token_urlsafe(8))
        except IntegrityError:  # another process made it just now
            if made is None:
                raise
            return made

    def exists(self, tournament: str) -> bool:
        with Session(self.engine) as session:
            return session.get(TournamentRow, tournament) is not None

    def _make(self, by: Account | None, body: Tournamenting, made: str) -> str:
        deck = FairDeck.new().to_dict() if body.kind == "duplicate" else None
        with Session(self.engine) as session, session.begin():
            if by is not None:
                _limit(session, by.id)
            session.add(TournamentRow(
                id=made, kind=body.kind, name=body.name,
                spec=body.table.model_dump(mode="json"),
                starts=body.starts, minutes=body.minutes, rounds=body.rounds,
                boards=body.boards, state="upcoming", created=now(),
                created_by=None if by is None else by.id, public=body.public,
                least_rating=body.least_rating, bots=body.bots, fair=deck))
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
        found = self._read([tournament])
        if not found:
            raise Unknown(f"no tournament {tournament!r}")
        return found[0]

    def _read(self, ids: list[str]) -> list[TournamentInfo]:
        """The tournaments ``ids`` names (in that order, those that exist): three
        queries however many, in one session (a second connection taken while the first
        is held, by fifty requests at once, left them all waiting for the pool)."""
        with Session(self.engine) as session:
            rows = {r.id: r for r in session.scalars(
                select(TournamentRow).where(TournamentRow.id.in_(ids)))}
            makers = {r.created_by for r in rows.values()} - {None}
            named: dict[int, str] = dict(session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(makers))).all())
            entrants: dict[str, list[str]] = {one: [] for one in rows}
            for tournament, name in session.execute(
                    select(EntryRow.tournament_id, AccountRow.name).join(
                        AccountRow, AccountRow.id == EntryRow.account_id).where(
                        EntryRow.tournament_id.in_(list(rows)), EntryRow.withdrawn.is_(None))
                    .order_by(EntryRow.joined, AccountRow.id)):
                entrants[tournament].append(name)
        return [_info(rows[one], named.get(rows[one].created_by or 0), entrants[one])
                for one in ids if one in rows]

    def join(self, tournament: str, account: Account, partner: str | None = None) -> None:
        """Enter ``account`` (again, after withdrawing), in Kozel played in rounds with
        the ``partner`` asked for. Refused (``PermissionError``) where it may not enter,
        (``ValueError``) once the tournament is over or its rounds are drawn."""
        info = self.get(tournament)
        if info.state == "finished":
            raise ValueError("this tournament is over")
        if info.state == "running" and info.kind != "arena":
            raise ValueError("this tournament has begun: its rounds are drawn for those "
                             "who entered")
        if partner is not None and not in_pairs(info):
            raise ValueError("a partner is named only in Kozel played in rounds")
        mate = None if partner is None else self._partner(partner, account)
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
                                     joined=now(), partner=mate))
                return
            entry.partner = mate
            if entry.withdrawn is not None:
                entry.withdrawn, entry.joined, entry.missed = None, now(), 0

    def _partner(self, name: str, account: Account) -> int:
        with Session(self.engine) as session:
            found = session.scalar(select(AccountRow.id).where(
                AccountRow.name_key == name_key(name)))
        if found is None:
            raise Unknown(f"no player called {name!r}")
        if found == account.id:
            raise ValueError("a partner is someone else")
        return found

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
        """The tournaments to run: those running, and those upcoming whose start has
        come."""
        return self._infos(select(TournamentRow.id).where(
            (TournamentRow.state == "running")
            | ((TournamentRow.state == "upcoming") & (TournamentRow.starts <= now()))))

    def begin(self, tournament: str, pairs: bool = False) -> tuple[list[int], list[int]]:
        """The tournament is under way: its entrants, to tell, and (with ``pairs``) the
        one left without a partner, withdrawn."""
        with Session(self.engine) as session, session.begin():
            row = session.get_one(TournamentRow, tournament, with_for_update=True)
            if row.state != "upcoming":
                return [], []
            row.state = "running"
            entries = list(session.scalars(select(EntryRow).where(
                EntryRow.tournament_id == tournament, EntryRow.withdrawn.is_(None))
                .order_by(EntryRow.joined, EntryRow.account_id)))
            alone = _pair_up(entries) if pairs else []
            return [e.account_id for e in entries if e.account_id not in alone], alone

    def end(self, tournament: str) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(TournamentRow).where(TournamentRow.id == tournament)
                            .values(state="finished"))

    def pairings(self, tournament: str) -> list[dict[str, Any]]:
        """The rounds drawn so far (:attr:`TournamentRow.pairings`)."""
        with Session(self.engine) as session:
            return list(session.get_one(TournamentRow, tournament).pairings or [])

    def draw(self, tournament: str, rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Add ``rounds`` (numbered on from the last drawn) unless another process drew
        those first: every round drawn now."""
        with Session(self.engine) as session, session.begin():
            row = session.get_one(TournamentRow, tournament, with_for_update=True)
            drawn = list(row.pairings or [])
            if rounds and rounds[0]["round"] == len(drawn) + 1:
                row.pairings = drawn = drawn + rounds
            return drawn

    def revealed(self, tournament: str) -> dict[str, str] | None:
        """A finished duplicate's seed and salt (none before the end)."""
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament)
            if row is None:
                raise Unknown(f"no tournament {tournament!r}")
            if row.fair is None or row.state != "finished":
                return None
            return FairDeck.from_dict(row.fair).reveal()

    def secret(self, tournament: str) -> FairDeck:
        """A duplicate's sealed deck, for the runner to deal the boards from."""
        with Session(self.engine) as session:
            fair = session.get_one(TournamentRow, tournament).fair
        assert fair is not None, "only a duplicate has a sealed deck"
        return FairDeck.from_dict(fair)

    def teams(self, tournament: str) -> list[Team]:
        """Every entrant (withdrawn too), in the order they joined: a player each, or
        (once a Kozel tournament in rounds began) a pair each."""
        with Session(self.engine) as session:
            rows = session.execute(select(EntryRow, AccountRow.name).join(
                AccountRow, AccountRow.id == EntryRow.account_id).where(
                EntryRow.tournament_id == tournament)
                .order_by(EntryRow.joined, EntryRow.account_id)).all()
        found: dict[int, Team] = {}
        for entry, name in rows:
            key = entry.account_id if entry.team is None else entry.team
            had = found.get(key, Team(key, (), ()))
            found[key] = Team(key, (*had.accounts, entry.account_id), (*had.names, name),
                              had.withdrawn or entry.withdrawn is not None)
        return list(found.values())

    def _infos(self, ids: Select[str]) -> list[TournamentInfo]:
        """The tournaments whose ids the query selects (the first :data:`SHOWN`)."""
        with Session(self.engine) as session:
            found = list(session.scalars(ids.limit(SHOWN)))
        return self._read(found)

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


def _pair_up(entries: list[EntryRow]) -> list[int]:
    """Pair Kozel's entrants (their ``team``): two who named each other together, then
    the others in the order they joined; the one left over is withdrawn: returned."""
    by_account = {e.account_id: e for e in entries}
    left: list[EntryRow] = []
    for entry in entries:
        if entry.team is not None:
            continue
        mate = by_account.get(entry.partner) if entry.partner is not None else None
        if mate is not None and mate.team is None and mate.partner == entry.account_id:
            entry.team = mate.team = entry.account_id
        else:
            left.append(entry)
    alone = [e for e in left if e.team is None]
    for first, second in zip(alone[::2], alone[1::2], strict=False):
        first.team = second.team = first.account_id
    if len(alone) % 2:
        alone[-1].withdrawn = now()
        return [alone[-1].account_id]
    return []


def _info(row: TournamentRow, by: str | None, entrants: list[str]) -> TournamentInfo:
    return TournamentInfo(
        id=row.id, kind=row.kind, name=row.name,  # type: ignore[arg-type]
        table=CreateTable.model_validate(row.spec), starts=row.starts.isoformat(),
        minutes=row.minutes, rounds=row.rounds, boards=row.boards,
        state=row.state, by=by, public=row.public,  # type: ignore[arg-type]
        least_rating=row.least_rating, bots=row.bots, entrants=entrants,
        round=len(row.pairings) if row.pairings else None,
        commitment=None if row.fair is None else FairDeck.from_dict(row.fair).commitment)

