"""Several server processes, one site (``--db postgresql://… --redis redis://…``): three
app processes and two bot workers on loopback. A seat's socket may reach any process;
one process holds each table; when it is killed another takes the table over and the
match goes on, no move lost or doubled."""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import httpx

from bones import Match
from tests.server.chaos import play_seats, play_through, running
from tests.server.live import Message, Server, both_move, play_out


def _seen(messages: list[Message]) -> list[tuple[int, str]]:
    """Every move a client was told of, in order: what its first state already held
    (a forced draw can come as the second player sits down, before anyone watches),
    then each state's new actions."""
    states = [m for m in messages if m["type"] == "state"]
    first = [(seat, move) for seat, move in states[0]["view"]["history"]]
    return first + [(a["seat"], a["move"]) for m in states[1:] for a in m["actions"]]


def test_players_on_different_processes_play_a_match(site: list[Server]) -> None:
    a, b, c = site
    lobby = c.lobby()
    assert lobby.recv()["open"] == []  # (a new site: no lobby chat before it)
    made = a.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                    options={"target": 50}, public=True)
    table = made["table"]["id"]
    listed = lobby.until(lambda m: bool(m["open"]))  # pushed by C for A's table
    assert [t["id"] for t in listed["open"]] == [table]
    ben = b.join(table, "Ben")  # asked of B, done by A, which holds the table
    assert ben["seat"] == 1
    playing = lobby.until(lambda m: bool(m["playing"]))
    assert playing["open"] == [] and playing["playing"][0]["seats"][1]["name"] == "Ben"
    assert [t["id"] for t in c.get("/api/tables")] == [table], "C lists A's public table"
    assert c.get(f"/api/tables/{table}")["seats"][1]["name"] == "Ben"
    spectator = c.socket(table)
    spectator.until(lambda m: m["type"] == "state")  # watching (through C) before anyone moves
    finals = play_seats([(a, made["token"]), (b, ben["token"])], table, seed=11, timeout=180)
    assert all(f is not None and f["table"]["status"] == "over" for f in finals)
    record = c.get(f"/api/games/{table}/record")
    match = Match.from_record(record)
    assert match.is_over
    spectator.until(lambda m: m["type"] == "state" and m["table"]["status"] == "over")
    played = [(seat, move) for rnd in match.rounds for seat, move in rnd.view(0).history]
    assert _seen(spectator.received) == played, "the spectator missed a move, or saw one twice"
    assert c.get("/api/tables") == [], "a finished table leaves the shared list"
    speaker = a.lobby(a.account("Talker"))  # the lobby's chat, said at A, heard at C
    speaker.send({"v": 1, "type": "chat", "text": "anyone for Kozel?"})
    heard = lobby.until(lambda m: m["type"] == "chat")
    assert (heard["name"], heard["text"]) == ("Talker", "anyone for Kozel?")


def test_another_process_takes_over_a_killed_one_s_table(site: list[Server]) -> None:
    a, b, c = site
    made = a.create("kozel", [{"kind": "human", "name": "Ann"},
                              {"kind": "bot", "level": "hard"},
                              {"kind": "bot", "level": "medium"},
                              {"kind": "bot", "level": "hard"}], options={"target": None})
    table = made["table"]["id"]
    ann = b.socket(table, made["token"])  # relayed: A holds the table
    rng = random.Random(4)
    state: dict[str, Any] = play_out(ann, rng, stop=lambda m: len(m["view"].get("history",
                                                                                  [])) >= 6)
    assert state["table"]["status"] == "playing"
    a.kill()  # SIGKILL, mid-round
    final, _ = play_through(lambda: running([b, c]), table, made["token"], rng,
                            time.monotonic() + 240)
    assert final is not None and final["table"]["status"] == "over", "the match did not end"
    record = b.get(f"/api/games/{table}/record")
    match = Match.from_record(record)  # every move replays: none lost, none doubled
    assert match.is_over


def test_a_stopped_process_hands_its_tables_over(site: list[Server]) -> None:
    """SIGTERM: the process gives its leases back as it goes, and its clients come back
    to whichever process takes the table."""
    a, b, c = site
    made = a.create("draw", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "hard"}],
                    options={"target": None})
    table = made["table"]["id"]
    rng = random.Random(8)
    play_out(a.socket(table, made["token"]), rng,
             stop=lambda m: len(m["view"].get("history", [])) >= 2)
    a.stop()
    final, _ = play_through(lambda: running([b, c]), table, made["token"], rng,
                            time.monotonic() + 240)
    assert final is not None and final["table"]["status"] == "over", "the match did not end"
    assert Match.from_record(c.get(f"/api/games/{table}/record")).is_over


def test_players_who_play_now_at_different_processes_are_seated_together(
        site: list[Server]) -> None:
    a, b, c = site
    ann, ben = a.account("Ann"), b.account("Ben")
    seeks = [a.seek(ann, "draw", target=50, rated=True), b.seek(ben, "draw", target=50,
                                                                 rated=True)]
    assert c.seek(c.account("Cy"), "draw", target=100)["waiting"] >= 1, "one queue for all"
    seated = [a.seated(seeks[0]["ticket"], ann), b.seated(seeks[1]["ticket"], ben)]
    assert seated[0]["table"] == seated[1]["table"]
    table = seated[0]["table"]
    finals = play_seats([(c, ann), (a, ben)], table, seed=5,  # seated by their accounts
                        timeout=180)
    assert all(f is not None and f["table"]["status"] == "over" for f in finals)
    assert c.get("/api/profile/Ann")["ratings"][0]["games"] == 1


def test_a_resignation_as_its_holder_dies_rates_once(site: list[Server]) -> None:
    """A rated game held by A, its players relayed through B and C: Ann resigns and A is
    killed at once, before or after the resignation was stored. Another process takes
    the table; if the resignation was lost, Ann resigns again: either way the game has
    one result, her resignation, and each rating moved once."""
    a, b, c = site
    tag = random.randrange(10**6)
    names = [f"Cr{tag}a", f"Cr{tag}b"]
    clients = [a.account(name) for name in names]
    made = a.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}], rated=True,
                    options={"target": 150}, client=clients[0])
    table = made["table"]["id"]
    tokens = [made["token"], a.join(table, None, client=clients[1])["token"]]
    ann, ben = b.socket(table, tokens[0]), c.socket(table, tokens[1])
    both_move(ann, ben, seed=3)  # each a move of their own, so that the game rates
    ann.send({"v": 1, "type": "resign"})
    a.kill()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            status = b.get(f"/api/tables/{table}")["status"]
        except httpx.HTTPError:  # taken over just now: ask again
            status = None
        if status == "over":
            break
        if status == "playing":  # the resignation died with A: say it again
            with contextlib.suppress(Exception):
                again = b.socket(table, tokens[0])
                again.until(lambda m: m["type"] == "state", timeout=10)
                again.send({"v": 1, "type": "resign"})
                again.until(lambda m: m["type"] == "state"
                            and m["table"]["status"] == "over", timeout=10)
        time.sleep(0.5)
    record = c.get(f"/api/games/{table}/record")
    assert record["forfeit"] == {"seat": 0, "how": "resigned"}
    moved_ratings = c.get(f"/api/games/{table}/ratings")
    assert len(moved_ratings["changes"]) == 2, moved_ratings
    for name in names:
        [rating] = c.get(f"/api/profile/{name}")["ratings"]
        assert rating["games"] == 1
