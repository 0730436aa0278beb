"""An account's own data, as its owner downloads it (``GET /api/me/export``): everything
bones holds about them. ``docs/export.schema.json`` is this model's JSON Schema (a test
keeps the two the same), for whoever reads an export with other tools.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bones.server.protocol.community import Notification, ReportInfo, SanctionInfo

__all__ = ["AccountExport", "Closing", "ExportedAccount", "ExportedGame", "ExportedLine",
           "ExportedRating", "ExportedSession", "ExportedToken"]


class ExportedAccount(BaseModel):
    name: str
    created: str
    guest: bool
    bot: bool
    roles: list[str]
    email: str | None = None
    """The mail address its player gave, if any ..."""
    email_confirmed: str | None = None
    """... when they confirmed it ..."""
    email_refused: str | None = None
    """... when its mail server last refused a mail to it for good ..."""
    mail_about: list[str] = []
    """... what they chose to be mailed about ..."""
    mail_lang: str | None = None
    """... and in which language."""


class ExportedSession(BaseModel):
    """A signed-in browser (the token itself is never kept, only its hash), and where
    and when it was last seen."""

    created: str
    expires: str
    seen: str | None = None
    address: str | None = None
    browser: str | None = None


class ExportedToken(BaseModel):
    label: str
    created: str
    used: str | None
    revoked: str | None
    address: str | None = None
    """Where it was last used from, and by what."""
    browser: str | None = None


class ExportedGame(BaseModel):
    """A finished game the account played, at ``seat``, with every move in ``record``."""

    table: str
    variant: str
    finished: str
    seat: int
    names: list[str | None]
    scores: list[int]
    winner: int | None
    public: bool
    record: dict[str, Any]


class ExportedLine(BaseModel):
    """A chat line the account said (``room``: players, spectators, lobby, or a
    ``tournament``'s)."""

    id: int
    table: str | None
    tournament: str | None = None
    room: str
    text: str
    at: str
    removed: bool


class ExportedRating(BaseModel):
    variant: str
    players: int
    mu: float
    sigma: float
    games: int


class AccountExport(BaseModel):
    """Everything bones holds about one account."""

    account: ExportedAccount
    sessions: list[ExportedSession]
    api_tokens: list[ExportedToken]
    games: list[ExportedGame]
    chat: list[ExportedLine]
    ratings: list[ExportedRating]
    rating_history: list[dict[str, Any]]
    reports_made: list[ReportInfo]
    sanctions: list[SanctionInfo]
    blocked: list[str]
    """The players this account blocked ..."""
    following: list[str]
    """... and those it follows."""
    challenges: list[dict[str, Any]]
    """The challenges it made or was sent."""
    notifications: list[Notification] = []
    """Its notifications list (the newest 50)."""
    tournaments: list[dict[str, Any]] = []
    """The tournaments it entered: when it joined, whether it withdrew, games missed in
    a row."""


class Closing(BaseModel):
    """Close my account: its password (none for a guest)."""

    password: str | None = None
