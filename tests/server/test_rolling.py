"""An upgrade while people play, as docs/operating.md tells it: each app process in turn
is stopped (it hands its tables over to the other as it goes) and started again (as the
new version, which runs the store's migrations once, whichever process comes first).
Two players in a rated match to 100 play on through both restarts: no move, chat line
or rating is lost or doubled."""

from __future__ import annotations

import random
import threading
import time
from functools import partial

from bones import Match
from tests.server.chaos import play_through, running
from tests.server.conftest import fresh_postgres, fresh_redis
from tests.server.live import Message, Server, Worker, both_move, in_threads

PACE = 0.3
"""Seconds a player takes to move, on average: the match outlasts both restarts."""


def _seen(messages: list[Message]) -> list[tuple[int, str]]:
    """Every move of the match a client was shown, each once, in order."""
    moves: dict[int, list[tuple[int, str]]] = {}
    for message in messages:
        if message["type"] == "state":
            number = message["table"]["round"]
            history = [(seat, move) for seat, move in message["view"]["history"]]
            if len(history) >= len(moves.get(number, [])):
                moves[number] = history
    return [move for number in sorted(moves) for move in moves[number]]


def test_an_upgrade_process_by_process_loses_nothing() -> None:
    db, shared = fresh_postgres(), fresh_redis()
    flags = {"redis": shared, "bot-workers": 0}
    live = [Server(db, limits=flags).start() for _ in range(2)]
    apps = list(live)  # as first started
    worker = Worker(shared)
    try:
        ann, ben = apps[0].account("Roll-Ann"), apps[1].account("Roll-Ben")
        made = apps[0].create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                              options={"target": 100}, rated=True, client=ann)
        table = made["table"]["id"]
        tokens = [made["token"], apps[0].join(table, None, client=ben)["token"]]
        first = [apps[0].socket(table, tokens[0]), apps[1].socket(table, tokens[1])]
        both_move(*first)  # a move of each player's own: the match rates
        said = []
        for n, socket in enumerate(first):
            said.append(f"before the upgrade {n}")
            socket.send({"v": 1, "type": "chat", "text": said[-1]})
        time.sleep(0.5)
        for socket in first:
            socket.close()
        seen: list[list[Message]] = [[], []]
        deadline = time.monotonic() + 400
        upgraded = threading.Event()

        def upgrade() -> None:
            for n in range(2):
                time.sleep(3)
                live[n].stop()  # SIGTERM: drained, its tables handed over
                live[n] = Server(db, port=live[n].port, limits=flags).start()  # "new version"
            upgraded.set()

        def play(seat: int) -> Message | None:
            return play_through(lambda: running(live), table, tokens[seat],
                                random.Random(seat), deadline, PACE, seen[seat])[0]

        restarts = threading.Thread(target=upgrade)
        restarts.start()
        finals = in_threads([partial(play, 0), partial(play, 1)])
        restarts.join()
        assert upgraded.is_set()
        assert all(f is not None and f["table"]["status"] == "over" for f in finals)
        record = live[1].get(f"/api/games/{table}/record")
        match = Match.from_record(record)
        played = [(seat, move) for rnd in match.rounds for seat, move in rnd.view(0).history]
        for seat in (0, 1):
            assert _seen(seen[seat]) == played, f"seat {seat} was shown another match"
        spectator = live[0].socket(table, tokens[0])
        spectator.until(lambda m: m["type"] == "state")
        spectator.drain(1.0)
        heard = [m["text"] for m in spectator.received if m["type"] == "chat"]
        assert all(heard.count(line) == 1 for line in said), heard
        for name in ("Roll-Ann", "Roll-Ben"):
            [rating] = live[0].get(f"/api/profile/{name}")["ratings"]
            assert rating["games"] == 1
        changes = live[1].get(f"/api/games/{table}/ratings")["changes"]
        assert len(changes) == 2
    finally:
        worker.stop()
        for app in live:
            app.stop()
