"""Sessions you can see: a member's sessions are listed with the browser, the address and
when each was last seen, any one (or every other) is signed out, and the pages of a
device signed out are told at once, at every process (the account page's part is in
``tests/web/test_accounts.py``)."""

from __future__ import annotations

import random
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bones.server.people.accounts import Accounts
from bones.server.people.devices import SEEN_EVERY, Where, devices
from bones.server.sockets.allowance import SIGNED_OUT
from bones.server.store.records import Store
from bones.server.store.schema import SessionRow, now
from tests.server.live import Client, Server, admin, closed_code

PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Mobile Safari/537.36")
LAPTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


def _name(prefix: str) -> str:
    return f"{prefix}{random.randrange(10**8)}"


def _on(server: Server, name: str, browser: str) -> httpx.Client:
    """A browser signed in as ``name`` (signed up by the first)."""
    client = httpx.Client(base_url=server.url, headers={"User-Agent": browser})
    body = {"name": name, "password": "correct horse"}
    if client.post("/api/login", json=body).status_code == 401:
        client.post("/api/signup", json=body).raise_for_status()
    return client


def _notices(server: Server, client: httpx.Client) -> Client:
    """The socket every page of the app keeps open, with its first message read."""
    socket = Client(f"ws://127.0.0.1:{server.port}/ws/me", client)
    socket.drain()
    return socket


def test_a_session_is_stamped_where_it_was_seen_at_most_every_few_minutes() -> None:
    """A request from where the session was last seen writes nothing for SEEN_EVERY;
    one from another address is stamped at once."""
    store = Store("sqlite://")
    accounts = Accounts(store.engine)
    ann, token = accounts.sign_up("Ann", "correct horse", where=Where("192.0.2.1", "Firefox"))
    [made] = devices(store.engine, ann.id)
    assert (made.kind, made.browser, made.address) == ("session", "Firefox", "192.0.2.1")
    earlier = now() - timedelta(minutes=1)
    with Session(store.engine) as session, session.begin():
        session.execute(update(SessionRow).values(seen=earlier))
    accounts.by_session(token, Where("192.0.2.1", "Firefox"))
    assert devices(store.engine, ann.id)[0].seen == earlier  # not written again
    accounts.by_session(token, Where("198.51.100.7", "Firefox"))
    moved = devices(store.engine, ann.id)[0]
    assert moved.address == "198.51.100.7" and moved.seen is not None and moved.seen > earlier
    with Session(store.engine) as session, session.begin():
        session.execute(update(SessionRow).values(seen=now() - SEEN_EVERY))
    accounts.by_session(token, Where("198.51.100.7", "Firefox"))
    assert now() - devices(store.engine, ann.id)[0].seen < SEEN_EVERY  # type: ignore[operator]


def test_a_member_sees_their_sessions_and_signs_one_out(server: Server) -> None:
    name = _name("Dev")
    laptop, phone = _on(server, name, LAPTOP), _on(server, name, PHONE)
    listed = laptop.get("/api/sessions").json()
    assert [(s["browser"], s["current"]) for s in listed] == [
        ("Firefox · Linux", True), ("Chrome · Android", False)]  # this one first
    assert all(s["address"] == "127.0.0.1" for s in listed)
    on_phone = _notices(server, phone)
    on_laptop = _notices(server, laptop)
    table = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                          client=server.account(_name("Own")), public=True)
    watching = server.socket(table["table"]["id"], signed_in=phone)  # a table's socket too
    watching.until(lambda m: m["type"] == "state")
    ended = laptop.delete(f"/api/sessions/{listed[1]['id']}")
    assert ended.status_code == 204
    assert closed_code(on_phone) == SIGNED_OUT  # the phone's page is told at once
    assert closed_code(watching) == SIGNED_OUT
    assert phone.get("/api/me").status_code == 401
    assert laptop.get("/api/me").json()["name"] == name
    assert [s["current"] for s in laptop.get("/api/sessions").json()] == [True]
    assert laptop.delete(f"/api/sessions/{listed[1]['id']}").status_code == 404  # once
    with pytest.raises(TimeoutError):  # the laptop's own socket stays open
        on_laptop.recv(1.0)
    on_laptop.close()


def test_nobody_signs_out_a_session_of_another(server: Server) -> None:
    ann, bob = _on(server, _name("Ann"), LAPTOP), _on(server, _name("Bob"), PHONE)
    theirs = bob.get("/api/sessions").json()[0]["id"]
    assert ann.delete(f"/api/sessions/{theirs}").status_code == 404
    assert ann.delete("/api/sessions/%25%25%25").status_code == 404
    assert bob.get("/api/me").status_code == 200
    assert httpx.get(f"{server.url}/api/sessions").status_code == 401


def test_signing_out_every_other_device_keeps_this_one(server: Server) -> None:
    name = _name("All")
    here = _on(server, name, LAPTOP)
    others = [_on(server, name, PHONE) for _ in range(2)]
    sockets = [_notices(server, other) for other in others]
    assert here.post("/api/logout/others").json() == {"ended": 2}
    assert [closed_code(socket) for socket in sockets] == [SIGNED_OUT, SIGNED_OUT]
    assert [other.get("/api/me").status_code for other in others] == [401, 401]
    assert len(here.get("/api/sessions").json()) == 1


def test_a_new_password_signs_out_the_others_and_keeps_this_page(server: Server) -> None:
    name = _name("Pwd")
    here, there = _on(server, name, LAPTOP), _on(server, name, PHONE)
    mine, theirs = _notices(server, here), _notices(server, there)
    assert here.post("/api/password", json={"old": "correct horse",
                                            "new": "battery staple"}).status_code == 204
    assert closed_code(theirs) == SIGNED_OUT
    assert here.get("/api/me").status_code == 200 and there.get("/api/me").status_code == 401
    with pytest.raises(TimeoutError):  # open
        mine.recv(1.0)
    mine.close()


def test_a_revoked_token_closes_the_programs_sockets(server: Server) -> None:
    name = _name("Tok")
    member = _on(server, name, LAPTOP)
    made = member.post("/api/tokens", json={"label": "my bot"}).json()
    program = httpx.Client(base_url=server.url, headers={
        "Authorization": f"Bearer {made['token']}", "User-Agent": "python-httpx/0.28.1"})
    assert program.get("/api/me").status_code == 200
    with connect(f"ws://127.0.0.1:{server.port}/ws/me", additional_headers={
            "Authorization": f"Bearer {made['token']}"}) as bot:
        with pytest.raises(TimeoutError):  # in: it hears nothing until something happens
            bot.recv(timeout=0.5)
        assert member.delete(f"/api/tokens/{made['id']}").status_code == 204
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                bot.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SIGNED_OUT
    assert program.get("/api/me").status_code == 401


def test_the_operator_lists_and_signs_out_sessions(server: Server) -> None:
    name = _name("Opr")
    laptop, phone = _on(server, name, LAPTOP), _on(server, name, PHONE)
    laptop.post("/api/tokens", json={"label": "my bot"}).raise_for_status()
    listed = admin(server.db, "sessions", name)
    assert "Firefox · Linux" in listed and "Chrome · Android" in listed
    assert "127.0.0.1" in listed and "my bot" in listed
    phone_id = next(s["id"] for s in phone.get("/api/sessions").json() if s["current"])
    assert f"{name}: 1 signed out" in admin(server.db, "sign-out", name, phone_id,
                                            "--reason", "lost phone")
    assert phone.get("/api/me").status_code == 401 and laptop.get("/api/me").status_code == 200
    assert "sign-out" in admin(server.db, "audit", "--name", name)
    assert f"{name}: 2 signed out" in admin(server.db, "sign-out", name, "--reason", "all")
    assert laptop.get("/api/me").status_code == 401


def test_a_device_signed_out_at_one_process_is_told_at_another(
        site: list[Server], redis_url: str) -> None:
    """Signed out from a page served by one process, or by the operator with the site's
    Redis: the device's sockets at the other processes close at once."""
    first, second, third = site
    name = _name("Far")
    here = _on(first, name, LAPTOP)
    there, away = _on(second, name, PHONE), _on(third, name, PHONE)
    at_second, at_third = _notices(second, there), _notices(third, away)
    theirs = next(s["id"] for s in there.get("/api/sessions").json() if s["current"])
    assert here.delete(f"/api/sessions/{theirs}").status_code == 204
    assert closed_code(at_second) == SIGNED_OUT
    assert f"{name}: 2 signed out" in admin(first.db, "--redis", redis_url, "sign-out", name,
                                            "--reason", "every device")
    assert closed_code(at_third) == SIGNED_OUT
