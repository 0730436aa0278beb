"""What a seat may know: every message a client was sent, checked against the finished
match it belongs to."""

from __future__ import annotations

import re
from typing import Any

from bones import Match
from tests.server.live import Message

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


def check_message(message: Message, match: Match) -> None:
    """``message`` names no tile its seat could not know, and its view is the engine's
    at that moment of the finished match (so nothing shown was later undone or lost)."""
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
