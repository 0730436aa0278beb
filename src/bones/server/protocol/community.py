"""The REST bodies and answers of players among others: whom they block and follow
(and where those they follow are), what a player reports, what a moderator reads and
does, and the sanctions a player is shown.

>>> Sanctioning(kind="mute", reason="insults", minutes=60).minutes
60.0
>>> Sanctioning(kind="jail", reason="x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Sanctioning
...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from bones.server.protocol.rest import CreateTable
from bones.server.protocol.server import TableInfo
from bones.server.protocol.text import Message, Name, clean_text, stripped

__all__ = [
    "ActionInfo",
    "Blocking",
    "ChallengeInfo",
    "ChallengeSeat",
    "Challenging",
    "DossierInfo",
    "Friend",
    "Lifting",
    "NoticeKind",
    "NoticeMessage",
    "Notification",
    "NotificationList",
    "ReadUpTo",
    "Reason",
    "ReportInfo",
    "Reporting",
    "SanctionInfo",
    "Sanctioning",
]

Said = Annotated[str, Field(min_length=1, max_length=200),
                 AfterValidator(stripped("a reason needs more than spaces", angles=True))]
"""A reason given: 1-200 characters, not blank, shown as text."""


class Reporting(BaseModel):
    """A report to the moderators: of a chat line (``chat``, with ``message``), or of a
    player by ``name``: their conduct (``player``: abuse, leaving games, partners
    signalling in Kozel), their name (``name``), or one game (``game``, with
    ``table``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["chat", "player", "name", "game"]
    reason: Said
    note: Annotated[str | None, Field(default=None, max_length=500),
                    AfterValidator(lambda text: None if text is None
                                   else clean_text(text, angles=True).strip() or None)] = None
    message: int | None = Field(default=None, ge=1)
    name: Name | None = None
    table: str | None = Field(default=None, min_length=1, max_length=32)


class Challenging(BaseModel):
    """Challenge the player called ``name`` (none: make a link for anyone) to the table
    ``table`` describes: your seat is its ``me`` seat, theirs its other human seat."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name | None = None
    table: CreateTable


class ChallengeSeat(BaseModel):
    """The challenger's seat at the table their accepted challenge made, and the table's
    invite link: the seat is theirs by their account (its socket opened signed in takes
    it, on any device), so no token is kept or sent."""

    table: TableInfo
    seat: int
    invite: str


class ChallengeInfo(BaseModel):
    """A challenge as its two players see it: who, to whom (none: a link's), the table
    asked for, and its state (``open``, ``accepted``, ``declined``, ``cancelled``);
    once accepted, the table, and for the challenger their seat."""

    id: str
    by: str
    to: str | None
    table_spec: dict[str, Any]
    state: str
    expires: str
    link: str
    table: str | None = None
    seat: ChallengeSeat | None = None


NoticeKind = Literal["challenge", "accepted", "declined", "cancelled", "rematch", "tournament",
                     "withdrawn", "sanction"]
"""What a notice tells: a challenge to you; your challenge ``accepted``, ``declined``
or ``cancelled`` (to you, by the challenger); a ``rematch`` offered at a table you
played; a ``tournament`` you joined starting; ``withdrawn`` from one, after missing two
games in a row (or left without a partner for Kozel's pairs); a moderator's
``sanction`` of you (a warning, a mute, a suspension or a ban, with its reason and end)."""


class Notification(BaseModel):
    """One line of a player's notifications list, newest first: what happened, who did
    it (``by``; a closed account's is ``deleted-N``), and where it leads: a challenge's
    page (``challenge``, its id), a table (``table``) or a tournament's page
    (``tournament``), with the table's rules (``table_spec``: its game, target and
    rating)."""

    id: int
    kind: NoticeKind
    created: str
    read: bool = False
    by: str | None = None
    challenge: str | None = None
    table: str | None = None
    tournament: str | None = None
    table_spec: dict[str, Any] | None = None
    sanction: SanctionInfo | None = None
    """A ``sanction`` line's: what the moderators decided, why, and until when."""


class NotificationList(BaseModel):
    """``GET /api/notifications``: how many are unread, and the newest."""

    unread: int
    items: list[Notification]


class ReadUpTo(BaseModel):
    """``POST /api/notifications/read``: every line up to ``upto`` (an id) was seen."""

    model_config = ConfigDict(extra="forbid", strict=True)
    upto: int = Field(ge=1)


class NoticeMessage(Message):
    """Sent on ``/ws/me``: a challenge to you (``challenge``), or your challenge
    ``accepted`` (with your seat), ``declined`` or ``cancelled``; a rematch offered at
    your table; each also kept in your notifications list (``notification``)."""

    type: Literal["notice"] = "notice"
    kind: NoticeKind
    challenge: ChallengeInfo | None = None
    notification: Notification | None = None


class Friend(BaseModel):
    """A player followed: online or not, and the game they play (``table``: a public
    one's id, to watch)."""

    name: str
    online: bool
    playing: bool = False
    table: str | None = None
    variant: str | None = None
    players: int | None = None


class Blocking(BaseModel):
    """Block (or follow) the player called ``name``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name


class ReportInfo(BaseModel):
    """A report, as moderators read it (and its reporter, of their own)."""

    id: int
    kind: str
    at: str
    reporter: str
    player: str | None
    reason: str
    note: str | None
    message: int | None
    text: str | None
    table: str | None
    room: str | None
    resolved: str | None
    resolution: str | None


class SanctionInfo(BaseModel):
    """A sanction: ``until`` None means for good (a warning has no end)."""

    id: int
    kind: Literal["warn", "mute", "suspend", "ban"]
    reason: str
    by: str
    at: str
    until: str | None
    lifted: str | None


class Sanctioning(BaseModel):
    """A moderator's sanction: for ``minutes`` (none: for good)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["warn", "mute", "suspend", "ban"]
    reason: Said
    minutes: float | None = Field(default=None, gt=0, le=10 * 365 * 24 * 60)


class Lifting(BaseModel):
    """End a lasting sanction now."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["mute", "suspend", "ban"]
    reason: Said


class Reason(BaseModel):
    """Why a moderator acts (a rename, a line deleted, a report resolved)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    reason: Said


class ActionInfo(BaseModel):
    """One line of the audit log."""

    id: int
    at: str
    by: str
    player: str | None
    action: str
    reason: str
    detail: dict[str, Any] | None


class DeviceSeen(BaseModel):
    """A session (``kind`` ``session``) or an API token (``token``, its ``label``) of a
    player, where and when it was last seen: what a moderator compares between accounts
    (the address as the site's proxy gave it)."""

    kind: Literal["session", "token"]
    label: str = ""
    browser: str | None
    address: str | None
    seen: str | None


class FoundInfo(BaseModel):
    """An account a moderator's search found: when it signed up and was last seen, its
    games, the sanctions holding it now (``mute``, ``suspend``, ``ban``)."""

    name: str
    guest: bool
    created: str
    seen: str | None
    games: int
    sanctions: list[str]


class DossierInfo(BaseModel):
    """What a moderator reads of a player before acting."""

    name: str
    guest: bool
    created: str
    roles: list[str]
    games: list[dict[str, Any]]
    chat: list[dict[str, Any]]
    sanctions: list[SanctionInfo]
    reports: list[ReportInfo]
    audit: list[ActionInfo]
    devices: list[DeviceSeen] = []
    """Where the player is signed in now, last seen first (moderators only)."""
