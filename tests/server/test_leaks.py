"""Hidden information is security: over many random games, every message each seat got
is checked against what that seat could know at that moment."""

from __future__ import annotations

import os
import random
import re
from typing import Any

from bones import Match
from bones.fair import verify
from tests.server.live import Message, Server, play_all

GAMES = 40 if os.environ.get("CI") else 12
TILE = re.compile(r"^[0-6]-[0-6]$")


def _engine_view(match: Match, number: int, moves: int, seat: int) -> dict[str, Any]:
    """The engine's view of ``seat`` after ``moves`` moves of round ``number``."""
    return match.rounds[number].rewound(moves).view(seat).to_dict()


def _tiles(value: Any) -> set[str]:
    """Every tile written as text anywhere in a value ("6-3", "6-3 right")."""
    if isinstance(value, str):
        word = value.split(" ")[0]
        return {word} if TILE.match(word) else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(set(), *map(_tiles, value))
    return set()


def _placed(pairs: list[list[int]]) -> set[str]:
    return {f"{max(p)}-{min(p)}" for p in pairs}


def _check(message: Message, match: Match) -> None:
    seat, table, view = message["you"], message["table"], message["view"]
    assert (table["fair_reveal"] is None) == (table["status"] != "over"), "the seed came early"
    if not view:
        assert table["status"] == "waiting"
        return
    number = table["round"]
    expected = _engine_view(match, number, len(view["history"]), seat)
    assert view == expected, f"seat {seat} round {number}: the view differs from the engine's"
    known = set(view["hand"]) | _placed(view["line"])
    known |= _placed([p for arm in view["arms"].values() for p in arm])
    known |= _tiles(view["history"]) | _tiles(view["lead"])
    if message["reveal"] is not None:
        assert table["status"] in ("between", "over") and view["is_over"]
        known |= _tiles(message["reveal"]["hands"])
    for action in message["actions"]:
        if action["tile"] is not None:
            assert action["seat"] == seat and action["move"] == "draw", "a drawn tile was shown"
    leaked = _tiles({k: v for k, v in message.items() if k != "view"}) - known
    assert not leaked, f"seat {seat} was told of {sorted(leaked)}"


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
                _check(message, match)
            client.close()
