"""A real bones server in a child process, and WebSocket clients that play at it."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from bones.server.tables.endings import LEAST_MOVES

Message = dict[str, Any]
T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


INVITES: dict[str, dict[str, str]] = {}
"""Each store's private tables' invite secrets, by table."""


BUSY = 60.0
"""Seconds a test's request may wait for its answer: a join asked of one process is done
by the one that holds the table, and on a busy machine that took more than httpx's 5 s
(twice under the full suite)."""


class Server:
    """``bones serve`` on a free port over the store at ``db``."""

    def __init__(self, db: str, *, leave_after: float = 60.0, port: int | None = None,
                 rate: float = 1000.0, limits: dict[str, float] | None = None,
                 extra: list[str] | None = None, log: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        """``rate``: messages a second a seat may send; scripted players are fast, and
        every test client comes from one address, so the per-address limits are lifted
        unless ``limits`` sets them (``{"rest-rate": 20, "think-floor": 1}``)."""
        self.db, self.leave_after, self.rate = db, leave_after, rate
        self.log = log
        """Where the server's standard error goes (the terminal's, if not given)."""
        self.env = env or {}
        """Its environment besides this one's (``PYTHONPATH``: another copy of bones)."""
        self.extra = extra or []
        self.limits = {"rest-rate": 100_000, "tables-per-address": 100_000,
                       "sockets-per-address": 100_000, "think-floor": 0,
                       "logins-per-name": 100_000, "logins-per-address": 100_000,
                       "signups-per-address": 100_000, "guests-per-address": 100_000,
                       **(limits or {})}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.invites = INVITES.setdefault(db, {})
        """The invite secrets of the private tables made here: every process of the same
        store (a restart, another of a site) knows them, as whoever was given the link."""

    def start(self) -> Server:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bones", "serve", "--port", str(self.port), "--db", self.db,
             "--bot-delay", "0", "--leave-after", str(self.leave_after),
             "--rate", str(self.rate),
             *[f"--{k}={v}" for k, v in self.limits.items()], *self.extra],
            env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env},
            stderr=None if self.log is None else self.log.open("ab"))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/api/variants", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                if self.process.poll() is not None:
                    raise RuntimeError("bones serve exited") from None
                time.sleep(0.1)
        raise RuntimeError("bones serve did not answer within 60 s")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.process is not None
        self.process.send_signal(sig)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill(signal.SIGTERM)

    def account(self, name: str, password: str = "correct horse") -> httpx.Client:
        """A client signed in as the account called ``name`` (signed up the first time).
        A busy server may answer 503 while its few password hashers are taken (as a
        crowd of sign-ups meets on a loaded machine): asked again after its Retry-After,
        never handed back signed out."""
        client = httpx.Client(base_url=self.url)
        body = {"name": name, "password": password}
        deadline = time.monotonic() + 120
        while True:
            answer = client.post("/api/login", json=body)
            if answer.status_code == 401:
                answer = client.post("/api/signup", json=body)
            if answer.status_code != 503 or time.monotonic() > deadline:
                break
            time.sleep(float(answer.headers.get("retry-after", "1")))
        answer.raise_for_status()
        return client

    def create(self, variant: str, seats: list[dict[str, Any]], *,
               client: httpx.Client | None = None, **extra: Any) -> Message:
        """A new table, made by ``client`` (signed in) or by nobody signed in."""
        response = (client or httpx).post(f"{self.url}/api/tables", timeout=BUSY,
                                          json={"variant": variant, "seats": seats, **extra})
        assert response.status_code == 201, response.text
        made = dict(response.json())
        if "#invite=" in made.get("invite", ""):
            self.invites[made["table"]["id"]] = made["invite"].split("#invite=")[1]
        return made

    def join(self, table_id: str, name: str | None, invite: str | None = None, *,
             client: httpx.Client | None = None) -> Message:
        """Take a free seat, by a typed ``name`` or as ``client``'s account; a private
        table's invite secret is ``invite``, or the one this client saw when it made
        the table."""
        invite = invite or self.invites.get(table_id)
        body = {**({"name": name} if name else {}), **({"invite": invite} if invite else {})}
        response = (client or httpx).post(f"{self.url}/api/tables/{table_id}/join", json=body,
                                          timeout=BUSY)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def get(self, path: str) -> Any:
        """GET ``path``; a private table's finished game as whoever has its invite link
        (the secret this harness saw when it made the table)."""
        game = re.match(r"/api/games/([\w-]+)/", path)
        invite = self.invites.get(game[1]) if game else None
        response = httpx.get(f"{self.url}{path}",
                             headers={"bones-invite": invite} if invite else None)
        response.raise_for_status()
        return response.json()

    def lobby(self, signed_in: httpx.Client | None = None) -> Client:
        """A socket on the lobby's list of public tables (with ``signed_in``'s session)."""
        return Client(f"ws://127.0.0.1:{self.port}/ws/lobby", signed_in)

    def seek(self, client: httpx.Client, variant: str, **body: Any) -> Message:
        """Play now as ``client``'s account: the ticket's standing."""
        response = client.post("/api/seek", json={"variant": variant, **body})
        assert response.status_code == 201, response.text
        return dict(response.json())

    def seek_socket(self, ticket: str, signed_in: httpx.Client) -> Client:
        """The socket a ticket's member watches it on."""
        return Client(f"ws://127.0.0.1:{self.port}/ws/seek/{ticket}", signed_in)

    def seated(self, ticket: str, signed_in: httpx.Client, timeout: float = 60) -> Message:
        """Watch a ticket until it is seated: the member's ``matched`` message."""
        watching = self.seek_socket(ticket, signed_in)
        try:
            return watching.until(lambda m: m["type"] == "matched", timeout)
        finally:
            watching.close()

    def socket(self, table_id: str, token: str | None = None,
               signed_in: httpx.Client | None = None) -> Client:
        """A seat's socket (with its token, or ``signed_in``'s session of the account
        seated there), or a spectator's (with ``signed_in``'s session, if given, and the
        invite's secret of a private table this client made)."""
        invite = self.invites.get(table_id)  # a private table is watched with its secret
        secret = f"bones.token.{token}" if token else f"bones.invite.{invite}" if invite else None
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table_id}", signed_in,
                      ["bones", secret] if secret else None)


OPEN: set[Client] = set()
"""Every client not yet closed: a test's left-open sockets are closed after it (see
``close_left_open``)."""


class Client:
    """One WebSocket at a table, keeping every message it was sent."""

    def __init__(self, url: str, signed_in: httpx.Client | None = None,
                 subprotocols: list[str] | None = None) -> None:
        """``subprotocols``: ``bones`` and the seat's token or the invite's secret, as
        the page sends them (never in the URL)."""
        cookie = signed_in.cookies.get("bones_session") if signed_in is not None else None
        # Unbounded: a client that stops reading (a spectator that heard what it waited
        # for) would otherwise stop taking frames after 16, miss the server's answer to
        # its close and wait out the ten-second close timeout; the leak check's closes
        # took 100 of its 111 s so. A test keeps every message anyway.
        self._opened = connect(url, open_timeout=10, max_size=2**22, max_queue=None,
                               additional_headers={"cookie": f"bones_session={cookie}"}
                               if cookie else None,
                               subprotocols=[Subprotocol(p) for p in subprotocols or []] or None)
        self.ws: ClientConnection = self._opened.__enter__()
        self.received: list[Message] = []
        OPEN.add(self)

    def send(self, message: Message | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 30) -> Message:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return dict(message)

    def until(self, done: Callable[[Message], bool], timeout: float = 60) -> Message:
        """Read until a message satisfies ``done``."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.1, deadline - time.monotonic()))
            if done(message):
                return message

    def drain(self, quiet: float = 0.4) -> None:
        """Read until nothing more comes for ``quiet`` seconds."""
        try:
            while True:
                self.recv(quiet)
        except TimeoutError:
            pass

    def last_state(self) -> Message:
        return next(m for m in reversed(self.received) if m["type"] == "state")

    def close(self) -> None:
        OPEN.discard(self)
        self._opened.__exit__(None, None, None)


def close_left_open(kept: set[Client]) -> None:
    """Close the sockets a test left open, but those in ``kept`` (open before it, for
    a wider fixture). Each open socket keeps two threads in the test process, and when
    one of them logs a lost connection, Python 3.11 parses the failing line to draw the
    traceback's carets; a parse in two threads at once can fail with "AST constructor
    recursion depth mismatch" (CPython gh-106905), which once failed a hypothesis test
    that was parsing its own lambdas at that moment."""
    for client in OPEN - kept:
        client.close()


def closed_code(client: Client, timeout: float = 30) -> int:
    """Read a socket until the server closes it: the close code."""
    try:
        while True:
            client.recv(timeout)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame"
        return closed.rcvd.code


def my_turn(message: Message) -> bool:
    return (message["type"] == "state" and message["table"]["status"] == "playing"
            and message["view"]["turn"] == message["you"] and bool(message["view"]["legal_moves"]))


def play_out(client: Client, rng: random.Random, stop: Callable[[Message], bool] | None = None,
             timeout: float = 90, pace: float = 0.0) -> Message:
    """Play random legal moves and say ready between rounds until the match is over;
    ``pace``: the mean pause before a move, in seconds (± all of it)."""
    deadline = time.monotonic() + timeout
    seen = [m for m in client.received if m["type"] == "state"]
    message = seen[-1] if seen else client.recv(timeout)  # answer what came before, first
    while True:
        if message["type"] != "state":
            message = client.recv(max(0.1, deadline - time.monotonic()))
            continue
        if stop is not None and stop(message):
            return message
        status = message["table"]["status"]
        if status == "over":
            return message
        if status == "between" and message["you"] not in message["table"]["ready"]:
            client.send({"v": 1, "type": "ready"})
        elif my_turn(message):
            time.sleep(rng.uniform(0, 2 * pace))
            move = rng.choice(message["view"]["legal_moves"])
            client.send({"v": 1, "type": "move", "move": move})
        message = client.recv(max(0.1, deadline - time.monotonic()))


def step(clients: list[Client], answered: dict[int, int], rng: random.Random) -> list[int]:
    """Each client whose turn it is plays a random legal move (once a turn, never saying
    ready between rounds); the indices of those that moved."""
    moved = []
    for n, client in enumerate(clients):
        client.drain(0.1)
        states = [m for m in client.received if m["type"] == "state"]
        if states and my_turn(states[-1]) and answered.get(n) != states[-1]["table"]["seq"]:
            answered[n] = states[-1]["table"]["seq"]
            client.send({"v": 1, "type": "move",
                         "move": rng.choice(states[-1]["view"]["legal_moves"])})
            moved.append(n)
    return moved


def both_move(*clients: Client, seed: int = 1, timeout: float = 60,
              moves: int = LEAST_MOVES) -> None:
    """Play random moves (and say ready between rounds) until every client (the client
    of seat ``n`` at index ``n``) has made ``moves`` moves of its own choosing, as the
    table counts them, and the table has taken each: a rated game given up after that is
    a real game, and rates."""
    sent = [0] * len(clients)
    answered: dict[int, int] = {}
    readied: set[tuple[int, int]] = set()
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and min(sent) < moves:
        for n in step(list(clients), answered, rng):
            sent[n] += 1
        for n, client in enumerate(clients):
            last = next((m for m in reversed(client.received) if m["type"] == "state"), None)
            if (last is not None and last["table"]["status"] == "between"
                    and (n, last["table"]["seq"]) not in readied):
                readied.add((n, last["table"]["seq"]))
                client.send({"v": 1, "type": "ready"})
    assert min(sent) >= moves, f"moves of each seat's own: {sent}"
    for n, seq in answered.items():  # each last move taken (a move in flight can be lost)
        if clients[n].last_state()["table"]["seq"] <= seq:
            clients[n].until(lambda m, seq=seq: m["type"] == "state" and m["table"]["seq"] > seq,
                             timeout=timeout)


def in_threads(jobs: list[Callable[[], T]]) -> list[T]:
    """Each job run in a thread of its own, all at once; their results, or the first
    one's error."""
    results: list[T | BaseException] = [RuntimeError("no result")] * len(jobs)

    def run(i: int) -> None:
        try:
            results[i] = jobs[i]()
        except BaseException as error:
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results  # type: ignore[return-value]


def play_all(clients: list[Client], seed: int, timeout: float = 90,
             stop: Callable[[Message], bool] | None = None) -> list[Message]:
    """Every client plays in its own thread to the end (or until ``stop``); their last
    messages."""
    return in_threads([partial(play_out, client, random.Random(seed + i), stop, timeout)
                       for i, client in enumerate(clients)])


def played(server: Server, first: httpx.Client, second: httpx.Client,
           said: str | None = None) -> tuple[str, list[Client]]:
    """A single-round draw game the two accounts played to its end (``first`` saying
    ``said`` before the first move): its table, and their seats' sockets, still open."""
    made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                         client=first, options={"target": None})
    table = made["table"]["id"]
    joined = server.join(table, None, client=second)
    seats = [server.socket(table, made["token"]), server.socket(table, joined["token"])]
    if said is not None:
        seats[0].send({"v": 1, "type": "chat", "text": said})
        seats[0].until(lambda m: m["type"] == "chat")
    play_all(seats, seed=3)
    return table, seats


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def admin_run(db: str, *args: str, env: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess[str]:
    """``bones admin`` on the store ``db`` as an operator's script runs it: its output
    to a pipe, none of the site's settings this process may hold (``COLUMNS``,
    ``BONES_ORIGIN``, ``BONES_CONFIG``) but those in ``env``."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("COLUMNS", "BONES_ORIGIN", "BONES_CONFIG")}
    return subprocess.run([sys.executable, "-m", "bones", "admin", "--db", db, *args],
                          capture_output=True, text=True, timeout=60,
                          env={**clean, **(env or {})})


def admin(db: str, *args: str) -> str:
    """What ``bones admin`` on the store ``db`` printed, once it succeeded."""
    done = admin_run(db, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


class Worker:
    """``bones worker`` taking the bots' jobs from the Redis at ``url``."""

    def __init__(self, url: str, processes: int = 1) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bones", "worker", "--redis", url,
             "--processes", str(processes)], env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def play_tournament(server: Server, client: httpx.Client, tournament: str,
                    seed: int) -> list[str]:
    """A scripted player of a tournament: here (its notice socket open), it plays each
    game the pairing gives it until the tournament is over; each game's result, in
    order."""
    rng = random.Random(seed)
    here = Client(f"ws://127.0.0.1:{server.port}/ws/me", client)
    results: list[str] = []
    try:
        while server.get(f"/api/tournaments/{tournament}")["state"] != "finished":
            seat = client.get(f"/api/tournaments/{tournament}/game")
            if seat.status_code == 404:
                time.sleep(0.2)
                continue
            table = seat.json()
            socket = server.socket(table["table"], signed_in=client)  # seated by account
            last = play_out(socket, rng, timeout=60)
            socket.close()
            winner = last["table"]["winner"]
            side = table["seat"] % 2 if last["table"]["variant"] == "kozel" else table["seat"]
            results.append("tie" if winner is None else "win" if winner == side else "loss")
    finally:
        here.close()
    return results
