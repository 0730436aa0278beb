"""What the second attack on the public site found, each reproduced against a real
server: sockets of every kind flooding, sign-up and login bursts, quick match round the
table limit, guest names, private chat, figures that tell, chat from many sockets,
Redis and PostgreSQL trouble, look-alike names, tokens and the games list."""

from __future__ import annotations

import random
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import redis
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from bones.server.people import accounts as accounts_module
from bones.server.people.accounts import GUEST_DAYS, Accounts
from bones.server.people.chat import Chat
from bones.server.people.moderation import Moderation
from bones.server.people.players import Player
from bones.server.sites.cluster import LEASE
from bones.server.store.records import Store
from bones.server.store.schema import now
from tests.server.conftest import pg
from tests.server.live import (
    Client,
    Message,
    Server,
    admin,
    closed_code,
    free_port,
    in_threads,
    play_out,
    sqlite_url,
)


def _guest(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.url)
    client.post("/api/guest").raise_for_status()
    return client


def _answer(client: Client) -> Message:
    return client.until(lambda m: m["type"] in ("pong", "error"))


def test_a_lobby_socket_that_floods_is_answered_then_closed(tmp_path: Path) -> None:
    """A lobby socket sending pings as fast as it can gets pongs within the allowance a
    seat has, ``flood`` past it, and is closed (1008) once its patience is spent: one
    client cannot take the loop from everyone else."""
    server = Server(sqlite_url(tmp_path / "flood.db"), rate=2).start()
    try:
        lobby = server.lobby()
        lobby.until(lambda m: m["type"] == "lobby")
        lobby.send({"v": 1, "type": "ping"})
        assert _answer(lobby)["type"] == "pong"
        for _ in range(300):
            try:
                lobby.send({"v": 1, "type": "ping"})
            except ConnectionClosed:
                break
        assert closed_code(lobby) == 1008
        answers = [m for m in lobby.received if m["type"] in ("pong", "error")]
        assert {m["code"] for m in answers if m["type"] == "error"} == {"flood"}
        assert 30 <= len(answers) <= 90  # the burst, then the patience: never all 300
        seeker = _guest(server)
        ticket = server.seek(seeker, "draw", players=2)["ticket"]
        watching = server.seek_socket(ticket, seeker)
        watching.send({"v": 1, "type": "ping"})
        assert _answer(watching)["type"] == "pong"
        watching.send({"v": 1, "type": "move", "move": "6-6"})
        assert _answer(watching)["code"] == "bad_message"
    finally:
        server.stop()


def test_every_kind_of_socket_counts_against_one_cap_an_address(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "cap.db"), limits={"sockets-per-address": 3}).start()
    try:
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}],
                             options={"target": None})
        seat = server.socket(made["table"]["id"], made["token"])
        seat.until(lambda m: m["type"] == "state")
        lobbies = [server.lobby() for _ in range(2)]
        for lobby in lobbies:
            lobby.until(lambda m: m["type"] == "lobby")
        guest = _guest(server)
        ticket = server.seek(guest, "draw", players=2)["ticket"]
        for refused in (server.lobby(), server.seek_socket(ticket, guest),
                        server.socket(made["table"]["id"])):
            assert refused.recv()["code"] == "unavailable"
            assert closed_code(refused) == 4429
        lobbies[0].close()
        again = server.lobby()  # a closed socket makes room for another
        assert again.until(lambda m: m["type"] == "lobby")["type"] == "lobby"
    finally:
        server.stop()


def test_the_chat_allowance_is_per_speaker_not_per_socket(tmp_path: Path) -> None:
    """One guest with several lobby sockets says no more than one socket may."""
    with _own(tmp_path) as server:
        _chat_from_many_sockets(server)


@contextmanager
def _own(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own: its lobby's chat is heard by no other test."""
    server = Server(sqlite_url(tmp_path / "own.db")).start()
    try:
        yield server
    finally:
        server.stop()


def _chat_from_many_sockets(server: Server) -> None:
    speaker = server.account(f"Sp{random.randrange(10**6)}")
    sockets = [server.lobby(speaker) for _ in range(3)]
    listener = server.lobby()
    for client in (*sockets, listener):
        client.until(lambda m: m["type"] == "lobby")
    for n in range(12):
        sockets[n % 3].send({"v": 1, "type": "chat", "text": f"spam {n}"})
    heard = [listener.until(lambda m: m["type"] == "chat" and m["text"].startswith("spam"))
             for _ in range(5)]
    assert len({m["text"] for m in heard}) == 5
    with pytest.raises(TimeoutError):
        listener.until(lambda m: m["type"] == "chat" and m["text"].startswith("spam"),
                       timeout=1.5)
    floods = 0
    for client in sockets:
        client.drain()
        floods += sum(m["type"] == "error" and m["code"] == "flood" for m in client.received)
    assert floods == 7



def _peak_mib(server: Server) -> float:
    """The most memory the server's process has held (its peak resident set)."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def test_a_burst_of_sign_ups_hashes_a_few_at_a_time(tmp_path: Path) -> None:
    """Sixty sign-ups at once: a few passwords are hashed at a time, the rest wait in a
    short queue or are refused (503 with Retry-After), and the server's memory stays
    bounded (it went past 2 GiB when every thread hashed at once)."""
    server = Server(sqlite_url(tmp_path / "burst.db")).start()
    try:
        def sign_up(n: int) -> httpx.Response:
            return httpx.post(f"{server.url}/api/signup", timeout=120,
                              json={"name": f"Burst{n}", "password": "correct horse"})

        answers = in_threads([lambda n=n: sign_up(n) for n in range(60)])  # type: ignore[misc]
        statuses = [a.status_code for a in answers]
        assert set(statuses) <= {201, 503}, statuses
        refused = [a for a in answers if a.status_code == 503]
        assert refused and all(a.headers.get("retry-after") for a in refused)
        assert 201 in statuses
        assert _peak_mib(server) < 400
        assert httpx.get(f"{server.url}/readyz", timeout=10).status_code == 200
    finally:
        server.stop()


def test_sign_ups_and_password_changes_are_limited_per_address(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "signups.db"),
                    limits={"signups-per-address": 3}).start()
    try:
        ann = httpx.Client(base_url=server.url)
        assert ann.post("/api/signup", json={"name": "Ann", "password": "correct horse"}
                        ).status_code == 201
        assert ann.post("/api/password", json={"old": "correct horse", "new": "battery staple"}
                        ).status_code == 204
        assert httpx.post(f"{server.url}/api/signup", json={
            "name": "Bob", "password": "correct horse"}).status_code == 201
        for name in ("Cid", "Dan"):
            refused = httpx.post(f"{server.url}/api/signup",
                                 json={"name": name, "password": "correct horse"})
            assert refused.status_code == 429 and refused.headers["retry-after"]
        assert ann.post("/api/password", json={"old": "battery staple", "new": "x" * 9}
                        ).status_code == 429
    finally:
        server.stop()


def _from(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


def test_nobody_can_lock_an_owner_out(tmp_path: Path) -> None:
    """Failed logins are refused per (name, address) and per address: an attacker's
    wrong passwords lock out the attacker, never the name's owner from elsewhere; a
    name failed from many addresses has its failures slowed, not its owner refused."""
    server = Server(sqlite_url(tmp_path / "lockout.db"),
                    limits={"logins-per-name": 5, "logins-per-address": 20},
                    extra=["--trust-proxy", "127.0.0.1"]).start()
    try:
        url = f"{server.url}/api/login"
        right = {"name": "Owner", "password": "correct horse"}
        wrong = {"name": "Owner", "password": "not the password"}
        httpx.post(f"{server.url}/api/signup", json=right).raise_for_status()
        attacker = "198.51.100.7"
        statuses = [httpx.post(url, json=wrong, headers=_from(attacker)).status_code
                    for _ in range(6)]
        assert statuses == [401] * 5 + [429]
        assert httpx.post(url, json=right, headers=_from(attacker)).status_code == 429
        assert httpx.post(url, json=right, headers=_from("203.0.113.5")).status_code == 200
        for n in range(15):  # the attacker's own address runs out over other names
            httpx.post(url, json={"name": f"Other{n}", "password": "x"}, headers=_from(attacker))
        assert httpx.post(url, json={"name": "Fresh", "password": "x"},
                          headers=_from(attacker)).status_code == 429
        spread = [httpx.post(url, json=wrong, headers=_from(f"192.0.2.{n}"), timeout=30)
                  for n in range(20)]
        assert {a.status_code for a in spread} == {401}
        assert httpx.post(url, json=right, headers=_from("203.0.113.5"),
                          timeout=30).status_code == 200
    finally:
        server.stop()


def test_quick_match_and_tables_made_by_hand_share_one_allowance(tmp_path: Path) -> None:
    """Seeks seated with bots at once made table after table past the limit on tables
    made by hand; now each account and each address has one allowance of unfinished
    tables, however they were made."""
    server = Server(sqlite_url(tmp_path / "allowance.db"),
                    limits={"tables-per-address": 3}).start()
    try:
        guest = _guest(server)
        for _ in range(3):
            ticket = server.seek(guest, "draw", players=2, bots_after=0)["ticket"]
            server.seated(ticket, guest)
        refused = guest.post("/api/seek", json={"variant": "draw", "players": 2,
                                                "bots_after": 0})
        assert refused.status_code == 429 and "unfinished tables" in refused.json()["detail"]
        by_hand = guest.post("/api/tables", json={
            "variant": "draw", "seats": [{"kind": "human", "me": True},
                                         {"kind": "bot", "level": "easy"}]})
        assert by_hand.status_code == 429
        other = _guest(server)  # another player at the same address
        assert other.post("/api/seek", json={"variant": "draw", "players": 2}
                          ).status_code == 429
    finally:
        server.stop()


def test_guest_names_never_run_out_and_idle_guests_are_forgotten(
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store("sqlite://")
    accounts, chat = Accounts(store.engine), Chat(store.engine)
    taken, _ = accounts.guest()
    digits = taken.name.removeprefix("Guest")
    monkeypatch.setattr(accounts_module.secrets, "randbelow", lambda n: int(digits) % n)
    longer, _ = accounts.guest()  # every six-digit name "taken": a longer one is free
    assert longer.name.startswith("Guest") and len(longer.name) > len(taken.name)
    monkeypatch.undo()
    idle, idle_session = accounts.guest()
    seated, _ = accounts.guest()
    talker, _ = accounts.guest()
    store.create("t1", {"rules": {"variant": "draw"}}, [{"kind": "human"}, {"kind": "bot"}])
    store.take_seat("t1", 0, seated.name, "hash", seated.id)
    chat.say(None, "lobby", Player(talker.name, talker.id, True), "hello")
    assert accounts.forget_guests(now() - timedelta(days=GUEST_DAYS)) == 0  # too young
    later = now() + timedelta(days=GUEST_DAYS, minutes=1)
    assert accounts.forget_guests(later - timedelta(days=GUEST_DAYS)) == 3
    assert accounts.by_session(idle_session) is None
    assert accounts.named(seated.name) and accounts.named(talker.name)
    assert accounts.named(idle.name) is None


def test_new_guests_are_limited_per_address(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "guests.db"),
                    limits={"guests-per-address": 3}).start()
    try:
        answers = [httpx.post(f"{server.url}/api/guest") for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[-1].headers["retry-after"]
        signed_in = httpx.Client(base_url=server.url, cookies=answers[0].cookies)
        assert signed_in.post("/api/guest").status_code == 200  # who you are, not a new one
    finally:
        server.stop()


def test_a_private_game_stays_private_after_its_end(server: Server) -> None:
    """A finished private table is not in the public games list (only in its players'
    own), and nobody without its invite's secret watches it or hears its chat."""
    name = f"Pv{random.randrange(10**6)}"
    ann = server.account(name)
    made = server.create("draw", [{"kind": "human", "me": True},
                                  {"kind": "bot", "level": "easy"}],
                         client=ann, options={"target": None})
    table = made["table"]["id"]
    seat = server.socket(table, made["token"])
    seat.send({"v": 1, "type": "chat", "text": "our secret"})
    seat.until(lambda m: m["type"] == "chat")
    play_out(seat, random.Random(3))
    ids = {g["id"] for g in httpx.get(f"{server.url}/api/games?limit=200").json()}
    assert table not in ids
    assert table not in {g["id"] for g in server.get(f"/api/games?name={name}")}
    assert table in {g["id"] for g in ann.get(f"/api/games?name={name}").json()}
    stranger = Client(f"ws://127.0.0.1:{server.port}/ws/{table}")
    assert stranger.recv()["type"] == "error"
    assert closed_code(stranger) == 4403
    assert all(m["type"] != "chat" for m in stranger.received)
    friend = server.socket(table)  # with the secret the creator was given
    assert friend.until(lambda m: m["type"] == "chat")["text"] == "our secret"


def test_the_games_list_pages_by_key(server: Server) -> None:
    first = httpx.get(f"{server.url}/api/games?limit=2").json()
    for _ in range(3 - len(first)):  # a few public games to page through
        made = server.create("draw", [{"kind": "human", "name": f"Kp{random.randrange(10**6)}"},
                                      {"kind": "bot", "level": "easy"}],
                             options={"target": None}, public=True)
        play_out(server.socket(made["table"]["id"], made["token"]), random.Random(4))
    everything = httpx.get(f"{server.url}/api/games?limit=200").json()
    pages = []
    before: str | None = None
    while True:
        query = f"/api/games?limit=2{f'&before={before}' if before else ''}"
        page = httpx.get(f"{server.url}{query}").json()
        if not page:
            break
        pages.extend(page)
        before = page[-1]["id"]
    assert [g["id"] for g in pages] == [g["id"] for g in everything]


def test_the_figures_are_the_operators(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/metrics`` told a bot's forced moves from its think counter: the figures answer
    only the addresses ``--metrics-from`` names, or a request with the operator's token."""
    monkeypatch.setenv("BONES_METRICS_TOKEN", "operator-secret")
    server = Server(sqlite_url(tmp_path / "figures.db"),
                    extra=["--metrics-from", "192.0.2.0/24"]).start()
    try:
        for path in ("/metrics", "/api/metrics"):
            assert httpx.get(f"{server.url}{path}").status_code == 403
            assert httpx.get(f"{server.url}{path}", headers={
                "authorization": "Bearer wrong"}).status_code == 403
            assert httpx.get(f"{server.url}{path}", headers={
                "authorization": "Bearer operator-secret"}).status_code == 200
    finally:
        server.stop()
    local = Server(sqlite_url(tmp_path / "figures.db")).start()  # the loopback, by default
    try:
        assert httpx.get(f"{local.url}/metrics").status_code == 200
    finally:
        local.stop()


def test_rest_during_a_postgresql_outage_answers_503(postgres: tuple[str, Path]) -> None:
    url, folder = postgres
    server = Server(url).start()
    try:
        guest = _guest(server)
        pg("stop", folder)
        try:
            answers = [guest.get("/api/me", timeout=30), httpx.post(f"{server.url}/api/guest",
                                                                     timeout=30),
                       httpx.get(f"{server.url}/api/games", timeout=30),
                       httpx.post(f"{server.url}/api/tables", timeout=30, json={
                           "variant": "draw", "seats": [{"kind": "human", "name": "Ann"},
                                                        {"kind": "bot", "level": "easy"}]})]
            for answer in answers:
                assert answer.status_code == 503, (answer.request.url, answer.text)
                assert answer.headers["retry-after"]
                assert "postgres" not in answer.text.lower()
        finally:
            pg("resume", folder)
        assert guest.get("/api/me", timeout=30).status_code == 200
    finally:
        server.stop()


def test_what_players_wrote_reaches_the_operators_terminal_inert(tmp_path: Path) -> None:
    """Text is checked as it comes in; what reaches an operator's terminal is made inert
    besides, whatever the store holds (an older server's rows, a hand-made edit)."""
    db = sqlite_url(tmp_path / "inert.db")
    store = Store(db)
    accounts, chat = Accounts(store.engine), Chat(store.engine)
    speaker, _ = accounts.guest()
    reporter, _ = accounts.guest()
    line = chat.say(None, "lobby", Player(speaker.name, speaker.id, True), "hello")
    hostile = "rude\x1b[2J\x1b]0;owned\x07\u202egnp.exe"
    assert Moderation(store.engine).report(reporter.id, "chat", hostile, message=line.id)
    store.engine.dispose()
    listed = admin(db, "reports")
    assert "\x1b" not in listed and "\x07" not in listed and "\u202e" not in listed
    assert "rude\\x1b[2J" in listed


def test_a_token_cannot_make_tokens_and_a_password_change_can_revoke_them(
        server: Server) -> None:
    owner = server.account(f"Tk{random.randrange(10**6)}", "correct horse")
    made = owner.post("/api/tokens", json={"label": "robot"}).json()
    token = {"authorization": f"Bearer {made['token']}"}
    assert httpx.get(f"{server.url}/api/me", headers=token).status_code == 200
    for method, path, body in (("POST", "/api/tokens", {"label": "more"}),
                               ("GET", "/api/tokens", None),
                               ("DELETE", f"/api/tokens/{made['id']}", None)):
        answer = httpx.request(method, f"{server.url}{path}", headers=token, json=body)
        assert answer.status_code == 403, (method, path, answer.text)
    assert len(owner.get("/api/tokens").json()) == 1
    kept = owner.post("/api/password", json={"old": "correct horse", "new": "battery staple"})
    assert kept.status_code == 204
    assert httpx.get(f"{server.url}/api/me", headers=token).status_code == 200  # not asked
    revoked = owner.post("/api/password", json={"old": "battery staple", "new": "horse correct",
                                                "revoke_tokens": True})
    assert revoked.status_code == 204
    assert httpx.get(f"{server.url}/api/me", headers=token).status_code == 401
    assert owner.get("/api/tokens").json() == []


def test_hsts_over_https_and_the_api_docs_run_only_the_servers_own_scripts(
        tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "docs.db"),
                    extra=["--trust-proxy", "127.0.0.1"]).start()
    try:
        plain = httpx.get(f"{server.url}/")
        assert "strict-transport-security" not in plain.headers
        secure = httpx.get(f"{server.url}/", headers={"x-forwarded-proto": "https"})
        assert secure.headers["strict-transport-security"].startswith("max-age=")
        for page in ("/docs", "/redoc"):
            answer = httpx.get(f"{server.url}{page}")
            assert answer.status_code == 200
            policy = answer.headers["content-security-policy"]
            script = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
            assert script.strip() == "script-src 'self'"
            assert "http" not in policy
            sources = [s.split('"')[0] for s in answer.text.split('src="')[1:]]
            assert sources and all(s.startswith("/docs-files/") for s in sources)
            assert "<script>" not in answer.text  # nothing inline
            for source in sources:
                assert httpx.get(f"{server.url}{source}").status_code == 200
    finally:
        server.stop()


def _redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    """A Redis of this test's own, on ``port``, keeping nothing on disk."""
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(folder)],
                               stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if redis.Redis(port=port).ping():
                return process
        except redis.RedisError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def _seq(server: Server, table: str) -> int:
    return int(server.get(f"/api/tables/{table}")["seq"])


def test_tables_ride_through_redis_trouble(tmp_path: Path) -> None:
    """A six-second pause of Redis drops no table; Redis restarted empty leaves no table
    frozen (a table of bots alone plays on by itself); a socket opened while Redis is
    down is closed with 1013, which says "come back"."""
    port = free_port()
    store = _redis(port, tmp_path)
    server = Server(sqlite_url(tmp_path / "redis.db"),
                    extra=["--redis", f"redis://127.0.0.1:{port}/0"]).start()
    try:
        # A second a move: the first round lasts the whole test and no round reaches 150.
        bots = server.create("block", [{"kind": "bot", "level": "easy"}] * 4, bot_delay=1.0,
                             public=True, options={"players": 4, "target": 150})["id"]
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "easy"}], options={"target": None})
        ann = server.socket(made["table"]["id"], made["token"])
        ann.until(lambda m: m["type"] == "state")
        store.send_signal(signal.SIGSTOP)
        time.sleep(6)
        store.send_signal(signal.SIGCONT)
        time.sleep(2 * LEASE)  # a lease that ran out is taken back, not dropped
        ann.send({"v": 1, "type": "ping"})
        assert _answer(ann)["type"] == "pong"  # the socket was never closed (1012)
        store.kill()
        store.wait()
        store = _redis(port, tmp_path)  # back, and empty
        time.sleep(2 * LEASE)
        before = _seq(server, bots)
        time.sleep(3)
        assert _seq(server, bots) > before, "the table of bots froze"
        assert redis.Redis(port=port).zscore("bones:unfinished", bots) is not None
        ann.send({"v": 1, "type": "ping"})
        assert _answer(ann)["type"] == "pong"
        store.kill()
        store.wait()
        for url in ("/ws/lobby", "/ws/no-such-table"):
            turned = Client(f"ws://127.0.0.1:{server.port}{url}")
            assert closed_code(turned) == 1013
    finally:
        server.stop()
        store.kill()


@pytest.mark.parametrize("taken", ["\u0410nn", "\u0391NN", "A\u043d\u043d", "Ann\u3164",
                                   "Gue\u0455t12", "GUEST_12", "Annа"])
def test_a_name_that_passes_for_another_is_refused(client: TestClient, taken: str) -> None:
    """Look-alike letters of another script, letters that render blank, and names that
    pass for a guest's: refused for an account (and for a name typed at a table)."""
    assert client.post("/api/signup", json={"name": "Ann", "password": "correct horse"}
                       ).status_code == 201
    other = TestClient(client.app)
    refused = other.post("/api/signup", json={"name": taken, "password": "correct horse"})
    assert refused.status_code == 409, refused.text
    typed = other.post("/api/tables", json={"variant": "draw", "seats": [
        {"kind": "human", "name": taken}, {"kind": "bot", "level": "easy"}]})
    assert typed.status_code == 409, typed.text


def test_text_is_cleaned_of_what_renders_nothing(tmp_path: Path) -> None:
    with _own(tmp_path) as server:
        lobby = server.lobby(server.account("Cleaner"))
        lobby.until(lambda m: m["type"] == "lobby")
        lobby.send({"v": 1, "type": "chat", "text": "he\u034fy\u3164 " + "o" + "\u0301" * 40})
        line = lobby.until(lambda m: m["type"] == "chat")
    assert line["text"] == "hey " + "\u00f3\u0301\u0301"  # a letter and two marks at most


def test_redis_away_answers_upgrades_at_once_and_an_empty_one_loops_nobody(
        postgres_url: str, tmp_path: Path) -> None:
    """Two processes over one Redis. While Redis is paused every socket upgrade hung with
    no answer; now it is closed 1013 ("come back") within seconds. After Redis came back
    empty, a finished table's socket was closed 1013 on every reconnect for 35 s; now it
    is served."""
    port = free_port()
    store = _redis(port, tmp_path)
    flags = ["--redis", f"redis://127.0.0.1:{port}/0"]
    servers = [Server(postgres_url, extra=flags).start() for _ in range(2)]
    try:
        made = servers[0].create("draw", [{"kind": "human", "name": "Ann"},
                                          {"kind": "bot", "level": "easy"}],
                                 options={"target": None})
        table, token = made["table"]["id"], made["token"]
        play_out(servers[0].socket(table, token), random.Random(7))
        waiting = servers[0].create("draw", [{"kind": "human", "name": "Bea"},
                                             {"kind": "human"}])
        store.send_signal(signal.SIGSTOP)
        try:
            for server in servers:
                for path in ("/ws/lobby", f"/ws/{waiting['table']['id']}?token="
                             f"{waiting['token']}"):
                    began = time.monotonic()
                    opened = Client(f"ws://127.0.0.1:{server.port}{path}")
                    try:  # served, or turned away to come back
                        assert opened.recv(timeout=6)["type"] in ("lobby", "state"), path
                    except ConnectionClosed as closed:
                        assert closed.rcvd is not None and closed.rcvd.code == 1013, path
                    assert time.monotonic() - began < 6, path
        finally:
            store.send_signal(signal.SIGCONT)
        store.kill()
        store.wait()
        store = _redis(port, tmp_path)  # back, and empty
        for server in servers:
            again = server.socket(table, token)
            assert again.until(lambda m: m["type"] == "state", timeout=15)["table"][
                "status"] == "over"
            again.close()
    finally:
        for server in servers:
            server.stop()
        store.kill()
