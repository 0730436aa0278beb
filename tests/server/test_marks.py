"""What a ban leaves behind ("a ban also limits what that browser and address may do as
a guest"): the banned account's browser starts over as a guest who may not chat, make or
join public tables, play now or sign up, until the ban ends or is lifted; any other
browser is not limited (the address marks are in ``people/marks.py``'s examples: every
client here is on 127.0.0.1, a proxy's address, which is never marked)."""

from __future__ import annotations

import random

import httpx

from tests.server.live import Server, admin

PUBLIC = {"variant": "draw", "public": True,
          "seats": [{"kind": "human", "me": True}, {"kind": "human"}]}


def _name(prefix: str) -> str:
    return f"{prefix}{random.randrange(10**8)}"


def _code(answer: httpx.Response) -> tuple[int, str | None]:
    return answer.status_code, answer.json().get("code")


def test_a_banned_browser_is_a_limited_guest_until_the_ban_is_lifted(server: Server) -> None:
    name = _name("Ban")
    browser = server.account(name)
    assert "is banned for 60 minutes" in admin(server.db, "ban", name, "--reason", "scam",
                                                "--minutes", "60")
    again = browser.post("/api/guest").json()  # the same browser, its session ended
    assert again["guest"] and again["name"] != name and again["limited"] is not None
    assert _code(browser.post("/api/tables", json=PUBLIC)) == (403, "limited")
    private = browser.post("/api/tables", json={"variant": "draw", "seats": [
        {"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}]})
    assert private.status_code == 201  # bots and friends are still theirs
    public = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                           client=server.account(_name("Pub")), public=True)
    assert _code(browser.post(f"/api/tables/{public['table']['id']}/join",
                              json={})) == (403, "limited")
    assert _code(browser.post("/api/seek", json={"variant": "draw"})) == (403, "limited")
    assert _code(browser.post("/api/signup", json={
        "name": _name("New"), "password": "correct horse"})) == (403, "limited")
    lobby = server.lobby(browser)
    lobby.send({"v": 1, "type": "chat", "text": "buy cheap tiles"})
    refused = lobby.until(lambda m: m["type"] == "error")
    assert refused["code"] == "muted"
    lobby.close()
    elsewhere = httpx.Client(base_url=server.url)
    assert elsewhere.post("/api/guest").json()["limited"] is None  # another browser
    assert elsewhere.post("/api/tables", json=PUBLIC).status_code == 201
    admin(server.db, "unban", name, "--reason", "appealed")
    browser.cookies.clear()
    browser.post("/api/guest").raise_for_status()
    assert browser.post("/api/tables", json=PUBLIC).status_code == 201
