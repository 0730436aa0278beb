"""What an attacker and a database outage found, each reproduced against a real server:
a store that goes away, heavy work, unbounded REST, public invite seats, the flood
limit, bot timing, the end-of-game crash window, headers and Origin, spoofed names and
hostile frames."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from bones import Match, Rules
from bones.analysis import frames
from tests.server.conftest import pg
from tests.server.fakes import in_a_thread
from tests.server.live import Message, Server, my_turn, play_out, sqlite_url


def _history(message: Message) -> list[Any]:
    return list(message["view"].get("history", []))


def _outage_changes_nothing(server: Server, stop: Any, start: Any,
                            readiness: bool = False) -> None:
    """A move while the store is down gets ``unavailable`` and no one is shown it; once
    the store is back the same move goes through, and a bot whose write was refused
    moves by itself."""
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}],
                         options={"target": None}, bot_delay=2.0)
    table = made["table"]["id"]
    ann, watcher = server.socket(table, made["token"]), server.socket(table)
    turn = ann.until(my_turn)
    ann.drain()
    watcher.drain()
    shown, told = len(_history(watcher.last_state())), len(watcher.received)
    stop()
    move = turn["view"]["legal_moves"][0]
    ann.send({"v": 1, "type": "move", "move": move})
    refused = ann.until(lambda m: m["type"] == "error", timeout=30)
    assert refused["code"] == "unavailable"
    if readiness:  # a proxy stops sending players to a server whose store is away
        assert httpx.get(f"{server.url}/readyz", timeout=10).status_code == 503
    watcher.drain()
    assert all(len(_history(m)) == shown for m in watcher.received[told:]
               if m["type"] == "state")
    start()
    ann.send({"v": 1, "type": "move", "move": move})
    ann.until(lambda m: m["type"] == "state" and len(_history(m)) > shown)
    after_mine = len(_history(ann.last_state()))
    if ann.last_state()["view"]["turn"] == 1:  # the bot's move is next: refuse its write
        stop()
        time.sleep(3)  # the bot's 2 s are up while the store is down
        ann.drain()
        assert len(_history(ann.last_state())) == after_mine
        start()
        ann.until(lambda m: m["type"] == "state" and len(_history(m)) > after_mine,
                  timeout=40)
    ann.drain()
    before_kill = ann.last_state()
    server.kill()
    again = Server(server.db, port=server.port).start()
    again.invites = server.invites  # a private table is watched with its secret
    try:
        back = again.socket(table, made["token"]).until(lambda m: m["type"] == "state")
        assert _history(back) == _history(before_kill)
        watched = again.socket(table).until(lambda m: m["type"] == "state")
        assert _history(watched) == _history(before_kill)
    finally:
        again.stop()


def test_a_postgresql_outage_changes_nothing_and_tables_resume(
        postgres: tuple[str, Path]) -> None:
    url, folder = postgres
    server = Server(url).start()
    try:
        _outage_changes_nothing(server, lambda: pg("stop", folder),
                                lambda: pg("resume", folder), readiness=True)
    finally:
        server.stop()


def test_a_locked_sqlite_file_changes_nothing_and_tables_resume(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    server = Server(sqlite_url(path)).start()
    holder: list[sqlite3.Connection] = []

    def lock() -> None:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.execute("BEGIN EXCLUSIVE")
        holder.append(connection)

    def unlock() -> None:
        connection = holder.pop()
        connection.execute("ROLLBACK")
        connection.close()

    try:
        _outage_changes_nothing(server, lock, unlock)
    finally:
        server.stop()


def _long_record(seed: int) -> dict[str, Any]:
    match = Match(Rules.preset("draw", players=4, target=150), seed=seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.push(rng.choice(match.round.legal_moves()))
    return match.record()


def test_heavy_work_is_bounded_and_stops_when_its_client_leaves(tmp_path: Path) -> None:
    """Analyses queue apart from the tables, two at a time from one address (the next
    gets 503 with Retry-After; a stored game's positions without grades still come at
    once), and one whose client left is given up."""
    server = Server(sqlite_url(tmp_path / "heavy.db")).start()
    try:
        played = server.create("draw", [{"kind": "human", "name": "Ann"},
                                        {"kind": "bot", "level": "easy"}],
                               options={"target": None})
        game = played["table"]["id"]
        play_out(server.socket(game, played["token"]), random.Random(1))
        record = _long_record(1)
        too_long = {**record, "moves": record["moves"] * 10}
        assert httpx.post(f"{server.url}/api/analysis", json=too_long).status_code in (400, 413)
        answers: list[int] = []

        def ask(seed: int, wait: float) -> None:
            try:
                response = httpx.post(f"{server.url}/api/analysis", json=_long_record(seed),
                                      timeout=wait)
                answers.append(response.status_code)
            except httpx.TimeoutException:
                answers.append(0)  # this client left

        leavers = [threading.Thread(target=ask, args=(s, 2.0)) for s in (2, 3)]
        for thread in leavers:
            thread.start()
        time.sleep(1.0)
        third = httpx.post(f"{server.url}/api/analysis", json=_long_record(4), timeout=30)
        assert third.status_code == 503 and third.headers["retry-after"]
        secret = {"bones-invite": server.invites[game]}  # a private table's game
        positions = httpx.get(f"{server.url}/api/games/{game}/analysis", headers=secret,
                              params={"graded": "false"}, timeout=30)
        assert positions.status_code == 200, "a game's positions are no job: never queued"
        shown = positions.json()
        assert shown["graded"] is False and shown["grades"] == shown["mistakes"] == []
        match = Match.from_record(server.get(f"/api/games/{game}/record"))
        assert shown["frames"] == json.loads(json.dumps(frames(match)))
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}])
        assert made["table"]["status"] in ("playing", "waiting")
        for thread in leavers:
            thread.join()
        assert answers == [0, 0]
        deadline = time.monotonic() + 30
        while server.get("/api/metrics")["analyses"]["running"] and time.monotonic() < deadline:
            time.sleep(0.5)
        assert server.get("/api/metrics")["analyses"]["running"] == 0
        graded = httpx.get(f"{server.url}/api/games/{game}/analysis", headers=secret,
                           timeout=120).json()
        assert graded["graded"] is True and graded["frames"] == shown["frames"]
    finally:
        server.stop()


def test_rest_is_bounded(tmp_path: Path) -> None:
    """Per-address request rate, body size, tables per address, sockets per address,
    and a least delay for tables with no human."""
    server = Server(sqlite_url(tmp_path / "rest.db"),
                    limits={"rest-rate": 2, "tables-per-address": 2,
                            "sockets-per-address": 2}).start()
    try:
        big = httpx.post(f"{server.url}/api/tables", content=b"{" + b" " * 300_000 + b"}",
                         headers={"content-type": "application/json"})
        assert big.status_code == 413
        time.sleep(3.5)
        bots = server.create("draw", [{"kind": "bot", "level": "easy"}] * 2, bot_delay=0,
                             public=True)
        assert bots["bot_delay"] >= 0.5
        server.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
        third = httpx.post(f"{server.url}/api/tables", json={
            "variant": "draw", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]})
        assert third.status_code == 429 and "unfinished tables" in third.json()["detail"]
        time.sleep(3.5)
        sockets = [server.socket(bots["id"]) for _ in range(2)]
        refused = server.socket(bots["id"]).recv()
        assert refused["type"] == "error" and "too many sockets" in refused["message"]
        for socket in sockets:
            socket.close()
        codes = [httpx.get(f"{server.url}/api/variants").status_code for _ in range(30)]
        assert 429 in codes and codes[0] == 200
    finally:
        server.stop()


def test_finished_tables_leave_memory_and_waiting_ones_expire(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "evict.db"),
                    limits={"linger": 0.5, "waiting-ttl": 2}).start()
    try:
        waiting = server.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}],
                             options={"target": None})
        table = made["table"]["id"]
        player = server.socket(table, made["token"])
        play_out(player, random.Random(1))
        player.close()
        deadline = time.monotonic() + 30
        while server.get("/api/metrics")["tables"] and time.monotonic() < deadline:
            time.sleep(0.5)
        assert server.get("/api/metrics")["tables"] == 0
        assert server.get(f"/api/tables/{table}")["status"] == "over"  # read back
        watcher = server.socket(table).until(lambda m: m["type"] == "state")
        assert watcher["table"]["status"] == "over"
        gone = httpx.get(f"{server.url}/api/tables/{waiting['table']['id']}")
        assert gone.status_code == 404
    finally:
        server.stop()


def test_statistics_and_names(server: Server) -> None:
    """Statistics belong to accounts, named in any case, never to a typed name: a game
    under a typed name counts for nobody, and nobody may type an account's name."""
    name = f"Kit{random.randrange(10**6)}"
    kit = server.account(name)
    for typed in ({"me": True}, {"name": name.upper()}, {}):
        if typed:
            made = server.create("draw", [{"kind": "human", **typed},
                                          {"kind": "bot", "level": "easy"}],
                                 options={"target": None}, client=kit)
        else:  # the same name typed by someone not signed in
            refused = httpx.post(f"{server.url}/api/tables", json={
                "variant": "draw", "seats": [{"kind": "human", "name": name},
                                             {"kind": "bot", "level": "easy"}]})
            assert refused.status_code == 409 and "belongs to an account" in refused.text
            made = server.create("draw", [{"kind": "human", "name": name + "x"},
                                          {"kind": "bot", "level": "easy"}],
                                 options={"target": None})
        play_out(server.socket(made["table"]["id"], made["token"]), random.Random(7))
    stats = server.get(f"/api/stats/{name.lower()}")
    assert stats["total"]["games"] == 2
    assert len(kit.get(f"/api/games?name={name.lower()}").json()) == 2  # its own list
    assert server.get(f"/api/stats/{name}x")["total"]["games"] == 0
    someone_else = kit.post("/api/tables", json={
        "variant": "draw", "seats": [{"kind": "human", "name": "Bob"}, {"kind": "human"}]})
    assert someone_else.status_code == 409 and "signed in as" in someone_else.text
    for bad in ("Ann\u202eevil", "a\u200bb", "x\x85", "   ", "Z\u2066x"):
        response = httpx.post(f"{server.url}/api/tables", json={
            "variant": "draw", "seats": [{"kind": "human", "name": bad}, {"kind": "human"}]})
        assert response.status_code == 422, bad
    made = server.create("draw", [{"kind": "human", "name": "Zoe\u0308"}, {"kind": "human"}])
    assert made["table"]["seats"][0]["name"] == "Zo\u00eb"


def test_hostile_frames_get_an_answer(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}])
    ann = server.socket(made["table"]["id"], made["token"])
    ann.until(lambda m: m["type"] == "state")
    ann.send("[" * 2000 + "]" * 2000)
    assert ann.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    ann.send({"v": True, "type": "ping"})
    assert ann.until(lambda m: m["type"] in ("error", "pong"))["type"] == "error"
    ann.send({"v": 1, "type": "ping"})
    assert ann.until(lambda m: m["type"] in ("error", "pong"))["type"] == "pong"


def test_every_refused_message_is_answered_and_limits_are_per_seat(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "flood.db"), rate=2).start()
    try:
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}],
                             options={"target": None})
        table = made["table"]["id"]
        first, second = (server.socket(table, made["token"]) for _ in range(2))
        for client in (first, second):
            client.until(lambda m: m["type"] == "state")
        for _ in range(40):
            first.send({"v": 1, "type": "ping"})
        answers = [first.until(lambda m: m["type"] in ("pong", "error")) for _ in range(40)]
        refused = [a for a in answers if a["type"] == "error"]
        assert refused and all(a["code"] == "flood" for a in refused)
        second.send({"v": 1, "type": "ping"})  # the seat's other socket shares its limit
        assert second.until(lambda m: m["type"] in ("pong", "error"))["code"] == "flood"
        time.sleep(2)
        first.send({"v": 1, "type": "ping"})
        assert first.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    finally:
        server.stop()


def test_hints_are_worked_out_and_logged_once_a_position(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}], options={"target": None})
    table = made["table"]["id"]
    sockets = [server.socket(table, made["token"]) for _ in range(2)]
    sockets[0].until(my_turn)
    for _ in range(4):
        for socket in sockets:
            socket.send({"v": 1, "type": "hint"})
    hints = [s.until(lambda m: m["type"] == "hint") for s in sockets for _ in range(4)]
    assert len({json.dumps(h, sort_keys=True) for h in hints}) == 1
    end = play_out(sockets[0], random.Random(3))
    assert end["table"]["status"] == "over"
    record = server.get(f"/api/games/{table}/record")
    assert len([a for a in record["assists"] if a["kind"] == "hint"]) == 1


def test_a_thinking_bot_never_answers_before_the_floor(tmp_path: Path) -> None:
    """Hard's reply time does not tell a lone legal move from a long search: no reply
    comes before the think floor, whatever the position."""
    server = Server(sqlite_url(tmp_path / "floor.db"), limits={"think-floor": 1.0}).start()
    try:
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "hard"}],
                             options={"target": None}, bot_delay=0.05)
        ann = server.socket(made["table"]["id"], made["token"])
        gaps: list[float] = []

        def chose(message: Message) -> bool:  # the bot played a tile of its choosing
            return message["type"] == "state" and (message["table"]["status"] != "playing" or any(
                a["seat"] == 1 and a["move"] not in ("draw", "pass") for a in message["actions"]))

        message = ann.until(lambda m: m["type"] == "state")
        while message["table"]["status"] == "playing" and len(gaps) < 5:
            if not my_turn(message):
                message = ann.until(lambda m: m["type"] == "state")
                continue
            ann.send({"v": 1, "type": "move", "move": message["view"]["legal_moves"][0]})
            mine = ann.until(lambda m: m["type"] == "state" and not my_turn(m))
            sent = time.monotonic()
            if mine["table"]["status"] != "playing" or mine["view"]["turn"] != 1:
                message = mine
                continue
            message = ann.until(chose)
            if message["table"]["status"] == "playing":
                gaps.append(time.monotonic() - sent)
            message = ann.until(lambda m: m["type"] == "state" and (
                my_turn(m) or m["table"]["status"] != "playing")) if not my_turn(message) \
                else message
        assert gaps and min(gaps) >= 0.7, gaps
    finally:
        server.stop()


def test_pages_carry_security_headers_and_foreign_origins_are_refused(server: Server) -> None:
    for path in ("/", "/static/app.js", "/api/variants"):
        headers = httpx.get(f"{server.url}{path}").headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}])
    url = f"ws://127.0.0.1:{server.port}/ws/{made['table']['id']}?token={made['token']}"
    from websockets.sync.client import connect

    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(url, origin=server.url, open_timeout=10) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
    posted = httpx.post(f"{server.url}/api/tables", headers={"origin": "http://evil.example"},
                        json={"variant": "draw", "seats": [{"kind": "human", "name": "Ann"},
                                                           {"kind": "human"}]})
    assert posted.status_code == 403


def test_a_rate_limit_that_cannot_count_lets_requests_through() -> None:
    """With Redis away or swamped, the per-address limit lets a request through rather
    than refusing everyone: it guards the site, it must not stop it."""

    from bones.server.edge.guard import Guard

    answered: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        answered.append(1)

    async def broken(*_: Any) -> bool:
        raise ConnectionError("Redis is away")

    guard = Guard(app)
    guard.limiter.hit = broken  # type: ignore[method-assign]

    async def request() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b""}

        async def send(_: Any) -> None:
            return None

        await guard({"type": "http", "method": "GET", "path": "/api/variants", "headers": [],
                     "client": ("10.0.0.1", 1)}, receive, send)

    for _ in range(3):
        in_a_thread(request())
    assert answered == [1, 1, 1]


def test_the_json_log_names_the_table_the_seat_and_the_request(tmp_path: Path) -> None:
    """`--log-format json`: a move the store refused is logged as one JSON line with
    its table, its seat and the id the proxy gave the socket's request."""
    path, log = tmp_path / "logged.db", tmp_path / "server.log"
    server = Server(sqlite_url(path), extra=["--log-format", "json"], log=log).start()
    try:
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}], bot_delay=10.0)
        table = made["table"]["id"]
        with connect(f"ws://127.0.0.1:{server.port}/ws/{table}?token={made['token']}",
                     additional_headers={"x-request-id": "proxy-req-7"}) as ann:
            state = json.loads(ann.recv(timeout=30))
            while not my_turn(state):
                state = json.loads(ann.recv(timeout=30))
            locked = sqlite3.connect(path, isolation_level=None)
            locked.execute("BEGIN EXCLUSIVE")
            ann.send(json.dumps({"v": 1, "type": "move",
                                 "move": state["view"]["legal_moves"][0]}))
            while json.loads(ann.recv(timeout=30))["type"] != "error":
                pass
            locked.execute("ROLLBACK")
            locked.close()
    finally:
        server.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    refused = [line for line in lines if "refused" in line["message"]]
    assert refused and all(line["level"] == "WARNING" for line in refused)
    assert (refused[0]["table"], refused[0]["seat"], refused[0]["request"]) == (
        table, 0, "proxy-req-7")
