"""Clocks: each move has its seconds, then the player's bank runs, then a bot moves for
them (a timeout, which rated games count); the server's clock is the truth and a
restart reads it back from the log's times. Rated and public tables have a clock."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx

from tests.server.live import Client, Message, Server, my_turn, sqlite_url

PAIR = [{"kind": "human", "name": "Tick"}, {"kind": "human"}]


def _turn(client: Client) -> Message:
    return client.until(lambda m: my_turn(m) and m["table"]["time_left"] is not None)


def _both(server: Server, **extra: object) -> tuple[str, list[Client]]:
    made = server.create("draw", PAIR, options={"target": None}, **extra)
    table = made["table"]["id"]
    joined = server.join(table, "Tock")
    return table, [server.socket(table, made["token"]), server.socket(table, joined["token"])]


def _mover(clients: list[Client]) -> tuple[Client, Message]:
    """The client whose turn it is, and its state."""
    first = [c.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
             for c in clients]
    turn = first[0]["view"]["turn"]
    mover = [m["you"] for m in first].index(turn)
    return clients[mover], first[mover]


def test_the_bank_runs_out_then_a_bot_moves(server: Server) -> None:
    made = time.monotonic()  # the turn cannot have begun before this
    _, clients = _both(server, clock=1.0, bank=2.0)
    client, state = _mover(clients)
    seen = time.monotonic()  # nor after this, however late a busy machine read it
    assert state["table"]["clock"] == 1.0 and state["table"]["bank"] == 2.0
    move, bank = state["table"]["time_left"]
    # As the server promises, whenever a busy machine sent the state: the move's time
    # runs first, and the bank only once it is spent.
    assert 0 <= move <= 1.0 and 0 <= bank <= 2.0 and (move == 0 or bank == 2.0)
    moved = client.until(lambda m: m["type"] == "state"
                         and any(a["seat"] == state["you"] for a in m["actions"]))
    # the move's time, then the bank: never sooner than both from the table's making,
    # and more than the move's time alone after its state came, read up to 1 s late
    assert time.monotonic() - made >= 1.0 + 2.0 - 0.05
    assert time.monotonic() - seen >= move + bank - 1.0
    assert moved["table"]["status"] in ("playing", "over", "between")
    if moved["table"]["status"] == "playing":
        again = _turn(client)  # their next turn: a fresh move's time, the bank spent
        assert again["table"]["time_left"][1] == 0.0


def test_the_clock_survives_a_restart(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "clock.db")
    server = Server(db).start()
    table, clients = _both(server, clock=1.0, bank=30.0)
    client, state = _mover(clients)
    me = state["you"]
    time.sleep(2.5)  # 1.5 s over the move's time: taken from the bank
    client.send({"v": 1, "type": "move", "move": state["view"]["legal_moves"][0]})
    client.until(lambda m: m["type"] == "state" and m["view"]["turn"] != me)
    saved = httpx.get(f"{server.url}/api/tables/{table}").json()
    asked = time.monotonic()
    server.kill(signal.SIGKILL)
    time.sleep(2.0)  # down: the other player's turn runs on all the same
    server = Server(db, port=server.port).start()
    try:
        after = httpx.get(f"{server.url}/api/tables/{table}").json()
        gone = time.monotonic() - asked
        # what is left went down by all the time that went by, not only since the restart
        assert sum(after["time_left"]) <= sum(saved["time_left"]) - gone + 0.5
        assert after["clock"] == 1.0 and after["bank"] == 30.0
    finally:
        server.stop()


def test_rated_and_public_tables_have_a_clock(server: Server) -> None:
    made = server.create("draw", PAIR, public=True)
    assert (made["table"]["clock"], made["table"]["bank"]) == (15.0, 120.0)
    chosen = server.create("draw", PAIR, public=True, clock=30, bank=300)
    assert (chosen["table"]["clock"], chosen["table"]["bank"]) == (30.0, 300.0)
    private = server.create("draw", PAIR)
    assert private["table"]["clock"] is None and private["table"]["time_left"] is None
    refused = httpx.post(f"{server.url}/api/tables", json={
        "variant": "draw", "seats": PAIR, "bank": 60})
    assert refused.status_code == 422 and "needs a clock" in refused.text
