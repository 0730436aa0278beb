"""What a long list costs the server, against a real ``bones serve`` on SQLite:

1. one player's games list at 20,000 games, read as the app reads it (the first page,
   the next pages by key, and deep by offset);
2. an arena's standings at 1,000 entrants and 20,000 games, asked for by 20 readers
   once a second each, while a player plays an Easy bot beside them: the standings'
   answer times, and the player's move round trip with and without the readers.

The store is filled by the checkout under test itself (its own schema and migrations),
straight through its models. ``--src`` runs another checkout (its ``src`` first on the
path), so a change is measured against the code before it, on the same machine, in one
run:

    python bench/lists.py [--src /tmp/base/src] [--games 20000] [--calls 60] [--entrants 1000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from rich.console import Console
from rich.progress import track
from rich.table import Table

from abuse import round_trips, serve  # a server of lifted limits; a player's moves, timed

FILL = """
import random, sys
from datetime import UTC, datetime, timedelta
from sqlalchemy.orm import Session
from bones.server.store.records import Store
from bones.server.store.schema import AccountRow, GameRow, PlayRow, TableRow
from bones.server.names import name_key, skeleton
store = Store(sys.argv[1])
games, others = int(sys.argv[2]), int(sys.argv[3])
start = datetime(2026, 1, 1, tzinfo=UTC)
rng = random.Random(1)
with Session(store.engine) as session, session.begin():
    for n, name in enumerate(("Longplayer", "Other")):
        session.add(AccountRow(id=n + 1, name=name, name_key=name_key(name),
                               skeleton=skeleton(name), password="x"))
    session.flush()
    for n in range(games + others):
        table, at = f"t{n:07d}", start + timedelta(seconds=rng.randrange(10**8))
        account = 1 if n < games else 2
        session.add(TableRow(id=table, created=at, config={}, finished=at))
        session.flush()
        session.add(GameRow(table_id=table, variant="draw", finished=at,
                            names=["Longplayer" if account == 1 else "Other", "bot:easy"],
                            sides=[0, 1], scores=[100, 40], winner=0, record={},
                            accounts=[account, None], public=n % 10 != 0))
        session.flush()
        session.add(PlayRow(table_id=table, seat=0, account_id=account, finished=at))
        if n % 2000 == 1999:
            session.flush()
"""


ARENA = """
import random, sys
from datetime import UTC, datetime, timedelta
from sqlalchemy.orm import Session
from bones.server.store.records import Store
from bones.server.store.schema import (AccountRow, EntryRow, GameRow, TableRow,
                                       TournamentGameRow, TournamentRow)
from bones.server.names import name_key, skeleton
store = Store(sys.argv[1])
entrants, games = int(sys.argv[2]), int(sys.argv[3])
start = datetime.now(UTC) - timedelta(hours=1)
rng = random.Random(2)
table = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}],
         "options": {"target": None}, "clock": 15, "bank": 120, "public": True}
with Session(store.engine) as session, session.begin():
    session.add(TournamentRow(id="bencharena", kind="arena", name="Bench", spec=table,
                              starts=start, minutes=240, state="running"))
    for n in range(entrants):
        name = f"Entrant{n}"
        session.add(AccountRow(id=n + 1, name=name, name_key=name_key(name),
                               skeleton=skeleton(name), password="x"))
    session.flush()
    for n in range(entrants):
        session.add(EntryRow(tournament_id="bencharena", account_id=n + 1, joined=start))
    session.flush()
    for n in range(games):
        at = start + timedelta(seconds=n * 3000 / games)
        first, second = rng.sample(range(1, entrants + 1), 2)
        won = rng.random() < 0.5
        tid = f"g{n:07d}"
        session.add(TableRow(id=tid, created=at, config={}, finished=at))
        session.flush()
        session.add(GameRow(table_id=tid, variant="draw", finished=at,
                            names=[f"Entrant{first - 1}", f"Entrant{second - 1}"],
                            sides=[0, 1], scores=[60, 0] if won else [0, 60],
                            winner=0 if won else 1, record={"idle": []},
                            accounts=[first, second], public=True))
        session.add(TournamentGameRow(table_id=tid, tournament_id="bencharena",
                                      accounts=[first, second], tokens=[], created=at,
                                      places=[[0, False], [1, False]] if won
                                      else [[1, False], [0, False]], settled=at))
        if n % 2000 == 1999:
            session.flush()
"""


def filled(script: str, src: str | None, *args: int) -> Path:
    """A folder whose store ``bench.db`` the checkout at ``src`` filled by ``script``."""
    folder = Path(tempfile.mkdtemp(prefix="bones-lists-"))
    env = {**os.environ, **({"PYTHONPATH": src} if src else {})}
    subprocess.run([sys.executable, "-c", script, f"sqlite:///{folder / 'bench.db'}",
                    *map(str, args)], env=env, check=True)
    return folder


def timed(url: str, calls: int, label: str) -> list[float]:
    times = []
    with httpx.Client(timeout=60) as client:
        client.get(url).raise_for_status()  # the first read warms the page cache
        for _ in track(range(calls), description=label, transient=True):
            sent = time.perf_counter()
            client.get(url).raise_for_status()
            times.append(time.perf_counter() - sent)
    return times


def measure(src: str | None, games: int, calls: int, port: int) -> dict[str, list[float]]:
    server = serve(port, filled(FILL, src, games, games), src, [])
    base = f"http://127.0.0.1:{port}/api/games?name=Longplayer&limit=50"
    try:
        with httpx.Client() as client:
            page = client.get(base).json()
            deep = client.get(f"{base}&offset={games // 2}").json()
        return {
            "first page": timed(base, calls, "first page"),
            "next page by key": timed(f"{base}&before={page[-1]['id']}", calls, "by key"),
            "by key, half way": timed(f"{base}&before={deep[-1]['id']}", calls, "by key deep"),
            f"offset {games // 4:,}": timed(f"{base}&offset={games // 4}", calls, "offset"),
            f"offset {games // 2:,}": timed(f"{base}&offset={games // 2}", calls, "offset"),
        }
    finally:
        stop(server)


def cpu() -> str:
    """The processor's name, as /proc/cpuinfo gives it."""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    return platform.machine()


def readers(url: str, count: int, seconds: float) -> list[float]:
    """``count`` readers asking for the standings once a second each for ``seconds``:
    every answer's time."""
    times: list[float] = []
    stop = time.monotonic() + seconds

    def one(offset: float) -> None:
        with httpx.Client(timeout=30) as client:
            time.sleep(offset)
            while time.monotonic() < stop:
                sent = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):  # counted as long as waited for
                    client.get(url).raise_for_status()
                took = time.perf_counter() - sent
                times.append(took)
                time.sleep(max(0.0, 1.0 - took))

    threads = [threading.Thread(target=one, args=(n / count,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def standings(src: str | None, entrants: int, games: int, port: int, moves: int
              ) -> dict[str, list[float]]:
    """The arena's standings under 20 readers, and a player's moves with and without."""
    server = serve(port, filled(ARENA, src, entrants, games), src, [])
    url = f"http://127.0.0.1:{port}"
    try:
        quiet = round_trips(url, port, moves)
        first = time.perf_counter()  # the first read makes what the others are served
        httpx.get(f"{url}/api/tournaments/bencharena/standings?limit=100", timeout=300)
        made = [time.perf_counter() - first]
        asked: list[float] = []
        reading = threading.Thread(target=lambda: asked.extend(readers(
            f"{url}/api/tournaments/bencharena/standings?limit=100", 20, 30)))
        reading.start()
        time.sleep(3)
        loud = round_trips(url, port, moves)
        reading.join()
        return {"the first read": made, "standings": asked, "moves, quiet": quiet,
                "moves, 20 readers": loud}
    finally:
        stop(server)


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the server: asked, then made to."""
    server.terminate()
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(30)


def ms(times: list[float], q: float | None = None) -> str:
    if q is None:
        return f"{statistics.median(times) * 1000:.1f}"
    ordered = sorted(times)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", help="another checkout's src, measured first as the peer")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--only", choices=("games", "standings"), default=None)
    args = parser.parse_args()
    checkouts = {**({"before": args.src} if args.src else {}), "now": None}
    if args.only != "standings":
        show(f"One player's games list at {args.games:,} games (median / p99 ms, "
             f"{args.calls} calls) · {cpu()}",
             {run: measure(src, args.games, args.calls, args.port)
              for run, src in checkouts.items()})
    if args.only != "games":
        show(f"An arena's standings at {args.entrants:,} entrants and {args.games:,} games, "
             f"20 readers a second each (median / p99 ms) · {cpu()}",
             {run: standings(src, args.entrants, args.games, args.port, args.moves)
              for run, src in checkouts.items()})


def show(title: str, runs: dict[str, dict[str, list[float]]]) -> None:
    table = Table(title=title)
    table.add_column("read")
    for run in runs:
        table.add_column(run, justify="right")
    if "before" in runs:
        table.add_column("ratio", justify="right")
    for read in runs["now"]:
        cells = [f"{ms(r[read])} / {ms(r[read], 0.99)}" for r in runs.values()]
        if "before" in runs:
            ratio = statistics.median(runs["before"][read]) / statistics.median(runs["now"][read])
            cells.append(f"{ratio:.1f}x")
        table.add_row(read, *cells)
    Console().print(table)


if __name__ == "__main__":
    main()
