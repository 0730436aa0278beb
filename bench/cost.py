"""What the server spends on a move, counted in instructions rather than timed.

CPU seconds on this machine (a virtual one, two cores shared with the load) vary by 15%
from run to run under the same load (1.33-1.81 ms a move, one server, the same code), so
a change worth 5% of a move is lost in them. Valgrind's callgrind counts the
instructions a process runs; they still vary, since what the server does depends on
timing (its timers, how many events a turn of the loop takes, when the collector runs),
but about three times less: 2.32-2.54 M a move over three runs of one checkout. This
runs ``bones serve`` (SQLite, the embedded default, no worker processes) under it, plays
a few games to warm it, then plays ``--games`` two-player draw games, one after another,
between scripted humans who answer at once. Each game's count is read in two parts: its
arrival (two HTTP posts, two sockets opened, the last game's closed) and its play (every
move read, stored and sent to both seats; the game's end kept), so that a game's fixed
cost does not count as its moves' (deals differ in length). Each ``--src`` is another
checkout's ``src`` to measure beside this one (the first is the reference for the
ratios).

    python bench/cost.py --games 40
    python bench/cost.py --games 40 --src /tmp/base/src

Needs Debian's ``valgrind``; a run of 30 games takes about two minutes a checkout (the
server runs some 50 times slower under it). Instructions leave out the kernel's work
(the socket calls), which no change to bones' Python moves.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from server import HUMANS, LIFTED  # noqa: E402

WARM = 4
"""Games played before counting: imports, caches and the store's first pages."""


async def _seat(ws: ClientConnection, rng: random.Random) -> int:
    moves = 0
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] != "state":
            continue
        if message["table"]["status"] != "playing":
            return moves
        view = message["view"]
        if view["turn"] == message["you"] and view["legal_moves"]:
            await ws.send(json.dumps({"v": 1, "type": "move",
                                      "move": rng.choice(view["legal_moves"])}))
            moves += 1
    return moves


async def _game(http: httpx.AsyncClient, ws_url: str, seed: int,
                arrived: Callable[[], None]) -> int:
    made = (await http.post("/api/tables", json=HUMANS)).json()
    table, secret = made["table"]["id"], made["invite"].split("#invite=")[1]
    joined = (await http.post(f"/api/tables/{table}/join",
                              json={"name": "B", "invite": secret})).json()
    sockets = [await connect(f"{ws_url}/ws/{table}?token={token}")
               for token in (made["token"], joined["token"])]
    await asyncio.sleep(0.05)  # each seat's first state sent
    arrived()
    try:
        return sum(await asyncio.gather(*(_seat(ws, random.Random(seed * 2 + n))
                                          for n, ws in enumerate(sockets))))
    finally:
        for ws in sockets:
            await ws.close()


async def play(url: str, games: int, arrived: Callable[[], None] = lambda: None,
               played: Callable[[], None] = lambda: None) -> int:
    """``games`` games one after another; the moves made. ``arrived`` is called once a
    game's players are seated and connected, ``played`` once it is over."""
    moves = 0
    async with httpx.AsyncClient(base_url=url, timeout=600) as http:
        for seed in range(games):
            moves += await _game(http, url.replace("http", "ws", 1), seed, arrived)
            await asyncio.sleep(0.05)  # the end's last state sent
            played()
    return moves


def count(src: Path, games: int, port: int,
          advance: Callable[[], None] = lambda: None) -> dict[str, float]:
    """Instructions of one server (its code from ``src``) over ``games`` games;
    ``advance`` is called after each."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind"
        env = {**os.environ, "PYTHONPATH": str(src)}
        server = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p",
             sys.executable, "-m", "bones", "serve", "--port", str(port),
             "--db", f"sqlite:///{folder}/cost.db", "--bot-workers", "0", *LIFTED],
            env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait(url, server)
            asyncio.run(play(url, WARM))
            _control("--zero", server.pid)
            dump = partial(_control, "--dump", server.pid)

            def played() -> None:
                dump()
                advance()

            moves = asyncio.run(play(url, games, dump, played))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(120)
        dumps = sorted(Path(folder).glob(f"{out.name}.{server.pid}.*"),
                       key=lambda path: int(path.suffix[1:]))
        counts = [_instructions(path) for path in dumps]
        if len(counts) != 2 * games:
            raise RuntimeError(f"{len(counts)} counts read for {games} games: "
                               f"{[path.name for path in dumps]}")
    arrivals, plays = sum(counts[0::2]), sum(counts[1::2])
    return {"games": games, "moves": moves, "per_move": plays / moves,
            "per_arrival": arrivals / games,
            "per_move_all": (plays + arrivals) / moves}


def _instructions(dump: Path) -> int:
    return next(int(line.split()[1]) for line in dump.read_text().splitlines()
                if line.startswith("summary:"))


def _wait(url: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if server.poll() is not None:
            raise RuntimeError("the server under valgrind stopped at start")
        try:
            httpx.get(f"{url}/healthz", timeout=5)
            return
        except httpx.HTTPError:
            time.sleep(0.5)
    raise RuntimeError("the server under valgrind did not start in five minutes")


def _control(command: str, pid: int) -> None:
    subprocess.run(["callgrind_control", command, str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--src", type=Path, action="append", default=[],
                        help="another checkout's src to count beside this one")
    parser.add_argument("--port", type=int, default=8988)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind (Debian: apt-get install valgrind)")
    console = Console()
    rows = []
    with Progress(console=console) as progress:
        for src in [HERE.parent / "src", *args.src]:
            task = progress.add_task(f"{src} under callgrind", total=args.games)
            rows.append((src, count(src.resolve(), args.games, args.port,
                                    partial(progress.advance, task))))
    show(console, rows)


def show(console: Console, rows: list[tuple[Path, dict[str, float]]]) -> None:
    table = Table(title="instructions the server runs (callgrind), in millions")
    for column in ("src", "games", "moves", "a move", "a game's arrival",
                   "a move, arrivals shared", "vs first"):
        table.add_column(column, justify="left" if column == "src" else "right")
    first = rows[0][1]["per_move_all"]
    for src, row in rows:
        table.add_row(str(src), f"{row['games']:.0f}", f"{row['moves']:.0f}",
                      f"{row['per_move'] / 1e6:.2f}", f"{row['per_arrival'] / 1e6:.1f}",
                      f"{row['per_move_all'] / 1e6:.2f}",
                      f"{row['per_move_all'] / first:.3f}")
    console.print(table)


if __name__ == "__main__":
    main()
