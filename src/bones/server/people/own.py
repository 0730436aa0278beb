"""An account's own data: everything bones holds about it, for its owner to download,
and closing it for good.

Closing erases the person and keeps the games: the name becomes ``deleted-`` and the
account's number everywhere it was written (the account, its seats, its finished games),
the password, sessions, API tokens, ratings, roles, blocks and follows go, so do its mail
address, its mails' links and the mails not yet sent to it, and every chat line it said is
emptied. The others' games stay whole, replayable and verifiable (a record's deals
never depended on a name); the app shows the name as "deleted player" in the reader's
language. Reports and sanctions stay, about an account that no longer has a name; its
open challenges are called off; and its old name is kept from others for a while
(``people.renaming``).

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> store = Store("sqlite://")
>>> ann, _ = Accounts(store.engine).sign_up("Ann", "correct horse")
>>> own = Own(store.engine)
>>> own.export(ann.id).account.name
'Ann'
>>> own.close(ann.id)
'deleted-1'
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from bones.server.people.moderation import Moderation
from bones.server.people.notifications import Notifications
from bones.server.people.relations import Blocks, Follows
from bones.server.people.renaming import KEPT_DAYS, show_as
from bones.server.protocol import AccountExport
from bones.server.protocol.account import (
    ExportedAccount,
    ExportedGame,
    ExportedLine,
    ExportedRating,
    ExportedSession,
    ExportedToken,
)
from bones.server.store.schema import (
    AccountRow,
    AuditRow,
    BlockRow,
    ChallengeRow,
    ChatRow,
    EntryRow,
    FollowRow,
    GameRow,
    MailLinkRow,
    NotificationRow,
    OutboxRow,
    PlayRow,
    RatedRow,
    RatingRow,
    ResetRow,
    SeatRow,
    SessionRow,
    TableRow,
    TokenRow,
    TournamentRow,
    now,
)

__all__ = ["DELETED", "Own"]

DELETED = "deleted-"
"""What a closed account's name starts with (its number follows)."""


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


class Own:
    """Each account's own data in a store."""

    def __init__(self, engine: Engine, kept_days: float = KEPT_DAYS) -> None:
        self.engine = engine
        self.kept_days = kept_days
        """Days a closed account's name is kept from others (``--kept-names-days``)."""

    def export(self, account: int) -> AccountExport:
        """Everything bones holds about the account."""
        # each on a connection of its own, taken and given back before this one is held
        moderation = Moderation(self.engine)
        reports = moderation.reports(open_only=False, reporter=account, limit=10_000)
        sanctions = moderation.history(account)
        blocked = Blocks(self.engine).listed(account)
        following = Follows(self.engine).listed(account)
        notifications = Notifications(self.engine).listed(account).items
        with Session(self.engine) as session:
            row = session.get_one(AccountRow, account)
            games = session.execute(
                select(GameRow, PlayRow.seat).join(PlayRow, PlayRow.table_id == GameRow.table_id)
                .where(PlayRow.account_id == account).order_by(PlayRow.finished)).all()
            return AccountExport(
                account=ExportedAccount(name=row.name, created=row.created.isoformat(),
                                        guest=row.password is None, bot=row.bot,
                                        roles=row.roles.split(), email=row.email,
                                        email_confirmed=_when(row.email_confirmed),
                                        email_refused=_when(row.email_refused),
                                        mail_about=row.mail_about.split(),
                                        mail_lang=row.mail_lang),
                sessions=[ExportedSession(created=s.created.isoformat(),
                                          expires=s.expires.isoformat(), seen=_when(s.seen),
                                          address=s.address, browser=s.browser)
                          for s in session.scalars(select(SessionRow).where(
                              SessionRow.account_id == account))],
                api_tokens=[ExportedToken(label=t.label, created=t.created.isoformat(),
                                          used=_when(t.used), revoked=_when(t.revoked),
                                          address=t.address, browser=t.browser)
                            for t in session.scalars(select(TokenRow).where(
                                TokenRow.account_id == account))],
                games=[ExportedGame(table=g.table_id, variant=g.variant, seat=seat,
                                    finished=g.finished.isoformat(), names=g.names,
                                    scores=g.scores, winner=g.winner, public=g.public,
                                    record=g.record) for g, seat in games],
                chat=[ExportedLine(id=c.id, table=c.table_id, tournament=c.tournament_id,
                                   room=c.room, text=c.text, at=c.at.isoformat(),
                                   removed=c.removed is not None)
                      for c in session.scalars(select(ChatRow).where(
                          ChatRow.account_id == account).order_by(ChatRow.id))],
                ratings=[ExportedRating(variant=r.variant, players=r.players, mu=r.mu,
                                        sigma=r.sigma, games=r.games)
                         for r in session.scalars(select(RatingRow).where(
                             RatingRow.account_id == account))],
                rating_history=[{"table": r.table_id, "variant": r.variant,
                                 "players": r.players, "mu_before": r.mu_before,
                                 "sigma_before": r.sigma_before, "mu": r.mu,
                                 "sigma": r.sigma, "at": r.at.isoformat()}
                                for r in session.scalars(select(RatedRow).where(
                                    RatedRow.account_id == account).order_by(RatedRow.at))],
                reports_made=reports, sanctions=sanctions, blocked=blocked, following=following,
                challenges=[{"id": c.id, "from": c.from_id, "to": c.to_id, "table": c.spec,
                             "created": c.created.isoformat(), "state": c.state,
                             "table_id": c.table_id}
                            for c in session.scalars(select(ChallengeRow).where(
                                (ChallengeRow.from_id == account)
                                | (ChallengeRow.to_id == account)))],
                notifications=notifications,
                tournaments=[{"id": t.id, "name": t.name, "kind": t.kind,
                              "starts": t.starts.isoformat(), "joined": e.joined.isoformat(),
                              "withdrawn": _when(e.withdrawn), "missed": e.missed}
                             for e, t in session.execute(select(EntryRow, TournamentRow).join(
                                 TournamentRow, TournamentRow.id == EntryRow.tournament_id)
                                 .where(EntryRow.account_id == account)
                                 .order_by(EntryRow.joined))])

    def close(self, account: int) -> str:
        """Close the account for good (see the module): answers the name it has now.
        Refused (``ValueError``) while it has a seat at a table still being played."""
        new = f"{DELETED}{account}"
        with Session(self.engine) as session, session.begin():
            seated = session.scalar(select(SeatRow.table_id).join(
                TableRow, TableRow.id == SeatRow.table_id).where(
                SeatRow.account_id == account, TableRow.finished.is_(None)).limit(1))
            if seated is not None:
                raise ValueError("finish or leave your games first: you have a seat at "
                                 f"table {seated}")
            row = session.get_one(AccountRow, account)
            old = row.name
            show_as(session, account, new, old, "closed",
                    days=self.kept_days if row.password is not None else 0)
            row.password, row.roles, row.bot = None, "", False
            if row.email is not None:
                session.execute(delete(OutboxRow).where(OutboxRow.to == row.email,
                                                        OutboxRow.sent.is_(None)))
            row.email = row.email_confirmed = row.email_refused = row.mail_lang = None
            row.mail_about = ""
            for table in (SessionRow, ResetRow, TokenRow, RatingRow, NotificationRow,
                          MailLinkRow):
                session.execute(delete(table).where(table.account_id == account))
            session.execute(delete(BlockRow).where(or_(BlockRow.blocker_id == account,
                                                       BlockRow.blocked_id == account)))
            session.execute(delete(FollowRow).where(or_(FollowRow.follower_id == account,
                                                        FollowRow.followed_id == account)))
            session.execute(update(ChatRow).where(ChatRow.account_id == account)
                            .values(text="", removed=now()))
            session.execute(update(EntryRow).where(  # nobody pairs a closed account
                EntryRow.account_id == account, EntryRow.withdrawn.is_(None))
                .values(withdrawn=now()))
            session.execute(update(ChallengeRow).where(  # nobody takes its challenges
                or_(ChallengeRow.from_id == account, ChallengeRow.to_id == account),
                ChallengeRow.state == "open").values(state="cancelled"))
            session.add(AuditRow(at=now(), by=new, account_id=account, action="close",
                                 reason="closed by its owner"))
            return new
