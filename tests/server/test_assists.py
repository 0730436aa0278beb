"""Hints and undo, in games against bots only, each noted in the record."""

from __future__ import annotations

import random
from pathlib import Path

from bones import Match
from tests.server.live import Client, Message, Server, my_turn, play_out, sqlite_url


def _turn(client: Client) -> Message:
    last = client.last_state() if client.received else None
    if last is not None and my_turn(last):
        return last
    return client.until(my_turn)


def _vs_bot(server: Server) -> tuple[str, Client]:
    made = server.create("draw", [{"kind": "human", "name": "Hana"},
                                  {"kind": "bot", "level": "easy"}], options={"target": None})
    return made["table"]["id"], server.socket(made["table"]["id"], made["token"])


def test_a_hint_is_hards_choice_with_every_moves_value(server: Server) -> None:
    table, client = _vs_bot(server)
    state = _turn(client)
    client.send({"v": 1, "type": "hint"})
    hint = client.until(lambda m: m["type"] == "hint")
    assert set(hint["values"]) == set(state["view"]["legal_moves"])
    assert hint["move"] in hint["values"]
    assert hint["expected"] == max(hint["values"].values())
    client.send({"v": 1, "type": "move", "move": hint["move"]})
    play_out(client, random.Random(1))
    record = server.get(f"/api/games/{table}/record")
    assert record["assists"][0]["kind"] == "hint"
    assert record["assists"][0]["move"] == hint["move"]
    assert record["moves"][record["assists"][0]["at"]] == hint["move"]


def test_undo_takes_back_to_your_previous_turn(server: Server) -> None:
    table, client = _vs_bot(server)
    first = _turn(client)
    rng = random.Random(2)
    client.send({"v": 1, "type": "move", "move": rng.choice(first["view"]["legal_moves"])})
    second = client.until(lambda m: my_turn(m) and len(m["view"]["history"])
                          > len(first["view"]["history"]))
    assert second["table"]["status"] == "playing"  # a 7-tile hand cannot be out yet
    client.send({"v": 1, "type": "undo"})
    back = client.until(lambda m: m["type"] == "state"
                        and len(m["view"]["history"]) == len(first["view"]["history"]))
    assert back["view"]["hand"] == first["view"]["hand"]
    assert back["view"]["line"] == first["view"]["line"]
    assert back["view"]["turn"] == 0
    end = play_out(client, random.Random(3))
    record = server.get(f"/api/games/{table}/record")
    undo = next(a for a in record["assists"] if a["kind"] == "undo")
    assert undo["at"] == len(first["view"]["history"]) and undo["undone"]
    assert Match.from_record(record).winner == end["table"]["winner"]


def test_no_hint_or_undo_with_other_humans(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ivo"}, {"kind": "human"}])
    server.join(made["table"]["id"], "Jan")
    client = server.socket(made["table"]["id"], made["token"])
    client.until(lambda m: m["type"] == "state")
    for kind in ("hint", "undo"):
        client.send({"v": 1, "type": kind})
        error = client.until(lambda m: m["type"] == "error")
        assert error["code"] == "not_now" and "against bots" in error["message"]


def test_undo_survives_a_restart(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "undo.db")
    running = Server(db).start()
    for _ in range(20):  # a 2-player block round may end before the human's first or
        # second choice
        made = running.create("block", [{"kind": "human", "name": "Kai"},
                                        {"kind": "bot", "level": "easy"}],
                              options={"target": None})
        table = made["table"]["id"]
        client = running.socket(table, made["token"])
        first = client.until(lambda m: m["type"] == "state" and (
            my_turn(m) or m["table"]["status"] not in ("playing", "waiting")))
        if not my_turn(first):  # the round ended before the human had a choice
            continue
        start = len(first["view"]["history"])
        client.send({"v": 1, "type": "move", "move": first["view"]["legal_moves"][0]})
        second = client.until(lambda m, start=start: m["type"] == "state" and (
            m["table"]["status"] != "playing"
            or (my_turn(m) and len(m["view"]["history"]) > start)))
        if second["table"]["status"] == "playing":
            break
    else:
        raise AssertionError("20 rounds ended before the human's second turn")
    client.send({"v": 1, "type": "undo"})
    client.until(lambda m: m["type"] == "state"
                 and len(m["view"]["history"]) == len(first["view"]["history"]))
    before = client.last_state()
    running.kill()
    again = Server(db, port=running.port).start()
    try:
        after = again.socket(table, made["token"]).until(lambda m: m["type"] == "state")
        assert after["view"] == before["view"]
    finally:
        again.stop()
