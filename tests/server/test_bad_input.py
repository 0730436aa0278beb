"""Bad input gets an error naming the problem and changes nothing: malformed JSON,
unknown types, illegal moves, moves out of turn, oversized frames and floods."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bones.moves import IllegalMove, parse_move
from tests.server.live import Client, Server, play_all, sqlite_url

TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
WORDS = st.sampled_from(["draw", "pass", "left", "right", "up", "down", "", " ", "6-6 left"])
MOVES = st.one_of(
    st.sampled_from(TILES),
    st.builds(lambda t, e: f"{t} {e}", st.sampled_from(TILES),
              st.sampled_from(["left", "right", "up", "down", "middle"])),
    WORDS, st.text(max_size=20),
)
JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
MESSAGES = st.one_of(
    st.builds(lambda m: {"v": 1, "type": "move", "move": m}, MOVES),
    st.builds(lambda m, v: {"v": v, "type": "move", "move": m}, MOVES, JSONISH),
    st.builds(lambda t: {"v": 1, "type": t}, st.text(max_size=8)),
    st.builds(lambda extra: {"v": 1, "type": "ready", **extra},
              st.dictionaries(st.sampled_from(["x", "move", "seat"]), JSONISH, min_size=1)),
    st.dictionaries(st.text(max_size=6), JSONISH, max_size=4),
    JSONISH,
)
RAW = st.one_of(st.builds(json.dumps, MESSAGES), st.text(max_size=60),
                st.sampled_from(["{", "[1,", "null", '{"v":1,"type":"move"}', "\x00"]))


def _might_be_legal(text: object, legal: set[str]) -> bool:
    """True where the server could take ``text`` as one of the ``legal`` moves."""
    if not isinstance(text, str):
        return False
    try:
        move = parse_move(text)
    except IllegalMove:
        return False
    tile = str(move).split(" ")[0]
    return any(m == str(move) or m.split(" ")[0] == tile for m in legal)


class Seats:
    """Two humans at a single-round draw game, both connected."""

    def __init__(self, server: Server) -> None:
        made = server.create("draw", [{"kind": "human", "name": "Fuzz"}, {"kind": "human"}],
                             options={"target": None})
        self.server, self.table = server, made["table"]["id"]
        tokens = [made["token"], server.join(self.table, "Zzuf")["token"]]
        self.clients = [server.socket(self.table, t) for t in tokens]
        for client in self.clients:
            client.until(lambda m: m["type"] == "state" and all(
                s["connected"] for s in m["table"]["seats"]))

    def info(self) -> dict[str, Any]:
        return dict(self.server.get(f"/api/tables/{self.table}"))


@pytest.fixture(scope="module")
def seats(server: Server) -> Iterator[Seats]:
    made = Seats(server)
    yield made
    for client in made.clients:
        client.close()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=RAW, who=st.integers(0, 1))
def test_random_messages_change_nothing(seats: Seats, raw: str, who: int) -> None:
    """Whatever arrives, a seat gets an error (or a pong) and the table stays as it was."""
    before = seats.info()
    legal = set(seats.clients[who].last_state()["view"]["legal_moves"])
    try:
        sent = json.loads(raw)
    except ValueError:
        sent = None
    assume(not (isinstance(sent, dict) and sent.get("type") == "move"
                and sent.get("v", 1) == 1 and _might_be_legal(sent.get("move"), legal)))
    assume(not (isinstance(sent, dict) and sent.get("type") == "ping"))
    seats.clients[who].send(raw)
    reply = seats.clients[who].until(lambda m: m["type"] in ("error", "pong"), timeout=10)
    assert reply["type"] == "error" and reply["message"]
    assert seats.info() == before


def test_each_kind_of_bad_input_is_named(seats: Seats) -> None:
    mover = seats.clients[seats.info()["seats"][0]["seat"]]
    turn = mover.last_state()["view"]["turn"]
    on, off = seats.clients[turn], seats.clients[1 - turn]
    hand = on.last_state()["view"]["hand"]
    not_held = next(t for t in TILES if t not in hand)
    cases: list[tuple[Client, str, str]] = [
        (on, "{not json", "bad_message"),
        (on, json.dumps({"v": 1, "type": "shout"}), "bad_message"),
        (on, json.dumps({"v": 2, "type": "ready"}), "bad_message"),
        (on, json.dumps({"v": 1, "type": "move", "move": f"{not_held} left"}), "illegal_move"),
        (on, json.dumps({"v": 1, "type": "ready"}), "not_now"),
        (off, json.dumps({"v": 1, "type": "move", "move": "draw"}), "not_your_turn"),
        (on, json.dumps({"v": 1, "type": "move", "move": "x" * 5000}), "too_big"),
    ]
    on.ws.send(b'{"v": 1, "type": "ping"}')  # a binary frame
    assert on.until(lambda m: m["type"] == "error")["message"] == "send JSON in a text frame"
    before = seats.info()
    for client, raw, code in cases:
        client.send(raw)
        reply = client.until(lambda m: m["type"] == "error", timeout=10)
        assert reply["code"] == code, (raw[:40], reply)
    assert seats.info() == before
    on.send({"v": 1, "type": "ping"})
    assert on.until(lambda m: m["type"] != "state")["type"] == "pong"


def test_a_flood_is_refused_then_cut_off(tmp_path: Path) -> None:
    """Past the rate a connection is told to slow down; a flood that goes on is closed."""
    running = Server(sqlite_url(tmp_path / "flood.db"), rate=5).start()
    try:
        made = running.create("draw", [{"kind": "human", "name": "Ann"},
                                       {"kind": "bot", "level": "easy"}])
        client = running.socket(made["table"]["id"], made["token"])
        for _ in range(400):
            try:
                client.send({"v": 1, "type": "ping"})
            except Exception:
                break
        codes = []
        try:
            while True:
                message = client.recv(5)
                codes.append(message.get("code"))
        except Exception as error:
            closed = error
        assert "flood" in codes
        assert "1008" in str(closed) or "flooding" in str(closed)
        after = running.socket(made["table"]["id"], made["token"])
        assert after.until(lambda m: m["type"] == "state")["you"] == 0
    finally:
        running.stop()


def test_the_game_goes_on_after_the_fuzz(seats: Seats) -> None:
    ends = play_all(seats.clients, seed=random.Random(5).randrange(100))
    assert all(e["table"]["status"] == "over" for e in ends)
