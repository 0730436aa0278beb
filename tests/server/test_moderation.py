"""Reports and moderators: a player reports a line, a player, a name or a game and sees
what came of it; a moderator (a role the operator grants) reads the reports and the
player, warns, mutes, suspends, bans, renames, deletes a line, and every action is in
the audit log; each sanction holds over REST and WebSocket, on one process and on every
process of a site."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx

from bones.server.sockets.allowance import BANNED
from tests.server.live import Client, Message, Server, admin, closed_code, sqlite_url

ORIGIN = {"origin": "https://elsewhere.example"}


def _name(prefix: str) -> str:
    return f"{prefix}{random.randrange(10**8)}"


def _moderator(server: Server) -> httpx.Client:
    name = _name("Mod")
    client = server.account(name)
    assert name in admin(server.db, "grant", name, "moderator")
    return client


def _said(client: Client, text: str) -> Message:
    client.send({"v": 1, "type": "chat", "text": text})
    return client.until(lambda m: m["type"] in ("chat", "error") and m.get("text", text) == text)


def _seated(server: Server, offender: httpx.Client, other: httpx.Client
            ) -> tuple[str, Client, Client]:
    """A table of two people, the offender's socket and the other's."""
    table, token = _made(server, offender)
    joined = server.join(table, None, client=other)
    return table, server.socket(table, token), server.socket(table, joined["token"])


def _made(server: Server, by: httpx.Client) -> tuple[str, str]:
    """A table for two people made by ``by``: its id and ``by``'s seat token."""
    made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                         client=by, options={"target": None})
    return made["table"]["id"], made["token"]


def _at_a_table_and_the_lobby(at: Server, seat_at: Server, prefix: str
                              ) -> tuple[str, httpx.Client, str, str, Client, Client]:
    """A new player at a table for two made at ``at``, their seat's socket at
    ``seat_at`` and their lobby socket at ``at``: the name, the signed-in client, the
    table, the seat's token, the two sockets."""
    offender = _name(prefix)
    rude = at.account(offender)
    table, seat = _made(at, rude)
    at.join(table, None, client=at.account(_name("Oth")))
    mine = seat_at.socket(table, seat)
    mine.until(lambda m: m["type"] == "state")
    lobby = at.lobby(rude)
    lobby.until(lambda m: m["type"] == "lobby")
    return offender, rude, table, seat, mine, lobby


def _act(moderator: httpx.Client, name: str, kind: str, **body: Any) -> dict[str, Any]:
    answer = moderator.post(f"/api/mod/players/{name}/sanctions",
                            json={"kind": kind, "reason": f"{kind} for a test", **body})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_only_moderators_read_and_act(server: Server) -> None:
    player = server.account(_name("Pla"))
    moderator = _moderator(server)
    for path in ("/api/mod/reports", "/api/mod/audit", f"/api/mod/players/{_name('x')}"):
        assert httpx.get(server.url + path).status_code == 401
        assert player.get(path).status_code == 403
    assert moderator.get("/api/mod/reports").status_code == 200
    assert moderator.get("/api/mod/players/nobody-at-all").status_code == 404
    victim = _name("Vic")
    server.account(victim)
    assert player.post(f"/api/mod/players/{victim}/sanctions",
                       json={"kind": "warn", "reason": "x"}).status_code == 403
    refused = moderator.post(f"/api/mod/players/{victim}/sanctions", headers=ORIGIN,
                             json={"kind": "warn", "reason": "from another site"})
    assert refused.status_code == 403
    assert moderator.get(f"/api/mod/players/{victim}").json()["sanctions"] == []
    other = _moderator(server)
    assert moderator.post(f"/api/mod/players/{other.get('/api/me').json()['name']}/sanctions",
                          json={"kind": "ban", "reason": "a coup"}).status_code == 403
    assert other.get("/api/me").json()["roles"] == ["moderator"]


def test_a_report_is_read_resolved_and_its_reporter_told(server: Server) -> None:
    """A reporter's reports of one player (a line, their conduct, their name, a game)
    are one open report, each reason added to it; resolved, the reporter is told, and a
    later report is a new one."""
    offender, reporter = _name("Off"), _name("Rep")
    rude, by = server.account(offender), server.account(reporter)
    table, mine, _ = _seated(server, rude, by)
    line = _said(mine, "you are hopeless")
    assert by.post(f"/api/chat/{line['id']}/report", json={"reason": "rude"}).status_code == 204
    ids = set()
    for kind, extra in (("player", {}), ("name", {}), ("game", {"table": table})):
        made = by.post("/api/reports", json={"kind": kind, "name": offender,
                                             "reason": f"{kind}!", "note": "see", **extra})
        assert made.status_code == 201, made.text
        ids.add(made.json()["id"])
    assert by.post("/api/reports", json={"kind": "game", "name": offender, "reason": "x",
                                         "table": "no-such-table"}).status_code == 404
    assert by.post("/api/reports", json={"kind": "chat", "reason": "x"}).status_code == 422
    moderator = _moderator(server)
    [report] = [r for r in moderator.get("/api/mod/reports").json() if r["player"] == offender]
    assert ids == {report["id"]} and report["kind"] == "chat"
    assert report["text"] == "you are hopeless" and report["table"] == table
    assert report["reason"] == "rude; player!; name!; game!" and report["note"] == "see"
    dossier = moderator.get(f"/api/mod/players/{offender}").json()
    assert [c["text"] for c in dossier["chat"]] == ["you are hopeless"]
    assert len(dossier["reports"]) == 1
    assert moderator.post(f"/api/mod/reports/{report['id']}/resolve",
                          json={"reason": "warned"}).status_code == 204
    assert not [r for r in moderator.get("/api/mod/reports").json() if r["player"] == offender]
    [told] = by.get("/api/reports").json()
    assert told["resolution"] == "warned"
    again = by.post("/api/reports", json={"kind": "player", "name": offender, "reason": "more"})
    assert again.json()["id"] != report["id"] and len(by.get("/api/reports").json()) == 2


def test_a_muted_player_cannot_chat_anywhere_until_it_is_lifted(server: Server) -> None:
    offender = _name("Mut")
    rude, other = server.account(offender), server.account(_name("Oth"))
    _, mine, _ = _seated(server, rude, other)
    moderator = _moderator(server)
    done = _act(moderator, offender, "mute", minutes=30)
    assert done["until"] is not None
    refused = _said(mine, "still talking")
    assert refused["type"] == "error" and refused["code"] == "muted"
    lobby = server.lobby(rude)
    lobby.until(lambda m: m["type"] == "lobby")
    lobby.send({"v": 1, "type": "chat", "text": "hello lobby"})
    assert lobby.until(lambda m: m["type"] == "error")["code"] == "muted"
    shown = rude.get("/api/me").json()["sanctions"]
    assert [(s["kind"], s["reason"]) for s in shown] == [("mute", "mute for a test")]
    assert moderator.post(f"/api/mod/players/{offender}/lift",
                          json={"kind": "mute", "reason": "served"}).json() == {"lifted": 1}
    assert _said(mine, "sorry")["type"] == "chat"
    assert rude.get("/api/me").json()["sanctions"] == []


def test_a_suspended_player_plays_bots_only(server: Server) -> None:
    offender = _name("Sus")
    rude = server.account(offender)
    open_table = server.create("draw", [{"kind": "human"}, {"kind": "human"}])
    _act(_moderator(server), offender, "suspend", minutes=60)
    joined = rude.post(f"/api/tables/{open_table['id']}/join", json={})
    assert joined.status_code == 403 and joined.json()["code"] == "suspended"
    assert joined.json()["until"] is not None
    assert rude.post("/api/seek", json={"variant": "draw"}).json()["code"] == "suspended"
    with_people = rude.post("/api/tables", json={"variant": "draw", "seats": [
        {"kind": "human", "me": True}, {"kind": "human"}]})
    assert with_people.status_code == 403
    with_bots = rude.post("/api/tables", json={"variant": "draw", "seats": [
        {"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}]})
    assert with_bots.status_code == 201, with_bots.text


def test_a_ban_closes_the_sockets_signs_out_and_keeps_the_name(server: Server) -> None:
    offender, rude, table, seat, mine, lobby = _at_a_table_and_the_lobby(server, server, "Ban")
    token = rude.post("/api/tokens", json={"label": "robot"}).json()["token"]
    _act(_moderator(server), offender, "ban")
    assert closed_code(mine) == BANNED and closed_code(lobby) == BANNED
    assert rude.get("/api/me").status_code == 401
    assert httpx.get(f"{server.url}/api/me",
                     headers={"authorization": f"Bearer {token}"}).status_code == 401
    login = httpx.post(f"{server.url}/api/login",
                       json={"name": offender, "password": "correct horse"})
    assert login.status_code == 403 and login.json()["code"] == "banned"
    assert login.json()["until"] is None  # for good
    assert httpx.post(f"{server.url}/api/signup", json={
        "name": offender, "password": "another horse"}).status_code == 409
    assert closed_code(server.socket(table, seat)) == BANNED  # the seat is closed to them


def test_a_deleted_line_is_not_shown_again_and_the_audit_holds_every_action(
        server: Server) -> None:
    offender = _name("Del")
    rude, other = server.account(offender), server.account(_name("Oth"))
    table, mine, _ = _seated(server, rude, other)
    line = _said(mine, "something vile")
    moderator = _moderator(server)
    me = moderator.get("/api/me").json()["name"]
    assert moderator.post(f"/api/mod/chat/{line['id']}/delete",
                          json={"reason": "vile"}).status_code == 204
    newcomer = server.socket(table, signed_in=server.account(_name("New")))
    newcomer.until(lambda m: m["type"] == "state")
    newcomer.drain()
    assert not [m for m in newcomer.received if m["type"] == "chat"]
    _act(moderator, offender, "warn")
    renamed = moderator.post(f"/api/mod/players/{offender}/rename",
                             json={"reason": "offensive"}).json()["name"]
    assert renamed.startswith("Player") and rude.get("/api/me").json()["name"] == renamed
    actions = [(a["action"], a["by"], a["player"], a["reason"])
               for a in moderator.get("/api/mod/audit").json() if a["by"] == me]
    assert actions == [("rename", me, renamed, "offensive"), ("warn", me, renamed,
                       "warn for a test"), ("delete", me, renamed, "vile")]
    assert rude.get("/api/me").json()["sanctions"][0]["kind"] == "warn"


def test_the_operator_grants_bans_and_gives_a_password_link(server: Server) -> None:
    name = _name("Ops")
    player = server.account(name)
    assert "no roles" in admin(server.db, "revoke", name, "moderator")
    link = admin(server.db, "reset-password", name, "--site", server.url).strip()
    assert link.startswith(f"{server.url}/reset#")
    token = link.split("#", 1)[1]
    assert "session" in admin(server.db, "sessions", name)
    fresh = httpx.Client(base_url=server.url)
    set_new = fresh.post("/api/password/reset", json={"token": token, "new": "new horse!"})
    assert set_new.status_code == 200 and set_new.json()["name"] == name
    assert player.get("/api/me").status_code == 401  # the old session ended
    assert fresh.get("/api/me").json()["name"] == name
    assert fresh.post("/api/password/reset", json={
        "token": token, "new": "third horse"}).status_code == 404  # once only
    assert "is banned" in admin(server.db, "ban", name, "--reason", "operator's test",
                                 "--minutes", "5")
    assert fresh.get("/api/me").status_code == 401
    audit = admin(server.db, "audit", "--name", name)
    assert "ban" in audit and "reset" in audit and "revoke" in audit
    admin(server.db, "unban", name, "--reason", "done")
    assert server.account(name, "new horse!").get("/api/me").json()["name"] == name


def test_the_operator_finds_sanctions_renames_and_closes_accounts(server: Server) -> None:
    """"The operator's tools": ``users`` finds accounts by a piece of the name, with games
    and what holds them; ``mute``, ``suspend``, ``warn`` and ``lift`` do what a
    moderator does (the player's inbox has it); ``bans`` lists whom a ban holds;
    ``rename`` and ``close`` act on request; every action is in the audit log."""
    stem = _name("Tool")
    loud, quiet = server.account(f"{stem}a"), server.account(f"{stem}b")
    assert "is muted for 60 minutes" in admin(server.db, "mute", f"{stem}a", "--minutes",
                                               "60", "--reason", "shouting")
    assert "is suspended" in admin(server.db, "suspend", f"{stem}b", "--reason", "bots")
    assert "is warned" in admin(server.db, "warn", f"{stem}b", "--reason", "be kind")
    found = admin(server.db, "users", stem.lower())
    rows = {line.split("│")[1].strip(): line for line in found.splitlines() if stem in line}
    assert set(rows) == {f"{stem}a", f"{stem}b"}
    assert "mute" in rows[f"{stem}a"] and "suspend" in rows[f"{stem}b"]
    said = loud.get("/api/me").json()["sanctions"]
    assert [(s["kind"], s["reason"]) for s in said] == [("mute", "shouting")]
    inbox = quiet.get("/api/notifications").json()["items"]
    assert {n["sanction"]["kind"] for n in inbox if n["kind"] == "sanction"} == {
        "suspend", "warn"}
    assert f"{stem}a: 1 mute lifted" in admin(server.db, "lift", f"{stem}a", "mute",
                                               "--reason", "calmed down")
    assert loud.get("/api/me").json()["sanctions"] == []
    admin(server.db, "ban", f"{stem}a", "--reason", "came back shouting", "--minutes", "90")
    bans = admin(server.db, "bans")
    assert f"{stem}a" in bans and "came back shouting" in bans and f"{stem}b" not in bans
    assert f"{stem}b" in admin(server.db, "bans", "--kind", "suspend")
    renamed = admin(server.db, "rename", f"{stem}b", "--reason", "asked").split()[-1]
    assert renamed.startswith("Player") and quiet.get("/api/me").json()["name"] == renamed
    assert "is closed" in admin(server.db, "close", renamed, "--reason", "asked by mail")
    assert quiet.get("/api/me").status_code == 401
    assert f"│ {renamed} " not in admin(server.db, "users", renamed)  # closed: nobody's
    audit = admin(server.db, "audit", "--limit", "20")
    for action in ("mute", "unmute", "suspend", "warn", "ban", "rename", "close"):
        assert f" {action} " in audit, action


def test_a_ban_holds_on_every_process_at_once(site: list[Server]) -> None:
    """A moderator at one process bans a player whose sockets are at the others: they
    close at once, and no process lets the player in again."""
    first, second, third = site
    offender, rude, _, _, at_second, lobby = _at_a_table_and_the_lobby(third, second, "Far")
    moderator = first.account(_name("Mod"))
    admin(first.db, "grant", moderator.get("/api/me").json()["name"], "moderator")
    _act(moderator, offender, "ban", minutes=60)
    assert closed_code(at_second) == BANNED and closed_code(lobby) == BANNED
    for server in site:
        assert httpx.get(f"{server.url}/api/me", cookies=rude.cookies).status_code == 401
    muted = _name("Qui")
    quiet = second.account(muted)
    _act(moderator, muted, "mute", minutes=5)
    assert quiet.get("/api/me").json()["sanctions"][0]["kind"] == "mute"


def test_a_rename_is_shown_at_once_at_a_table_another_process_holds(
        site: list[Server]) -> None:
    """"Renames replace the name everywhere it is shown": a moderator at one process
    renames a player seated at a table another process holds, their socket at a third;
    the table shows the new name at once, to them and to the others, before its game
    ends."""
    first, second, third = site
    offender, _, table, _, mine, _ = _at_a_table_and_the_lobby(third, second, "Ren")
    moderator = first.account(_name("Mod"))
    admin(first.db, "grant", moderator.get("/api/me").json()["name"], "moderator")
    renamed = moderator.post(f"/api/mod/players/{offender}/rename",
                             json={"reason": "offensive"}).json()["name"]
    shown = mine.until(lambda m: m["type"] == "state"
                       and m["table"]["seats"][0]["name"] != offender)
    assert shown["table"]["seats"][0]["name"] == renamed
    assert shown["table"]["status"] == "playing"
    assert first.get(f"/api/tables/{table}")["seats"][0]["name"] == renamed


def test_the_operators_words_are_refused_in_names_and_chat_and_read_again(
        tmp_path: Path) -> None:
    """``--words``: a TOML file of lists by language; a name holding one (look-alike
    letters too) is refused, so is a chat line holding one as a word; an edit holds at
    once, without a restart."""
    words = tmp_path / "words.toml"
    words.write_text('en = ["gnat"]\nde = ["mücke"]\n')
    server = Server(sqlite_url(tmp_path / "words.db"), extra=["--words", str(words)]).start()
    try:
        refused = httpx.post(f"{server.url}/api/signup",
                             json={"name": "BigGNAT7", "password": "correct horse"})
        assert refused.status_code == 409 and refused.json()["code"] == "word_in_name"
        typed = httpx.post(f"{server.url}/api/tables", json={"variant": "draw", "seats": [
            {"kind": "human", "me": True, "name": "xgnatx"}, {"kind": "bot", "level": "easy"}]})
        assert typed.status_code == 409 and typed.json()["code"] == "word_in_name"
        ann, bob = server.account("Ann"), server.account("Bob")
        _, mine, theirs = _seated(server, ann, bob)
        for line in ("you gnat", "eine Mücke!"):
            assert _said(mine, line)["code"] == "not_allowed"
        assert _said(mine, "gnatcatchers are birds")["type"] == "chat"  # not as a word
        words.write_text('en = ["gnat", "wasp"]\n')
        assert _said(mine, "a wasp")["code"] == "not_allowed"
        assert _said(mine, "eine Mücke!")["type"] == "chat"  # taken off the list
        theirs.drain()
        assert not [m for m in theirs.received if m.get("text") in ("you gnat", "a wasp")]
    finally:
        server.stop()


def test_one_text_policy_for_every_text_shown_to_others(tmp_path: Path) -> None:
    """What the third attack got past the word list and the blank check: chat spelled out
    (``g-n-a-t``, ``g n  a t``), with a look-alike letter, with combining marks or digits
    for letters; names with separators or digits (``G_n_a_t``, ``GN4T``, ``Gna-t``);
    tournament names and token labels, never checked; a tournament named only a Hangul
    filler, kept as ``''``."""
    words = tmp_path / "words.toml"
    words.write_text('en = ["gnat"]\n')
    server = Server(sqlite_url(tmp_path / "policy.db"), extra=["--words", str(words)]).start()
    try:
        for name in ("G_n_a_t", "GN4T", "Gna-t", "Big_Gn4t"):
            answer = httpx.post(f"{server.url}/api/signup",
                                json={"name": name, "password": "correct horse"})
            assert answer.status_code == 409 and answer.json()["code"] == "word_in_name", name
        ann, bob = server.account("Ann"), server.account("Bob")
        _, mine, theirs = _seated(server, ann, bob)
        speakers = [mine, theirs]  # (five lines in ten seconds a speaker)
        for n, line in enumerate(("g-n-a-t", "a g n  a t here", "you gn\u0430t",
                                  "gn\u0301at!", "GN4T", "g.n.a.t")):
            assert _said(speakers[n % 2], line)["code"] == "not_allowed", line
        for n, line in enumerate(("gnatcatchers are birds", "what a great night",
                                  "<3 good game")):
            assert _said(speakers[n % 2], line)["type"] == "chat", line
        starts = "2031-01-01T20:00:00+00:00"
        table = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}]}
        for title, status in (("G-n-a-t cup", 409), ("\u3164", 422), ("\u3164 \u115f", 422),
                              ("Friday cup", 201)):
            made = ann.post("/api/tournaments", json={
                "kind": "arena", "name": title, "minutes": 30, "starts": starts,
                "table": table})
            assert made.status_code == status, (title, made.text)
        assert ann.post("/api/tokens", json={"label": "gn4t bot"}).json()["code"] \
            == "word_in_text"
        assert ann.post("/api/tokens", json={"label": "\u3164 "}).status_code == 422
        assert ann.post("/api/reports", json={"kind": "player", "name": "Bob",
                                              "reason": "\u3164"}).status_code == 422
    finally:
        server.stop()
