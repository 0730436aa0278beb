"""One arena of a thousand scripted players on one server: how long a wave of pairing
takes, and how long the tournament's page takes to make and to reach every player.

Starts ``bones serve`` (SQLite, in a temporary folder, the per-address limits lifted).
Each scripted player is a guest who joins the arena, keeps the notice socket open (it is
here), watches the tournament's page over its socket, and does what the app does: while
not at a game it waits for its notice socket to say it is seated (asking for its game
every 10 s should that be lost, as the app does), and when seated plays it at a person's
pace (``--pace`` seconds a move, ± half), then waits to be paired again. Every game is
the draw game, one round.

Measured: the first wave (everyone waiting at the start, paired at once), from the
arena's start to the last player seated as the players see it (told on their notice
socket) and as the server times it (its standings, pairing
and every table made: ``bones_tournament_wave_seconds``); the later waves (a few players
each, as games end); a page made (``bones_tournament_page_seconds``) and pushed: for
every page, the time from its first to its last arrival at the thousand sockets watching,
and its size; the server's event loop lag and the generator's (if the generator lags, the
figures measure it). No peer: no other domino site's tournament server can be run here.

    python bench/tournament.py [--players 1000] [--minutes 3] [--pace 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import platform
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from prometheus_client.parser import text_string_to_metric_families
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import start_server

ASK = 10.0
"""Seconds between two asks for one's game, as the app asks should its push be lost."""


@dataclass
class Figures:
    seated_first: list[float] = field(default_factory=list)
    """Seconds from the start until each player learnt its first seat."""
    arrivals: dict[str, list[float]] = field(default_factory=dict)
    """Each page pushed (by its digest): when it reached each socket."""
    sizes: dict[str, int] = field(default_factory=dict)
    games: int = 0
    lag: list[float] = field(default_factory=list)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Player:
    """One scripted entrant, with its own session cookie."""

    def __init__(self, http: aiohttp.ClientSession, sockets: aiohttp.ClientSession, url: str,
                 cookie: str, rng: random.Random) -> None:
        """``http`` asks (a few connections at a time), ``sockets`` holds the sockets
        (as many as are open)."""
        self.http, self.sockets, self.url, self.rng = http, sockets, url, rng
        self.headers = {"cookie": f"bones_session={cookie}"}
        self.ws_url = url.replace("http", "ws", 1)
        self.seats: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def join(self, tournament: str) -> None:
        async with self.http.post(f"{self.url}/api/tournaments/{tournament}/join",
                                  headers=self.headers) as response:
            response.raise_for_status()

    async def watch(self, tournament: str, figures: Figures, stop: float) -> None:
        """The tournament's page: every push's arrival, until the end."""
        async with self.sockets.ws_connect(f"{self.ws_url}/ws/tournament/{tournament}",
                                        headers=self.headers) as ws:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT or time.monotonic() > stop:
                    return
                if '"type":"tournament"' not in frame.data[:40]:
                    continue
                digest = hashlib.blake2b(frame.data.encode(), digest_size=8).hexdigest()
                figures.arrivals.setdefault(digest, []).append(time.perf_counter())
                figures.sizes[digest] = len(frame.data)

    async def here(self, stop: float) -> None:
        """The notice socket: here while it is open; it says when the player is seated."""
        async with self.sockets.ws_connect(f"{self.ws_url}/ws/me", headers=self.headers) as ws:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT or time.monotonic() > stop:
                    return
                message = orjson.loads(frame.data)
                if message["type"] == "paired":
                    self.seats.put_nowait(message)

    async def play(self, tournament: str, started: float, figures: Figures, pace: float,
                   stop: float) -> None:
        """Wait to be seated (asking every :data:`ASK` seconds); play each game."""
        played: set[str] = set()
        first = True
        while time.monotonic() < stop:
            try:
                seat: dict[str, Any] | None = await asyncio.wait_for(self.seats.get(), ASK)
            except TimeoutError:
                async with self.http.get(f"{self.url}/api/tournaments/{tournament}/game",
                                         headers=self.headers) as response:
                    seat = await response.json() if response.status == 200 else None
            if seat is None or seat["table"] in played:
                continue
            if first:
                figures.seated_first.append(time.perf_counter() - started)
                first = False
            played.add(seat["table"])
            await self._game(seat, pace, stop)
            figures.games += 1

    async def _game(self, seat: dict[str, Any], pace: float, stop: float) -> None:
        async with self.sockets.ws_connect(
                f"{self.ws_url}/ws/{seat['table']}?token={seat['token']}") as ws:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT or time.monotonic() > stop:
                    return
                message = orjson.loads(frame.data)
                if message["type"] != "state":
                    continue
                if message["table"]["status"] == "over":
                    return
                view = message["view"]
                if view["turn"] == message["you"] and view["legal_moves"]:
                    await asyncio.sleep(self.rng.uniform(0.5 * pace, 1.5 * pace))
                    await ws.send_str(json.dumps({"v": 1, "type": "move",
                                                  "move": self.rng.choice(view["legal_moves"])}))


async def _lag(figures: Figures, stop: float) -> None:
    while time.monotonic() < stop:
        before = time.perf_counter()
        await asyncio.sleep(0.1)
        figures.lag.append(time.perf_counter() - before - 0.1)


async def _guest(http: aiohttp.ClientSession, url: str) -> str:
    async with http.post(f"{url}/api/guest") as response:
        response.raise_for_status()
        return response.cookies["bones_session"].value


async def run(url: str, players: int, minutes: float, pace: float) -> tuple[Figures, float]:
    """The arena, start to end; the figures and the moment it started."""
    figures = Figures()
    rng = random.Random(1)
    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=64), cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=120)) as http, aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar()
            ) as sockets:
        async with http.post(f"{url}/api/signup", json={"name": "Host", "password":
                                                        "correct horse"}) as response:
            host = {"cookie": f"bones_session={response.cookies['bones_session'].value}"}
        with Progress(transient=True) as progress:
            task = progress.add_task("guests joining", total=players)
            cookies = []
            for _ in range(players):
                cookies.append(await _guest(http, url))
                progress.advance(task)
        starts = datetime.now(UTC) + timedelta(seconds=20)
        async with http.post(f"{url}/api/tournaments", headers=host, json={
                "kind": "arena", "name": "A thousand", "minutes": max(1, round(minutes)),
                "starts": starts.isoformat(),
                "table": {"variant": "draw", "options": {"target": None},
                          "seats": [{"kind": "human"}] * 2}}) as response:
            tournament = (await response.json())["id"]
        people = [Player(http, sockets, url, c, random.Random(rng.random())) for c in cookies]
        await asyncio.gather(*(p.join(tournament) for p in people))
        stop = time.monotonic() + (starts - datetime.now(UTC)).total_seconds() + minutes * 60
        started = time.perf_counter() + (starts - datetime.now(UTC)).total_seconds()
        jobs = [_lag(figures, stop)]
        for p in people:
            jobs += [p.here(stop), p.watch(tournament, figures, stop),
                     p.play(tournament, started, figures, pace, stop)]
        tasks = [asyncio.create_task(job) for job in jobs]
        await asyncio.sleep(max(0.0, stop - time.monotonic()) + 2)  # the last pushes
        for task in tasks:  # a socket waiting for a frame that never comes
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return figures, started


def server_figures(url: str) -> dict[str, Any]:
    """The server's histograms: count, sum and the bucket bounds."""
    import httpx

    found: dict[str, Any] = {}
    for family in text_string_to_metric_families(httpx.get(f"{url}/metrics").text):
        for sample in family.samples:
            found.setdefault(family.name, []).append((sample.name, sample.labels, sample.value))
    return found


def bucket_pct(samples: list[tuple[str, dict[str, str], float]], q: float) -> str:
    """The bucket bound a ``q`` share of a histogram's observations are below."""
    buckets = sorted((float(labels["le"]), value) for name, labels, value in samples
                     if name.endswith("_bucket"))
    total = buckets[-1][1] if buckets else 0
    for bound, count in buckets:
        if total and count >= q * total:
            return f"≤ {bound * 1000:g} ms" if bound != float("inf") else "> top bucket"
    return "-"


def mean(samples: list[tuple[str, dict[str, str], float]]) -> float:
    count = next((v for n, _, v in samples if n.endswith("_count")), 0)
    total = next((v for n, _, v in samples if n.endswith("_sum")), 0.0)
    return total / count if count else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--pace", type=float, default=1.0)
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder), "--guests-per-address", "1000000",
                                    "--signups-per-address", "1000000")
        try:
            figures, _ = asyncio.run(run(url, args.players, args.minutes, args.pace))
            server = server_figures(url)
        finally:
            process.terminate()
            process.wait()
    spreads = [max(t) - min(t) for t in figures.arrivals.values() if len(t) > 1]
    wave = server.get("bones_tournament_wave_seconds", [])
    page = server.get("bones_tournament_page_seconds", [])
    tables = next((v for n, _, v in server.get("bones_tournament_tables", [])
                   if n.endswith("_total")), 0)
    lag = server.get("bones_loop_lag_seconds", [])
    rows = [
        ("players seated in the first wave", f"{len(figures.seated_first)} of {args.players}"),
        ("first wave, as players saw it (last seated)",
         f"{max(figures.seated_first, default=0):.2f} s"),
        ("first wave, median player seated", f"{pct(figures.seated_first, 0.5):.2f} s"),
        ("waves (server)", f"{next((v for n, _, v in wave if n.endswith('_count')), 0):g}, "
                           f"mean {mean(wave) * 1000:.0f} ms, p99 {bucket_pct(wave, 0.99)}"),
        ("tables made, games played", f"{tables:g}, {figures.games // 2}"),
        ("page made (server)", f"mean {mean(page) * 1000:.1f} ms, p99 {bucket_pct(page, 0.99)}"),
        ("pages pushed", f"{len(figures.arrivals)}, "
         f"{sum(figures.sizes.values()) / max(1, len(figures.sizes)) / 1024:.1f} KiB each"),
        ("push, first to last of the sockets", f"median {pct(spreads, 0.5) * 1000:.0f} ms, "
                                              f"p99 {pct(spreads, 0.99) * 1000:.0f} ms"),
        ("server loop lag", f"mean {mean(lag) * 1000:.1f} ms, p99 {bucket_pct(lag, 0.99)}"),
        ("generator loop lag", f"p99 {pct(figures.lag, 0.99) * 1000:.0f} ms"),
    ]
    table = Table(title=f"An arena of {args.players} on one server "
                        f"({platform.processor() or platform.machine()}, "
                        f"{datetime.now(UTC):%Y-%m-%d})")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)


if __name__ == "__main__":
    main()
