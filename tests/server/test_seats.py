"""Seats come and go: invites, reconnection with a token, a bot standing in for the
absent, spectators who see only what is public, and a server killed mid-round."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.live import Message, Server, play_all, play_out, sqlite_url


def test_invite_fills_free_seats_and_then_refuses(server: Server) -> None:
    """A friend with the link takes a free seat by display name; a full table says so."""
    made = server.create("kozel", [{"kind": "human", "name": "Ann"}, {"kind": "human"},
                                   {"kind": "bot", "level": "easy"}, {"kind": "human"}])
    table = made["table"]["id"]
    assert made["invite"].startswith(f"/t/{table}#invite=")
    assert made["table"]["status"] == "waiting"
    ben = server.join(table, "Ben")
    cy = server.join(table, "Cy")
    assert (ben["seat"], cy["seat"]) == (1, 3)
    assert cy["table"]["status"] == "playing"
    assert len({made["token"], ben["token"], cy["token"]}) == 3
    full = httpx.post(f"{server.url}/api/tables/{table}/join",
                      json={"name": "Dee", "invite": server.invites[table]})
    assert full.status_code == 409 and "no free seat" in full.json()["detail"]


def test_a_private_tables_seats_open_only_through_its_invite(server: Server) -> None:
    """Hardening: a stranger who knows the table id cannot take the seat meant for the
    friend, the table is not listed, and nobody sits under a name already at the table."""
    made = server.create("draw", [{"kind": "human", "name": "Host"}, {"kind": "human"}])
    table = made["table"]["id"]
    assert made["table"]["public"] is False
    assert table not in [t["id"] for t in server.get("/api/tables?limit=200")]
    join = f"{server.url}/api/tables/{table}/join"
    for body in ({"name": "Eve"}, {"name": "Eve", "invite": "guess"}):
        refused = httpx.post(join, json=body)
        assert refused.status_code == 403 and "invite" in refused.json()["detail"]
    secret = server.invites[table]
    twin = httpx.post(join, json={"name": "hOST", "invite": secret})
    assert twin.status_code == 409 and "already sits" in twin.json()["detail"]
    assert server.get(f"/api/tables/{table}")["status"] == "waiting"
    assert server.join(table, "Ben", secret)["seat"] == 1


def test_a_public_table_is_listed_and_open_to_anyone(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                         public=True)
    table = made["table"]["id"]
    assert made["invite"] == f"/t/{table}" and made["table"]["public"] is True
    assert table in [t["id"] for t in server.get("/api/tables?limit=200")]
    assert server.join(table, "Stranger")["seat"] == 1
    assert len(server.get("/api/tables?limit=1")) <= 1


def test_reconnect_with_the_token_gives_the_view_back(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                         options={"target": None})
    table = made["table"]["id"]
    other = server.join(table, "Ben")
    first = server.socket(table, made["token"])
    seen = first.until(lambda m: m["type"] == "state")
    first.close()
    again = server.socket(table, made["token"])
    back = again.until(lambda m: m["type"] == "state")
    assert back["you"] == 0
    assert back["view"]["hand"] == seen["view"]["hand"]
    assert back["view"]["line"] == seen["view"]["line"]
    ends = play_all([again, server.socket(table, other["token"])], seed=4)
    assert all(e["table"]["status"] == "over" for e in ends)


def test_a_seat_opened_on_another_device_moves_there(server: Server) -> None:
    """"Seats follow the account": a member's seat opened from another browser (another
    session of the account) moves there. The first browser's sockets, both its tabs, are
    closed with 4409, which the page answers by saying so and offering to play there
    again; a program holding the seat's token without a session keeps its socket; the
    seat is never shown away meanwhile."""
    name = f"Dev{random.randrange(10**7)}"
    laptop, phone = server.account(name), server.account(name)  # two sessions
    made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                         options={"target": None}, client=laptop)
    table = made["table"]["id"]
    tabs = [server.socket(table, made["token"], laptop), server.socket(table, signed_in=laptop)]
    program = server.socket(table, made["token"])
    for client in (*tabs, program):
        assert client.until(lambda m: m["type"] == "state")["you"] == 0
    for tab in tabs:  # one tab of the browser did not move the other
        tab.drain()
        assert tab.ws.close_code is None
    mobile = server.socket(table, signed_in=phone)
    assert mobile.until(lambda m: m["type"] == "state")["you"] == 0
    for tab in tabs:
        with pytest.raises(ConnectionClosed) as closed:
            tab.until(lambda m: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
    program.send({"v": 1, "type": "ping"})
    assert program.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    mobile.drain()
    assert all(m["table"]["seats"][0]["connected"] for m in mobile.received
               if m["type"] == "state")


def test_a_members_games_in_progress_are_listed_with_whose_turn(server: Server) -> None:
    """"Your games in progress" (all of them, with whose turn it is): every table not over
    where the account sits, newest first, with its seat and the seat to move; a game over
    leaves the list. The profile names the public ones being played (to watch), never a
    private one."""
    name = f"Inp{random.randrange(10**7)}"
    member = server.account(name)
    assert member.get("/api/me/games").json() == []
    assert httpx.get(f"{server.url}/api/me/games").status_code == 401
    friendly = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                             options={"target": None}, client=member, public=True)
    private = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                            options={"target": None}, client=member)
    server.join(private["table"]["id"], None, client=server.account(f"{name}b"))
    solo = server.create("draw", [{"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}],
                         options={"target": None}, client=member)
    games = member.get("/api/me/games").json()
    assert [g["id"] for g in games] == [solo["table"]["id"], private["table"]["id"],
                                        friendly["table"]["id"]]
    assert [g["yours"] for g in games] == [0, 0, 0]
    assert [g["status"] for g in games] == ["playing", "playing", "waiting"]
    assert games[0]["turn"] in (0, 1) and games[2]["turn"] is None
    profile = httpx.get(f"{server.url}/api/profile/{name}").json()
    assert profile["playing"] == [friendly["table"]["id"]]  # the others are private
    seat = server.socket(solo["table"]["id"], signed_in=member)
    play_out(seat, random.Random(1))
    seat.close()
    assert solo["table"]["id"] not in [g["id"] for g in member.get("/api/me/games").json()]


def test_a_bad_token_opens_nothing(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}])
    stranger = server.socket(made["table"]["id"], "not-a-token")
    refused = stranger.recv()
    assert refused["type"] == "error" and "token" in refused["message"]


def test_spectators_see_no_hand(server: Server) -> None:
    made = server.create("block", [{"kind": "human", "name": "Ann"},
                                   {"kind": "bot", "level": "easy"}], options={"target": None})
    table = made["table"]["id"]
    watcher = server.socket(table)
    player = server.socket(table, made["token"])
    play_out(player, random.Random(1))
    player.close()
    states = [m for m in watcher.received if m["type"] == "state"]
    watcher.until(lambda m: m["type"] == "state" and m["table"]["status"] == "over")
    states = [m for m in watcher.received if m["type"] == "state"]
    assert states
    for message in states:
        assert message["you"] is None and message["view"]["hand"] == []
        assert message["view"]["legal_moves"] == []
        if message["table"]["status"] == "playing":
            assert message["reveal"] is None
    watcher.send({"v": 1, "type": "move", "move": "draw"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "spectator"


def test_a_bot_stands_in_for_a_player_who_left(tmp_path: Path) -> None:
    """Past the leave time a bot plays the absent seat, and the others finish."""
    running = Server(sqlite_url(tmp_path / "away.db"), leave_after=0.5).start()
    try:
        made = running.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                              options={"target": None})
        table = made["table"]["id"]
        ben = running.join(table, "Ben")
        gone = running.socket(table, made["token"])
        gone.recv()
        gone.close()
        stayer = running.socket(table, ben["token"])
        end = play_out(stayer, random.Random(2))
        assert end["table"]["status"] == "over"
        assert any(m["type"] == "state" and m["table"]["seats"][0]["replaced"]
                   for m in stayer.received)
    finally:
        running.stop()


def _quiet(state: Message) -> bool:
    """Nothing moves at this table until a person does: the bot (seat 2) is not to play,
    and forced draws and passes follow a move at once, in the same write."""
    return state["table"]["status"] != "playing" or state["view"]["turn"] != 2


def test_kill_mid_round_and_play_on(store_url: str) -> None:
    """SIGKILL the server mid-round, start it again: the table is where it was (on
    SQLite and on PostgreSQL)."""
    db = store_url
    running = Server(db).start()
    made = running.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"},
                                   {"kind": "bot", "level": "medium"}],
                          options={"players": 3, "target": 50})
    table = made["table"]["id"]
    tokens = [made["token"], running.join(table, "Ben")["token"]]
    clients = [running.socket(table, t) for t in tokens]
    play_all(clients, seed=3, stop=lambda m: len(m["view"].get("history", ())) >= 8)
    for client in clients:  # the kill comes once nothing more can happen: a person's turn
        if not _quiet(client.last_state()):
            client.until(lambda m: m["type"] == "state" and _quiet(m))
    before = [c.last_state() for c in clients]
    running.kill()
    restarted = Server(db, port=running.port).start()
    try:
        again = [restarted.socket(table, t) for t in tokens]
        after = [c.until(lambda m: m["type"] == "state") for c in again]
        for old, new in zip(before, after, strict=True):
            assert new["view"] == old["view"]
            assert new["table"]["scores"] == old["table"]["scores"]
            assert new["table"]["round"] == old["table"]["round"]
        ends = play_all(again, seed=9)
        assert all(e["table"]["status"] == "over" for e in ends)
        assert restarted.get(f"/api/games/{table}/record")["is_over"] is True
    finally:
        restarted.stop()


def test_the_clock_moves_for_a_player_out_of_time(server: Server) -> None:
    """With a per-move clock, a player who lets it run out has a bot move for them."""
    made = server.create("draw", [{"kind": "human", "name": "Slow"},
                                  {"kind": "bot", "level": "easy"}],
                         options={"target": None}, clock=0.2)
    idle = server.socket(made["table"]["id"], made["token"])
    end = idle.until(lambda m: m["type"] == "state" and m["table"]["status"] == "over")
    assert end["table"]["clock"] == 0.2
    assert any(seat == 0 and move not in ("draw", "pass") for seat, move in end["view"]["history"])


def test_finished_games_keep_records_and_stats(server: Server) -> None:
    name = "Statler"
    statler = server.account(name)
    made = server.create("allfives", [{"kind": "human", "me": True},
                                      {"kind": "bot", "level": "easy"}],
                         options={"target": None}, client=statler)
    table = made["table"]["id"]
    end = play_out(server.socket(table, made["token"]), random.Random(8))
    stats = server.get(f"/api/stats/{name}")
    won = end["table"]["winner"] == 0
    mine = end["table"]["scores"][0]
    row = {"games": 1, "wins": int(won), "losses": int(not won and end["table"]["winner"] == 1),
           "points": float(mine)}
    assert stats["total"] == row
    assert stats["by_variant"] == {"allfives": row} and stats["by_level"] == {"easy": row}
    assert server.get(f"/api/games?name={name}") == []  # a private table's: not to others
    history = statler.get(f"/api/games?name={name}").json()
    assert [g["id"] for g in history] == [table] and history[0]["names"] == [name, "bot:easy"]
    record = server.get(f"/api/games/{table}/record")
    assert record["winner"] == end["table"]["winner"] and record["is_over"]
    assert httpx.get(f"{server.url}/api/games/nope/record").status_code == 404


def test_tables_list_after_a_restart(store_url: str) -> None:
    """Tables read back from the store sort with new ones: every moment comes back
    timezone-aware, on SQLite as on PostgreSQL."""
    running = Server(store_url).start()
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human"}]
    old = running.create("draw", seats, public=True)["table"]["id"]
    running.kill()
    restarted = Server(store_url, port=running.port).start()
    try:
        new = restarted.create("draw", seats, public=True)["table"]["id"]
        listed = [t["id"] for t in restarted.get("/api/tables?limit=200")]
        assert listed.index(new) < listed.index(old)
    finally:
        restarted.stop()


def test_a_rematch_is_an_offer_everyone_accepts(server: Server) -> None:
    """Play again reaches every player: the first offer shows at the table, the last
    acceptance makes the new table (same seats, same rules) and sends each player their
    own seat there; a spectator is told where it went, and cannot offer one."""
    made = server.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                         options={"target": None})
    table = made["table"]["id"]
    ben = server.join(table, "Ben")
    players = [server.socket(table, made["token"]), server.socket(table, ben["token"])]
    watcher = server.socket(table)
    play_all(players, seed=5)
    players[0].send({"v": 1, "type": "rematch"})
    offered = players[1].until(lambda m: m["type"] == "state" and m["table"]["rematch"] == [0])
    assert offered["table"]["next"] is None
    watcher.send({"v": 1, "type": "rematch"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "spectator"
    players[1].send({"v": 1, "type": "rematch"})
    seats = [p.until(lambda m: m["type"] == "rematch") for p in players]
    assert seats[0]["table"] == seats[1]["table"] != table
    assert [s["seat"] for s in seats] == [0, 1] and seats[0]["token"] != seats[1]["token"]
    assert "#invite=" in seats[0]["invite"]
    new = seats[0]["table"]
    assert watcher.until(lambda m: m["type"] == "state" and m["table"]["next"] == new)
    again = [server.socket(new, s["token"]) for s in seats]
    views = [c.until(lambda m: m["type"] == "state") for c in again]
    assert [v["you"] for v in views] == [0, 1]
    info = views[0]["table"]
    assert info["status"] == "playing" and info["rules"] == offered["table"]["rules"]
    assert [s["name"] for s in info["seats"]] == ["Ann", "Ben"]
    assert all(e["table"]["status"] == "over" for e in play_all(again, seed=6))


def test_a_rematch_offer_outlives_a_restart(store_url: str) -> None:
    """An offer is in the table's log: the server killed after it, the other player's
    acceptance still makes the rematch; the table then says where it went."""
    running = Server(store_url).start()
    made = running.create("block", [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                          options={"target": None})
    table = made["table"]["id"]
    tokens = [made["token"], running.join(table, "Ben")["token"]]
    players = [running.socket(table, t) for t in tokens]
    play_all(players, seed=8)
    players[0].send({"v": 1, "type": "rematch"})
    players[1].until(lambda m: m["type"] == "state" and m["table"]["rematch"] == [0])
    running.kill()
    restarted = Server(store_url, port=running.port).start()
    restarted.invites = running.invites  # a private table is watched with its secret
    try:
        again = [restarted.socket(table, t) for t in tokens]
        seen = [c.until(lambda m: m["type"] == "state") for c in again]  # both back
        assert seen[1]["table"]["rematch"] == [0], "the offer was lost"
        again[1].send({"v": 1, "type": "rematch"})
        seats = [c.until(lambda m: m["type"] == "rematch") for c in again]
        assert seats[0]["table"] == seats[1]["table"] != table
        new = seats[0]["table"]
        # dealt at once; about one 2-player block deal in a hundred is played out by
        # forced moves alone, and is over at once (188 of seeds 0-19,999)
        assert restarted.get(f"/api/tables/{new}")["status"] in ("playing", "over")
    finally:
        restarted.stop()
    once_more = Server(store_url, port=running.port).start()
    once_more.invites = running.invites
    try:
        told = once_more.socket(table).until(lambda m: m["type"] == "state")
        assert told["table"]["next"] == new and told["table"]["rematch"] == [0, 1]
        assert once_more.get(f"/api/games/{table}/record")["is_over"] is True
    finally:
        once_more.stop()


def test_a_rematch_against_bots_begins_at_once(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}], options={"target": None})
    ann = server.socket(made["table"]["id"], made["token"])
    play_out(ann, random.Random(4))
    ann.send({"v": 1, "type": "rematch"})
    seat = ann.until(lambda m: m["type"] == "rematch")
    info = server.get(f"/api/tables/{seat['table']}")
    assert info["status"] == "playing" and info["seats"][1]["level"] == "easy"
