"""Tables at a person's pace, for 1, 2 and 3 app processes: how many tables a site on
this machine carries while a move still reaches everyone at once.

Every scripted human moves 2 s ± 50% after its turn comes, as people do. Two kinds:

- ``humans``: 2-player single-round draw games between two scripted humans, each socket
  at a random app process (as a proxy would spread them); measured: the time from a
  move being sent to the other player receiving it (move to broadcast).
- ``kozel``: Kozel, one scripted human and three Hard bots (the site's bot delay and
  think floor); measured: the human's round trip (the move sent to the state showing
  it), while the bots think in worker processes. Also the bots' CPU seconds per table
  and second, and from it the tables two cores could carry at most.

One app process is the embedded default (SQLite, its own worker pool); two or three
share a throwaway PostgreSQL and Redis (started here) with ``bones worker`` thinking for
the bots. The load generator runs in its own process and reports its event loop's lag
(if it lags, the figures measure the generator). A finished table is replaced by a new
one. Results go to ``bench/pace.csv`` and ``bench/pace.png``.

    python bench/pace.py humans --processes 1,2,3 --tables 250,500,1000
    python bench/pace.py kozel --processes 1,2 --tables 10,20,40
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import multiprocessing
import os
import platform
import random
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
from websockets.asyncio.client import ClientConnection, connect

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from server import LIFTED  # noqa: E402

WARM = 10.0
"""Seconds of ramping up (tables start spread over them) before measuring."""


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process and of its live children (a server's worker
    processes), in seconds."""
    total = 0.0
    for entry in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


# -- the site ----------------------------------------------------------------------------


class Site:
    """``processes`` app processes (one: the embedded default) and, when several, a
    throwaway PostgreSQL and Redis and a ``bones worker``."""

    def __init__(self, processes: int, folder: Path) -> None:
        self.processes, self.folder = processes, folder
        self.apps: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []
        self.stores: list[tuple[str, Path]] = []

    def start(self) -> Site:
        flags = ["--bot-delay", "0.8", "--rate", "100000", *LIFTED]
        if self.processes == 1:
            db = f"sqlite:///{self.folder / 'pace.db'}"
        else:
            pg, rd = self.folder / "pg", self.folder / "redis"
            self.folder.chmod(0o755)
            db = subprocess.check_output([ROOT / "scripts/pg-temp", "start", pg],
                                         text=True).strip()
            redis = subprocess.check_output([ROOT / "scripts/redis-temp", "start", rd],
                                            text=True).strip()
            self.stores = [("pg-temp", pg), ("redis-temp", rd)]
            flags += ["--redis", redis, "--bot-workers", "0"]
            self.workers.append(subprocess.Popen(
                [sys.executable, "-m", "bones", "worker", "--redis", redis, "--processes", "1"],
                stdout=subprocess.DEVNULL))
        for n in range(self.processes):
            port = 8900 + n + 10 * random.Random().randrange(50)
            self.apps.append(subprocess.Popen(
                [sys.executable, "-m", "bones", "serve", "--port", str(port), "--db", db,
                 *flags], stdout=subprocess.DEVNULL))
            self.urls.append(f"http://127.0.0.1:{port}")
        for url in self.urls:
            for _ in range(600):
                try:
                    httpx.get(f"{url}/readyz", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
        return self

    def stop(self) -> None:
        for process in self.apps + self.workers:
            process.terminate()
        for process in self.apps + self.workers:
            process.wait()
        for script, folder in self.stores:
            subprocess.run([ROOT / "scripts" / script, "stop", folder], check=False)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far: the app processes', and the bots' (workers)."""
        apps = sum(cpu_seconds(p.pid) for p in self.apps)
        bots = sum(cpu_seconds(p.pid) for p in self.workers)
        if not self.workers:  # one process: its worker pool is its children
            kids = [c for p in self.apps for c in _children(p.pid)]
            bots = sum(cpu_seconds(c) for c in kids)
            apps -= bots
        return apps, bots


# -- the load generator (its own process) ------------------------------------------------


class Figures:
    def __init__(self) -> None:
        self.latency: list[float] = []
        self.lag: list[float] = []
        self.moves = 0
        self.measuring = False


async def _human(ws: ClientConnection, figures: Figures, rng: random.Random,
                 others: list[dict[str, float]], mine: dict[str, float],
                 stop: float) -> None:
    """Play one seat at a person's pace; note when the others' moves reach it."""
    sent: float | None = None
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] != "state":
            continue
        now = time.perf_counter()
        for action in message["actions"]:
            for other in others:
                at = other.pop(f"{action['seat']}:{action['move']}", None)
                if at is not None and figures.measuring:
                    figures.latency.append(now - at)
        if sent is not None and message["actions"] and not others:
            if figures.measuring:
                figures.latency.append(now - sent)  # a round trip (no other human)
            sent = None
        view = message["view"]
        if message["table"]["status"] != "playing" or time.monotonic() > stop:
            return
        if view["turn"] == message["you"] and view["legal_moves"]:
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            move = rng.choice(view["legal_moves"])
            sent = time.perf_counter()
            mine[f"{message['you']}:{move}"] = sent
            await ws.send(json.dumps({"v": 1, "type": "move", "move": move}))
            if figures.measuring:
                figures.moves += 1


async def _table(kind: str, urls: list[str], figures: Figures, rng: random.Random,
                 stop: float) -> None:
    while time.monotonic() < stop:
        home = rng.choice(urls)
        async with httpx.AsyncClient(base_url=home, timeout=60) as http:
            if kind == "humans":
                made = (await http.post("/api/tables", json={
                    "variant": "draw", "options": {"players": 2, "target": None},
                    "seats": [{"kind": "human", "name": "A"}, {"kind": "human"}]})).json()
                table = made["table"]["id"]
                secret = made["invite"].split("#invite=")[1]
                other = httpx.AsyncClient(base_url=rng.choice(urls), timeout=60)
                async with other:
                    joined = (await other.post(f"/api/tables/{table}/join",
                                               json={"name": "B", "invite": secret})).json()
                tokens = [made["token"], joined["token"]]
            else:
                made = (await http.post("/api/tables", json={
                    "variant": "kozel", "options": {"target": None},
                    "seats": [{"kind": "human", "name": "A"}] + [
                        {"kind": "bot", "level": "hard"}] * 3})).json()
                table, tokens = made["table"]["id"], [made["token"]]
        sockets = [connect(f"{rng.choice(urls).replace('http', 'ws', 1)}/ws/{table}"
                           f"?token={token}", max_size=2**22) for token in tokens]
        opened = [await s for s in sockets]
        sent: list[dict[str, float]] = [{} for _ in opened]
        try:
            async with asyncio.timeout(max(0.0, stop - time.monotonic()) + 5):
                await asyncio.gather(*(
                    _human(ws, figures, random.Random(rng.random()),
                           [sent[j] for j in range(len(opened)) if j != i], sent[i], stop)
                    for i, ws in enumerate(opened)))
        except TimeoutError:
            pass  # the run is over; a table still waiting for a move is left
        finally:
            for ws in opened:
                await ws.close()


async def _lag(figures: Figures, stop: float) -> None:
    loop = asyncio.get_running_loop()
    while time.monotonic() < stop:
        before = loop.time()
        await asyncio.sleep(0.05)
        if figures.measuring:
            figures.lag.append(loop.time() - before - 0.05)


async def _generate(kind: str, urls: list[str], tables: int, seconds: float) -> Figures:
    figures = Figures()
    start = time.monotonic()
    stop = start + WARM + seconds

    async def later(n: int) -> None:
        await asyncio.sleep(WARM * 0.8 * n / tables)
        while time.monotonic() < stop:
            try:
                await _table(kind, urls, figures, random.Random(n * 7919 + int(time.time())),
                             stop)
            except Exception:
                await asyncio.sleep(0.5)

    async def measure() -> None:
        await asyncio.sleep(WARM)
        figures.measuring = True

    await asyncio.gather(_lag(figures, stop), measure(), *(later(n) for n in range(tables)))
    return figures


def generate(kind: str, urls: list[str], tables: int, seconds: float,
             out: multiprocessing.Queue[dict[str, Any]]) -> None:
    """The load generator's process: play, then send back what it measured."""
    figures = asyncio.run(_generate(kind, urls, tables, seconds))
    out.put({"moves": figures.moves, "samples": len(figures.latency),
             "p50_ms": 1000 * pct(figures.latency, 0.5),
             "p99_ms": 1000 * pct(figures.latency, 0.99),
             "lag_p99_ms": 1000 * pct(figures.lag, 0.99)})


# -- one level, and the whole run --------------------------------------------------------


def level(kind: str, processes: int, tables: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        site = Site(processes, Path(folder)).start()
        try:
            context = multiprocessing.get_context("spawn")
            out: multiprocessing.Queue[dict[str, Any]] = context.Queue()
            generator = context.Process(target=generate,
                                        args=(kind, site.urls, tables, seconds, out))
            generator.start()
            time.sleep(WARM)
            apps0, bots0 = site.cpu()
            began = time.monotonic()
            result = out.get(timeout=WARM + seconds + 600)
            elapsed = time.monotonic() - began
            apps1, bots1 = site.cpu()
            generator.join()
        finally:
            site.stop()
    bots_per_table = (bots1 - bots0) / elapsed / tables
    return {"kind": kind, "processes": processes, "tables": tables, **result,
            "moves_per_s": result["moves"] / seconds,
            "app_cpu": (apps1 - apps0) / elapsed, "bot_cpu": (bots1 - bots0) / elapsed,
            "limit": 2 / bots_per_table if kind == "kozel" and bots_per_table > 0 else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["humans", "kozel"])
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--tables", default="250,500,1000")
    parser.add_argument("--seconds", type=float, default=40)
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    levels = [int(n) for n in args.tables.split(",")]
    console = Console()
    console.print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
                  "the site and the load generator share them")
    rows = []
    with Progress(console=console) as progress:
        task = progress.add_task(args.kind, total=len(counts) * len(levels))
        for processes in counts:
            for tables in levels:
                rows.append(level(args.kind, processes, tables, args.seconds))
                progress.advance(task)
    show(console, rows)
    write(rows, HERE / f"pace-{args.kind}.csv", HERE / f"pace-{args.kind}.png")


def show(console: Console, rows: list[dict[str, Any]]) -> None:
    kind = rows[0]["kind"]
    measured = "move to the other player" if kind == "humans" else "the human's round trip"
    out = Table(title=f"{kind}: {measured}, at a person's pace")
    for name in ("processes", "tables", "human moves/s", "p50 ms", "p99 ms",
                 "generator lag p99 ms", "app CPU", "bots CPU", "table limit"):
        out.add_column(name, justify="right")
    for r in rows:
        out.add_row(str(r["processes"]), str(r["tables"]), f"{r['moves_per_s']:.0f}",
                    f"{r['p50_ms']:.1f}", f"{r['p99_ms']:.1f}", f"{r['lag_p99_ms']:.1f}",
                    f"{r['app_cpu']:.2f}", f"{r['bot_cpu']:.2f}",
                    "-" if r["limit"] is None else f"{r['limit']:.0f}")
    console.print(out)


def write(rows: list[dict[str, Any]], table: Path, chart: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with table.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    fig, ax = plt.subplots(figsize=(6, 4))
    for processes in sorted({r["processes"] for r in rows}):
        mine = [r for r in rows if r["processes"] == processes]
        ax.plot([r["tables"] for r in mine], [r["p99_ms"] for r in mine], "o-",
                label=f"{processes} app process{'es' if processes > 1 else ''} (p99)")
        ax.plot([r["tables"] for r in mine], [r["p50_ms"] for r in mine], "x--", alpha=0.5,
                label=f"{processes} (median)")
    ax.set_xlabel("tables at once")
    ax.set_ylabel("ms")
    ax.set_yscale("log")
    ax.set_title(f"bones at a person's pace: {rows[0]['kind']}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(chart, dpi=120)
    print(f"wrote {table} and {chart}")


if __name__ == "__main__":
    main()
