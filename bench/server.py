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
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parent
LIFTED = ["--rest-rate", "1000000", "--tables-per-address", "1000000",
          "--sockets-per-address", "1000000"]
"""Every client of a benchmark comes from one address: the per-address limits are off."""
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
    """``bones serve`` over a SQLite store in ``folder``, with the per-address limits
    lifted and the flags in ``extra``; its process and URL."""
    port = 8790 + random.Random().randrange(100)
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "bones", "serve", "--port", str(port), "--db",
         f"sqlite:///{folder / 'bench.db'}", "--bot-delay", "0", "--rate", "100000",
         *LIFTED, *extra])
    for _ in range(300):
        try:
            httpx.get(f"{url}/api/variants", timeout=1)
            return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--levels", default="1,4,16,32,64,128")
    args = parser.parse_args()
    levels = [int(n) for n in args.levels.split(",")]
    console = Console()
    console.print(f"{platform.node()}: {platform.processor() or platform.machine()}, "
                  f"Python {platform.python_version()}; the server and the clients share "
                  "the machine's 2 cores")
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
