"""The moves a player can make: place a tile, draw one, or pass.

Moves are small frozen values; the engine hands out interned ones, so a move taken
from ``legal_moves()`` is recognised by identity when it is pushed back.

>>> Play(Tile(6, 3), "right"), str(Play(Tile(6, 3), "right")), str(Draw()), str(Pass())
(Play(tile=Tile(6, 3), end='right'), '6-3 right', 'draw', 'pass')
>>> parse_move("3-6 LEFT") == Play(Tile(6, 3), "left")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bones.tiles import DOUBLE_SIX, Tile

__all__ = ["DRAW", "ENDS", "PASS", "Draw", "IllegalMove", "Move", "Pass", "Play", "parse_move"]

ENDS: tuple[str, ...] = ("left", "right", "up", "down")
"""The places a tile can go: the line's two ends, then the spinner's arms."""

_MOVE = re.compile(r"^\s*([0-6])\s*[-|:/]\s*([0-6])\s*(?:\s(left|right|up|down))?\s*$", re.I)


class IllegalMove(ValueError):
    """A move the rules do not allow here, or text that is not a move. The message
    says why; the round is left exactly as it was."""


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile`` at ``end`` ("left", "right", "up", "down"; ``None`` for a lead)."""

    tile: Tile
    end: str | None = None

    def __str__(self) -> str:
        return f"{self.tile}" if self.end is None else f"{self.tile} {self.end}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top tile of the boneyard (only when nothing in hand fits)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Knock: nothing fits and nothing can be drawn."""

    def __str__(self) -> str:
        return "pass"


Move = Play | Draw | Pass
DRAW = Draw()
PASS = Pass()

PLAYS: tuple[dict[str | None, Play], ...] = tuple(
    {end: Play(tile, end) for end in (None, *ENDS)} for tile in DOUBLE_SIX
)
"""``PLAYS[tile.index][end]``: the interned ``Play`` objects."""


def parse_move(text: str) -> Move:
    """Read a move written as ``"6-3 right"``, ``"6-3"``, ``"draw"`` or ``"pass"``.

    >>> parse_move("6-3")
    Play(tile=Tile(6, 3), end=None)
    >>> parse_move("6-7 left")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bones.moves.IllegalMove: cannot read '6-7 left' as a move: write '6-3 right', ...
    """
    if not isinstance(text, str):
        raise IllegalMove(f"a move is a Play, Draw, Pass or text, not {type(text).__name__}")
    word = text.strip().lower()
    if word == "draw":
        return DRAW
    if word == "pass":
        return PASS
    match = _MOVE.match(text)
    if match is None:
        raise IllegalMove(
            f"cannot read {text!r} as a move: write '6-3 right', '6-3', 'draw' or 'pass'"
        )
    end = match[3].lower() if match[3] else None
    return PLAYS[Tile(int(match[1]), int(match[2])).index][end]
