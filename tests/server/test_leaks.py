"""Hidden information is security: over many random games, every message each seat got
is checked against what that seat could know at that moment."""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

import httpx

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


TILE = re.compile(r'"[0-6]-[0-6]( [a-z]+)?"')
"""A tile (or a move naming one) as a JSON string."""


def test_no_message_reveals_what_a_seat_cannot_know(server: Server) -> None:
    """Every seat's messages; and the lobby's feed names no tile at all, and a
    spectator's chat never reaches a player while the game runs."""
    rng = random.Random(2026)
    lobby = server.lobby()
    mine: set[str] = set()
    for game in range(GAMES):
        variant, options, players = _random_table(rng)
        seats: list[dict[str, Any]] = [{"kind": "human", "name": f"P{game}"}]
        seats += [{"kind": "human"}] * (players - 1)
        made = server.create(variant, seats, options=options, public=True)
        table = made["table"]["id"]
        mine.add(table)
        tokens = [made["token"]] + [server.join(table, f"Q{game}-{n}")["token"]
                                    for n in range(1, players)]
        clients = [server.socket(table, t) for t in tokens]
        watcher = httpx.Client(base_url=server.url)  # a guest a game: chat is per speaker
        watcher.post("/api/guest").raise_for_status()
        spectator = server.socket(table, signed_in=watcher)
        spectator.send({"v": 1, "type": "chat", "text": f"psst, seat 0 holds {game}"})
        spectator.until(lambda m: m["type"] == "chat")
        play_all(clients, seed=game)
        for client in clients:
            assert not any(m["type"] == "chat" for m in client.received), "coached"
        spectator.close()
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
    busy = [False]

    def quiet_again(message: dict[str, Any]) -> bool:  # these games were listed, then left
        if message["type"] != "lobby":  # the lobby's chat
            return False
        shown = {t["id"] for t in message["open"] + message["playing"]} & mine
        busy[0] = busy[0] or bool(shown)
        return busy[0] and not shown

    lobby.until(quiet_again)
    listed = [m for m in lobby.received if m["type"] == "lobby"]
    for message in listed:
        assert not TILE.search(json.dumps(message)), "a tile in the lobby's feed"
