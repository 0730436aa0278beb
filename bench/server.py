"""How many tables one bones server carries on this machine, over real WebSockets.

Starts ``bones serve`` in a child process (the default SQLite store, in a temporary
folder). At each load level, that many tables play at once, each a scripted human
client that answers at once with a random legal move and an Easy bot with no pause;
a finished table is replaced by a new one. The server measures, for every human move,
the time from the message being read to every seat being sent the result; the client
measures its round trip, which adds the time the message waited for a busy server to
read it. Printed per level: human moves a second, all moves a second, both latencies
(median, p99), then the table count at which each p99 passes 100 ms.

    python bench/server.py [--seconds 8] [--levels 1,4,16,64,128]

The quick-match line (``--quick 10000``): that many players queue for "Play now" at
once, in mixed games, player counts, targets and ratings (a tenth of Kozel's as
friends' pairs, a tenth of the casual ones taking bots after 20 s), into the server's
own matcher and hub over a SQLite store (or the queue in Redis with ``--redis URL``).
Printed: how many were seated, the time until each was (median, p99), and the CPU
spent per table made: choosing the group (the matcher), and all of the process's
(making the tables, storing them, starting their games).

    python bench/server.py --quick 10000 [--seconds 120] [--redis redis://...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import redis
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from sqlalchemy.orm import Session
from websockets.asyncio.client import connect

from bones.server.meeting.matching import Member, Ticket
from bones.server.meeting.seeking import Seeker
from bones.server.people.ratings import Ratings
from bones.server.store.records import Store
from bones.server.store.schema import AccountRow
from bones.server.tables.hub import Hub, Settings

HERE = Path(__file__).resolve().parent
LIFTED = ["--rest-rate", "1000000", "--tables-per-address", "1000000",
          "--sockets-per-address", "1000000", "--rate", "100000"]
"""Every client of a benchmark comes from one address, and its scripted players answer
faster than people: the per-address limits and a seat's message rate are off."""
HUMANS: dict[str, Any] = {"variant": "draw", "options": {"players": 2, "target": None},
                         "seats": [{"kind": "human", "name": "A"}, {"kind": "human"}]}
"""A single-round draw game between two people: the maker sits, the other joins."""
TABLE = {"variant": "draw", "options": {"players": 2, "target": None}, "bot_delay": 0,
         "seats": [{"kind": "human", "name": "Bench"}, {"kind": "bot", "level": "easy"}]}


class Load:
    """Counts what the scripted humans saw."""

    def __init__(self) -> None:
        self.human_moves = 0
        self.all_moves = 0
        self.round_trips: list[float] = []


async def one_table(url: str, ws_url: str, load: Load, stop: float, rng: random.Random) -> None:
    """Play tables one after another until ``stop``."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while time.monotonic() < stop:
            made = (await http.post("/api/tables", json=TABLE)).json()
            table, token = made["table"]["id"], made["token"]
            async with connect(f"{ws_url}/ws/{table}?token={token}", max_size=2**22) as ws:
                sent_at: float | None = None
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] != "state":
                        continue
                    if sent_at is not None:
                        load.round_trips.append(time.perf_counter() - sent_at)
                        sent_at = None
                    load.all_moves += len(message["actions"])
                    view = message["view"]
                    if message["table"]["status"] != "playing" or time.monotonic() > stop:
                        break
                    if view["turn"] == 0 and view["legal_moves"]:
                        sent_at = time.perf_counter()
                        move = rng.choice(view["legal_moves"])
                        await ws.send(json.dumps({"v": 1, "type": "move", "move": move}))
                        load.human_moves += 1


async def level(url: str, tables: int, seconds: float) -> dict[str, Any]:
    ws_url = url.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=url) as http:
        before = (await http.get("/api/metrics")).json()["moves"]
    load = Load()
    start = time.monotonic()
    stop = start + seconds
    await asyncio.gather(*(one_table(url, ws_url, load, stop, random.Random(n))
                           for n in range(tables)))
    elapsed = time.monotonic() - start
    async with httpx.AsyncClient(base_url=url) as http:
        server = (await http.get("/api/metrics", params={"since": before})).json()
    trips = sorted(load.round_trips) or [0.0]
    return {
        "tables": tables,
        "human_per_s": server["samples"] / elapsed,
        "moves_per_s": load.all_moves / elapsed,
        "median_ms": server["latency_ms"]["median"],
        "p99_ms": server["latency_ms"]["p99"],
        "client_p99_ms": 1000 * trips[min(len(trips) - 1, int(0.99 * len(trips)))],
        "client_median_ms": 1000 * statistics.median(trips),
    }


def start_server(folder: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    """``bones serve`` over a SQLite store in ``folder``, with the limits lifted and the
    flags in ``extra``; its process and URL."""
    port = 8790 + random.Random().randrange(100)
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "bones", "serve", "--port", str(port), "--db",
         f"sqlite:///{folder / 'bench.db'}", "--bot-delay", "0", *LIFTED, *extra])
    for _ in range(300):
        try:
            httpx.get(f"{url}/api/variants", timeout=1)
            return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


IDLE = 20.0
"""Seconds without anyone seated after which the quick-match line stops: those left wait
for players who are not coming (a pool one short, a rating far from all)."""
GAMES = [(("draw", 2), 30), (("block", 2), 15), (("draw", 3), 5), (("draw", 4), 5),
         (("block", 3), 5), (("block", 4), 5), (("kozel", 4), 20), (("allfives", 2), 15)]
"""The games the queued players seek, and how often (in percent)."""


def seekers(count: int, rng: random.Random, since: float) -> list[Ticket]:
    """``count`` players' tickets (accounts 1 to ``count``) in mixed games and ratings."""
    games, weights = zip(*GAMES, strict=True)
    tickets: list[Ticket] = []
    account = 0
    while account < count:
        variant, players = rng.choices(games, weights)[0]
        rated = rng.random() < 0.5
        pair = variant == "kozel" and rng.random() < 0.1 and account + 2 <= count
        members = []
        for _ in range(2 if pair else 1):
            account += 1
            rating = round(min(2400, max(600, rng.gauss(1500, 250))))
            members.append(Member(f"Q{account:05d}", account, rating))
        tickets.append(Ticket(
            f"q{len(tickets)}", variant, players, tuple(members), since, rated=rated,
            target=rng.choice([None, None, None, 50, 100, 150]), wanted=len(members),
            bots_after=20.0 if not rated and rng.random() < 0.1 else None))
    return tickets


async def quick(count: int, seconds: float, redis_url: str | None,
                console: Console) -> dict[str, Any]:
    """Queue ``count`` players at once into a real matcher and hub; what it took to seat
    them."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'quick.db'}")
        with Session(store.engine) as session, session.begin():
            session.add_all(AccountRow(name=f"Q{n:05d}", name_key=f"q{n:05d}", bot=False)
                            for n in range(1, count + 1))
        if redis_url:
            redis.Redis.from_url(redis_url).flushdb()
        hub = Hub(store, Settings(bot_workers=1, leave_after=3600, redis=redis_url))
        await hub.load()
        seeker = Seeker(hub, Ratings(store.engine), redis_url, stale=3600)
        now = time.time()
        tickets = seekers(count, random.Random(1), now)
        for start in range(0, len(tickets), 100):  # as seeks come in, many at once
            await asyncio.gather(*(seeker.book.put(t, now) for t in tickets[start:start + 100]))
        queued = time.time() - now
        started, cpu = time.monotonic(), time.process_time()
        await seeker.start()
        last, changed = 0, started
        with Progress(console=console) as progress:
            task = progress.add_task("players seated", total=count)
            while time.monotonic() - min(changed + IDLE, started + seconds) < 0:
                seated = len(seeker.figures.waits)
                progress.update(task, completed=seated)
                if seated == count:
                    break
                if seated != last:
                    last, changed = seated, time.monotonic()
                await asyncio.sleep(0.25)
        cpu = time.process_time() - cpu
        await seeker.close()
        figures = seeker.figures
        await hub.close()
    waits = sorted(figures.waits)
    return {"queued": count, "tickets": len(tickets), "queue_s": queued,
            "seated": len(waits), "tables": figures.groups,
            "median_s": statistics.median(waits) if waits else None,
            "p99_s": waits[int(0.99 * (len(waits) - 1))] if waits else None,
            "pairing_us": 1e6 * figures.pairing_cpu / max(1, figures.groups),
            "pairing_s": figures.pairing_cpu, "wall_s": time.monotonic() - started,
            "cpu_ms": 1e3 * cpu / max(1, figures.groups),
            "store": "Redis" if redis_url else "memory"}


def show_quick(console: Console, row: dict[str, Any]) -> None:
    out = Table(title=f"Play now: {row['queued']:,} players queued at once "
                      f"(queue in {row['store']}, SQLite store)")
    for name in ("seated", "tables", "median s", "p99 s", "pairing CPU µs/table",
                 "all CPU ms/table"):
        out.add_column(name, justify="right")
    out.add_row(f"{row['seated']:,}", f"{row['tables']:,}", f"{row['median_s']:.2f}",
                f"{row['p99_s']:.2f}", f"{row['pairing_us']:.0f}", f"{row['cpu_ms']:.2f}")
    console.print(out)
    console.print(f"{row['tickets']:,} tickets put in the queue in {row['queue_s']:.2f} s; "
                  f"{row['queued'] - row['seated']:,} players still waiting after "
                  f"{row['wall_s']:.0f} s (no one near enough in rating, target and game); "
                  f"pairing's CPU in all {row['pairing_s']:.2f} s, every pool looked at "
                  "every quarter second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--levels", default="1,4,16,32,64,128")
    parser.add_argument("--quick", type=int, default=0,
                        help="players to queue for Play now instead (the quick-match line)")
    parser.add_argument("--redis", default=None, help="the quick-match queue in this Redis")
    args = parser.parse_args()
    levels = [int(n) for n in args.levels.split(",")]
    console = Console()
    console.print(f"{platform.node()}: {platform.processor() or platform.machine()}, "
                  f"Python {platform.python_version()}; the server and the clients share "
                  "the machine's 2 cores")
    if args.quick:
        show_quick(console, asyncio.run(quick(args.quick, max(args.seconds, 120), args.redis,
                                              console)))
        return
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder))
        try:
            asyncio.run(level(url, 2, 2))  # warm up: compile, cache
            with Progress(console=console) as progress:
                task = progress.add_task("load levels", total=len(levels))
                for tables in levels:
                    rows.append(asyncio.run(level(url, tables, args.seconds)))
                    progress.advance(task)
        finally:
            process.terminate()
            process.wait()
    show(console, rows)


def show(console: Console, rows: list[dict[str, Any]]) -> None:
    out = Table(title="bones serve: tables at once (SQLite store, Easy bots, no pause)")
    for name in ("tables", "human moves/s", "all moves/s", "server median ms",
                 "server p99 ms", "client median ms", "client p99 ms"):
        out.add_column(name, justify="right")
    for r in rows:
        out.add_row(str(r["tables"]), f"{r['human_per_s']:.0f}", f"{r['moves_per_s']:.0f}",
                    f"{r['median_ms']:.2f}", f"{r['p99_ms']:.2f}",
                    f"{r['client_median_ms']:.2f}", f"{r['client_p99_ms']:.2f}")
    console.print(out)
    for label, column in (("server-side p99 (move arriving to broadcast sent)", "p99_ms"),
                          ("client round-trip p99 (includes waiting in the server's queue)",
                           "client_p99_ms")):
        over = [r["tables"] for r in rows if r[column] > 100]
        most = rows[-1]["tables"]
        where = f"at {over[0]} tables" if over else f"at none of the levels (to {most})"
        console.print(f"{label} passes 100 ms {where}")

if __name__ == "__main__":
    main()
