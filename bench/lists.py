"""What a long list costs the server: one player's games list at 20,000 games, read as the
app reads it (the first page, the next pages by key, and deep by offset), against a real
``bones serve`` on SQLite.

The store is filled by the checkout under test itself (its own schema and migrations),
straight through its models: 20,000 finished games of one account among 40,000 in all.
``--src`` runs another checkout (its ``src`` first on the path), so a change is measured
against the code before it, on the same machine, in one run:

    python bench/lists.py [--src /tmp/base/src] [--games 20000] [--calls 60]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from rich.console import Console
from rich.progress import track
from rich.table import Table

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


def serve(port: int, db: str, src: str | None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **({"PYTHONPATH": src} if src else {})}
    process = subprocess.Popen([sys.executable, "-m", "bones", "serve", "--port", str(port),
                                "--db", db, "--rest-rate", "1000000"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=1).raise_for_status()
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


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
    folder = Path(tempfile.mkdtemp(prefix="bones-lists-"))
    db = f"sqlite:///{folder / 'lists.db'}"
    env = {**os.environ, **({"PYTHONPATH": src} if src else {})}
    subprocess.run([sys.executable, "-c", FILL, db, str(games), str(games)], env=env,
                   check=True)
    server = serve(port, db, src)
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
        server.terminate()
        server.wait(30)


def cpu() -> str:
    """The processor's name, as /proc/cpuinfo gives it."""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    return platform.machine()


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
    args = parser.parse_args()
    runs = {}
    if args.src:
        runs["before"] = measure(args.src, args.games, args.calls, args.port)
    runs["now"] = measure(None, args.games, args.calls, args.port)
    table = Table(title=f"One player's games list at {args.games:,} games "
                  f"(median / p99 ms, {args.calls} calls) · {cpu()}")
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
