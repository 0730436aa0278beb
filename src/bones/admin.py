"""``bones admin``: the operator's hand on the accounts of a site, from its machine.

Grant and revoke roles, read and resolve the players' reports, ban and unban, read the
audit log, list where an account is signed in and sign any of it out, and give a player
who lost their password a one-time link to set a new one. It works on the store directly
(``--db``, as ``bones serve`` has it), so it needs no running server; with the site's
Redis (``--redis``) a ban or a sign-out also closes the sockets concerned at every
process of the site at once (without it, they close at their next request: the sessions
are gone). Both come from the environment too (``BONES_DB``, ``BONES_REDIS``, or
``_FILE``), as the services have them, so that the store's password stays out of the
process list. Every action is written to the audit log as done by ``operator``.

    bones admin grant anna moderator
    bones admin reports
    bones admin resolve 12 "warned them"
    bones admin --redis redis://127.0.0.1:6379/0 ban spammer --reason "links to a scam"
    bones admin unban spammer --reason "appealed"
    bones admin reset-password anna --site https://bones.example.org
    bones admin sessions anna
    bones admin sign-out anna 3f9c2a1b7d4e8f60 2 --reason "lost phone"
    bones admin users ann
    bones admin mute loud --minutes 60 --reason "shouting in the lobby"
    bones admin lift loud mute --reason "calmed down"
    bones admin bans
    bones admin rename Offensive1 --reason "the name insults"
    bones admin close anna --reason "asked by mail"
    bones admin invite --count 5 --days 7
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

__all__ = ["HIDDEN", "add_parser", "inert", "run", "site_origin"]

SANCTIONS = {"warn": "warn a player (told at once, kept in their inbox)",
             "mute": "keep a player out of every chat",
             "suspend": "keep a player from playing people (bots still)",
             "ban": "sign an account out everywhere and keep it out"}
"""What ``bones admin`` gives, as a moderator does from the app."""
LASTING = ("mute", "suspend", "ban")
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a terminal does not show as themselves."""


def inert(text: str) -> str:
    r"""``text`` safe to print to a terminal: every control, format or separator
    character (escape sequences, bidi overrides, invisible joiners) shown as its code.

    >>> print(inert("Ann\x1b[2J\u202e!"))
    Ann\x1b[2J\u202e!
    """
    return "".join(f"\\x{ord(c):02x}" if ord(c) < 0x100 and unicodedata.category(c) == "Cc"
                   else f"\\u{ord(c):04x}" if unicodedata.category(c) in HIDDEN else c
                   for c in text)


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """``bones admin`` and its commands, under the ``bones`` command's ``commands``."""
    admin: argparse.ArgumentParser = commands.add_parser(
        "admin", help="roles, reports, bans and accounts (operator)")
    admin.add_argument("--db", default=None,
                       help="SQLAlchemy URL of the store (default sqlite:///bones.db)")
    admin.add_argument("--redis", default=None, metavar="URL",
                       help="the site's Redis: a sanction's notice, a ban's or a sign-out's "
                       "closed sockets and a new name reach every process at once")
    actions = admin.add_subparsers(dest="action", required=True)
    for verb in ("grant", "revoke"):
        role = actions.add_parser(verb, help=f"{verb} a role (moderator)")
        role.add_argument("name")
        role.add_argument("role", choices=["moderator"])
    reports = actions.add_parser("reports", help="the open reports, newest first")
    reports.add_argument("--all", action="store_true", help="the resolved ones too")
    reports.add_argument("--limit", type=int, default=50, help="the latest this many")
    resolve = actions.add_parser("resolve", help="close a report, saying what was done")
    resolve.add_argument("report", type=int)
    resolve.add_argument("resolution")
    for kind, what in SANCTIONS.items():
        given = actions.add_parser(kind, help=what)
        given.add_argument("name")
        given.add_argument("--reason", required=True, help="told to the player")
        given.add_argument("--minutes", type=float, default=None, help="for this long "
                           "(default: for good; a warning has none)")
    lift = actions.add_parser("lift", help="end a mute, suspension or ban now")
    lift.add_argument("name")
    lift.add_argument("kind", choices=LASTING)
    unban = actions.add_parser("unban", help="lift an account's ban (lift NAME ban)")
    unban.add_argument("name")
    for command in (lift, unban):
        command.add_argument("--reason", required=True)
    bans = actions.add_parser("bans", help="the accounts a ban (or --kind) holds now")
    bans.add_argument("--kind", choices=LASTING, default="ban")
    users = actions.add_parser("users", help="accounts whose name holds TEXT (or that gave "
                               "the address TEXT): signed up, last seen, games, sanctions "
                               "in force, address")
    users.add_argument("text", nargs="?", default="")
    users.add_argument("--guests", action="store_true", help="guests too")
    users.add_argument("--limit", type=int, default=50)
    for verb, what in (("rename", "force a new name (Player and digits) on an account"),
                       ("close", "close an account for good, as its player may")):
        command = actions.add_parser(verb, help=what)
        command.add_argument("name")
        command.add_argument("--reason", required=True)
    audit = actions.add_parser("audit", help="every moderator's action, newest first")
    audit.add_argument("--name", default=None, help="of one player")
    audit.add_argument("--limit", type=int, default=50)
    reset = actions.add_parser("reset-password",
                               help="print a one-time link that sets a new password")
    reset.add_argument("name")
    reset.add_argument("--site", default=None,
                       help="the site's address, as players open it (default: the first "
                       "origin of the configuration, BONES_ORIGIN or [serve] origin)")
    invite = actions.add_parser("invite", help="print links that each sign up one account "
                                "(while sign-ups are by invitation: --signups invite)")
    invite.add_argument("--count", type=int, default=1)
    invite.add_argument("--days", type=float, default=14.0, help="how long each works")
    invite.add_argument("--site", default=None, help="the site's address (default: the "
                        "first origin of the configuration)")
    sessions = actions.add_parser("sessions", help="an account's sessions and API tokens, "
                                  "where and when each was last seen")
    sessions.add_argument("name")
    out = actions.add_parser("sign-out", help="end sessions (by id) and revoke API tokens "
                             "(by number) of an account; with none named, every one")
    out.add_argument("name")
    out.add_argument("ids", nargs="*", metavar="ID", help="as `sessions` lists them")
    out.add_argument("--reason", required=True)
    return admin


def run(args: argparse.Namespace) -> int:
    """Do what ``bones admin`` was asked; 1 with a message if it cannot be done."""
    from bones.server import DEFAULT_DB
    from bones.server.people.accounts import Accounts, Refused
    from bones.server.people.moderation import Moderation, Unknown
    from bones.server.store.records import Store

    store = Store(args.db or DEFAULT_DB)
    moderation, accounts = Moderation(store.engine), Accounts(store.engine)
    try:
        return _act(args, moderation, accounts)
    except (Unknown, ValueError, Refused) as error:
        print(f"bones admin: {error}", file=sys.stderr)
        return 1
    finally:
        store.engine.dispose()


def _act(args: argparse.Namespace, moderation: Any, accounts: Any) -> int:
    from bones.server.meeting.presence import expel, recheck, renamed
    from bones.server.people.devices import devices
    from bones.server.people.directory import held, search
    from bones.server.people.invites import invite as make_invite
    from bones.server.people.moderation import OPERATOR
    from bones.server.people.own import Own

    action = args.action
    if action in ("grant", "revoke"):
        getattr(moderation, action)(OPERATOR, args.name, args.role)
        roles = moderation.account(args.name)[1]
        print(f"{args.name}: {' '.join(sorted(roles)) or 'no roles'}")
    elif action == "reports":
        _print_reports(moderation.reports(open_only=not args.all, limit=args.limit))
    elif action == "resolve":
        moderation.resolve(OPERATOR, args.report, args.resolution)
    elif action in SANCTIONS:
        _sanction(args, moderation)
    elif action in ("lift", "unban"):
        kind = getattr(args, "kind", "ban")
        lifted = moderation.lift(OPERATOR, args.name, kind, args.reason)
        print(f"{args.name}: {lifted} {kind} lifted")
    elif action == "bans":
        _print(["player", "until", "by", "reason", "given"],
               [(h.name, "for good" if h.until is None else _minute(h.until), h.by, h.reason,
                 _minute(h.at)) for h in held(accounts.engine, args.kind)],
               f"whom a {args.kind} holds now, latest first")
    elif action == "users":
        _print(["name", "signed up", "last seen", "games", "in force", "address"],
               [(f.name + (" (guest)" if f.guest else ""), _minute(f.created),
                 "" if f.seen is None else _minute(f.seen), str(f.games), " ".join(f.sanctions),
                 f.email or "")
                for f in search(accounts.engine, args.text, args.limit, args.guests)],
               f"accounts found by {args.text!r}" if args.text else "accounts")
    elif action == "rename":
        account = moderation.account(args.name)[0]
        new = moderation.rename(OPERATOR, args.name, args.reason)
        _tell(args.redis, lambda redis: renamed(redis, account, new))
        print(f"{args.name} is now {new}")
    elif action == "close":
        account = moderation.account(args.name)[0]
        gone = Own(accounts.engine).close(account)
        moderation.note(OPERATOR, gone, "close", args.reason)
        _tell(args.redis, lambda redis: expel(redis, account))
        print(f"{args.name} is closed (shown as {gone})")
    elif action == "audit":
        _print(["when", "by", "player", "action", "reason"],
               [(_when(a.at), a.by, a.player or "", a.action, a.reason)
                for a in moderation.audit(args.limit, args.name)], "the audit log, newest first")
    elif action == "reset-password":
        site = args.site or site_origin()
        token = accounts.reset_token(args.name)
        moderation.note(OPERATOR, args.name, "reset", "a one-time password link")
        print(f"{site.rstrip('/')}/reset#{token}")
    elif action == "invite":
        site = (args.site or site_origin()).rstrip("/")
        for _ in range(args.count):
            print(f"{site}/account#invite={make_invite(accounts.engine, args.days)}")
        moderation.note(OPERATOR, None, "invite", f"{args.count} for {args.days:g} days")
    elif action == "sessions":
        _print(["kind", "id", "browser / label", "address", "made", "last seen"],
               [(d.kind, d.id, " ".join(filter(None, (d.label, d.browser))), d.address or "",
                 _minute(d.created), "" if d.seen is None else _minute(d.seen))
                for d in devices(accounts.engine, moderation.account(args.name)[0])],
               f"{args.name}'s sessions and API tokens, last seen first")
    elif action == "sign-out":
        account = moderation.account(args.name)[0]
        ended = _sign_out(accounts.engine, account, args.ids)
        moderation.note(OPERATOR, args.name, "sign-out", args.reason)
        _tell(args.redis, lambda redis: recheck(redis, account))
        print(f"{args.name}: {ended} signed out")
    return 0


def _sanction(args: argparse.Namespace, moderation: Any) -> None:
    """Give the sanction ``args.action``: kept, in the player's inbox, told at once to
    their open pages with the site's Redis (a ban closes every socket of theirs too)."""
    from bones.server.meeting.notices import publish
    from bones.server.meeting.presence import expel
    from bones.server.people.moderation import OPERATOR
    from bones.server.people.notifications import Notifications
    from bones.server.protocol import NoticeMessage

    account = moderation.account(args.name)[0]
    done = moderation.sanction(OPERATOR, args.name, args.action, args.reason, args.minutes)
    line = Notifications(moderation.engine).add_all([account], "sanction",
                                                    spec=done.model_dump())[account]
    notice = NoticeMessage(kind="sanction", notification=line).model_dump_json()
    _tell(args.redis, lambda redis: publish(redis, account, notice),
          *([lambda redis: expel(redis, account)] if args.action == "ban" else []))
    kind = {"warn": "warned", "mute": "muted", "suspend": "suspended", "ban": "banned"}
    print(f"{args.name} is {kind[args.action]}" + (
        "" if args.minutes is None or args.action == "warn"
        else f" for {args.minutes:g} minutes"))


def _sign_out(engine: Any, account: int, ids: Sequence[str]) -> int:
    """End the account's sessions and revoke its tokens named by ``ids`` (every one when
    none is named): how many. An id of neither is refused, ending nothing."""
    from bones.server.people.accounts import Refused
    from bones.server.people.devices import devices, revoke_tokens, sign_out

    if not ids:
        return sign_out(engine, account) + revoke_tokens(engine, account)
    known = {d.id: d.kind for d in devices(engine, account)}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise Refused(f"no session or token {unknown[0]!r} of theirs (see `sessions`)")
    return sum(revoke_tokens(engine, account, int(i)) if known[i] == "token"
               else sign_out(engine, account, only=i) for i in ids)


def site_origin(env: Mapping[str, str] | None = None) -> str:
    """The site's address as its players open it: the first origin ``bones serve`` is
    configured with (``BONES_ORIGIN`` or its ``_FILE``, or ``origin`` in the ``[serve]``
    table of the file ``BONES_CONFIG`` names), read as ``bones serve`` reads it. A link
    to a made-up address is worse than none.

    >>> site_origin({"BONES_ORIGIN": "https://bones.example,https://www.bones.example"})
    'https://bones.example'
    """
    from bones.cli import parsers
    from bones.configuration import ConfigError, configured

    top, commands = parsers()
    origins = configured(top, {"serve": commands["serve"]}, ["serve"], env).origin
    if not origins:
        raise ConfigError("which site? give --site https://... (or set the site's origin "
                          "in the configuration)")
    return str(origins[0])


def _tell(url: str | None, *sayings: Callable[[Any], Awaitable[Any]]) -> None:
    """Say each of ``sayings`` (given the site's Redis client) to every process of the
    site whose Redis is at ``url``; nothing without one."""
    if url:
        asyncio.run(_said(url, sayings))


async def _said(url: str, sayings: Iterable[Callable[[Any], Awaitable[Any]]]) -> None:
    from bones.server.sites.cluster import connect

    client = connect(url)
    try:
        for say in sayings:
            await say(client)
    finally:
        await client.aclose()


def _print_reports(found: Iterable[Any]) -> None:
    rows = [(_when(r.at), str(r.id), r.kind, r.reporter, r.reason,
             r.player or "", r.text or r.note or "",
             (f"table {r.table}" + (f" ({r.room})" if r.room else "")) if r.table
             else "lobby" if r.room else "", r.resolution or "")
            for r in found]
    _print(["when", "id", "of", "reported by", "reason", "about", "line / note", "where",
            "resolved"], rows, f"{len(rows)} reports, newest first")


def _minute(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M")


def _when(at: str) -> str:
    """An ISO moment as the tables show it: ``2026-12-06 12:40``."""
    return at[:16].replace("T", " ")


def _print(columns: list[str], rows: Sequence[Sequence[str]], title: str) -> None:
    """A table of players' words as inert text: never markup, never a control."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(Text(inert(cell)) for cell in row))
    # Into a pipe or a file, as wide as it takes: rich cuts a table to 80 columns there.
    Console(width=None if sys.stdout.isatty() else 10_000).print(table)
