"""Accounts: a guest at once, signing up (a guest keeps their games), logging in and
out, passwords, login limits, the session cookie's flags, and personal API tokens that
stop working the moment they are revoked."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from bones.server.people.accounts import Accounts
from bones.server.store.records import Store
from tests.server.live import Server, play_out, sqlite_url

PASSWORD = "correct horse"
VS_BOT = [{"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}]


def _cookie(response: httpx.Response) -> str:
    return response.headers["set-cookie"]


def test_a_guest_plays_at_once_and_keeps_their_games_on_signing_up(server: Server) -> None:
    browser = httpx.Client(base_url=server.url)
    guest = browser.post("/api/guest").json()
    assert guest["guest"] and guest["name"].startswith("Guest")
    assert browser.post("/api/guest").json() == guest  # already signed in: the same one
    made = server.create("draw", VS_BOT, options={"target": None}, client=browser)
    assert made["table"]["seats"][0]["name"] == guest["name"]
    play_out(server.socket(made["table"]["id"], made["token"]), random.Random(1))
    assert server.get(f"/api/stats/{guest['name']}")["total"]["games"] == 1

    name = f"Gia{random.randrange(10**6)}"
    signed = browser.post("/api/signup", json={"name": name, "password": PASSWORD})
    assert signed.status_code == 201 and signed.json() == {
        "name": name, "guest": False, "bot": False, "roles": [], "sanctions": [], "limited": None}
    assert browser.get("/api/me").json()["name"] == name
    assert server.get(f"/api/stats/{name}")["total"]["games"] == 1
    own = browser.get(f"/api/games?name={name}").json()  # a private table's: theirs to list
    assert [g["id"] for g in own] == [made["table"]["id"]]
    assert own[0]["names"][0] == name  # played as the guest: listed under the name now
    assert server.get(f"/api/stats/{guest['name']}")["total"]["games"] == 0  # the name moved


def test_the_session_cookie_is_httponly_and_samesite(client: TestClient) -> None:
    cookie = _cookie(client.post("/api/guest"))
    assert "bones_session=" in cookie and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Path=/" in cookie and "Secure" not in cookie
    secure = TestClient(client.app, base_url="https://testserver")
    assert "Secure" in _cookie(secure.post("/api/guest"))


def test_behind_a_trusted_proxy_the_forwarded_scheme_makes_the_cookie_secure(
        tmp_path: Path) -> None:
    for trusted, secure in (False, False), (True, True):
        server = Server(sqlite_url(tmp_path / f"proxy{trusted}.db"),
                        extra=["--trust-proxy", "127.0.0.1"] if trusted else []).start()
        try:
            response = httpx.post(f"{server.url}/api/guest",
                                  headers={"x-forwarded-proto": "https"})
            assert ("Secure" in _cookie(response)) == secure
        finally:
            server.stop()


def test_sign_up_log_out_log_in_and_a_wrong_password(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    made = client.post("/api/signup", json={"name": "Ann", "password": PASSWORD})
    assert made.status_code == 201
    assert client.get("/api/me").json()["name"] == "Ann"
    assert client.post("/api/logout").status_code == 204
    assert client.get("/api/me").status_code == 401
    wrong = client.post("/api/login", json={"name": "ann", "password": "not it at all"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong name or password"
    assert client.get("/api/me").status_code == 401
    right = client.post("/api/login", json={"name": "ANN", "password": PASSWORD})
    assert right.status_code == 200 and right.json()["name"] == "Ann"
    assert client.get("/api/me").json()["name"] == "Ann"


@pytest.mark.parametrize(("name", "password", "status"), [
    ("Ann", PASSWORD, 409),  # taken, in any case: "ANN" below
    ("guest7", PASSWORD, 409), ("a", PASSWORD, 422), ("Ann Lee", PASSWORD, 422),
    ("<b>x</b>", PASSWORD, 422), ("_x", PASSWORD, 422), ("Bob", "short", 422),
])
def test_a_name_or_password_that_cannot_be_had_changes_nothing(
        client: TestClient, name: str, password: str, status: int) -> None:
    client.post("/api/signup", json={"name": "ANN", "password": PASSWORD})
    other = TestClient(client.app)
    refused = other.post("/api/signup", json={"name": name, "password": password})
    assert refused.status_code == status, refused.text
    assert "set-cookie" not in refused.headers and other.get("/api/me").status_code == 401


def test_login_attempts_are_limited_per_name_and_per_address(client: TestClient) -> None:
    """Failures count, per name from an address (5) and per address (20); the owner
    from another address is the lockout test's (test_abuse)."""
    client.post("/api/signup", json={"name": "Ann", "password": PASSWORD})
    for _ in range(5):
        assert client.post("/api/login", json={"name": "Ann", "password": "wrong!"}
                           ).status_code == 401
    limited = client.post("/api/login", json={"name": "Ann", "password": PASSWORD})
    assert limited.status_code == 429 and limited.headers["retry-after"]
    for n in range(15):  # other names, from the same address: 20 failures in all
        assert client.post("/api/login", json={"name": f"Nobody{n}", "password": "x"}
                           ).status_code == 401
    assert client.post("/api/login", json={"name": "Zed", "password": "x"}).status_code == 429


def test_a_new_password_ends_every_other_session(client: TestClient) -> None:
    client.post("/api/signup", json={"name": "Ann", "password": PASSWORD})
    elsewhere = TestClient(client.app)
    elsewhere.post("/api/login", json={"name": "Ann", "password": PASSWORD})
    assert elsewhere.get("/api/me").status_code == 200
    wrong = client.post("/api/password", json={"old": "not it at all", "new": "a new one!"})
    assert wrong.status_code == 401
    changed = client.post("/api/password", json={"old": PASSWORD, "new": "a new one!"})
    assert changed.status_code == 204
    assert client.get("/api/me").json()["name"] == "Ann"
    assert elsewhere.get("/api/me").status_code == 401
    assert client.post("/api/login", json={"name": "Ann", "password": PASSWORD}
                       ).status_code == 401
    assert client.post("/api/login", json={"name": "Ann", "password": "a new one!"}
                       ).status_code == 200


def test_an_api_token_plays_as_its_account_until_it_is_revoked(server: Server) -> None:
    name = f"Robo{random.randrange(10**6)}"
    owner = server.account(name)
    assert owner.post("/api/tokens", json={"label": "bell\x07"}).status_code == 422
    made = owner.post("/api/tokens", json={"label": "my bot"})
    assert made.status_code == 201
    token, token_id = made.json()["token"], made.json()["id"]
    listed = owner.get("/api/tokens").json()
    assert [t["label"] for t in listed] == ["my bot"] and listed[0]["token"] is None
    program = httpx.Client(base_url=server.url, headers={"authorization": f"Bearer {token}"})
    assert program.get("/api/me").json() == {"name": name, "guest": False, "bot": True,
                                             "roles": [], "sanctions": [], "limited": None}
    table = program.post("/api/tables", json={"variant": "draw", "seats": VS_BOT})
    assert table.status_code == 201 and table.json()["table"]["seats"][0]["name"] == name
    assert owner.get("/api/me").json()["bot"]  # marked a bot account everywhere
    assert owner.delete(f"/api/tokens/{token_id}").status_code == 204
    revoked = program.post("/api/tables", json={"variant": "draw", "seats": VS_BOT})
    assert revoked.status_code == 401 and "not valid" in revoked.text
    assert program.get("/api/me").status_code == 401
    assert owner.get("/api/tokens").json() == []
    assert owner.delete(f"/api/tokens/{token_id}").status_code == 404


def test_a_guest_makes_no_tokens_and_a_stranger_revokes_none(client: TestClient) -> None:
    client.post("/api/guest")
    assert client.post("/api/tokens", json={"label": "x"}).status_code == 403
    owner = TestClient(client.app)
    owner.post("/api/signup", json={"name": "Ann", "password": PASSWORD})
    token_id = owner.post("/api/tokens", json={"label": "x"}).json()["id"]
    stranger = TestClient(client.app)
    stranger.post("/api/signup", json={"name": "Eve", "password": PASSWORD})
    assert stranger.delete(f"/api/tokens/{token_id}").status_code == 404
    assert len(owner.get("/api/tokens").json()) == 1


def test_another_sites_pages_cannot_sign_in_or_act(client: TestClient) -> None:
    evil = {"origin": "http://evil.example"}
    for path, body in (("/api/signup", {"name": "Ann", "password": PASSWORD}),
                       ("/api/login", {"name": "Ann", "password": PASSWORD}),
                       ("/api/guest", None), ("/api/logout", None),
                       ("/api/tokens", {"label": "x"})):
        assert client.post(path, json=body, headers=evil).status_code == 403, path
    assert client.get("/api/me").status_code == 401


def test_seats_need_a_player(client: TestClient) -> None:
    """Not signed in, the creator's seat needs a typed name; ``me`` needs an account."""
    refused = client.post("/api/tables", json={"variant": "draw", "seats": VS_BOT})
    assert refused.status_code == 401
    client.post("/api/guest")
    made = client.post("/api/tables", json={"variant": "draw", "seats": [
        {"kind": "human", "me": True}, {"kind": "human"}]})
    assert made.status_code == 201
    table = made.json()["table"]["id"]
    other = TestClient(client.app)
    assert other.post(f"/api/tables/{table}/join", json={}).status_code == 401
    invite = made.json()["invite"].split("#invite=")[1]
    joined = other.post(f"/api/tables/{table}/join", json={"name": "Ben", "invite": invite})
    assert joined.status_code == 200 and joined.json()["table"]["seats"][1]["name"] == "Ben"


def test_the_documented_client_plays_a_game_as_its_account(server: Server,
                                                           tmp_path: Path) -> None:
    """docs/protocol.md's complete client, run as written, with a fresh API token."""
    text = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    code = text.split("## A complete client", 1)[1].split("```python\n", 1)[1]
    script = tmp_path / "client.py"
    script.write_text(code.split("```", 1)[0])
    name = f"Prog{random.randrange(10**6)}"
    token = server.account(name).post("/api/tokens", json={"label": "doc"}).json()["token"]
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=180, env={**os.environ, "BONES_SERVER": server.url,
                                            "BONES_TOKEN": token})
    assert done.returncode == 0, done.stderr
    assert " over: scores " in done.stdout and "refused" not in done.stdout
    assert server.get(f"/api/stats/{name}")["total"]["games"] == 1


def test_an_account_is_found_by_its_name_in_any_case_as_it_is() -> None:
    """``Accounts.named`` decides whether a typed name may take a seat, and the profile
    page shows what it answers: a guest as a guest, a program's account as a bot."""
    accounts = Accounts(Store("sqlite://").engine)
    guest, session = accounts.guest()
    assert accounts.named(guest.name.lower()) == guest
    ann, _ = accounts.sign_up("Ann", PASSWORD, session)
    _, token = accounts.create_token(ann, "my program")
    accounts.by_api_token(token)
    found = accounts.named("ANN")
    assert found is not None and (found.id, found.name, found.guest, found.bot) == (
        guest.id, "Ann", False, True)
    assert accounts.named("Bob") is None
