"""Chat: at a table the players' and the spectators' rooms stay apart while the game
runs (nobody watching can coach a player), lines are kept in the store and heard by
newcomers, a speaker is rate-limited, a line can be reported and ``bones admin reports`` lists
it; the lobby's chat reaches every lobby socket; whatever is sent, the server answers
and goes on."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.live import Client, Message, Server, admin, play_all, sqlite_url

XSS = "<img src=x onerror=alert(1)>"


def _said(client: Client, text: str) -> Message:
    client.send({"v": 1, "type": "chat", "text": text})
    return client.until(lambda m: m["type"] == "chat" and m["text"] == text)


def _table(server: Server) -> tuple[str, list[Client]]:
    tag = random.randrange(10**6)
    made = server.create("draw", [{"kind": "human", "name": f"Cat{tag}"}, {"kind": "human"}],
                         options={"target": None})
    table = made["table"]["id"]
    joined = server.join(table, f"Dog{tag}")
    return table, [server.socket(table, made["token"]), server.socket(table, joined["token"])]


def test_players_and_spectators_talk_apart_until_the_end(server: Server) -> None:
    table, players = _table(server)
    watcher = server.account(f"Owl{random.randrange(10**6)}")
    spectator = server.socket(table, signed_in=watcher)
    spectator.until(lambda m: m["type"] == "state")
    coached = _said(spectator, "play the 6-6 now!")
    assert coached["room"] == "spectators"
    line = _said(players[0], XSS)  # kept as said: shown as text by the page
    assert line["room"] == "players" and line["name"].startswith("Cat")
    players[1].until(lambda m: m["type"] == "chat" and m["text"] == XSS)
    ends = play_all(players, seed=1)
    assert all(e["table"]["status"] == "over" for e in ends)
    for player in players:
        assert not any(m["type"] == "chat" and m["room"] == "spectators"
                       for m in player.received), "a spectator's line reached a player"
    assert not any(m["type"] == "chat" and m["room"] == "players" for m in spectator.received)
    after = _said(players[1], "gg")  # the game is over: everyone hears everyone
    assert spectator.until(lambda m: m["type"] == "chat" and m["id"] == after["id"])
    newcomer = server.socket(table)
    heard = [newcomer.until(lambda m: m["type"] == "chat") for _ in range(3)]
    assert [m["text"] for m in heard] == ["play the 6-6 now!", XSS, "gg"]


def test_a_spectator_must_sign_in_and_nobody_floods(server: Server) -> None:
    table, players = _table(server)
    anonymous = server.socket(table)
    anonymous.send({"v": 1, "type": "chat", "text": "hi"})
    assert anonymous.until(lambda m: m["type"] == "error")["code"] == "not_signed_in"
    for n in range(5):
        _said(players[0], f"line {n}")
    players[0].send({"v": 1, "type": "chat", "text": "one too many"})
    assert players[0].until(lambda m: m["type"] == "error")["code"] == "flood"
    for bad in ("", "   ", "x" * 201, "a\u202eb"):
        players[1].send({"v": 1, "type": "chat", "text": bad})
        assert players[1].until(lambda m: m["type"] == "error")["code"] == "bad_message"


def test_the_lobby_chat_reaches_every_lobby_socket(server: Server) -> None:
    ann = server.account(f"Lc{random.randrange(10**6)}")
    speaker, listener = server.lobby(ann), server.lobby()
    for client in (speaker, listener):
        client.until(lambda m: m["type"] == "lobby")
    line = _said(speaker, XSS)
    assert line["room"] == "lobby"
    assert listener.until(lambda m: m["type"] == "chat")["text"] == XSS
    listener.send({"v": 1, "type": "chat", "text": "hello"})
    assert listener.until(lambda m: m["type"] == "error")["code"] == "not_signed_in"
    listener.send({"v": 1, "type": "move", "move": "6-6"})
    assert listener.until(lambda m: m["type"] == "error")["code"] == "bad_message"


def test_a_reported_line_reaches_the_moderators(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "reports.db")
    server = Server(db).start()
    try:
        table, players = _table(server)
        line = _said(players[0], "you are [bold]terrible[/bold]")
        reporter = server.account("Rep")
        assert reporter.post(f"/api/chat/{line['id']}/report",
                             json={"reason": "rude"}).status_code == 204
        assert reporter.post("/api/chat/999999/report", json={}).status_code == 404
        assert server.lobby().recv()["type"] == "lobby"
        listed = admin(db, "reports")
        assert "[bold]terrible[/bold]" in listed and "rude" in listed
        assert "Rep" in listed and table in listed
    finally:
        server.stop()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=260),
                 st.builds(lambda t: json.dumps({"v": 1, "type": "chat", "text": t}),
                           st.text(max_size=260)),
                 st.builds(lambda x: json.dumps({"v": 1, "type": "chat", "text": x}),
                           st.one_of(st.integers(), st.none(), st.lists(st.text(max_size=3))))))
def test_any_chat_frame_gets_an_answer(server: Server, frame: str) -> None:
    if not hasattr(test_any_chat_frame_gets_an_answer, "table"):
        test_any_chat_frame_gets_an_answer.table = _table(server)  # type: ignore[attr-defined]
    _, players = test_any_chat_frame_gets_an_answer.table  # type: ignore[attr-defined]
    player = players[0]
    player.received.clear()
    player.send(frame)
    answer = player.until(lambda m: m["type"] in ("chat", "error"))
    if answer["type"] == "chat":
        assert 1 <= len(answer["text"]) <= 200
    player.send({"v": 1, "type": "ping"})
    player.until(lambda m: m["type"] == "pong")
