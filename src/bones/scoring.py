"""How each variant scores a finished round: who won it and the award per side.

Every scorer gets the hands left (masks per seat), the seat that placed the last tile
and the standing of the match, and returns a ``RoundResult``. Kozel's eggs and 13 rule
belong to the match (``bones.match``): a round only reports the raw penalty.

>>> from bones.rules import Rules
>>> from bones.tiles import mask_of
>>> score(Rules.preset("kozel"), "domino", [0, mask_of(["6-6"]), 0, mask_of(["2-1"])], 0, (0, 0))
RoundResult(winner=0, reason='domino', points=(0, 53), eggs=0, ended_by=0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from bones.rules import Rules
from bones.tiles import Tile, pips

__all__ = ["REASONS", "RoundResult", "hand_value", "score"]

REASONS = ("domino", "blocked", "target")
_LONE = {Tile(0, 0).bit: 25, Tile(6, 6).bit: 50}


def by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    """How the engine's frozen dataclasses pickle and copy: through their constructor.
    Compiled (``setup.py``), the default restore sets the fields one by one, which a
    frozen class refuses.

    >>> import pickle
    >>> result = RoundResult(0, "domino", (12, 0))
    >>> pickle.loads(pickle.dumps(result)) == result
    True
    """
    return type(value), tuple(getattr(value, f.name) for f in fields(value))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended.

    ``winner``: the side that won the round, ``None`` when nobody did. ``reason``:
    ``"domino"``, ``"blocked"`` or ``"target"`` (All Fives reached the match target in
    the middle of the deal). ``points``: the end-of-round award per side (All Fives'
    count points are apart; Kozel's raw penalty, before eggs and the 13 rule).
    ``eggs``: in Kozel, the pips left after a tied fish. ``ended_by``: the seat that
    placed the last tile (who leads next in Kozel); it does not take part in comparing
    results, which are equal when the four fields above are.
    """

    winner: int | None
    reason: str
    points: tuple[int, ...]
    eggs: int = 0
    ended_by: int | None = field(default=None, compare=False)

    @property
    def blocked(self) -> bool:
        return self.reason == "blocked"

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["points"] = list(self.points)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        """The result ``to_dict`` wrote."""
        return cls(data["winner"], data["reason"], tuple(data["points"]), data["eggs"],
                   data["ended_by"])


def hand_value(rules: Rules, hand: int) -> int:
    """What a hand left at the end counts: its pips, except in Kozel a hand of the lone
    0-0 counts 25 and of the lone 6-6 counts 50."""
    if rules.variant == "kozel" and hand in _LONE:
        return _LONE[hand]
    return pips(hand)


def score(
    rules: Rules,
    reason: str,
    hands: Sequence[int],
    last: int,
    standing: Sequence[int],
) -> RoundResult:
    """Score a round that ended by ``reason`` with ``hands`` left.

    ``last`` is the seat that placed the last tile; ``standing`` the match score per
    side at that moment (All Fives' count points of this deal included).
    """
    scorer = _SCORERS[rules.variant]
    return scorer(rules, reason, hands, last, standing)


def _points(rules: Rules, side: int | None, award: int) -> tuple[int, ...]:
    points = [0] * rules.sides
    if side is not None:
        points[side] = award
    return tuple(points)


def _score_line(
    rules: Rules, reason: str, hands: Sequence[int], last: int, standing: Sequence[int]
) -> RoundResult:
    """Draw and block games: the domino scores all other hands; a blocked round goes
    to the single lowest hand, scoring the others minus (or without) its own."""
    totals = [pips(h) for h in hands]
    others = sum(totals)
    if reason == "domino":
        return RoundResult(last, reason, _points(rules, last, others), 0, last)
    low = min(totals)
    if totals.count(low) > 1:
        return RoundResult(None, reason, _points(rules, None, 0), 0, last)
    winner = totals.index(low)
    award = others - low - (low if rules.blocked_scoring == "others_minus_own" else 0)
    return RoundResult(winner, reason, _points(rules, winner, award), 0, last)


def _score_kozel(
    rules: Rules, reason: str, hands: Sequence[int], last: int, standing: Sequence[int]
) -> RoundResult:
    """Kozel: points are penalties. The domino's pair wins and the other pair writes
    its two hands; a fish makes the heavier pair write all four; a tie lays eggs."""
    values = [hand_value(rules, h) for h in hands]
    pair = (values[0] + values[2], values[1] + values[3])
    if reason == "domino":
        winner = rules.side_of(last)
        return RoundResult(winner, reason, _points(rules, 1 - winner, pair[1 - winner]), 0, last)
    total = pair[0] + pair[1]
    if pair[0] == pair[1]:
        return RoundResult(None, reason, (0, 0), total, last)
    loser = 0 if pair[0] > pair[1] else 1
    return RoundResult(1 - loser, reason, _points(rules, loser, total), 0, last)


def _score_allfives(
    rules: Rules, reason: str, hands: Sequence[int], last: int, standing: Sequence[int]
) -> RoundResult:
    """All Fives: the domino scores the opponent's pips rounded down to a multiple of 5;
    a blocked deal goes to the leader of the match, else fewer tiles, else the last
    placer, and scores the opponent's pips minus its own, negative or not."""
    if reason == "target":
        return RoundResult(last, reason, _points(rules, None, 0), 0, last)
    opponent_pips = [pips(hands[1]), pips(hands[0])]
    if reason == "domino":
        award = opponent_pips[last] // 5 * 5
        return RoundResult(last, reason, _points(rules, last, award), 0, last)
    if standing[0] != standing[1]:
        winner = 0 if standing[0] > standing[1] else 1
    else:
        counts = [h.bit_count() for h in hands]
        winner = last if counts[0] == counts[1] else counts.index(min(counts))
    award = opponent_pips[winner] - opponent_pips[1 - winner]
    return RoundResult(winner, reason, _points(rules, winner, award), 0, last)


_SCORERS = {
    "draw": _score_line,
    "block": _score_line,
    "kozel": _score_kozel,
    "allfives": _score_allfives,
}
