"""A soak: thousands of games through one bones server, to see that its memory and the
cost of a statistics call stay flat as games pile up.

Starts ``bones serve`` (SQLite in a temporary folder, the per-address limits lifted, a
finished table dropped from memory a second after its last socket closed, at the next
sweep). ``--clients``
scripted players play at once, ``--games`` in all: each creates a 2-player single-round
draw game against an Easy bot with no pause, plays random legal moves to the end and
leaves. Names rotate over 20 players, so each one's statistics cover a growing number of
games. At every tenth of the run: the server's resident memory, the tables it holds,
and the median time of ``GET /api/stats/{name}`` and ``GET /api/games?name=`` (20 calls
each).

    python bench/soak.py [--games 10000] [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.asyncio.client import connect

from server import start_server

NAMES = [f"Soak{n}" for n in range(20)]


async def play(http: httpx.AsyncClient, ws_url: str, name: str, rng: random.Random) -> None:
    """One game to its end against an Easy bot."""
    made = (await http.post("/api/tables", json={
        "variant": "draw", "options": {"players": 2, "target": None}, "bot_delay": 0,
        "seats": [{"kind": "human", "name": name}, {"kind": "bot", "level": "easy"}]})).json()
    table, token = made["table"]["id"], made["token"]
    async with connect(f"{ws_url}/ws/{table}?token={token}", max_size=2**22) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "state":
                continue
            if message["table"]["status"] == "over":
                return
            view = message["view"]
            if message["table"]["status"] == "playing" and view["turn"] == 0 \
                    and view["legal_moves"]:
                move = rng.choice(view["legal_moves"])
                await ws.send(json.dumps({"v": 1, "type": "move", "move": move}))


async def checkpoint(http: httpx.AsyncClient, pid: int, games: int) -> dict[str, Any]:
    async def timed(path: str) -> float:
        times = []
        for n in range(20):
            start = time.perf_counter()
            (await http.get(path.format(name=NAMES[n]))).raise_for_status()
            times.append(time.perf_counter() - start)
        return 1000 * statistics.median(times)

    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text()
               .splitlines() if line.startswith("VmRSS:"))
    return {"games": games, "rss_mib": rss / 1024,
            "tables": (await http.get("/api/metrics")).json()["tables"],
            "stats_ms": await timed("/api/stats/{name}"),
            "list_ms": await timed("/api/games?name={name}&limit=50")}


async def soak(url: str, pid: int, games: int, clients: int,
               progress: Progress) -> list[dict[str, Any]]:
    ws_url = url.replace("http", "ws", 1)
    task = progress.add_task("games", total=games)
    marks = sorted({max(1, games * n // 10) for n in range(11)} - {0})
    rows: list[dict[str, Any]] = []
    done = 0
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        rows.append(await checkpoint(http, pid, 0))
        for mark in marks:
            batch = mark - done
            queue = list(range(done, mark))

            async def player(seed: int, queue: list[int]) -> None:
                rng = random.Random(seed)
                while queue:
                    n = queue.pop()
                    await play(http, ws_url, NAMES[n % len(NAMES)], rng)
                    progress.advance(task)

            await asyncio.gather(*(player(done + c, queue)
                                   for c in range(min(clients, batch))))
            done = mark
            await asyncio.sleep(6.5)  # past the linger and a sweep: finished tables leave
            rows.append(await checkpoint(http, pid, done))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    console = Console()
    console.print(f"{platform.node()}: {platform.processor() or platform.machine()}, "
                  f"Python {platform.python_version()}; the server and the players share "
                  "the machine's cores")
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder), "--linger", "1")
        try:
            started = time.monotonic()
            with Progress(console=console) as progress:
                rows = asyncio.run(soak(url, process.pid, args.games, args.clients, progress))
            elapsed = time.monotonic() - started
        finally:
            process.terminate()
            process.wait()
    out = Table(title=f"bones serve: {args.games:,} games, {args.clients} players at once "
                f"({elapsed:.0f} s, {args.games / elapsed:.0f} games/s)")
    for name in ("games", "RSS MiB", "tables in memory", "stats call ms (median)",
                 "games list ms (median)"):
        out.add_column(name, justify="right")
    for r in rows:
        out.add_row(f"{r['games']:,}", f"{r['rss_mib']:.0f}", str(r["tables"]),
                    f"{r['stats_ms']:.2f}", f"{r['list_ms']:.2f}")
    console.print(out)


if __name__ == "__main__":
    main()
