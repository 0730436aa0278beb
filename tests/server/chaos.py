"""A site of several processes, seats played through whichever of them is alive, and
chaos at it: games with scripted humans and bots while a random process (one of three
app servers or two bot workers) is killed with SIGKILL and started again every few
seconds. ``tests/server/test_chaos.py`` runs a short one, ``bench/chaos.py`` the long
one (200 games).

Afterwards every game must have finished, every record replay through the engine, and
every message any client was sent agree with its finished match (nothing shown was lost
or doubled) and name no tile its seat could not know.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import httpx
import redis
from sqlalchemy import create_engine, func, select
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bones import Match
from bones.server.sites.cluster import UNFINISHED
from bones.server.store.schema import EventRow, TableRow
from tests.server.knowledge import check_message
from tests.server.live import Message, Server, Worker, in_threads, my_turn, play_out

KINDS: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("draw", {"target": 50}, [{"kind": "human"}, {"kind": "human"}]),
    ("block", {"players": 3, "target": None}, [{"kind": "human"}] * 3),
    ("kozel", {"target": None}, [{"kind": "human"}, {"kind": "bot", "level": "hard"},
                                 {"kind": "bot", "level": "medium"},
                                 {"kind": "bot", "level": "easy"}]),
    ("allfives", {"target": None}, [{"kind": "human"}, {"kind": "bot", "level": "hard"}]),
    ("kozel", {"target": None}, [{"kind": "human"}, {"kind": "human"},
                                 {"kind": "bot", "level": "hard"}, {"kind": "human"}]),
]
"""The games played, in turn: humans alone, humans and bots, thinking bots included."""


@dataclass
class Report:
    games: int = 0
    finished: int = 0
    kills: list[str] = field(default_factory=list)
    handovers: list[float] = field(default_factory=list)
    """Seconds from killing an app process until every table it held had a new holder."""
    next_moves: list[tuple[float, float]] = field(default_factory=list)
    """Seconds from killing an app process until each table it held (and still open)
    stored its next move (what its players waited), and how long that turn had waited
    already at the kill (a bot's decision under way, a player thinking)."""
    control: list[tuple[float, float]] = field(default_factory=list)
    """The same for the tables other processes held at that moment: what a turn takes
    on this loaded machine anyway."""
    returns: int = 0
    """Times a client's socket dropped and it came back through another process."""
    lost_joins: int = 0
    """Joins done whose answer died with a process: a bot plays the seat."""
    problems: list[BaseException] = field(default_factory=list)
    messages: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        over = max(self.handovers) if self.handovers else None
        return [
            f"games {self.finished}/{self.games} finished in {self.seconds:.0f} s",
            f"kills {len(self.kills)} ({', '.join(sorted(set(self.kills)))}), "
            f"client returns {self.returns}, joins lost with a process {self.lost_joins}, "
            f"messages checked {self.messages}",
            "tables taken over after a kill: "
            + ("none held" if over is None else
               f"median {statistics.median(self.handovers):.2f} s, max {over:.2f} s "
               f"over {len(self.handovers)} kills"),
            "the next move of a table held by the killed process: "
            + _waits(self.next_moves),
            "the next move of a table another process held then (control): "
            + _waits(self.control),
        ]


def _waits(moves: list[tuple[float, float]]) -> str:
    if not moves:
        return "none"
    waits = sorted(after for after, _ in moves)
    slowest = max(moves)
    return (f"median {statistics.median(waits):.2f} s, 90th percentile "
            f"{waits[int(0.9 * (len(waits) - 1))]:.2f} s, max {slowest[0]:.2f} s over "
            f"{len(waits)} tables (its turn had begun {slowest[1]:.2f} s before the kill)")


def running(servers: list[Server]) -> list[Server]:
    """The servers whose process is alive."""
    return [s for s in servers if s.process is not None and s.process.poll() is None]


class Site:
    """Three app processes and two bot workers on one PostgreSQL and one Redis;
    ``leave_after``: the servers' seconds before a bot takes an absent player's seat."""

    def __init__(self, db: str, redis_url: str, leave_after: float = 60.0) -> None:
        self.redis_url = redis_url
        self.store = create_engine(db)
        flags = {"redis": redis_url, "bot-workers": 0}
        self.servers = [Server(db, leave_after=leave_after, limits=flags) for _ in range(3)]
        self.workers: list[Worker] = []

    def start(self) -> Site:
        for server in self.servers:
            server.start()
        self.workers = [Worker(self.redis_url), Worker(self.redis_url)]
        return self

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        for worker in self.workers:
            worker.stop()
        self.store.dispose()

    def alive(self) -> list[Server]:
        return running(self.servers)

    def call(self, rng: random.Random, act: Callable[[Server], Any], tries: int = 40) -> Any:
        """``act`` at a random live process, again at another while processes die."""
        for _ in range(tries):
            try:
                return act(rng.choice(self.alive()))
            except (httpx.HTTPError, IndexError):
                time.sleep(0.25)
        return act(rng.choice(self.alive()))


JOINS = 5
"""Times a seat is asked for before its join is taken as done with its answer lost."""
PACE = 0.15
"""Seconds a scripted human takes to move, on average: games last long enough to see
processes die under them."""


def play_through(alive: Callable[[], list[Server]], table: str, token: str | None,
                 rng: random.Random, deadline: float, pace: float = 0.0,
                 seen: list[Message] | None = None, signed_in: httpx.Client | None = None,
                 ) -> tuple[Message | None, int]:
    """Play one seat (its token's, or the account's ``signed_in``) to the end, coming
    back through any process ``alive`` gives whenever its socket drops (every message
    kept in ``seen``); the last state (``None`` if the deadline came first) and how many
    times the socket dropped."""
    last: Message | None = None
    returns = 0
    while time.monotonic() < deadline:
        try:
            client = rng.choice(alive()).socket(table, token, signed_in)
        except (ConnectionClosed, InvalidHandshake, OSError, IndexError):  # a process killed
            # mid-handshake answers no status line at all (InvalidMessage)
            time.sleep(0.25)
            continue
        try:
            last = play_out(client, rng, timeout=max(1.0, deadline - time.monotonic()),
                            pace=pace)
            if last["table"]["status"] == "over":
                break
        except (ConnectionClosed, OSError, TimeoutError):
            returns += 1
        finally:
            if seen is not None:
                seen.extend(client.received)
            client.close()
    return last, returns


def play_seats(seats: list[tuple[Server, str | httpx.Client]], table: str, seed: int,
               timeout: float) -> list[Message | None]:
    """Each seat (the process its socket goes to, and its token or its player signed
    in) played to the end in a thread of its own, coming back through that process
    whenever its socket drops, as the page does: a loaded process may lose its lease,
    and the relays of a table that moved close with 1012. Their last states."""
    deadline = time.monotonic() + timeout
    return in_threads([partial(_through, server, table, seat, random.Random(seed + i),
                               deadline) for i, (server, seat) in enumerate(seats)])


def _through(server: Server, table: str, seat: str | httpx.Client, rng: random.Random,
             deadline: float) -> Message | None:
    token, signed_in = (seat, None) if isinstance(seat, str) else (None, seat)
    return play_through(lambda: [server], table, token, rng, deadline,
                        signed_in=signed_in)[0]


def _human(site: Site, table: str, token: str, seed: int, deadline: float,
           seen: list[Message], report: Report) -> None:
    """One seat played to the end, through whichever processes are alive."""
    _, returns = play_through(site.alive, table, token, random.Random(seed), deadline, PACE,
                              seen)
    report.returns += returns


def _game(site: Site, number: int, deadline: float, report: Report,
          results: dict[str, list[list[Message]]]) -> None:
    rng = random.Random(number)
    variant, options, seats = KINDS[number % len(KINDS)]
    seats = [dict(s, name=f"C{number}") if n == 0 else s for n, s in enumerate(seats)]
    made = site.call(rng, lambda s: s.create(variant, seats, options=options))
    table = made["table"]["id"]
    tokens = [made["token"]]
    secret = made["invite"].split("#invite=")[1]
    for n, seat in enumerate(seats[1:], 1):
        if seat["kind"] == "human":
            for _ in range(JOINS):  # refused by a process going down: asked again
                try:
                    tokens.append(site.call(rng, lambda s, n=n: s.join(
                        table, f"C{number}-{n}", secret))["token"])
                    break
                except AssertionError:
                    time.sleep(0.5)
            else:  # joined, but the answer died with a process (the seat is no longer
                report.lost_joins += 1  # free, so asking again is refused)
    seen: list[list[Message]] = [[] for _ in tokens]
    results[table] = seen
    players = [threading.Thread(target=_human, args=(site, table, token, number * 10 + i,
                                                     deadline, seen[i], report))
               for i, token in enumerate(tokens)]
    for player in players:
        player.start()
    for player in players:
        player.join()


def _holders(client: redis.Redis, keys: list[str] | None = None) -> dict[str, int | None]:
    """The process id holding each lease (of ``keys``, or of every table)."""
    keys = [k.decode() for k in client.scan_iter("bones:lease:*")] if keys is None else keys
    owners = client.mget(keys) if keys else []
    return {k: None if o is None else int(o.decode().split(":")[1])
            for k, o in zip(keys, owners, strict=True)}


def _unheld(client: redis.Redis, keys: list[str], dead: int) -> bool:
    """Whether a table of ``keys`` still open waits for a new holder."""
    open_keys = [k for k in keys
                 if client.zscore(UNFINISHED, k.rsplit(":", 1)[1]) is not None]
    return any(pid in (None, dead) for pid in _holders(client, open_keys).values())


def _stored(site: Site, tables: list[str]) -> dict[str, tuple[int, float]]:
    """Each table of ``tables`` still open in the store: its last stored entry, and
    when it was stored (the epoch's seconds)."""
    with site.store.connect() as connection:
        rows = connection.execute(
            select(EventRow.table_id, func.max(EventRow.seq), func.max(EventRow.at))
            .join(TableRow, TableRow.id == EventRow.table_id)
            .where(EventRow.table_id.in_(tables), TableRow.finished.is_(None))
            .group_by(EventRow.table_id)).all()
    return {table: (seq, at.timestamp()) for table, seq, at in rows}


def _next_moves(site: Site, before: dict[str, tuple[int, float]], killed: float
                ) -> dict[str, tuple[float, float]]:
    """For each table of ``before`` (its last stored entry then): seconds from
    ``killed`` until it stored a later one (its next move, or its end), up to a minute,
    and how long its turn had waited already when the process was killed."""
    waited: dict[str, float] = {}
    while len(waited) < len(before) and time.time() - killed < 60:
        with site.store.connect() as connection:
            now = dict(connection.execute(
                select(EventRow.table_id, func.max(EventRow.seq))
                .where(EventRow.table_id.in_(set(before) - set(waited)))
                .group_by(EventRow.table_id)).all())
        for table, (seq, _) in before.items():
            if table not in waited and now.get(table, seq) > seq:
                waited[table] = time.time() - killed
        time.sleep(0.05)
    return {table: (after, killed - before[table][1]) for table, after in waited.items()}


def _havoc(site: Site, every: float, stop: threading.Event, report: Report,
           rng: random.Random) -> None:
    """Kill a random process every ``every`` seconds (± half) and start it again."""
    try:
        _kill_and_restart(site, every, stop, report, rng)
    except BaseException as error:
        report.problems.append(error)


def _kill_and_restart(site: Site, every: float, stop: threading.Event, report: Report,
                      rng: random.Random) -> None:
    client = redis.Redis.from_url(site.redis_url)
    while not stop.wait(every * rng.uniform(0.5, 1.5)):
        victim = rng.randrange(len(site.servers) + len(site.workers))
        if victim < len(site.servers):
            server = site.servers[victim]
            assert server.process is not None
            holders = _holders(client)
            held = [k for k, pid in holders.items() if pid == server.process.pid]
            before = _stored(site, [k.rsplit(":", 1)[1] for k in holders])
            killed, at = time.monotonic(), time.time()
            server.kill()
            report.kills.append("app")
            while (held and time.monotonic() - killed < 60
                   and _unheld(client, held, server.process.pid)):
                time.sleep(0.05)
            if held:
                report.handovers.append(time.monotonic() - killed)
            moved = _next_moves(site, before, at)
            ours = {k.rsplit(":", 1)[1] for k in held}
            report.next_moves += [m for table, m in moved.items() if table in ours]
            report.control += [m for table, m in moved.items() if table not in ours]
            server.start()
        else:
            index = victim - len(site.servers)
            site.workers[index].process.kill()
            site.workers[index].process.wait()
            report.kills.append("worker")
            site.workers[index] = Worker(site.redis_url)


def _record(site: Site, table: str) -> dict[str, Any] | None:
    """The finished game's record, or ``None`` if the table is not over."""
    def ask(server: Server) -> dict[str, Any] | None:
        try:
            return dict(server.get(f"/api/games/{table}/record"))
        except httpx.HTTPStatusError as error:
            if error.response.status_code == 404:
                return None
            raise
    return site.call(random.Random(0), ask)


def _stuck(site: Site, table: str, seen: list[list[Message]]) -> str:
    """Why a game did not finish, as far as the store, Redis and its seats tell."""
    with site.store.connect() as connection:
        last = connection.execute(
            select(EventRow.seq, EventRow.kind, EventRow.seat, EventRow.at)
            .where(EventRow.table_id == table).order_by(EventRow.seq.desc()).limit(1)).first()
    client = redis.Redis.from_url(site.redis_url)
    holder = client.get(f"bones:lease:{table}")
    listed = client.zscore(UNFINISHED, table)
    states = [[m for m in messages if m["type"] == "state"] for messages in seen]
    tails = [None if not s else (s[-1]["table"]["status"], s[-1]["table"]["seq"],
                                 "to move" if my_turn(s[-1]) else "waits")
             for s in states]
    return (f"table {table} did not finish: last stored entry {last}, lease "
            f"{holder!r}, unfinished score {listed}, processes alive "
            f"{len(site.alive())}; each seat's last state {tails}")


def run(db: str, redis_url: str, games: int, *, at_once: int = 6, every: float = 3.0,
        timeout: float = 600, seed: int = 0,
        progress: Callable[[int], None] | None = None) -> Report:
    """Play ``games`` games, ``at_once`` at a time, killing a process every ``every``
    seconds; check every message and record; the report."""
    report = Report(games=games)
    site = Site(db, redis_url, leave_after=5).start()
    stop = threading.Event()
    havoc = threading.Thread(target=_havoc, args=(site, every, stop, report,
                                                  random.Random(seed)))
    results: dict[str, list[list[Message]]] = {}
    started = time.monotonic()
    try:
        havoc.start()
        deadline = started + timeout
        queue = list(range(games))
        lock = threading.Lock()

        def player() -> None:
            while True:
                with lock:
                    if not queue:
                        return
                    number = queue.pop(0)
                try:
                    _game(site, number + seed * games, deadline, report, results)
                except BaseException as error:
                    report.problems.append(error)
                if progress is not None:
                    progress(1)

        threads = [threading.Thread(target=player) for _ in range(at_once)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stop.set()
        havoc.join()
        report.seconds = time.monotonic() - started
        for table, seen in results.items():
            record = _record(site, table)
            if record is None:
                report.problems.append(AssertionError(_stuck(site, table, seen)))
                continue
            match = Match.from_record(record)  # every move replays: none lost or doubled
            report.finished += match.is_over
            for messages in seen:
                for message in messages:
                    if message["type"] == "state":
                        check_message(message, match)
                        report.messages += 1
    finally:
        stop.set()
        site.stop()
    return report
