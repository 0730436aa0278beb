"""Hidden information is security: over many random games, every message each seat got
is checked against what that seat could know at that moment."""

from __future__ import annotations

import os
import random
from typing import Any

from bones import Match
from bones.fair import verify
from tests.server.knowledge import check_message
from tests.server.live import Server, play_all

GAMES = 40 if os.environ.get("CI") else 12


def _random_table(rng: random.Random) -> tuple[str, dict[str, Any], int]:
    variant = rng.choice(["draw", "block", "kozel", "allfives"])
    players = {"kozel": 4, "allfives": 2}.get(variant) or rng.choice([2, 3, 4])
    target = rng.choice([None, None, 50])
    return variant, {"players": players, "target": target}, players


def test_no_message_reveals_what_a_seat_cannot_know(server: Server) -> None:
    rng = random.Random(2026)
    for game in range(GAMES):
        variant, options, players = _random_table(rng)
        seats: list[dict[str, Any]] = [{"kind": "human", "name": f"P{game}"}]
        seats += [{"kind": "human"}] * (players - 1)
        made = server.create(variant, seats, options=options)
        table = made["table"]["id"]
        tokens = [made["token"]] + [server.join(table, f"Q{game}-{n}")["token"]
                                    for n in range(1, players)]
        clients = [server.socket(table, t) for t in tokens]
        play_all(clients, seed=game)
        record = server.get(f"/api/games/{table}/record")
        match = Match.from_record(record)
        shown = {m["table"]["fair"] for c in clients for m in c.received if m["type"] == "state"}
        assert shown == {made["table"]["fair"]}  # one commitment, from before the first move
        assert "ones committed to" in verify(record, made["table"]["fair"])
        for client in clients:
            states = [m for m in client.received if m["type"] == "state"]
            assert states
            for message in states:
                check_message(message, match)
            client.close()
