"""Challenges: a player challenges another by name, who hears it at once on their
notice socket (at another process too) and accepts, which seats both at one new table
(the challenger told their seat), or declines; a link's challenge is taken by the first
who accepts it; nobody challenges across a block."""

from __future__ import annotations

import random

import httpx

from tests.server.live import Client, Message, Server, played


def _name(prefix: str) -> str:
    return f"{prefix}{random.randrange(10**8)}"


def _notices(server: Server, client: httpx.Client) -> Client:
    return Client(f"ws://127.0.0.1:{server.port}/ws/me", client)


def _notice(socket: Client, kind: str) -> Message:
    return socket.until(lambda m: m["type"] == "notice" and m["kind"] == kind, timeout=30)


DRAW = {"variant": "draw", "options": {"target": 50},
        "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}


def test_a_challenge_is_heard_at_once_and_accepted_at_another_process(
        site: list[Server]) -> None:
    first, second = site[0], site[1]
    ann_name, bob_name = _name("Cha"), _name("Chb")
    ann, bob = first.account(ann_name), second.account(bob_name)
    ann_hears, bob_hears = _notices(first, ann), _notices(second, bob)
    made = ann.post("/api/challenges", json={"name": bob_name, "table": DRAW})
    assert made.status_code == 201, made.text
    heard = _notice(bob_hears, "challenge")["challenge"]
    assert heard["by"] == ann_name and heard["id"] == made.json()["id"]
    assert heard["seat"] is None  # the challenger's alone
    assert [c["id"] for c in bob.get("/api/challenges").json()] == [heard["id"]]
    joined = bob.post(f"/api/challenges/{heard['id']}/accept")
    assert joined.status_code == 200, joined.text
    told = _notice(ann_hears, "accepted")["challenge"]
    assert told["table"] == joined.json()["table"]["id"] and told["seat"]["seat"] == 0
    assert "token" not in told["seat"]  # Ann's seat is hers by her account, kept nowhere
    for seat, opened in ((0, first.socket(told["table"], signed_in=ann)),
                         (1, second.socket(told["table"], joined.json()["token"]))):
        state = opened.until(lambda m: m["type"] == "state")
        assert state["table"]["status"] == "playing" and state["you"] == seat
        opened.close()
    assert bob.post(f"/api/challenges/{heard['id']}/accept").status_code == 409
    _listed_at_the_other_process(first, second, ann_name, bob_name, heard["id"])
    ann_hears.close()
    bob_hears.close()


def _listed_at_the_other_process(first: Server, second: Server, ann_name: str,
                                 bob_name: str, challenge: str) -> None:
    """Each notice is a line of its player's notifications, read at any process: Bob's
    challenge (at the first, where he was not), Ann's challenge accepted (at the second);
    lines read are no longer counted unread."""
    bobs = first.account(bob_name).get("/api/notifications").json()
    assert bobs["unread"] == 1
    line = bobs["items"][0]
    assert (line["kind"], line["by"], line["challenge"]) == ("challenge", ann_name, challenge)
    assert line["table_spec"]["variant"] == "draw" and not line["read"]
    ann = second.account(ann_name)
    anns = ann.get("/api/notifications").json()
    assert [(n["kind"], n["by"]) for n in anns["items"]] == [("accepted", bob_name)]
    assert anns["items"][0]["table"] is not None
    read = ann.post("/api/notifications/read", json={"upto": anns["items"][0]["id"]})
    assert read.status_code == 204, read.text
    assert first.account(ann_name).get("/api/notifications").json()["unread"] == 0
    assert ann.post("/api/notifications/read", json={"upto": "all"}).status_code == 422
    assert httpx.get(f"{first.url}/api/notifications").status_code == 401


def test_a_rematch_offer_is_told_and_listed(server: Server) -> None:
    """A rematch offered at a finished table is told to the other player on their notice
    socket (wherever they are) and kept in their list, once however often it is sent."""
    ann_name, bob_name = _name("Chr"), _name("Chs")
    ann, bob = server.account(ann_name), server.account(bob_name)
    bob_hears = _notices(server, bob)
    table, seats = played(server, ann, bob)
    for _ in range(2):
        seats[0].send({"v": 1, "type": "rematch"})
        seats[0].until(lambda m: m["type"] == "state" and m["table"]["rematch"] == [0])
    told = _notice(bob_hears, "rematch")["notification"]
    assert (told["by"], told["table"]) == (ann_name, table)
    assert told["table_spec"] == {"variant": "draw", "options": {"target": None},
                                  "rated": False}
    listed = bob.get("/api/notifications").json()
    assert [n["kind"] for n in listed["items"]] == ["rematch"] and listed["unread"] == 1
    assert ann.get("/api/notifications").json()["items"] == []
    for socket in [*seats, bob_hears]:
        socket.close()


def test_declined_cancelled_blocked_and_a_links_first_taker(server: Server) -> None:
    ann_name, bob_name, cy_name = _name("Chd"), _name("Che"), _name("Chf")
    ann, bob, cy = server.account(ann_name), server.account(bob_name), server.account(cy_name)
    ann_hears, bob_hears = _notices(server, ann), _notices(server, bob)
    made = ann.post("/api/challenges", json={"name": bob_name, "table": DRAW}).json()
    _notice(bob_hears, "challenge")
    assert cy.post(f"/api/challenges/{made['id']}/accept").status_code == 403  # not Cy's
    assert bob.post(f"/api/challenges/{made['id']}/decline").status_code == 204
    assert _notice(ann_hears, "declined")["challenge"]["state"] == "declined"
    again = ann.post("/api/challenges", json={"name": bob_name, "table": DRAW}).json()
    assert ann.delete(f"/api/challenges/{again['id']}").status_code == 204
    assert _notice(bob_hears, "cancelled")["challenge"]["id"] == again["id"]
    assert bob.post(f"/api/challenges/{again['id']}/accept").status_code == 409
    bob.post("/api/blocks", json={"name": ann_name}).raise_for_status()
    assert ann.post("/api/challenges", json={"name": bob_name,
                                             "table": DRAW}).status_code == 403
    link = ann.post("/api/challenges", json={"table": {**DRAW, "options": {"target": None}}}).json()
    assert link["link"] == f"/challenge/{link['id']}"
    assert bob.post(f"/api/challenges/{link['id']}/accept").status_code == 403  # a block
    assert httpx.get(f"{server.url}/api/challenges/{link['id']}").json()["by"] == ann_name
    taken = cy.post(f"/api/challenges/{link['id']}/accept")
    assert taken.status_code == 200
    assert taken.json()["table"]["rules"]["target"] is None  # a single round, as asked
    assert _notice(ann_hears, "accepted")["challenge"]["to"] == cy_name
    bad = ann.post("/api/challenges", json={"name": cy_name, "table": {
        **DRAW, "seats": [{"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}]}})
    assert bad.status_code == 422
    ann_hears.close()
    bob_hears.close()
