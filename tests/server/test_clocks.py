"""Clocks: each move has its seconds, then the player's bank runs, then a bot moves for
them (a timeout, which rated games count); the server's clock is the truth, and time the
site was away (a crash, an outage, a restore from a backup) is nobody's. Rated and public
tables have a clock."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import httpx

from bones.cli import main
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


def _begun(server: Server, tag: str, **clock: Any) -> tuple[str, list[Client], str, Message]:
    """A game of two with a clock, its first move made: the table, its seats'
    sockets, the other seat's token and the state after that first move."""
    ann, ben = server.account(f"Ann{tag}"), server.account(f"Ben{tag}")
    made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                         options={"target": None}, client=ann, **clock)
    table = made["table"]["id"]
    joined = server.join(table, None, client=ben)
    tokens = [made["token"], joined["token"]]
    clients = [server.socket(table, token) for token in tokens]
    client, state = _mover(clients)
    client.send({"v": 1, "type": "move", "move": state["view"]["legal_moves"][0]})
    nxt = client.until(lambda m: m["type"] == "state" and m["view"]["turn"] != state["you"])
    return table, clients, tokens[1 - clients.index(client)], nxt


def _back(server: Server, table: str, token: str, was: Message, down: float) -> None:
    """After ``down`` seconds away (longer than the whole clock and bank): the table
    resumed as the log left it, the clocks standing still a while, its players told, no
    one forfeited; then the game goes on."""
    again = server.socket(table, token)
    state = again.until(lambda m: m["type"] == "state")
    info = state["table"]
    assert info["status"] == "playing" and info["forfeit"] is None, info
    assert info["interrupted"] is not None and 0 < info["paused"] <= 10
    assert info["banks"] == was["table"]["banks"]  # as the last stored move left them
    mover = state["view"]["turn"]
    assert info["time_left"] == [info["clock"], info["banks"][mover]]
    assert down > info["clock"] + info["banks"][mover]  # more than the mover had
    if my_turn(state):
        again.send({"v": 1, "type": "move", "move": state["view"]["legal_moves"][0]})
        moved = again.until(lambda m: m["type"] == "state" and m["table"]["seq"] > info["seq"])
        assert moved["table"]["forfeit"] is None
        assert [a.get("by") for a in moved["actions"]] == [None] * len(moved["actions"])
    again.close()


def test_time_away_from_the_site_is_nobodys(tmp_path: Path) -> None:
    """A site stopped mid-game for longer than the whole clock (the least a rated
    table has: 5 s a move and a 30 s bank): the rated game is not lost on time, and
    nobody's rating moves."""
    db = sqlite_url(tmp_path / "clock.db")
    server = Server(db).start()
    try:
        table, clients, waiting, was = _begun(server, "t", rated=True, clock=5.0, bank=30.0)
    finally:
        server.kill(signal.SIGKILL)
    down = time.monotonic()
    for client in clients:
        client.close()
    time.sleep(36.0)
    server = Server(db, port=server.port).start()
    try:
        _back(server, table, waiting, was, time.monotonic() - down)
        assert not server.get("/api/profile/Annt")["ratings"]
    finally:
        server.stop()


def test_a_restored_backup_forfeits_no_game(tmp_path: Path) -> None:
    """A backup taken mid-game and restored later: the game goes on from its last
    stored move, with the clocks as they stood then (no bot moved for a player whose
    1 s move and 1 s bank ran out while the site was away)."""
    db = sqlite_url(tmp_path / "clock.db")
    copy = tmp_path / "bones.backup"
    server = Server(db).start()
    try:
        table, clients, waiting, was = _begun(server, "r", clock=1.0, bank=1.0)
        assert main(["backup", str(copy), "--db", db]) == 0
        taken = time.monotonic()
    finally:
        server.stop()
    for client in clients:
        client.close()
    (tmp_path / "clock.db").unlink()
    time.sleep(2.5)
    assert main(["restore", str(copy), "--db", db]) == 0
    server = Server(db, port=server.port).start()
    try:
        _back(server, table, waiting, was, time.monotonic() - taken)
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
