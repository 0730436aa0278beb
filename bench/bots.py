"""Do busy bots stall people? Kozel tables of one scripted human and three Hard bots (no
pause, no think floor), the human moving at a person's pace (every 2 s ± 50%), on one
``bones serve``: the human's move round trip (client) and the server's read-to-broadcast
time, median and p99, with the bots thinking in the server's own threads
(``--bot-workers 0``, as before) and in a worker process (``--bot-workers 1``).

Then fairness: at one Kozel table a scripted human plays three Hard bots, and the time
from the human's move to the next Hard bot's move is measured, alone on the server and
beside a dozen all-Expert Kozel tables (``--busy``) that keep the one worker busy.

    python bench/bots.py [--tables 20] [--seconds 30] [--busy 12]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.asyncio.client import connect

from server import start_server

KOZEL = {"variant": "kozel", "options": {"target": None}, "bot_delay": 0,
         "seats": [{"kind": "human", "name": "Pace"}, {"kind": "bot", "level": "hard"},
                   {"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "hard"}]}


async def play(url: str, stop: float, rng: random.Random, pause: Callable[[], float],
               answered: Callable[[dict[str, Any]], bool], waits: list[float]) -> None:
    """Kozel rounds one after another until ``stop``, the human moving after ``pause()``
    seconds; ``waits`` gets the time from each move to the first state ``answered``."""
    ws_url = url.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while time.monotonic() < stop:
            made = (await http.post("/api/tables", json=KOZEL)).json()
            async with connect(f"{ws_url}/ws/{made['table']['id']}?token={made['token']}") as ws:
                sent: float | None = None
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] != "state":
                        continue
                    if sent is not None and answered(message):
                        waits.append(time.perf_counter() - sent)
                        sent = None
                    view = message["view"]
                    if message["table"]["status"] != "playing" or time.monotonic() > stop:
                        break
                    if view["turn"] == 0 and view["legal_moves"]:
                        await asyncio.sleep(pause())
                        move = rng.choice(view["legal_moves"])
                        await ws.send(json.dumps({"v": 1, "type": "move", "move": move}))
                        sent = time.perf_counter()


async def run(url: str, tables: int, seconds: float) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url) as http:
        before = (await http.get("/api/metrics")).json()["moves"]
    trips: list[float] = []
    stop = time.monotonic() + seconds
    await asyncio.gather(*(play(url, stop, rng, lambda r=rng: r.uniform(1.0, 3.0),
                                lambda _: True, trips)
                           for rng in (random.Random(n) for n in range(tables))))
    async with httpx.AsyncClient(base_url=url) as http:
        server = (await http.get("/api/metrics", params={"since": before})).json()
    trips.sort()
    return {"moves": len(trips), "client_median": 1000 * statistics.median(trips),
            "client_p99": 1000 * trips[int(0.99 * (len(trips) - 1))],
            "server_median": server["latency_ms"]["median"],
            "server_p99": server["latency_ms"]["p99"]}


def chose(message: dict[str, Any]) -> bool:
    """The state in which the seat after the human (a Hard bot) made its choice."""
    return any(a["seat"] == 1 and a["move"] not in ("draw", "pass") for a in message["actions"])


async def answers(url: str, stop: float, busy: int) -> list[float]:
    """How long the human waits for the first Hard bot's move, with ``busy`` all-Expert
    tables playing beside."""
    expert = {**KOZEL, "options": {"target": 150}, "bot_delay": 0.5,
              "seats": [{"kind": "bot", "level": "expert"}] * 4}
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for _ in range(busy):
            (await http.post("/api/tables", json=expert)).raise_for_status()
    waits: list[float] = []
    await play(url, stop, random.Random(7), lambda: 0.3, chose, waits)
    return waits


def fairness(console: Console, seconds: float, busy: int) -> None:
    rows = []
    for tables in (0, busy):
        with tempfile.TemporaryDirectory() as folder:
            process, url = start_server(Path(folder), "--bot-workers", "1", "--think-floor", "0")
            try:
                time.sleep(5)
                waits = sorted(asyncio.run(answers(url, time.monotonic() + seconds, tables)))
            finally:
                process.terminate()
                process.wait()
        rows.append((tables, len(waits), 1000 * statistics.median(waits),
                     1000 * waits[int(0.9 * (len(waits) - 1))]))
    out = Table(title="A Hard bot's answer to a person, beside all-Expert tables (1 worker)")
    for name in ("all-Expert tables", "answers", "median ms", "p90 ms"):
        out.add_column(name, justify="right")
    for tables, count, median, p90 in rows:
        out.add_row(str(tables), str(count), f"{median:.0f}", f"{p90:.0f}")
    console.print(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--busy", type=int, default=12)
    args = parser.parse_args()
    console = Console()
    console.print(f"{platform.processor() or platform.machine()}, Python "
                  f"{platform.python_version()}; server, workers and players share 2 cores")
    rows = []
    with Progress(console=console) as progress:
        task = progress.add_task("settings", total=2)
        for workers in (0, 1):
            with tempfile.TemporaryDirectory() as folder:
                process, url = start_server(Path(folder), "--bot-workers", str(workers),
                                            "--think-floor", "0")
                try:
                    time.sleep(5)  # the workers load their compiled kernel
                    rows.append({"workers": workers,
                                 **asyncio.run(run(url, args.tables, args.seconds))})
                finally:
                    process.terminate()
                    process.wait()
            progress.advance(task)
    out = Table(title=f"{args.tables} Kozel tables, 3 Hard bots each, a human every 2 s ± 50%")
    for name in ("bots think in", "human moves", "client median ms", "client p99 ms",
                 "server median ms", "server p99 ms"):
        out.add_column(name, justify="right")
    for r in rows:
        out.add_row("a worker process" if r["workers"] else "the server's threads",
                    str(r["moves"]), f"{r['client_median']:.1f}", f"{r['client_p99']:.1f}",
                    f"{r['server_median']:.2f}", f"{r['server_p99']:.2f}")
    console.print(out)
    fairness(console, args.seconds, args.busy)


if __name__ == "__main__":
    main()
