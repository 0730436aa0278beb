"""The lobby: the list of public tables pushed, not polled: a new public table, a seat
taken, a table that starts and one that ends reach every lobby socket by themselves;
private tables never do; players show their ratings; nothing hidden is in it; and what
a client sends the lobby changes nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.live import Server, play_all


def _mine(message: dict[str, object], table: str, where: str) -> bool:
    return any(t["id"] == table for t in message[where])  # type: ignore[attr-defined]


def _listed(done: Callable[[dict[str, object]], bool]) -> Callable[[dict[str, object]], bool]:
    """``done``, asked of the lobby's lists only (its chat comes on the same socket)."""
    return lambda message: message["type"] == "lobby" and done(message)


def test_the_lobby_is_pushed_as_tables_open_fill_and_end(server: Server) -> None:
    tag = random.randrange(10**6)
    names = [f"Lob{tag}a", f"Lob{tag}b"]
    clients = [server.account(n) for n in names]
    lobby = server.lobby()
    assert lobby.recv()["type"] == "lobby"
    private = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                            client=clients[0])
    made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                         options={"target": None}, public=True, rated=True, client=clients[0])
    table = made["table"]["id"]
    shown = lobby.until(_listed(lambda m: _mine(m, table, "open")))
    assert not _mine(shown, private["table"]["id"], "open")
    [listed] = [t for t in shown["open"] if t["id"] == table]
    assert listed["rated"] and listed["seats"][0]["name"] == names[0]
    assert listed["seats"][0]["rating"] is None and listed["seats"][1]["name"] is None
    joined = server.join(table, None, client=clients[1])
    lobby.until(_listed(lambda m: _mine(m, table, "playing") and not _mine(m, table, "open")))
    tokens = [made["token"], joined["token"]]
    play_all([server.socket(table, t) for t in tokens], seed=tag)
    lobby.until(_listed(lambda m: not _mine(m, table, "playing")))
    # the next table of these two shows the ratings the game gave them
    again = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                          public=True, client=clients[0])
    shown = lobby.until(_listed(lambda m: _mine(m, again["table"]["id"], "open")))
    [listed] = [t for t in shown["open"] if t["id"] == again["table"]["id"]]
    profile = server.get(f"/api/profile/{names[0]}")
    assert listed["seats"][0]["rating"] == profile["ratings"][0]["rating"]
    for message in lobby.received:
        text = json.dumps(message)
        assert '"hand"' not in text and '"view"' not in text and '"token"' not in text


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200).map(repr),
                 st.builds(json.dumps, st.dictionaries(st.text(max_size=8),
                                                       st.text(max_size=8), max_size=4))))
def test_what_a_client_sends_the_lobby_changes_nothing(server: Server, text: str) -> None:
    lobby = server.lobby()
    first = lobby.recv()
    lobby.send(text)
    made = server.create("draw", [{"kind": "human", "name": "Fuzz"}, {"kind": "human"}],
                         public=True)
    assert lobby.until(_listed(lambda m: _mine(m, made["table"]["id"], "open")))["open"]
    assert first["type"] == "lobby"
    lobby.close()


def test_a_player_leaves_a_table_that_has_not_begun(server: Server) -> None:
    tag = random.randrange(10**6)
    made = server.create("draw", [{"kind": "human", "name": f"Host{tag}"}, {"kind": "human"},
                                  {"kind": "human"}], options={"players": 3}, public=True)
    table = made["table"]["id"]
    lobby = server.lobby()
    joined = server.join(table, f"Visitor{tag}x")
    lobby.until(_listed(lambda m: any(t["id"] == table and t["seats"][1]["name"]
                                      for t in m["open"])))
    left = httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": joined["token"]})
    assert left.status_code == 204
    lobby.until(_listed(lambda m: any(t["id"] == table and t["seats"][1]["name"] is None
                                      for t in m["open"])))
    again = httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": joined["token"]})
    assert again.status_code == 409  # the token opens no seat any more
    for n in (1, 2):
        server.join(table, f"Late{tag}-{n}")
    started = httpx.post(f"{server.url}/api/tables/{table}/leave", json={"token": made["token"]})
    assert started.status_code == 409 and "begun" in started.text
    gone = httpx.post(f"{server.url}/api/tables/nosuchtable/leave", json={"token": "x"})
    assert gone.status_code == 404
