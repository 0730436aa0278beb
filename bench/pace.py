"""Tables at a person's pace, for 1, 2 and 3 app processes: how many tables a site on
this machine carries while a move still reaches everyone at once.

Every scripted human moves 2 s ± 50% after its turn comes, as people do. Two kinds:

- ``humans``: 2-player draw games between two scripted humans, each socket at a random
  app process (as a proxy would spread them);
- ``kozel``: Kozel, one scripted human and three Hard bots (the site's bot delay and
  think floor), the bots thinking in worker processes. Also the bots' CPU seconds per
  table and second, and from it the tables two cores could carry at most, and the share
  of the bots' decisions that took longer than the think floor (each holds its table up).

Measured: a move from being sent to the state that shows it arriving (the broadcast
as the mover receives it), the server's own figure, from reading the move to sending
every seat the result, and how late the server's event loop ran (its lag).

One app process is the embedded default (SQLite, its own worker pool); two or three
share a throwaway PostgreSQL and Redis (started here) with ``bones worker`` thinking for
the bots. The load generator runs in its own process and reports its event loop's lag
(if it lags, the figures measure the generator). A finished table is replaced by a new
one. A table plays one round, or with ``--target`` a match to that many points (the
site's default table, 100): between rounds each human says it is ready at the same pace,
and a table's arrival (made, joined, its sockets opened) is shared by the match's
rounds. A match lasts minutes (between scripted humans a 2-player draw match to 100
takes about 170 moves, 6 minutes; Kozel about 110, 2-3 minutes), so give ``--warm``
about that long: the first tables then end, and new ones come, as steadily as later.
The site runs the engine compiled, as ``scripts/start`` serves it (``scripts/native``);
``--engine python`` runs it as written. Results go to ``bench/pace-KIND.csv`` and
``bench/pace-KIND.png``; the stores live in ``$PACE_DIR`` (``/tmp`` by default).

    python bench/pace.py humans --processes 1,2,3 --tables 250,500,1000
    python bench/pace.py kozel --processes 1,2 --tables 10,20,40
    python bench/pace.py kozel --processes 1 --tables 225,275 --bot-workers 2
    python bench/pace.py humans --processes 1,3 --tables 1000 --seconds 30 --warm 360 \
        --affine --target 100

With ``--bot-workers N`` the results go to ``bench/pace-KIND-N-workers.*``; with
``--affine`` (a table's sockets at the process that made it, as a proxy that routes by
table would send them) to ``bench/pace-KIND...-affine.*``; with ``--target T`` to
``bench/pace-KIND...-to-T.*``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bones.rules import TARGETS  # noqa: E402
from bones.server.metrics import SLOW  # noqa: E402
from bones.server.tables.hub import Settings  # noqa: E402
from server import HUMANS, LIFTED  # noqa: E402

WARM = 40.0
"""Seconds of ramping up before measuring (``--warm``): the tables start spread over the
first three quarters, as people arrive, not all in one second."""
PACE = (1.0, 3.0)
"""Seconds a scripted human takes to move, or to say it is ready for the next round."""
BREAK = (2.0, 20.0)
"""Seconds a table's players take before the next game, at random: finished tables are
not all replaced in one wave."""


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


def decisions(urls: list[str]) -> tuple[float, float]:
    """The bots' decisions so far over the app processes, and how many of them took no
    longer than the think floor: one that takes longer holds its table up, so their
    share says directly whether the bots keep the tables at full pace."""
    floor, total, within = Settings().think_floor, 0.0, 0.0
    if floor not in SLOW:  # else no bucket ends at the floor, and every decision looks late
        raise ValueError(f"the think floor {floor} s is not a bound of the think histogram")
    for url in urls:
        for family in text_string_to_metric_families(httpx.get(f"{url}/metrics").text):
            for sample in family.samples:
                if sample.name == "bones_bot_think_seconds_bucket":
                    bound = float(sample.labels["le"])
                    total += sample.value if bound == float("inf") else 0.0
                    within += sample.value if bound == floor else 0.0
    return total, within


# -- the site ----------------------------------------------------------------------------


class Site:
    """``processes`` app processes (one: the embedded default) and, when several, a
    throwaway PostgreSQL and Redis and a ``bones worker``."""

    def __init__(self, processes: int, folder: Path, bot_workers: int = 1,
                 engine: str = "compiled") -> None:
        self.processes, self.folder, self.bot_workers = processes, folder, bot_workers
        self.env = dict(os.environ)
        if engine == "compiled":
            self.env["PYTHONPATH"] = subprocess.check_output(
                ["bash", ROOT / "scripts/native"], text=True).strip()
        self.apps: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []
        self.stores: list[tuple[str, Path]] = []

    def start(self) -> Site:
        # The bots' kernels are compiled (numba) on first use and cached beside the code;
        # a source change rebuilds the compiled copy without its cache. Cold, a worker
        # spent about a minute of a core compiling inside the measured window (0.25-0.9
        # cores of a human-only run's "bots CPU"): the cache is filled first, as a site
        # that has run before has it.
        subprocess.run([sys.executable, "-c", "from bones.server.thinking.brains import prepare; "
                        "prepare()"], env=self.env, check=True)
        flags = ["--bot-delay", "0.8", *LIFTED]
        if self.processes == 1:
            db = f"sqlite:///{self.folder / 'pace.db'}"
            flags += ["--bot-workers", str(self.bot_workers)]
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
                [sys.executable, "-m", "bones", "worker", "--redis", redis, "--processes",
                 str(self.bot_workers)],
                stdout=subprocess.DEVNULL, env=self.env))
        for n in range(self.processes):
            port = 8900 + n + 10 * random.Random().randrange(50)
            self.apps.append(subprocess.Popen(
                [sys.executable, "-m", "bones", "serve", "--port", str(port), "--db", db,
                 *flags], stdout=subprocess.DEVNULL, env=self.env))
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
        self.arrivals = 0
        """Tables made while measuring: with ``--target``, far fewer than rounds."""
        self.measuring = False
        self.cpu = 0.0
        """The generator's own CPU over the measured window, in cores."""


async def _human(ws: aiohttp.ClientWebSocketResponse, figures: Figures,
                 rng: random.Random, stop: float) -> None:
    """Play one seat at a person's pace; time each move until the state showing it. At
    a round's end of a match it says it is ready for the next as a person does, after a
    look at the hands (the same pace)."""
    sent: float | None = None
    readied = False
    async for frame in ws:
        if frame.type != aiohttp.WSMsgType.TEXT:
            return
        message = orjson.loads(frame.data)  # a sixth less of the generator's CPU than json
        if message["type"] != "state":
            continue
        if sent is not None and message["actions"]:
            if figures.measuring:
                figures.latency.append(time.perf_counter() - sent)
            sent = None
        view, status = message["view"], message["table"]["status"]
        if status not in ("playing", "between") or time.monotonic() > stop:
            return
        if status == "between":
            if not readied and message["you"] not in message["table"]["ready"]:
                readied = True
                await asyncio.sleep(rng.uniform(*PACE))
                await ws.send_str(json.dumps({"v": 1, "type": "ready"}))
            continue
        readied = False
        if view["turn"] == message["you"] and view["legal_moves"]:
            await asyncio.sleep(rng.uniform(*PACE))
            move = rng.choice(view["legal_moves"])
            sent = time.perf_counter()
            await ws.send_str(json.dumps({"v": 1, "type": "move", "move": move}))
            if figures.measuring:
                figures.moves += 1


class _Http:
    """One HTTP client per app process, eight requests at a time to each, and one for
    the sockets, as many as the tables hold. aiohttp, not httpx: a post cost the
    generator 1.9 ms of CPU through httpx against 0.7 ms through aiohttp (a table made,
    one process), and at 28 new tables a second the generator shares the app processes'
    two cores. (httpx's pool also matched every waiting request against every connection
    at each step: with a pool of hundreds of tables waiting, two thirds of the
    generator's CPU.) Its sockets too, not websockets' (whose frames are read in Python,
    and which looks up the environment's proxies for every socket opened): at 1,000
    single-round tables the generator took 0.36 cores instead of 0.43, and its loop's lag
    p99 59-75 ms instead of 114-140 (two runs each, interleaved). Both ask for
    permessage-deflate, as browsers do."""

    def __init__(self, urls: list[str]) -> None:
        self.clients = {url: aiohttp.ClientSession(
            url, connector=aiohttp.TCPConnector(limit=8),
            timeout=aiohttp.ClientTimeout(total=60)) for url in urls}
        self.sockets = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

    async def post(self, url: str, path: str, body: dict[str, Any]) -> Any:
        async with self.clients[url].post(path, json=body) as response:
            return await response.json()

    async def close(self) -> None:
        for client in self.clients.values():
            await client.close()
        await self.sockets.close()


@dataclass(frozen=True)
class Plan:
    """What the load generator plays: ``tables`` at once of ``kind``, each a round or a
    match to ``target``, measured for ``seconds`` after ``warm`` seconds of arrivals."""

    kind: str
    tables: int
    seconds: float
    affine: bool = False
    target: int | None = None
    warm: float = WARM


async def _table(plan: Plan, http: _Http, figures: Figures, rng: random.Random,
                 stop: float) -> None:
    urls = list(http.clients)
    while time.monotonic() < stop:
        maker = rng.choice(urls)
        if plan.kind == "humans":
            made = await http.post(maker, "/api/tables", {
                **HUMANS, "options": {**HUMANS["options"], "target": plan.target}})
            table = made["table"]["id"]
            secret = made["invite"].split("#invite=")[1]
            joined = await http.post(rng.choice(urls), f"/api/tables/{table}/join",
                                     {"name": "B", "invite": secret})
            tokens = [made["token"], joined["token"]]
        else:
            made = await http.post(maker, "/api/tables", {
                "variant": "kozel", "options": {"target": plan.target},
                "seats": [{"kind": "human", "name": "A"}] + [
                    {"kind": "bot", "level": "hard"}] * 3})
            table, tokens = made["table"]["id"], [made["token"]]
        if figures.measuring:
            figures.arrivals += 1
        at = (maker if plan.affine else rng.choice(urls)).replace("http", "ws", 1)
        sockets = [http.sockets.ws_connect(f"{at}/ws/{table}?token={token}", compress=15,
                                           max_msg_size=2**22) for token in tokens]
        opened = [await s for s in sockets]
        try:
            async with asyncio.timeout(max(0.0, stop - time.monotonic()) + 5):
                await asyncio.gather(*(_human(ws, figures, random.Random(rng.random()), stop)
                                       for ws in opened))
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


async def _generate(plan: Plan, urls: list[str]) -> Figures:
    figures = Figures()
    start = time.monotonic()
    stop = start + plan.warm + plan.seconds
    http = _Http(urls)

    async def later(n: int) -> None:
        rng = random.Random(n * 7919 + int(time.time()))
        await asyncio.sleep(rng.uniform(0, 0.75 * plan.warm))
        while time.monotonic() < stop:
            with contextlib.suppress(Exception):  # a refused table: the next one
                await _table(plan, http, figures, rng, stop)
            await asyncio.sleep(rng.uniform(*BREAK))

    async def measure() -> None:
        await asyncio.sleep(plan.warm)
        figures.measuring = True
        began, cpu = time.monotonic(), time.process_time()
        await asyncio.sleep(plan.seconds)
        figures.cpu = (time.process_time() - cpu) / (time.monotonic() - began)

    await asyncio.gather(_lag(figures, stop), measure(),
                         *(later(n) for n in range(plan.tables)))
    await http.close()
    return figures


def generate(plan: Plan, urls: list[str], out: multiprocessing.Queue[dict[str, Any]]) -> None:
    """The load generator's process: play, then send back what it measured. It holds
    as many sockets as the site, so it takes the site's collector settings: its own
    pauses would count as the site's."""
    from bones.server.edge.memory import settle

    settle()
    figures = asyncio.run(_generate(plan, urls))
    out.put({"moves": figures.moves, "arrivals": figures.arrivals,
             "samples": len(figures.latency),
             "p50_ms": 1000 * pct(figures.latency, 0.5),
             "p99_ms": 1000 * pct(figures.latency, 0.99),
             "lag_p99_ms": 1000 * pct(figures.lag, 0.99), "generator_cpu": figures.cpu})


# -- one level, and the whole run --------------------------------------------------------


def level(plan: Plan, processes: int, bot_workers: int = 1,
          engine: str = "compiled") -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=os.environ.get("PACE_DIR", "/tmp")) as folder:
        site = Site(processes, Path(folder), bot_workers, engine).start()
        try:
            context = multiprocessing.get_context("spawn")
            out: multiprocessing.Queue[dict[str, Any]] = context.Queue()
            generator = context.Process(target=generate, args=(plan, site.urls, out))
            generator.start()
            time.sleep(plan.warm)
            apps0, bots0 = site.cpu()
            before = [httpx.get(f"{url}/api/metrics").json()["moves"] for url in site.urls]
            asked0, kept0 = decisions(site.urls)
            began = time.monotonic()
            time.sleep(plan.seconds)  # the CPU of the measured window, not of the winding down
            elapsed = time.monotonic() - began
            apps1, bots1 = site.cpu()
            asked, kept = (b - a for a, b in zip((asked0, kept0), decisions(site.urls),
                                                  strict=True))
            result = out.get(timeout=plan.warm + plan.seconds + 600)
            server = [httpx.get(f"{url}/api/metrics", params={"since": n}).json()
                      for url, n in zip(site.urls, before, strict=True)]
            generator.join()
        finally:
            site.stop()
    bots_per_table = (bots1 - bots0) / elapsed / plan.tables
    return {"kind": plan.kind, "processes": processes, "tables": plan.tables,
            "target": plan.target, **result,
            "server_p99_ms": max(s["latency_ms"]["p99"] or 0.0 for s in server),
            "loop_lag_p99_ms": max(s["loop_lag_ms"]["p99"] or 0.0 for s in server),
            "moves_per_s": result["moves"] / plan.seconds,
            "arrivals_per_s": result["arrivals"] / plan.seconds,
            "app_cpu": (apps1 - apps0) / elapsed, "bot_cpu": (bots1 - bots0) / elapsed,
            "limit": (2 / bots_per_table if plan.kind == "kozel" and bots_per_table > 0
                      else None),
            "late": 1 - kept / asked if asked else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["humans", "kozel"])
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--tables", default="250,500,1000")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--bot-workers", type=int, default=1,
                        help="bot worker processes (the app's own, or one `bones worker`'s)")
    parser.add_argument("--affine", action="store_true",
                        help="a table's sockets go to the process that made it, as a proxy "
                             "routing by table would, instead of to any process")
    parser.add_argument("--target", type=int, choices=[t for t in TARGETS if t], default=None,
                        help="tables play matches to this many points (the site's default "
                             "is 100), not single rounds")
    parser.add_argument("--warm", type=float, default=WARM,
                        help="seconds of arrivals before measuring; with --target about a "
                             "match's length, so that new tables come as steadily as later")
    parser.add_argument("--engine", choices=["compiled", "python"], default="compiled",
                        help="the site's engine: compiled with mypyc, as scripts/start "
                             "serves it, or the Python modules as written")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    levels = [int(n) for n in args.tables.split(",")]
    console = Console()
    console.print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
                  "the site and the load generator share them")
    rows = []
    # Redrawn once a second, not ten times: the bar's thread takes a core's 0.5% from the
    # machine it measures.
    with Progress(console=console, refresh_per_second=1) as progress:
        task = progress.add_task(args.kind, total=len(counts) * len(levels))
        for processes in counts:
            for tables in levels:
                plan = Plan(args.kind, tables, args.seconds, args.affine, args.target,
                            args.warm)
                rows.append(level(plan, processes, args.bot_workers, args.engine))
                progress.advance(task)
    show(console, rows)
    name = args.kind if args.bot_workers == 1 else f"{args.kind}-{args.bot_workers}-workers"
    name += "-affine" if args.affine else ""
    name += f"-to-{args.target}" if args.target else ""
    write(rows, HERE / f"pace-{name}.csv", HERE / f"pace-{name}.png")


def show(console: Console, rows: list[dict[str, Any]]) -> None:
    kind = rows[0]["kind"]
    out = Table(title=f"{kind}: a move to its broadcast, at a person's pace")
    for name in ("processes", "tables", "human moves/s", "new tables/s", "p50 ms", "p99 ms",
                 "server p99 ms", "server lag p99 ms", "generator lag p99 ms", "app CPU",
                 "bots CPU", "generator CPU", "table limit", "bots past the floor"):
        out.add_column(name, justify="right")
    for r in rows:
        out.add_row(str(r["processes"]), str(r["tables"]), f"{r['moves_per_s']:.0f}",
                    f"{r['arrivals_per_s']:.1f}",
                    f"{r['p50_ms']:.1f}", f"{r['p99_ms']:.1f}", f"{r['server_p99_ms']:.1f}",
                    f"{r['loop_lag_p99_ms']:.1f}", f"{r['lag_p99_ms']:.1f}",
                    f"{r['app_cpu']:.2f}", f"{r['bot_cpu']:.2f}", f"{r['generator_cpu']:.2f}",
                    "-" if r["limit"] is None else f"{r['limit']:.0f}",
                    "-" if r["late"] is None else f"{100 * r['late']:.1f}%")
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
