"""Server-wide choices and limits, and the refusals a hub answers with."""

from __future__ import annotations

import os
from dataclasses import dataclass

from bones.server.people.accounts import Signups

__all__ = ["Limited", "Settings", "Unavailable"]


@dataclass(frozen=True)
class Settings:
    """Server-wide choices and limits; a table may set its own bot delay and clock."""

    bot_delay: float = 0.8
    leave_after: float = 60.0
    """Seconds a human may be away from a casual table before a bot takes their seat
    over ..."""
    claim_after: float = 60.0
    """... and from a rated one before the others may claim the match."""
    between: float = 60.0
    """Seconds the pause between rounds lasts at most: then the next round begins, for
    those who did not say they are ready too."""
    rate: float = 10.0
    """Messages a second a seat (or a spectator's socket) may send on average ..."""
    burst: int = 30
    """... and at once; an address may send five times as many over all its sockets."""
    patience: int = 50
    """Refused messages (each answered ``flood``, forgiven at one a second) after which
    a flooding connection is closed."""
    think_floor: float = 1.0
    """Hard and Expert never answer sooner than this, however quick their choice, so
    the time they take tells nothing of their tiles."""
    bot_only_delay: float = 0.5
    """The least bot delay of a table without a human seat."""
    tables_per_address: int = 20
    """Unfinished tables one address may have created."""
    sockets_per_address: int = 64
    max_sockets: int = 10_000
    """WebSockets this process holds at most; one more is refused (503) for another
    process to take. Kept below the open-files limit, which ``bones serve`` raises to
    its hard limit (``LimitNOFILE`` in the units)."""
    linger: float = 60.0
    """Seconds a finished table stays in memory after its last socket closed."""
    waiting_ttl: float = 24 * 3600.0
    """Seconds a table may wait for its players before it is closed."""
    rest_rate: float = 20.0
    """REST requests a second one address may make on average (bursts of three times
    that); new WebSockets count too."""
    logins_per_name: int = 5
    """Failed logins to one name from one address in five minutes before that address
    is refused for that name (from elsewhere, the name's owner is not) ..."""
    logins_per_address: int = 20
    """... and from one address over every name; a name failed four times as often
    from everywhere has its failures answered slowly, never its successes refused."""
    signups_per_address: int = 10
    """Sign-ups, and password changes, one address may make in an hour."""
    guests_per_address: int = 30
    """New guests one address may be given in an hour."""
    kept_names_days: float = 180.0
    """Days the name of a renamed or closed account is kept from others (0: freed at
    once)."""
    metrics_from: tuple[str, ...] = ("127.0.0.1/32", "::1/128")
    """Addresses and networks whose requests ``/metrics`` and ``/api/metrics`` answer (a
    request with the operator's token, ``BONES_METRICS_TOKEN``, from anywhere): the
    figures of a running site are the operator's."""
    origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open sockets and post."""
    bot_workers: int = max(1, (os.cpu_count() or 2) - 1)
    """Processes the thinking bots and hints run in (0: threads of the server's own)."""
    bot_timeout: float = 20.0
    """Seconds a bot's job may wait on the Redis queue before the server works it out
    itself (no worker took it, or the one that did died and nobody took it again)."""
    words: str | None = None
    """A TOML file of words refused in names and chat, by language (``people/words.py``),
    read again whenever it changes."""
    redis: str | None = None
    """Redis URL: the bots' jobs go on its queue, for this server's ``bot_workers`` and
    every ``bones worker`` to take (``fleet.py``)."""
    signups: Signups = "open"
    """Who may sign up: anyone (``open``), whoever has an operator's invitation
    (``invite``: ``bones admin invite``), or nobody (``closed``); guests play either way."""
    smtp: str | None = None
    """The SMTP server mail goes out through (``mail.smtp``): members may then give an
    address and get a forgotten password back by mail. None: the site sends no mail."""
    mail_from: str | None = None
    """The From address of its mails (default ``bones@`` the site's host)."""


class Unavailable(RuntimeError):
    """The store cannot be written just now: nothing changed; try again soon."""


class Limited(RuntimeError):
    """A limit of the server's was reached: the text says which."""
