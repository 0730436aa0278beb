"""PlayerView: exactly what one seat may see of a round, plus what it can infer.

A view is the security boundary of bones: bots, clients and browsers get views, never
a ``Round``. It holds the seat's own hand, the table, every player's tile count, the
boneyard's count and the public history; never another hand or the boneyard's order.

>>> from bones import Round, Rules
>>> view = Round.deal(Rules.preset("draw"), seed=7).view(0)
>>> len(view.hand), view.boneyard_count, view.hand_counts
(7, 14, (7, 6))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from bones.layout import Placed
from bones.moves import Move, parse_move
from bones.rules import Rules
from bones.scoring import RoundResult, by_fields
from bones.tiles import DOUBLE_SIX, Tile

__all__ = ["Lead", "PlayerView", "infer_lacks"]


class Lead(NamedTuple):
    """Who opened the round with which tile, and whether the rules forced it."""

    seat: int
    tile: Tile
    automatic: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``seat`` may see. ``spinner``: All Fives' first double placed, once there
    is one. ``history`` lists every move since the deal as
    ``(seat, "6-3 right" | "6-3" | "draw" | "pass")``; ``lacks`` per seat the numbers
    it has shown it does not hold (it drew or passed while they were open, and has
    drawn nothing unseen since)."""

    seat: int
    rules: Rules
    hand: tuple[Tile, ...]
    line: tuple[Placed, ...]
    arms: dict[str, tuple[Placed, ...]]
    spinner: Tile | None
    ends: tuple[int, ...]
    places: dict[str, int]
    hand_counts: tuple[int, ...]
    boneyard_count: int
    turn: int | None
    lead: Lead | None
    history: tuple[tuple[int, str], ...]
    count_points: tuple[int, ...]
    scores: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    lacks: tuple[frozenset[int], ...]
    is_over: bool
    result: RoundResult | None
    count: int | None = None
    """All Fives: the count of the open ends now (it scores when a positive multiple
    of 5); ``None`` in the other variants and before the lead."""

    @property
    def unseen_count(self) -> int:
        """Tiles this seat has not seen: other hands, boneyard and tiles out of play."""
        placed = len(self.line) + sum(len(arm) for arm in self.arms.values())
        return 28 - placed - len(self.hand)

    @property
    def unseen(self) -> tuple[Tile, ...]:
        """The tiles this seat has not seen, in the set's order: what the others may
        hold, so what a player counts (the page's tile tracker counts them by number).

        >>> from bones import Round, Rules
        >>> view = Round.deal(Rules.preset("draw"), seed=7).view(0)
        >>> [str(p.tile) for p in view.line], [str(t) for t in view.hand if t.has(6)]
        (['4-4'], ['6-4', '6-0'])
        >>> len(view.unseen) == view.unseen_count, sum(t.has(6) for t in view.unseen)
        (True, 5)
        """
        seen = set(self.hand) | {p.tile for p in self.line}
        seen.update(p.tile for arm in self.arms.values() for p in arm)
        return tuple(tile for tile in DOUBLE_SIX if tile not in seen)

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (what a client is sent)."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "hand": [str(t) for t in self.hand],
            "line": [[p.a, p.b] for p in self.line],
            "arms": {k: [[p.a, p.b] for p in arm] for k, arm in self.arms.items()},
            "spinner": None if self.spinner is None else str(self.spinner),
            "ends": list(self.ends),
            "places": dict(self.places),
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            "turn": self.turn,
            "lead": None if self.lead is None else {
                "seat": self.lead.seat, "tile": str(self.lead.tile),
                "automatic": self.lead.automatic,
            },
            "history": [[s, m] for s, m in self.history],
            "count_points": list(self.count_points),
            "scores": list(self.scores),
            "legal_moves": [str(m) for m in self.legal_moves],
            "lacks": [sorted(numbers) for numbers in self.lacks],
            "is_over": self.is_over,
            "result": None if self.result is None else self.result.to_dict(),
            "count": self.count,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerView:
        """The view ``to_dict`` wrote, back again: how a view travels to a bot in another
        process or on another machine (as JSON, never as a pickle a worker would run).

        >>> from bones import Round, Rules
        >>> view = Round.deal(Rules.preset("kozel"), seed=3).view(2)
        >>> PlayerView.from_dict(view.to_dict()) == view
        True
        """
        def placed(pairs: list[list[int]]) -> tuple[Placed, ...]:
            return tuple(Placed(Tile(a, b), a, b) for a, b in pairs)

        lead, result = data["lead"], data["result"]
        return cls(
            seat=data["seat"], rules=Rules.from_dict(data["rules"]),
            hand=tuple(Tile.parse(t) for t in data["hand"]),
            line=placed(data["line"]),
            arms={k: placed(arm) for k, arm in data["arms"].items()},
            spinner=None if data["spinner"] is None else Tile.parse(data["spinner"]),
            ends=tuple(data["ends"]), places=dict(data["places"]),
            hand_counts=tuple(data["hand_counts"]), boneyard_count=data["boneyard_count"],
            turn=data["turn"],
            lead=None if lead is None else Lead(lead["seat"], Tile.parse(lead["tile"]),
                                                 lead["automatic"]),
            history=tuple((s, m) for s, m in data["history"]),
            count_points=tuple(data["count_points"]), scores=tuple(data["scores"]),
            legal_moves=tuple(parse_move(m) for m in data["legal_moves"]),
            lacks=tuple(frozenset(numbers) for numbers in data["lacks"]),
            is_over=data["is_over"],
            result=None if result is None else RoundResult.from_dict(result),
            count=data["count"],
        )


def infer_lacks(
    players: int, events: Sequence[tuple[int, str, int]], drawing: int | None = None
) -> tuple[frozenset[int], ...]:
    """Numbers each seat has shown it lacks, from ``(seat, "draw"|"pass", open)`` events
    in order, ``open`` being the mask of numbers open at that moment.

    A pass adds the open numbers. A draw shows the same, but the tile drawn is unseen
    and may carry numbers lacked before, so only the numbers open now remain known.
    ``drawing`` is a seat that has just drawn and not yet moved again: its last tile may
    be the one that fits, so nothing is known of its hand until it moves.

    >>> infer_lacks(2, [(1, "pass", 0b101), (1, "draw", 0b10)])
    (frozenset(), frozenset({1}))
    >>> infer_lacks(2, [(1, "pass", 0b101), (1, "draw", 0b10)], drawing=1)
    (frozenset(), frozenset())
    """
    lacks = [0] * players
    for seat, kind, numbers in events:
        lacks[seat] = numbers if kind == "draw" else lacks[seat] | numbers
    if drawing is not None:
        lacks[drawing] = 0
    return tuple(frozenset(n for n in range(7) if mask >> n & 1) for mask in lacks)
