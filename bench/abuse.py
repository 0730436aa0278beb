"""What one abusive client costs everyone else: the two attacks on the public site
that took the most, measured against a real ``bones serve``.

1. A flooding socket: one client opens lobby sockets and sends pings as fast as it can
   (opening another whenever one is closed). Meanwhile a player plays a table against
   an Easy bot; printed: the round trip of the player's moves (median, p95) before and
   during the flood, and what the flooder got (answers, closes).
2. A burst of sign-ups: 60 at once from one address. Printed: the answers by status and
   the server's peak memory (its resident set's high-water mark).

``--src`` runs another checkout's server (its ``src`` first on the path), so a change is
measured against the code before it, on the same machine, in one run:

    python bench/abuse.py [--src /tmp/base/src] [--moves 40] [--flags=--signups-per-address=1000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

FLOODER = "127.0.0.2"
"""The flooder's address: another of the loopback's."""
LIFTED = ["--rest-rate", "100000", "--tables-per-address", "100000",
          "--sockets-per-address", "64", "--think-floor", "0", "--bot-delay", "0"]


def serve(port: int, folder: Path, src: str | None,
          flags: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if src:
        env["PYTHONPATH"] = src
    process = subprocess.Popen([sys.executable, "-m", "bones", "serve", "--port", str(port),
                                "--db", f"sqlite:///{folder / 'bench.db'}", *LIFTED, *flags],
                               env=env, stdout=subprocess.DEVNULL)
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=1).raise_for_status()
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def round_trips(url: str, port: int, moves: int) -> list[float]:
    """A player's moves against an Easy bot: seconds from sending each to its state."""
    times: list[float] = []
    rng = random.Random(1)
    while len(times) < moves:
        made = httpx.post(f"{url}/api/tables", timeout=60, json={
            "variant": "draw", "options": {"target": None},
            "seats": [{"kind": "human", "name": f"P{rng.randrange(10**6)}"},
                      {"kind": "bot", "level": "easy"}]}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/{made['table']['id']}?token={made['token']}",
                     max_queue=None) as ws:
            state = json.loads(ws.recv(timeout=60))
            while len(times) < moves:
                if state["type"] == "state" and state["table"]["status"] == "over":
                    break
                view = state.get("view") or {}
                if (state["type"] != "state" or view.get("turn") != state["you"]
                        or not view.get("legal_moves")):
                    state = json.loads(ws.recv(timeout=60))
                    continue
                seq = state["table"]["seq"]
                sent = time.perf_counter()
                move = rng.choice(view["legal_moves"])
                ws.send(json.dumps({"v": 1, "type": "move", "move": move}))
                while True:
                    state = json.loads(ws.recv(timeout=60))
                    if state["type"] == "state" and state["table"]["seq"] > seq:
                        times.append(time.perf_counter() - sent)
                        break
    return times


def flood(port: int, stop: threading.Event, tally: Counter[str]) -> None:
    """Lobby sockets sending pings as fast as they go, another opened when one closes,
    from an address of its own (the player's is another)."""
    while not stop.is_set():
        try:
            sock = socket.create_connection(("127.0.0.1", port), source_address=(FLOODER, 0))
            with connect(f"ws://127.0.0.1:{port}/ws/lobby", max_queue=None, sock=sock) as ws:
                tally["opened"] += 1
                while not stop.is_set():
                    ws.send('{"v": 1, "type": "ping"}')
                    tally["sent"] += 1
        except ConnectionClosed:
            tally["closed"] += 1
        except OSError:
            time.sleep(0.05)


def peak_mib(process: subprocess.Popen[bytes]) -> float:
    status = Path(f"/proc/{process.pid}/status").read_text()
    return int(next(x for x in status.splitlines() if x.startswith("VmHWM:")).split()[1]) / 1024


def sign_ups(url: str, count: int) -> Counter[int]:
    answers: Counter[int] = Counter()

    def one(n: int) -> None:
        try:
            answers[httpx.post(f"{url}/api/signup", timeout=300, json={
                "name": f"Burst{n}", "password": "correct horse"}).status_code] += 1
        except httpx.HTTPError:
            answers[0] += 1

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def ms(times: list[float], q: float) -> str:
    ordered = sorted(times)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=None, help="another checkout's src to run")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--flags", default="", help="more flags for the server, e.g. "
                        "--signups-per-address=1000 (so the burst meets the hasher alone)")
    args = parser.parse_args()
    url = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as folder:
        process = serve(args.port, Path(folder), args.src, args.flags.split())
        try:
            quiet = round_trips(url, args.port, args.moves)
            stop, tally = threading.Event(), Counter[str]()
            flooder = threading.Thread(target=flood, args=(args.port, stop, tally), daemon=True)
            flooder.start()
            time.sleep(2)
            loud = round_trips(url, args.port, args.moves)
            stop.set()
            flooder.join(timeout=30)
            rss_before = peak_mib(process)
            answers = sign_ups(url, 60)
            rss_after = peak_mib(process)
        finally:
            process.terminate()
            process.wait(timeout=30)
    table = Table(title=f"bones under abuse ({args.src or 'this checkout'}; "
                  f"{platform.processor() or platform.machine()})")
    table.add_column("what")
    table.add_column("figure", justify="right")
    table.add_row("move round trip, quiet: median / p95 ms",
                  f"{statistics.median(quiet) * 1000:.1f} / {ms(quiet, 0.95)}")
    table.add_row("move round trip, one client flooding: median / p95 ms",
                  f"{statistics.median(loud) * 1000:.1f} / {ms(loud, 0.95)}")
    table.add_row("flooder: pings sent, sockets opened, closed by the server",
                  f"{tally['sent']}, {tally['opened']}, {tally['closed']}")
    table.add_row("60 sign-ups at once: answers", ", ".join(
        f"{status or 'failed'}: {n}" for status, n in sorted(answers.items())))
    table.add_row("peak memory before / after the sign-ups, MiB",
                  f"{rss_before:.0f} / {rss_after:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
