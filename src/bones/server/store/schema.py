"""The store's tables, as SQLAlchemy models. The database gets them through the
migrations in ``bones/server/migrations`` (:mod:`bones.server.store.migrate`), never from
these classes directly, so that a store written by an older bones upgrades in place; a
test checks that the migrations and these models agree.

A game's players are accounts (:mod:`bones.server.people.accounts`): statistics and the games
list read ``plays`` and ``totals``, keyed by account, never by a typed name.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    true,
    type_coerce,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql import ColumnElement

__all__ = [
    "FOR_GOOD",
    "AccountRow",
    "AuditRow",
    "BackupRow",
    "Base",
    "BlockRow",
    "ChallengeRow",
    "ChatRow",
    "EventRow",
    "FollowRow",
    "GameRow",
    "KeptNameRow",
    "PlayRow",
    "RatedRow",
    "RatingRow",
    "ReportRow",
    "ResetRow",
    "SanctionRow",
    "SeatRow",
    "SessionRow",
    "TableRow",
    "TokenRow",
    "TotalRow",
    "now",
]


def now() -> datetime:
    return datetime.now(UTC)


FOR_GOOD = datetime(9999, 12, 31, tzinfo=UTC)
"""The end of a sanction given for good, as an account's columns keep it."""


class UTCDateTime(TypeDecorator[datetime]):
    """A moment, always read back timezone-aware: SQLite keeps no zone, so what it
    returns is taken as UTC, the zone every moment is written in."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def names_of(names: list[str | None], accounts: list[int | None] | None,
             named: dict[int, str]) -> list[str | None]:
    """A game's names with each seat of an account in ``named`` under that name (the
    name it has now): what lists, records and moderators show.

    >>> names_of(["Guest12", "bot:easy"], [7, None], {7: "Ann"})
    ['Ann', 'bot:easy']
    """
    return [named.get(a, n) if a is not None else n
            for n, a in zip(names, accounts or [None] * len(names), strict=True)]


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime}


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(default=now)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[datetime | None] = mapped_column(default=None)
    """Set when the match is over, or when a table nobody joined expired (no game)."""


class SeatRow(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), default=None)
    name: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None,
                                                   index=True)
    """The account in the seat; none for a bot, a free seat, or a name typed without
    signing in (such a game counts for nobody's statistics)."""


class EventRow(Base):
    """One entry of a table's log. Its key (table, seq) is what fences a stale owner's
    write, and its index is the only one a table's events need: read by table in seq's
    order. Every move writes each index, so there is no other."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(default=now)


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (Index("games_by_finished", "finished", "table_id"),)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    finished: Mapped[datetime] = mapped_column(default=now)
    names: Mapped[list[str | None]] = mapped_column(JSON)
    sides: Mapped[list[int]] = mapped_column(JSON)
    scores: Mapped[list[int]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer, default=None)
    loser: Mapped[int | None] = mapped_column(Integer, default=None)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    accounts: Mapped[list[int | None] | None] = mapped_column(JSON, default=None)
    """Each seat's account (none for bots and typed names; none at all for a game
    stored before accounts existed)."""
    rating: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """A rated game's ``ranks`` (each side's place) and the seats that ``left``."""
    public: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Played at a public table: listed to everyone. A private table's game is listed to
    its players only."""


class PlayRow(Base):
    """Which account played which finished game: an account's games list, newest first,
    is a walk of one index in its order (finished, then the table's id), however many
    games it has."""

    __tablename__ = "plays"
    __table_args__ = (Index("plays_by_account_page", "account_id", "finished", "table_id"),)
    table_id: Mapped[str] = mapped_column(ForeignKey("games.table_id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    finished: Mapped[datetime] = mapped_column()


class TotalRow(Base):
    """An account's running totals in one grouping (``stats.lines``)."""

    __tablename__ = "totals"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    grouping: Mapped[str] = mapped_column(String(8), primary_key=True)
    group: Mapped[str] = mapped_column(String(16), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)


class RatingRow(Base):
    """An account's OpenSkill rating in one variant with one number of players."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    opponents: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The different accounts it met across the table in these rated games: a
    leaderboard lists only those who met several (``people.ratings.ESTABLISHED``)."""


class RatedRow(Base):
    """One account's rating before and after one rated game: the key makes a game rate
    each player once, whatever happens."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("rating_history_by_account", "account_id", "at"),)
    table_id: Mapped[str] = mapped_column(ForeignKey("games.table_id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column()


class ChatRow(Base):
    """One chat message: at a table (``room`` ``players`` or ``spectators``), in the
    lobby (no table, room ``lobby``) or at a tournament (room ``tournament``). A
    speaker's lines are found by an index (for moderators, an account's own data, and
    forgetting idle guests)."""

    __tablename__ = "chat"
    __table_args__ = (Index("chat_by_table", "table_id", "id"),
                      Index("chat_by_account", "account_id", "id"),
                      Index("chat_by_tournament", "tournament_id", "id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), default=None)
    room: Mapped[str] = mapped_column(String(12))
    tournament_id: Mapped[str | None] = mapped_column(String(16), default=None)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(default=now)
    removed: Mapped[datetime | None] = mapped_column(default=None)
    """When a moderator deleted the line: nobody is shown it any more (it is kept for
    the reports and the audit that point at it)."""


class ReportRow(Base):
    """A player's report, for moderators: of a chat line (``message_id``), or of a
    player (``account_id``: their conduct, their name, or a game of theirs,
    ``table_id``). Open until a moderator resolves it."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter_id"),
                      Index("reports_open", "resolved", "id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(8), default="chat", server_default="chat")
    """``chat``, ``player``, ``name`` or ``game``."""
    message_id: Mapped[int | None] = mapped_column(ForeignKey("chat.id"), default=None)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), default=None)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    reason: Mapped[str] = mapped_column(String(200))
    note: Mapped[str | None] = mapped_column(String(500), default=None)
    at: Mapped[datetime] = mapped_column(default=now)
    resolved: Mapped[datetime | None] = mapped_column(default=None)
    resolved_by: Mapped[str | None] = mapped_column(String(24), default=None)
    resolution: Mapped[str | None] = mapped_column(String(200), default=None)


class SanctionRow(Base):
    """A moderator's sanction of an account: ``warn``, ``mute`` (no chat), ``suspend``
    (no play with people) or ``ban``, until a moment (none: for good) unless lifted.
    The account's own columns say what is in force; these rows say why."""

    __tablename__ = "sanctions"
    __table_args__ = (Index("sanctions_by_account", "account_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(24))
    """The moderator's name (``operator`` from the command line)."""
    at: Mapped[datetime] = mapped_column(default=now)
    until: Mapped[datetime | None] = mapped_column(default=None)
    lifted: Mapped[datetime | None] = mapped_column(default=None)


class AuditRow(Base):
    """One moderator's (or the operator's) action, as moderators read them: who did
    what to whom, why and when."""

    __tablename__ = "audit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(default=now)
    by: Mapped[str] = mapped_column(String(24))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None,
                                                   index=True)
    action: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(200))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class AccountRow(Base):
    """A player: a guest (a generated name, no password) until they sign up, when the
    same account takes the name they chose, so their games stay theirs."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    skeleton: Mapped[str | None] = mapped_column(String(96), default=None, unique=True,
                                                 index=True)
    """The name's form against look-alikes (``names.skeleton``): no two accounts share
    one (none only for an old account whose name looked like an older one's)."""
    password: Mapped[str | None] = mapped_column(String(128), default=None)
    """An argon2 hash; none for a guest."""
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    """The account has played by program (an API token): shown as a bot everywhere."""
    created: Mapped[datetime] = mapped_column(default=now)
    roles: Mapped[str] = mapped_column(String(64), default="", server_default="")
    """The roles the operator granted, space-separated (``moderator``)."""
    muted_until: Mapped[datetime | None] = mapped_column(default=None)
    """The sanctions in force, each until a moment (:data:`FOR_GOOD` for good): read
    with the account itself, so every request and every process sees them at once."""
    suspended_until: Mapped[datetime | None] = mapped_column(default=None)
    banned_until: Mapped[datetime | None] = mapped_column(default=None)
    limited_until: Mapped[datetime | None] = mapped_column(default=None)
    """A guest made from the browser or the address of a banned account: until then it
    may not chat (``muted_until`` too), make or join public tables, play now or sign up
    (``people.marks``)."""
    email: Mapped[str | None] = mapped_column(String(254), default=None, index=True)
    """The address its player gave, in lower case (``mail.addresses``). Password mails
    go to it only once ``email_confirmed``."""
    email_confirmed: Mapped[datetime | None] = mapped_column(default=None)
    mail_lang: Mapped[str | None] = mapped_column(String(5), default=None)
    """The language its mails are written in: its page's when the address was given."""
    mail_about: Mapped[str] = mapped_column(String(40), default="", server_default="")
    """What its player chose to be mailed about, by notice kind (``challenge``,
    ``tournament``), space-separated."""
    email_refused: Mapped[datetime | None] = mapped_column(default=None)
    """When the address's mail server last refused a mail to it for good (its
    confirmation was then taken back: nothing more is sent until it is confirmed
    again)."""

    @hybrid_property
    def guest(self) -> bool:
        """No password: a guest (in a query too, so a core statement reads it)."""
        return self.password is None

    @guest.inplace.expression
    @classmethod
    def _guest_in_sql(cls) -> ColumnElement[bool]:
        return type_coerce(cls.password.is_(None), Boolean)


class SessionRow(Base):
    """A signed-in browser: the cookie holds the token, the store its hash. Where it was
    last seen from (the address as the proxy gave it, the browser as its User-Agent
    names it) and when, so that its player can tell their devices apart and sign one
    out (``people.devices``)."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[datetime] = mapped_column(default=now)
    expires: Mapped[datetime] = mapped_column()
    seen: Mapped[datetime | None] = mapped_column(default=None)
    address: Mapped[str | None] = mapped_column(String(45), default=None)
    browser: Mapped[str | None] = mapped_column(String(40), default=None)


class BlockRow(Base):
    """One player blocked another: the blocked one's chat does not reach the blocker,
    and quick match never seats them together."""

    __tablename__ = "blocks"
    blocker_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True,
                                            index=True)
    at: Mapped[datetime] = mapped_column(default=now)


class FollowRow(Base):
    """One player follows another: sees when they are online and what they play."""

    __tablename__ = "follows"
    follower_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True,
                                             index=True)
    at: Mapped[datetime] = mapped_column(default=now)


class ChallengeRow(Base):
    """A player's challenge to another (``to_id``), or to whoever opens its link (none):
    the table it asks for, open until accepted, declined, cancelled or its time is up."""

    __tablename__ = "challenges"
    __table_args__ = (Index("challenges_to", "to_id", "state"),)
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None)
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(default=now)
    expires: Mapped[datetime] = mapped_column()
    state: Mapped[str] = mapped_column(String(10), default="open")
    """``open``, ``taken`` (being seated), ``accepted``, ``declined`` or ``cancelled``."""
    table_id: Mapped[str | None] = mapped_column(String(32), default=None)
    seat: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """The challenger's seat at the table made and its invite link (no token: the seat
    is theirs by their account)."""


class NotificationRow(Base):
    """One line of a player's notifications list (a challenge and its answer, a
    rematch offered, a tournament starting): who did it, where it leads, read or not."""

    __tablename__ = "notifications"
    __table_args__ = (Index("notifications_of", "account_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str] = mapped_column(String(12))
    created: Mapped[datetime] = mapped_column(default=now)
    read: Mapped[bool] = mapped_column(Boolean, default=False)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None)
    challenge_id: Mapped[str | None] = mapped_column(String(24), default=None)
    table_id: Mapped[str | None] = mapped_column(String(32), default=None)
    tournament_id: Mapped[str | None] = mapped_column(String(16), default=None)
    spec: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """The table's rules, as far as the line describes them (game, target, rated); a
    sanction's line: the sanction (``SanctionInfo``)."""


class TournamentRow(Base):
    """A tournament: its format, the table it plays (a :class:`CreateTable`'s fields),
    when it starts and for how long, who made it (none: the site) and its state."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("tournaments_by_start", "state", "starts"),)
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(60))
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    starts: Mapped[datetime] = mapped_column()
    minutes: Mapped[int | None] = mapped_column(Integer, default=None)
    rounds: Mapped[int | None] = mapped_column(Integer, default=None)
    boards: Mapped[int | None] = mapped_column(Integer, default=None)
    state: Mapped[str] = mapped_column(String(10), default="upcoming")
    """``upcoming``, ``running`` or ``finished``."""
    created_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None)
    created: Mapped[datetime] = mapped_column(default=now)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    least_rating: Mapped[int | None] = mapped_column(Integer, default=None)
    bots: Mapped[bool] = mapped_column(Boolean, default=False)
    fair: Mapped[dict[str, str] | None] = mapped_column(JSON, default=None)
    """A duplicate's sealed deck (``FairDeck.to_dict``): secret until it is over."""
    pairings: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    """A Swiss's or a duplicate's rounds drawn so far: each ``{"round": n, "tables":
    [[first, second], ...], "bye": entrant}``, an entrant named by its (first) player's
    account."""


class EntryRow(Base):
    """A player entered in a tournament (until they withdraw)."""

    __tablename__ = "tournament_entries"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True,
                                            index=True)
    joined: Mapped[datetime] = mapped_column(default=now)
    withdrawn: Mapped[datetime | None] = mapped_column(default=None)
    partner: Mapped[int | None] = mapped_column(Integer, default=None)
    """In Kozel, the account this player asked to play with."""
    team: Mapped[int | None] = mapped_column(Integer, default=None)
    """In Kozel, once the tournament began: the pair's first player's account."""
    missed: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The games in a row this player was paired for and never came to."""
    table_id: Mapped[str | None] = mapped_column(String(32), default=None)
    """The player's latest tournament game and their seat (theirs by their account):
    a thousand players asking for their game each read one row."""
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    token: Mapped[str | None] = mapped_column(String(64), default=None)
    """Empty: no seat token is kept. The version before bones 0015's migration wrote it
    while a site was upgraded process by process; the next migration drops it."""


class TournamentGameRow(Base):
    """A game a tournament's pairing made: its table, each seat's account, and once its
    game is over, each seat's place."""

    __tablename__ = "tournament_games"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    accounts: Mapped[list[int]] = mapped_column(JSON)
    tokens: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    """Empty, as ``EntryRow.token``, and dropped with it."""
    created: Mapped[datetime] = mapped_column(default=now)
    places: Mapped[list[list[Any]] | None] = mapped_column(JSON, default=None)
    """Each seat's ``[place, shared]`` (place 0 first; shared: tied with another side)."""
    settled: Mapped[datetime | None] = mapped_column(default=None)
    """When its result was taken in (none while it is played)."""
    round: Mapped[int | None] = mapped_column(Integer, default=None)
    """A Swiss's or a duplicate's round (from 1); none in an arena."""
    board: Mapped[int | None] = mapped_column(Integer, default=None)
    """A duplicate's board in its round (from 1)."""
    results: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    """Once over, each side's result on the deal: its points less the other's (Kozel's
    penalties the other way round)."""


class KeptNameRow(Base):
    """A name nobody may take until a moment: one a moderator renamed away, or of an
    account closed or banned, kept so that nobody takes it over at once (by its
    skeleton: its look-alikes are kept too)."""

    __tablename__ = "kept_names"
    skeleton: Mapped[str] = mapped_column(String(96), primary_key=True)
    until: Mapped[datetime] = mapped_column()
    why: Mapped[str] = mapped_column(String(8))
    """``renamed``, ``closed`` or ``banned``."""


class BackupRow(Base):
    """A backup made of the store (``bones backup``), kept once its copy is whole: the
    last one's age is a figure the operator is alerted on."""

    __tablename__ = "backups"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(default=now, index=True)
    file: Mapped[str] = mapped_column(String(500))
    bytes: Mapped[int] = mapped_column(BigInteger)


class MailLinkRow(Base):
    """A link a mail carries, kept as its token's hash: ``confirm`` an address,
    ``reset`` a password or ``stop`` the notices' mails; used once, before ``expires``."""

    __tablename__ = "mail_links"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(8))
    email: Mapped[str] = mapped_column(String(254))
    expires: Mapped[datetime] = mapped_column()


class OutboxRow(Base):
    """A mail to send (``mail.outbox``): kept until the mail server took it, tried again
    later (``due``) while it is away, by whichever process claims it first."""

    __tablename__ = "outbox"
    __table_args__ = (Index("outbox_due", "sent", "due"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    to: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(default=now)
    due: Mapped[datetime] = mapped_column(default=now)
    claimed: Mapped[datetime | None] = mapped_column(default=None)
    """Until when a process sending it holds it (one that died lets it go then)."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(String(300), default=None)
    sent: Mapped[datetime | None] = mapped_column(default=None)
    dropped: Mapped[datetime | None] = mapped_column(default=None)
    """When its address was refused for good: never tried again."""
    unsubscribe: Mapped[str | None] = mapped_column(String(300), default=None)
    """A notice's one-click link that stops such mails (``List-Unsubscribe``)."""


class InviteRow(Base):
    """An operator's invitation to sign up while sign-ups are by invitation: used once,
    before ``expires`` (``people.invites``)."""

    __tablename__ = "invites"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[datetime] = mapped_column(default=now)
    expires: Mapped[datetime] = mapped_column()
    used: Mapped[datetime | None] = mapped_column(default=None)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), default=None)
    """The account it signed up."""


class MarkRow(Base):
    """A browser (its session token's hash) or an address a banned account used: a guest
    made from it is limited until ``until`` (``people.marks``)."""

    __tablename__ = "marks"
    __table_args__ = (Index("marks_by_value", "kind", "value"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    """The banned account: lifting its ban lifts its marks."""
    kind: Mapped[str] = mapped_column(String(8))
    """``browser`` or ``address``."""
    value: Mapped[str] = mapped_column(String(64))
    until: Mapped[datetime] = mapped_column()


class ResetRow(Base):
    """A one-time link to set a new password, which the operator gave a player who lost
    theirs (``bones admin reset-password``): the store keeps its token's hash."""

    __tablename__ = "password_resets"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    expires: Mapped[datetime] = mapped_column()


class TokenRow(Base):
    """A personal API token: a program plays as the account with it."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(40))
    created: Mapped[datetime] = mapped_column(default=now)
    used: Mapped[datetime | None] = mapped_column(default=None)
    revoked: Mapped[datetime | None] = mapped_column(default=None)
    address: Mapped[str | None] = mapped_column(String(45), default=None)
    """Where it was last used from (``used``), as the session's ``address``."""
    browser: Mapped[str | None] = mapped_column(String(40), default=None)
