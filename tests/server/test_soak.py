"""The short soak CI runs (``bench/soak.py`` is the long one, 10,000 games): games
played four at a time through one server leave no table behind in memory, and the
statistics, read from running totals, count every one of them."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx

from tests.server.live import Server, play_out, sqlite_url

GAMES, PLAYERS = 60, 4


def test_a_short_soak_leaves_nothing_behind(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "soak.db"), limits={"linger": 0.2}).start()
    try:
        left = list(range(GAMES))
        problems: list[BaseException] = []

        def player(name: str) -> None:
            rng = random.Random(name)
            account = accounts[name] = server.account(name)
            try:
                while True:
                    try:
                        left.pop()
                    except IndexError:
                        return
                    made = server.create("draw", [{"kind": "human", "me": True},
                                                  {"kind": "bot", "level": "easy"}],
                                         options={"target": None}, bot_delay=0,
                                         client=account)
                    socket = server.socket(made["table"]["id"], made["token"])
                    assert play_out(socket, rng)["table"]["status"] == "over"
                    socket.close()
            except BaseException as error:
                problems.append(error)

        accounts: dict[str, httpx.Client] = {}
        threads = [threading.Thread(target=player, args=(f"Soak{n}",)) for n in range(PLAYERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not problems, problems
        deadline = time.monotonic() + 30
        while server.get("/api/metrics")["tables"] and time.monotonic() < deadline:
            time.sleep(0.5)
        assert server.get("/api/metrics")["tables"] == 0
        counted = [server.get(f"/api/stats/soak{n}")["total"]["games"] for n in range(PLAYERS)]
        assert sum(counted) == GAMES
        listed = [len(accounts[f"Soak{n}"].get(f"/api/games?name=SOAK{n}&limit=200").json())
                  for n in range(PLAYERS)]  # their private tables' games: their own lists
        assert listed == counted
    finally:
        server.stop()
