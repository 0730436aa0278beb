"""Moderation: the roles the operator grants, players' reports, and what moderators do
about them, each action written to an audit log.

A sanction is a ``warn`` (shown to the player, nothing more), a ``mute`` (no chat), a
``suspend`` (no play with people: bots only) or a ``ban`` (signed out everywhere at once,
API tokens revoked, no signing in; the name stays taken), for a number of minutes or for
good. What is in force is kept on the account's own row, read with the account on every
request, so a sanction holds at once on every process of a site; the sanctions' rows keep
the history and the reasons the player is shown. Closing a banned player's open sockets
is the server's part (:mod:`bones.server.meeting.presence`).

>>> from bones.server.store.records import Store
>>> from bones.server.people.accounts import Accounts
>>> store = Store("sqlite://")
>>> ann, _ = Accounts(store.engine).sign_up("Ann", "correct horse")
>>> moderation = Moderation(store.engine)
>>> moderation.grant("operator", "Ann", "moderator")
>>> moderation.account("ann")
(1, {'moderator'})
>>> moderation.sanction("operator", "Ann", "mute", "spam", minutes=10).kind
'mute'
>>> [s.kind for s in moderation.in_force(ann.id)]
['mute']
>>> [a.action for a in moderation.audit()]
['mute', 'grant']
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, aliased

from bones.server import logs
from bones.server.names import name_key
from bones.server.people.devices import devices, revoking
from bones.server.people.marks import mark, unmark
from bones.server.people.quotas import REPORTS as LIMIT_REPORTS
from bones.server.people.renaming import KEPT_DAYS, show_as
from bones.server.protocol import (
    ActionInfo,
    DeviceSeen,
    DossierInfo,
    ReportInfo,
    SanctionInfo,
)
from bones.server.store.schema import (
    FOR_GOOD,
    AccountRow,
    AuditRow,
    ChatRow,
    GameRow,
    PlayRow,
    ReportRow,
    SanctionRow,
    SessionRow,
    TableRow,
    now,
)

__all__ = ["KINDS", "OPERATOR", "REPORTS", "ROLES", "UNTIL", "Moderation", "Unknown", "named_row"]

OPERATOR = "operator"
"""Who acts in the audit log when it is the operator (``bones admin``)."""

ROLES = ("moderator",)
"""The roles the operator may grant."""
KINDS = ("warn", "mute", "suspend", "ban")
"""The sanctions, mildest first."""
REPORTS = ("chat", "player", "name", "game")
"""What a player may report: a chat line, a player's conduct, their name, a game."""
WARNED_DAYS = 7
"""Days a warning is shown to the player."""
UNTIL = {"mute": "muted_until", "suspend": "suspended_until", "ban": "banned_until"}
"""The account's column that holds each lasting sanction's end."""


class Unknown(LookupError):
    """No such account, report or chat line: the text says which."""


def named_row(session: Session, name: str) -> AccountRow:
    """The row of the account called ``name`` (in any case); ``Unknown`` if none."""
    row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
    if row is None:
        raise Unknown(f"no account {name!r}")
    return row


def _moment(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _sanction(row: SanctionRow) -> SanctionInfo:
    return SanctionInfo(id=row.id, kind=row.kind,  # type: ignore[arg-type]
                        reason=row.reason, by=row.by, at=row.at.isoformat(),
                        until=_moment(row.until), lifted=_moment(row.lifted))


def _merge(kept: ReportRow, new: ReportRow) -> None:
    """A second report of one player by one reporter, added to the first: its reason and
    note after the first's (each within its column), and the chat line it names."""
    if new.reason not in kept.reason.split("; "):
        kept.reason = f"{kept.reason}; {new.reason}"[:200]
    notes = [kept.note, new.note, None if new.message_id in (None, kept.message_id)
             else f"chat line {new.message_id}"]
    kept.note = "\n".join(dict.fromkeys(n for n in notes if n))[:500] or None
    kept.message_id = kept.message_id or new.message_id
    kept.table_id = kept.table_id or new.table_id
    kept.at = new.at


class Moderation:
    """Roles, reports, sanctions and the audit log in a store; each method is one
    transaction. ``by`` names who acts: a moderator's name, or ``operator``."""

    def __init__(self, engine: Engine, kept_days: float = KEPT_DAYS) -> None:
        self.engine = engine
        self.kept_days = kept_days
        """Days a renamed player's old name is kept from others (``--kept-names-days``)."""

    # -- roles ---------------------------------------------------------------------------

    def grant(self, by: str, name: str, role: str) -> None:
        """Give the account called ``name`` a role (signed-up accounts only)."""
        self._role(by, name, role, grant=True)

    def revoke(self, by: str, name: str, role: str) -> None:
        """Take a role back."""
        self._role(by, name, role, grant=False)

    def _role(self, by: str, name: str, role: str, grant: bool) -> None:
        if role not in ROLES:
            raise ValueError(f"no role {role!r}: one of {', '.join(ROLES)}")
        with Session(self.engine) as session, session.begin():
            row = named_row(session, name)
            if grant and row.password is None:
                raise ValueError(f"{row.name} is a guest: only a signed-up account has roles")
            roles = set(row.roles.split()) | {role} if grant else set(row.roles.split()) - {role}
            row.roles = " ".join(sorted(roles))
            self._log(session, by, row.id, "grant" if grant else "revoke", role)

    def account(self, name: str) -> tuple[int, set[str]]:
        """The id and the roles of the account called ``name``."""
        with Session(self.engine) as session:
            row = named_row(session, name)
            return row.id, set(row.roles.split())

    # -- sanctions -----------------------------------------------------------------------

    def sanction(self, by: str, name: str, kind: str, reason: str,
                 minutes: float | None = None) -> SanctionInfo:
        """Sanction the account called ``name`` for ``minutes`` (None: for good; a
        warning has no length). A ban also ends every session and revokes every API
        token of the account."""
        if kind not in KINDS:
            raise ValueError(f"no sanction {kind!r}: one of {', '.join(KINDS)}")
        if minutes is not None and minutes <= 0:
            raise ValueError("a sanction lasts a positive number of minutes, or for good")
        at = now()
        until = None if minutes is None or kind == "warn" else at + timedelta(minutes=minutes)
        with Session(self.engine) as session, session.begin():
            row = named_row(session, name)
            if kind in UNTIL:
                setattr(row, UNTIL[kind], until or FOR_GOOD)
            if kind == "ban":
                mark(session, row.id, until)  # its browsers and addresses, as guests
                session.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
                session.execute(revoking(row.id))
            sanction = SanctionRow(account_id=row.id, kind=kind, reason=reason, by=by, at=at,
                                   until=until)
            session.add(sanction)
            self._log(session, by, row.id, kind, reason,
                      {"minutes": minutes} if kind != "warn" else None)
            session.flush()
            return _sanction(sanction)

    def lift(self, by: str, name: str, kind: str, reason: str) -> int:
        """End the account's sanctions of this kind now (``unban``, ``unmute``): how
        many were in force. What the operator gave only the operator lifts
        (``PermissionError`` for a moderator): roles nest, the operator's above."""
        if kind not in UNTIL:
            raise ValueError(f"only {', '.join(UNTIL)} can be lifted")
        at = now()
        with Session(self.engine) as session, session.begin():
            row = named_row(session, name)
            in_force = (SanctionRow.account_id == row.id, SanctionRow.kind == kind,
                        SanctionRow.lifted.is_(None),
                        or_(SanctionRow.until.is_(None), SanctionRow.until > at))
            if by != OPERATOR and session.scalar(select(SanctionRow.id).where(
                    *in_force, SanctionRow.by == OPERATOR).limit(1)) is not None:
                raise PermissionError(f"the operator's {kind} is lifted by the operator only")
            setattr(row, UNTIL[kind], None)
            if kind == "ban":
                unmark(session, row.id)
            done = session.execute(update(SanctionRow).where(*in_force).values(lifted=at))
            self._log(session, by, row.id, f"un{kind}", reason)
            return int(done.rowcount)  # type: ignore[attr-defined]

    def in_force(self, account: int) -> list[SanctionInfo]:
        """The account's sanctions in force, and its warnings of the last
        :data:`WARNED_DAYS` days: what the player is shown."""
        at = now()
        query = select(SanctionRow).where(
            SanctionRow.account_id == account, SanctionRow.lifted.is_(None),
            or_(SanctionRow.until > at,
                SanctionRow.until.is_(None) & (SanctionRow.kind != "warn"),
                (SanctionRow.kind == "warn") & (SanctionRow.at > at - timedelta(
                    days=WARNED_DAYS)))).order_by(SanctionRow.id)
        with Session(self.engine) as session:
            return [_sanction(row) for row in session.scalars(query)]

    def history(self, account: int) -> list[SanctionInfo]:
        """Every sanction the account was given, newest first."""
        with Session(self.engine) as session:
            return [_sanction(row) for row in session.scalars(select(SanctionRow).where(
                SanctionRow.account_id == account).order_by(SanctionRow.id.desc()))]

    def rename(self, by: str, name: str, reason: str) -> str:
        """Force a new name on an account whose name offends: it becomes ``Player`` and
        digits, which the player keeps, shown wherever the old one was; the old name is
        kept from others for :attr:`kept_days`. Answers the new name."""
        with Session(self.engine) as session, session.begin():
            row = named_row(session, name)
            old = row.name
            for digits in (6, 8, 10, 12):
                new = f"Player{secrets.randbelow(10**digits):0{digits}d}"
                if session.scalar(select(AccountRow.id).where(
                        AccountRow.name_key == name_key(new))) is None:
                    break
            show_as(session, row.id, new, old, "renamed", self.kept_days)
            self._log(session, by, row.id, "rename", reason, {"from": old, "to": new})
            return new

    def remove_line(self, by: str, message: int, reason: str) -> None:
        """Delete a chat line: nobody is shown it any more."""
        with Session(self.engine) as session, session.begin():
            row = session.get(ChatRow, message)
            if row is None:
                raise Unknown(f"no chat line {message}")
            row.removed = now()
            self._log(session, by, row.account_id, "delete", reason,
                      {"message": message, "text": row.text})

    def note(self, by: str, name: str | None, action: str, reason: str) -> None:
        """Write an action done elsewhere to the audit log (a password link given; of no
        player, ``name`` None: invitations made)."""
        with Session(self.engine) as session, session.begin():
            self._log(session, by, None if name is None else named_row(session, name).id,
                      action, reason)

    # -- reports -------------------------------------------------------------------------

    def report(self, reporter: int, kind: str, reason: str, note: str | None = None, *,
               message: int | None = None, name: str | None = None,
               table: str | None = None) -> int:
        """Keep a player's report: of a chat line (``message``), or of the player called
        ``name`` (``player``, ``name``) or a game of theirs (``game``, with ``table``).
        Answers its id. A reporter has one open report of a player: another joins it,
        its reason and note added, so no flood of one player's reports fills the queue;
        and a reporter makes :data:`~bones.server.people.quotas.REPORTS` a day at most
        (``TooMany``)."""
        if kind not in REPORTS:
            raise ValueError(f"no report of {kind!r}: one of {', '.join(REPORTS)}")
        with Session(self.engine) as session, session.begin():
            row = ReportRow(kind=kind, reporter_id=reporter, reason=reason, note=note,
                            at=now())
            if kind == "chat":
                line = session.get(ChatRow, message) if message is not None else None
                if line is None:
                    raise Unknown(f"no chat line {message}")
                row.message_id, row.account_id = line.id, line.account_id
                row.table_id = line.table_id
                again = session.scalar(select(ReportRow.id).where(
                    ReportRow.message_id == line.id, ReportRow.reporter_id == reporter))
                if again is not None:  # a line reported twice keeps its first report
                    return again
            else:
                row.account_id = named_row(session, name or "").id
                if table is not None:
                    if session.get(TableRow, table) is None:
                        raise Unknown(f"no table {table!r}")
                    row.table_id = table
            open_one = None if row.account_id is None else session.scalar(
                select(ReportRow).where(ReportRow.reporter_id == reporter,
                                        ReportRow.resolved.is_(None),
                                        ReportRow.account_id == row.account_id).limit(1))
            if open_one is not None:
                _merge(open_one, row)
                return open_one.id
            LIMIT_REPORTS.check(session.scalar(select(func.count()).select_from(ReportRow)
                                               .where(ReportRow.reporter_id == reporter,
                                                      ReportRow.at >= LIMIT_REPORTS.since()))
                                or 0, "reports")
            session.add(row)
            session.flush()
            return row.id

    def reports(self, *, open_only: bool = True, reporter: int | None = None,
                about: int | None = None, limit: int = 100) -> list[ReportInfo]:
        """Reports, newest first: the open ones (or all), those one player made, or
        those about one player."""
        who, whom = aliased(AccountRow), aliased(AccountRow)
        query = (select(ReportRow, who.name, whom.name, ChatRow)
                 .join(who, who.id == ReportRow.reporter_id)
                 .outerjoin(whom, whom.id == ReportRow.account_id)
                 .outerjoin(ChatRow, ChatRow.id == ReportRow.message_id)
                 .order_by(ReportRow.id.desc()).limit(limit))
        if open_only:
            query = query.where(ReportRow.resolved.is_(None))
        if reporter is not None:
            query = query.where(ReportRow.reporter_id == reporter)
        if about is not None:
            query = query.where(ReportRow.account_id == about)
        with Session(self.engine) as session:
            return [ReportInfo(
                id=r.id, kind=r.kind, at=r.at.isoformat(), reporter=reporter_name,
                player=line.name if line is not None else player, reason=r.reason,
                note=r.note, message=r.message_id, text=None if line is None else line.text,
                table=r.table_id, room=None if line is None else line.room,
                resolved=_moment(r.resolved), resolution=r.resolution)
                for r, reporter_name, player, line in session.execute(query)]

    def resolve(self, by: str, report: int, resolution: str) -> None:
        """Close a report, saying what was done (its reporter sees it)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(ReportRow, report)
            if row is None:
                raise Unknown(f"no report {report}")
            row.resolved, row.resolved_by, row.resolution = now(), by, resolution
            self._log(session, by, row.account_id, "resolve", resolution, {"report": report})

    # -- reading -------------------------------------------------------------------------

    def audit(self, limit: int = 100, name: str | None = None) -> list[ActionInfo]:
        """The audit log, newest first (of one player, with ``name``)."""
        query = (select(AuditRow, AccountRow.name)
                 .outerjoin(AccountRow, AccountRow.id == AuditRow.account_id)
                 .order_by(AuditRow.id.desc()).limit(limit))
        with Session(self.engine) as session:
            if name is not None:
                query = query.where(AuditRow.account_id == named_row(session, name).id)
            return [ActionInfo(id=a.id, at=a.at.isoformat(), by=a.by, player=player,
                               action=a.action, reason=a.reason, detail=a.detail)
                    for a, player in session.execute(query)]

    def dossier(self, name: str, games: int = 20, lines: int = 50) -> DossierInfo:
        """The player called ``name``: their latest games and chat lines, every sanction,
        the reports about them and the audit log of them."""
        with Session(self.engine) as session:
            row = named_row(session, name)
            played = session.execute(
                select(GameRow.table_id, GameRow.variant, GameRow.finished, GameRow.names,
                       GameRow.scores, GameRow.winner)
                .join(PlayRow, PlayRow.table_id == GameRow.table_id)
                .where(PlayRow.account_id == row.id)
                .order_by(PlayRow.finished.desc()).limit(games)).all()
            said = session.scalars(select(ChatRow).where(ChatRow.account_id == row.id)
                                   .order_by(ChatRow.id.desc()).limit(lines)).all()
            return DossierInfo(
                name=row.name, guest=row.password is None, created=row.created.isoformat(),
                roles=row.roles.split(),
                games=[{"table": g.table_id, "variant": g.variant, "names": g.names,
                        "finished": g.finished.isoformat(), "scores": g.scores,
                        "winner": g.winner} for g in played],
                chat=[{"id": c.id, "table": c.table_id, "room": c.room, "text": c.text,
                       "at": c.at.isoformat(), "removed": c.removed is not None} for c in said],
                sanctions=self.history(row.id),
                reports=self.reports(open_only=False, about=row.id),
                audit=self.audit(100, row.name),
                devices=[DeviceSeen(kind=d.kind, label=d.label, browser=d.browser,
                                    address=d.address, seen=_moment(d.seen))
                         for d in devices(self.engine, row.id)])

    # -- helpers -------------------------------------------------------------------------

    @staticmethod
    def _log(session: Session, by: str, account: int | None, action: str, reason: str,
             detail: dict[str, Any] | None = None) -> None:
        session.add(AuditRow(at=now(), by=by, account_id=account, action=action,
                             reason=reason, detail=detail))
        logs.audit("moderation", action=action, by=by, account=account)  # the operator's log

