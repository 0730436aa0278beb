"""The ``bones`` command: run a site, replay a record, play a game in the terminal, or
pit bots against each other.

    bones serve --port 8000 --db sqlite:///bones.db
    bones worker --redis redis://127.0.0.1:6379/0
    bones backup /var/backups/bones-2026-12-06.db
    bones restore /var/backups/bones-2026-12-06.db --replace
    bones admin grant anna moderator
    bones replay game.json
    bones verify game.json
    bones verify tournament.json
    bones analyze game.json
    bones play --variant kozel
    bones arena hard:medium medium:easy --variant draw --deals 500 --jobs 2
    bones arena hard:medium --deals 2000 --ray ray://head:10001
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from bones import admin, bots
from bones.configuration import ConfigError, configured, read_file, without_password
from bones.match import Match
from bones.moves import IllegalMove
from bones.record import RecordError, load
from bones.rules import TARGETS, VARIANTS, Rules
from bones.server.logs import FORMATS
from bones.server.logs import setup as setup_log
from bones.server.tables.hub import Settings
from bones.text import describe_rules, final_line, replay_lines, result_line, score_text, table_line


def _target(text: str) -> int | None:
    if text in ("none", "single", "round"):
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value not in TARGETS:
        raise argparse.ArgumentTypeError("target is 50, 100, 150 or 'single'")
    return value


T = TypeVar("T")

TUNED = {
    "bot_delay": "seconds a bot waits before it moves, so people can follow",
    "leave_after": "seconds a player may be away before a bot takes over the seat",
    "claim_after": "seconds a player may be away from a rated game before it is claimed",
    "between": "seconds the pause between rounds lasts before the next round begins",
    "rate": "messages a second one seat may send before it is refused",
    "rest_rate": "REST requests and new sockets a second from one address",
    "logins_per_name": "failed logins to one name from one address in five minutes",
    "logins_per_address": "failed logins from one address in five minutes",
    "signups_per_address": "sign-ups and password changes one address may make in an hour",
    "guests_per_address": "new guests one address may be given in an hour",
    "kept_names_days": "days a renamed or closed account's old name is kept from others",
    "tables_per_address": "unfinished tables one address may create",
    "sockets_per_address": "WebSockets one address may hold open at once",
    "max_sockets": "WebSockets this process holds at most (one more is refused with 503, "
                   "for another process); fewer if the open-files limit leaves less room",
    "think_floor": "seconds Hard and Expert take at least, so timing tells nothing",
    "bot_workers": "processes Hard and Expert think in (0: the server's threads; "
                   "default: one a core but one)",
    "bot_timeout": "seconds a bot's job waits on the Redis queue before the server does it",
    "linger": "seconds a finished table stays in memory once nobody watches",
    "waiting_ttl": "seconds a table may wait for its players before it closes",
}
"""The server settings ``bones serve`` takes as flags (``--rest-rate`` for ``rest_rate``),
each defaulting to ``Settings``'."""
BY_MACHINE = frozenset({"bot_workers"})
"""Settings whose default depends on the machine: left to ``Settings`` when not given."""


PING = 5.0
"""Seconds between the server's WebSocket pings (which also keep a quiet socket open
through proxies and home routers)."""
PONG_WAIT = 15.0
"""Seconds a ping's answer may take: a socket whose client vanished without closing it
(a network gone) is closed within twenty seconds, and its seat shown away (a closed tab
is shown at once). A phone's network stalls for seconds at a time, and a busy machine's
client answers late; neither is a player gone."""
KEEP_ALIVE = 75
"""Seconds an idle HTTP connection stays open: longer than nginx keeps its idle
connections to the app (60 s), so the app never closes one just as nginx sends a request
on it (which nginx answers 502 for a POST, as it cannot know whether it was done)."""

def parser() -> argparse.ArgumentParser:
    """The ``bones`` command's parser."""
    return parsers()[0]


def parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``bones`` command's parser, and those of its commands that take their options
    from the environment and a file too (``bones.configuration``)."""
    top = argparse.ArgumentParser(prog="bones", description="Dominoes with exact rules.")
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the game server and the web app")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on")
    serve.add_argument("--db", default=None,
                       help="SQLAlchemy URL of the store (default sqlite:///bones.db; "
                       "required with --redis or --origin)")
    for name, text in TUNED.items():
        default = getattr(Settings, name)
        serve.add_argument(f"--{name.replace('_', '-')}", type=type(default),
                           default=None if name in BY_MACHINE else default, help=text)
    serve.add_argument("--origin", action="append", default=[],
                       help="another origin whose pages may use this server (repeatable), "
                       "e.g. https://bones.example behind a proxy")
    serve.add_argument("--metrics-from", default=None, metavar="ADDRESSES",
                       help="addresses or networks /metrics answers (comma-separated; "
                       "default the loopback); BONES_METRICS_TOKEN opens it from anywhere")
    serve.add_argument("--redis", default=None, metavar="URL",
                       help="put the bots' jobs on this Redis for `bones worker`s to take")
    serve.add_argument("--words", default=None, metavar="FILE",
                       help="a TOML file of words refused in names and chat, by language "
                       "(read again whenever it changes)")
    serve.add_argument("--signups", choices=("open", "invite", "closed"), default="open",
                       help="who may sign up: anyone, whoever has an invitation (bones admin "
                       "invite), or nobody; guests play either way")
    serve.add_argument("--smtp", default=None, metavar="URL",
                       help="send mail through this server (smtps://user:password@host or "
                       "smtp://... for STARTTLS; ?tls=none for a local relay): members may "
                       "then get a forgotten password back by mail; needs --origin")
    serve.add_argument("--mail-from", default=None, metavar="ADDRESS",
                       help="the From address of its mails (default bones@ the origin's host)")
    serve.add_argument("--trust-proxy", default=None, metavar="ADDRESSES",
                       help="proxies whose X-Forwarded-For and -Proto to believe "
                       "(comma-separated addresses, or *)")
    worker = commands.add_parser("worker", help="think for the bots of servers using a Redis")
    worker.add_argument("--redis", required=True, metavar="URL", help="the servers' Redis")
    for command in (serve, worker):
        command.add_argument("--log-format", choices=FORMATS, default="text",
                             help="the log as lines of text, or JSON lines with the table, "
                             "the seat and the request")
        command.add_argument("--config", default=None, metavar="FILE",
                             help="a TOML file whose [serve] or [worker] table sets options "
                             "(BONES_CONFIG); each option is also BONES_<OPTION>")
    worker.add_argument("--processes", type=int, default=None,
                        help="jobs worked on at once (default: one a core)")
    migrate = commands.add_parser("migrate", help="bring the store to a revision of its "
                                  "schema (the app processes stopped): back, to roll back "
                                  "a release")
    migrate.add_argument("--to", required=True, help="the revision, e.g. 0015, or head")
    migrate.add_argument("--db", default=None,
                         help="SQLAlchemy URL of the store (default sqlite:///bones.db)")
    commands.add_parser("warm", help="compile the bots' code into its cache now (at an "
                        "install), not at the first decisions")
    backup = commands.add_parser("backup", help="copy the store, while the server runs")
    backup.add_argument("file", help="where the copy goes")
    restore = commands.add_parser("restore",
                                  help="bring the store back from a backup (server stopped)")
    restore.add_argument("file", help="the copy `bones backup` made")
    restore.add_argument("--replace", action="store_true",
                         help="restore over a store that has games")
    for command in (backup, restore):
        command.add_argument("--db", default=None,
                             help="SQLAlchemy URL of the store (default sqlite:///bones.db)")
    administer = admin.add_parser(commands)
    replay = commands.add_parser("replay", help="print a game record move by move and check it")
    replay.add_argument("record", help="a record file (JSON, from match.record())")
    analyze = commands.add_parser("analyze", help="grade every move of a finished game")
    analyze.add_argument("record", help="a record file (JSON, from match.record())")
    analyze.add_argument("--top", type=int, default=5, help="how many mistakes to list")
    analyze.add_argument("--all", action="store_true", help="print every graded move")
    verify = commands.add_parser("verify", help="check a game's (or a duplicate "
                                 "tournament's) deals against its commitment")
    verify.add_argument("record", help="a finished game's record, or a finished duplicate "
                        "tournament's document, from the server")
    verify.add_argument("--commitment", default=None,
                        help="the commitment shown before the game, to compare as well")
    play = commands.add_parser("play", help="play against Easy bots in this terminal")
    play.add_argument("--variant", choices=VARIANTS, default="draw")
    play.add_argument("--players", type=int, default=None)
    play.add_argument("--target", type=_target, default=100, help="50, 100, 150 or 'single'")
    play.add_argument("--seed", type=int, default=None, help="repeatable deals and bots")
    play.add_argument("--save", default=None, help="write the game record here at the end")
    arena = commands.add_parser("arena", help="bots against each other on duplicate deals")
    arena.add_argument("pairings", nargs="+", help="A:B, e.g. hard:medium")
    arena.add_argument("--variant", choices=VARIANTS, default="draw")
    arena.add_argument("--players", type=int, default=None)
    arena.add_argument("--deals", type=int, default=200, help="duplicate deal pairs")
    arena.add_argument("--matches", type=int, default=0, help="duplicate match pairs")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="processes (with --ray local: the local cluster's workers)")
    arena.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                       help="spread the deals over a Ray cluster: a local one of --jobs "
                            "workers, or the cluster at ADDRESS (pip install 'bones[research]')")
    arena.add_argument("--csv", default="arena.csv")
    arena.add_argument("--png", default="arena.png")
    return top, {"serve": serve, "worker": worker, "backup": backup, "restore": restore,
                 "migrate": migrate, "admin": administer}


def main(argv: Sequence[str] | None = None) -> int:
    top, configurable = parsers()
    try:
        args = configured(top, configurable, list(sys.argv[1:] if argv is None else argv))
    except ConfigError as error:
        print(f"bones: {error}", file=sys.stderr)
        return 2
    if args.command == "replay":
        return replay(args.record)
    if args.command == "arena":
        return arena(args)
    if args.command == "serve":
        return serve(args)
    if args.command == "worker":
        setup_log(args.log_format)
        return worker(args.redis, args.processes or os.cpu_count() or 1)
    if args.command == "analyze":
        return analyze(args.record, args.top, args.all)
    if args.command == "verify":
        return verify(args.record, args.commitment)
    if args.command in ("backup", "restore"):
        return keep(args)
    if args.command == "warm":
        return warm()
    if args.command == "migrate":
        return migrate(args.db, args.to)
    if args.command == "admin":
        return admin.run(args)
    return play(args)


def arena(args: argparse.Namespace) -> int:
    from rich.progress import Progress, TaskID

    from bones.arena import duel
    from bones.arena_report import print_table, write_csv, write_png

    pairs = []
    for pairing in args.pairings:
        a, _, b = pairing.partition(":")
        known = {**bots.LEVELS, **bots.BASELINES}
        if a not in known or b not in known:
            print(f"bones arena: {pairing!r}: name two bots as A:B, from "
                  f"{', '.join(known)}", file=sys.stderr)
            return 2
        pairs.append((a, b))
    try:
        rules = Rules.preset(args.variant, **({"players": args.players} if args.players else {}))
    except ValueError as error:
        print(f"bones arena: {error}", file=sys.stderr)
        return 2
    duels = []
    with Progress() as progress:
        for a, b in pairs:
            task = progress.add_task(f"{a} vs {b}", total=args.deals + args.matches)

            def advance(n: int, task: TaskID = task) -> None:
                progress.advance(task, n)

            duels.append(duel(rules.variant, rules.players, a, b, args.deals, args.seed,
                              args.matches, args.jobs, advance, args.ray))
    print_table(duels)
    write_csv(duels, Path(args.csv))
    write_png(duels, Path(args.png))
    print(f"wrote {args.csv} and {args.png}")
    return 0


def serve(args: argparse.Namespace) -> int:
    import uvicorn
    from redis import Redis

    from bones.server import DEFAULT_DB, create_app
    from bones.server.edge.files import room_for_sockets
    from bones.server.edge.memory import settle
    from bones.server.protocol import MAX_FRAME
    from bones.server.tournaments.recurring import recurring

    settings = Settings(**{name: getattr(args, name) for name in TUNED
                           if getattr(args, name) is not None},
                        burst=max(Settings.burst, int(args.rate * 3)),
                        origins=tuple(args.origin), redis=args.redis, words=args.words,
                        smtp=args.smtp, mail_from=args.mail_from, signups=args.signups,
                        metrics_from=tuple(args.metrics_from.split(",")) if args.metrics_from
                        else Settings.metrics_from)
    setup_log(args.log_format)
    if (room := room_for_sockets(settings.max_sockets)) < settings.max_sockets:
        logging.getLogger("bones.server").warning(
            "this process holds %d sockets at most: its open-files limit leaves no room for "
            "--max-sockets %d (raise LimitNOFILE)", room, settings.max_sockets)
        settings = dataclasses.replace(settings, max_sockets=room)
    if args.smtp and not args.origin:  # a mail's links never go to a Host a request gave
        print("bones serve: --smtp needs --origin, the site's address its mails link to",
              file=sys.stderr)
        return 2
    if args.db is None and (args.redis or args.origin):
        # a site's process: never a second, empty site on a SQLite file of its own
        print("bones serve: a site (with --redis or --origin) needs its store: give --db "
              "or BONES_DB (the environment file may be missing)", file=sys.stderr)
        return 2
    try:
        planned = recurring(read_file(path)) if (path := args.config or os.environ.get(
            "BONES_CONFIG")) else []
    except ValueError as error:  # ConfigError too
        print(f"bones serve: {error}", file=sys.stderr)
        return 2
    if args.redis:
        def ping() -> None:
            with Redis.from_url(args.redis, socket_timeout=5) as client:
                client.ping()
        _once_it_answers(ping, "the site's Redis", args.redis)
    app = _once_it_answers(lambda: create_app(args.db or DEFAULT_DB, settings, planned),
                           "the store", args.db or DEFAULT_DB)
    settle()
    print(f"bones: open http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=4 * MAX_FRAME,
                ws_ping_interval=PING, ws_ping_timeout=PONG_WAIT, timeout_keep_alive=KEEP_ALIVE,
                log_config=None, proxy_headers=args.trust_proxy is not None,
                forwarded_allow_ips=args.trust_proxy)
    return 0


def _once_it_answers(make: Callable[[], T], what: str, url: str, every: float = 5.0) -> T:
    """``make()`` once ``what`` at ``url`` answers: a site's process started while
    PostgreSQL or Redis is away (a machine booting, an outage) waits for it, saying so
    in one line every ``every`` seconds, and no traceback; a stop signal ends the wait."""
    from bones.server.logs import OUTAGES, reason

    while True:
        try:
            return make()
        except OUTAGES as error:
            if url.startswith("sqlite"):
                raise
            logging.getLogger("bones.server").error(
                "%s at %s does not answer (%s); trying again in %g s", what,
                without_password(url), reason(getattr(error, "orig", None) or error), every)
            time.sleep(every)


def migrate(db: str | None, to: str) -> int:
    """``bones migrate --to``: the store's schema at revision ``to``, up or back."""
    from alembic.util import CommandError
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    from bones.server import DEFAULT_DB
    from bones.server.store import migrate as migrations

    engine = create_engine(db or DEFAULT_DB)
    try:
        was = migrations.revision(engine)
        if to == "head" or (was is not None and to > was):
            migrations.upgrade(engine, to)
        else:
            migrations.downgrade(engine, to)
        print(f"bones migrate: {without_password(db or DEFAULT_DB)} from {was} to "
              f"{migrations.revision(engine)}")
    except (SQLAlchemyError, CommandError) as error:
        print(f"bones migrate: {error}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    return 0


def warm() -> int:
    """``bones warm``: the engine's kernel and the thinking bots compiled for every game
    into their cache (``NUMBA_CACHE_DIR``), so that the first decisions after an install
    are made in time, not after minutes of compiling."""
    from bones.server.thinking.brains import prepare

    started = time.monotonic()
    prepare(("draw", "block", "kozel", "allfives"), ("hard", "expert"))
    print(f"bones warm: the bots' code is ready ({time.monotonic() - started:.0f} s)")
    return 0


def keep(args: argparse.Namespace) -> int:
    """``bones backup`` and ``bones restore``."""
    from bones.server import DEFAULT_DB
    from bones.server.store.backup import BackupError, backup, restore

    db = args.db or DEFAULT_DB
    try:
        if args.command == "backup":
            backup(db, Path(args.file))
        else:
            restore(db, Path(args.file), args.replace)
    except BackupError as error:
        print(f"bones {args.command}: {error}", file=sys.stderr)
        return 2
    way = "to" if args.command == "backup" else "from"
    print(f"bones {args.command}: {without_password(db)} {way} {args.file}")
    return 0


def worker(url: str, processes: int) -> int:
    """Work the bots' jobs of every server on ``url`` until stopped; a process that dies
    is started again (its job goes to another worker after ``fleet.RECLAIM`` seconds)."""
    import signal
    import time

    from bones.server.thinking.fleet import Crew

    crew = Crew(url, processes)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"bones worker: {processes} processes taking jobs from {without_password(url)}",
          flush=True)
    try:
        while True:
            crew.check()
            time.sleep(1)
    except (KeyboardInterrupt, SystemExit):
        crew.stop()
    return 0


def analyze(path: str, top: int, every: bool) -> int:
    from bones.analysis import analyze as grade

    match = _load("analyze", path)
    if match is None:
        return 2
    report = grade(match)
    print(f"{describe_rules(match.rules)}: {len(report.grades)} choices graded by "
          f"{report.grader.capitalize()} (expected points, from each player's own view)")
    if every:
        for g in report.grades:
            print(f"  round {g.round + 1} move {g.index + 1:>2} seat {g.seat}: {g.move:<10} "
                  f"{g.value:+7.2f}   best {g.best:<10} {g.best_value:+7.2f}   cost {g.loss:5.2f}")
    for seat in range(match.rules.players):
        mine = [g for g in report.grades if g.seat == seat]
        lost = sum(g.loss for g in mine)
        print(f"seat {seat}: {len(mine)} choices, {sum(g.loss == 0 for g in mine)} best, "
              f"{lost:.1f} points given away")
    print("costliest mistakes:" if report.mistakes(top) else "no mistake costs half a point")
    for g in report.mistakes(top):
        print(f"  round {g.round + 1} move {g.index + 1}: seat {g.seat} played {g.move} "
              f"({g.value:+.2f}); best was {g.best} ({g.best_value:+.2f}): cost {g.loss:.2f}")
    return 0


def verify(path: str, commitment: str | None) -> int:
    from bones.fair import FairnessError, verify_tournament
    from bones.fair import verify as check

    try:
        with open(path, encoding="utf-8") as source:
            record = json.load(source)
        tournament = isinstance(record, dict) and "games" in record
        said = (verify_tournament if tournament else check)(record, commitment)
        print(f"bones verify: {path}: fair: {said}")
    except (OSError, ValueError) as error:  # FairnessError and unreadable JSON included
        kind = "NOT fair" if isinstance(error, FairnessError) else "cannot check"
        print(f"bones verify: {path}: {kind}: {error}", file=sys.stderr)
        return 2
    return 0


def _load(command: str, path: str) -> Match | None:
    """A record file's match, or ``None`` after saying in one line why it cannot be read."""
    try:
        return load(path)
    except RecordError as error:
        print(f"bones {command}: {path}: {error}", file=sys.stderr)
        return None


def replay(path: str) -> int:
    match = _load("replay", path)
    if match is None:
        return 2
    for line in replay_lines(match):
        print(line)
    return 0


def play(args: argparse.Namespace) -> int:
    options = {"target": args.target}
    if args.players is not None:
        options["players"] = args.players
    try:
        rules = Rules.preset(args.variant, **options)
    except ValueError as error:
        print(f"bones play: {error}", file=sys.stderr)
        return 2
    match = Match(rules, seed=args.seed)
    opponents = {s: bots.get("easy", seed=None if args.seed is None else args.seed + s)
                 for s in range(1, rules.players)}
    print(f"bones: {describe_rules(rules)}. You are seat 0. Type a move like '6-3 right', "
          "or 'q' to stop.")
    announce = _Announcer(match)
    try:
        while not match.is_over:
            announce()
            rnd = match.round
            seat = rnd.turn
            assert seat is not None
            forced = rnd.forced()
            if seat == 0 and forced is None:
                _ask(match)
                continue
            move = forced or opponents[seat].choose(rnd.view(seat))
            match.push(move)
            if seat != 0 or forced is not None:
                print(f"  seat {seat}: {move}")
    except (EOFError, KeyboardInterrupt):
        print("\nstopped")
    announce()
    print(final_line(match))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(match.record(), out, indent=1)
        print(f"record saved to {args.save}")
    return 0


class _Announcer:
    """Prints each round's start and each result once, in order."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.rounds = self.results = 0

    def __call__(self) -> None:
        match = self.match
        while self.rounds < len(match.rounds) or self.results < len(match.results):
            if self.results < min(self.rounds, len(match.results)):
                print(f"{result_line(match.rules, match.results[self.results])}; score "
                      f"{score_text(match.scores_after[self.results])}")
                self.results += 1
                continue
            rnd = match.rounds[self.rounds]
            lead = rnd.lead
            opening = f"seat {lead.seat} leads {lead.tile}" if lead else f"seat {rnd.turn} leads"
            print(f"Round {self.rounds + 1}: {opening}")
            self.rounds += 1


def _ask(match: Match) -> None:
    rnd = match.round
    view = rnd.view(0)
    print(f"table: {table_line(rnd) or 'empty'} | counts {list(view.hand_counts)} | "
          f"boneyard {view.boneyard_count} | score {score_text(match.scores)}")
    print(f"your hand: {' '.join(str(t) for t in view.hand)}")
    print(f"you can play: {', '.join(str(m) for m in view.legal_moves)}")
    text = input("your move> ").strip()
    if text.lower() in ("q", "quit"):
        raise EOFError
    try:
        match.push(text)
    except IllegalMove as error:
        print(f"  not allowed: {error}")


if __name__ == "__main__":
    sys.exit(main())
