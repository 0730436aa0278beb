"""Quick match ("Play now") at a live server: strangers who seek the same game are
seated together, rated when they asked for it; a seek may take bots after a while;
Kozel's pairs are made by the server, or by two friends who queue as one; a seek can be
cancelled; and what it says never holds another player's secret."""

from __future__ import annotations

import random
import threading

import httpx
import pytest

from bones.server.people.ratings import rank_game
from tests.server.live import Message, Server, play_all
from tests.server.skill import openskill_after


def _tag() -> str:
    return f"{random.randrange(10**6):06d}"


def _seated_all(server: Server, tickets: list[tuple[str, httpx.Client]]) -> list[Message]:
    """Watch every ticket at once (each socket keeps its own ticket alive) until each is
    seated."""
    seated: list[Message | None] = [None] * len(tickets)

    def watch(i: int) -> None:
        seated[i] = server.seated(*tickets[i])

    threads = [threading.Thread(target=watch, args=(i,)) for i in range(len(tickets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert all(s is not None for s in seated), "a ticket was never seated"
    return [s for s in seated if s is not None]


def test_two_strangers_who_play_now_rated_are_seated_and_rated(server: Server) -> None:
    tag = _tag()
    names = [f"Qm{tag}a", f"Qm{tag}b"]
    clients = [server.account(n) for n in names]
    seeks = [server.seek(c, "block", rated=True, target=50) for c in clients]
    assert seeks[0]["members"] == [names[0]] and seeks[0]["band"] >= 100
    seated = _seated_all(server, [(s["ticket"], c) for s, c in zip(seeks, clients, strict=True)])
    assert seated[0]["table"] == seated[1]["table"]
    assert {s["seat"] for s in seated} == {0, 1}
    made = [line for line in httpx.get(f"{server.url}/metrics").text.splitlines()
            if line.startswith("bones_quick_matches ")]
    assert made and float(made[0].split()[1]) >= 1
    table = server.get(f"/api/tables/{seated[0]['table']}")
    assert table["rated"] and table["public"] and table["clock"] == 15.0
    assert table["rules"]["target"] == 50 and table["variant"] == "block"
    assert sorted(s["name"] for s in table["seats"]) == sorted(names)
    ends = play_all([server.socket(s["table"], signed_in=c)  # each seat by its account
                     for s, c in zip(seated, clients, strict=True)], seed=int(tag))
    scores = ends[0]["table"]["scores"]
    by_seat = {s["seat"]: n for s, n in zip(seated, names, strict=True)}
    ranks = rank_game(scores, [0, 1], set(), lower_wins=False)
    expected = openskill_after([[by_seat[0]], [by_seat[1]]], ranks)
    for name in names:
        [rating] = server.get(f"/api/profile/{name}")["ratings"]
        assert (rating["variant"], rating["players"], rating["games"]) == ("block", 2, 1)
        assert (rating["mu"], rating["sigma"]) == pytest.approx(expected[name])


def test_a_ticket_says_where_it_stands_and_can_be_cancelled(server: Server) -> None:
    ann = server.account(f"Qc{_tag()}")
    seek = server.seek(ann, "allfives", target=150)
    again = ann.get(f"/api/seek/{seek['ticket']}")
    assert again.status_code == 200 and again.json()["type"] == "seeking"
    stranger = server.account(f"Qs{_tag()}")
    assert stranger.get(f"/api/seek/{seek['ticket']}").status_code == 404, "not theirs"
    assert stranger.delete(f"/api/seek/{seek['ticket']}").status_code == 404
    assert ann.delete(f"/api/seek/{seek['ticket']}").status_code == 204
    assert ann.get(f"/api/seek/{seek['ticket']}").status_code == 404
    # a second seek replaces the first
    first = server.seek(ann, "draw", players=3)
    second = server.seek(ann, "draw", players=4)
    assert ann.get(f"/api/seek/{first['ticket']}").status_code == 404
    assert ann.get(f"/api/seek/{second['ticket']}").json()["players"] == 4
    ann.delete(f"/api/seek/{second['ticket']}")


def test_bad_seeks_are_refused(server: Server) -> None:
    guest = httpx.Client(base_url=server.url)
    assert guest.post("/api/seek", json={"variant": "draw"}).status_code == 401
    guest.post("/api/guest").raise_for_status()
    assert guest.post("/api/seek", json={"variant": "draw", "rated": True}).status_code == 403
    for body in ({"variant": "kozel", "players": 2}, {"variant": "draw", "pair": True},
                 {"variant": "draw", "rated": True, "bots_after": 5},
                 {"variant": "draw", "target": 70}, {"variant": "chess"}):
        answer = guest.post("/api/seek", json=body)
        assert answer.status_code == 422, (body, answer.text)
    assert guest.post("/api/seek/pair/nothing").status_code == 404
    with pytest.raises(Exception):  # noqa: B017  (closed with 4401 before any message)
        httpx_socket = server.seek_socket("nothing", httpx.Client(base_url=server.url))
        httpx_socket.recv(5)


def test_a_seek_that_takes_bots_is_seated_with_them(server: Server) -> None:
    guest = httpx.Client(base_url=server.url)
    guest.post("/api/guest").raise_for_status()
    seek = server.seek(guest, "draw", players=3, bots_after=1, level="easy")
    [seated] = _seated_all(server, [(seek["ticket"], guest)])
    table = server.get(f"/api/tables/{seated['table']}")
    assert [s["kind"] for s in table["seats"]].count("bot") == 2
    assert {s["level"] for s in table["seats"] if s["kind"] == "bot"} == {"easy"}
    assert not table["rated"]


def test_kozel_pairs_friends_opposite_and_strangers_with_them(server: Server) -> None:
    tag = _tag()
    clients = [server.account(f"Qk{tag}{i}") for i in range(4)]
    pair = server.seek(clients[0], "kozel", pair=True)
    assert pair["code"] and pair["members"] == [f"Qk{tag}0"]
    assert clients[0].post(f"/api/seek/pair/{pair['code']}").status_code == 409, "own pair"
    joined = clients[1].post(f"/api/seek/pair/{pair['code']}")
    assert joined.status_code == 200 and joined.json()["members"] == [f"Qk{tag}0", f"Qk{tag}1"]
    assert joined.json()["code"] is None
    assert clients[2].post(f"/api/seek/pair/{pair['code']}").status_code == 404, "used once"
    singles = [server.seek(c, "kozel") for c in clients[2:]]
    tickets = [pair["ticket"]] * 2 + [s["ticket"] for s in singles]
    seated = _seated_all(server, list(zip(tickets, clients, strict=True)))
    assert len({s["table"] for s in seated}) == 1
    seats = [s["seat"] for s in seated]
    assert sorted(seats) == [0, 1, 2, 3] and abs(seats[0] - seats[1]) == 2, "friends opposite"


def test_what_a_seek_says_holds_no_seat_token(server: Server) -> None:
    """"Secrets at rest: every seat token kept as a hash": a seated ticket is kept a
    while for its sockets, with no token in it (the seat is its member's account's)."""
    tag = _tag()
    clients = [server.account(f"Ql{tag}{i}") for i in range(2)]
    seeks = [server.seek(c, "draw", players=2, target=150) for c in clients]
    watching = server.seek_socket(seeks[0]["ticket"], clients[0])
    mine = watching.until(lambda m: m["type"] == "matched" or m["waiting"] >= 1)
    theirs = _seated_all(server, [(seeks[1]["ticket"], clients[1])])[0]
    if mine["type"] != "matched":
        mine = watching.until(lambda m: m["type"] == "matched")
    assert "token" not in mine and "token" not in theirs
    assert mine["table"] == theirs["table"] and {mine["seat"], theirs["seat"]} == {0, 1}
    opened = server.socket(mine["table"], signed_in=clients[0])
    assert opened.until(lambda m: m["type"] == "state")["you"] == mine["seat"]
    opened.close()
