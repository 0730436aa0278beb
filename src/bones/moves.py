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
from typing import Any, ClassVar, Self

from bones.tiles import BY_INDEX, DOUBLE_SIX, SUIT, Tile, tiles_of

__all__ = ["DRAW", "ENDS", "PASS", "Draw", "IllegalMove", "Move", "Pass", "Play", "parse_move"]

ENDS: tuple[str, ...] = ("left", "right", "up", "down")
"""The places a tile can go: the line's two ends, then the spinner's arms."""

_MOVE = re.compile(r"^\s*([0-6])\s*[-|:/]\s*([0-6])\s*(?:\s(left|right|up|down))?\s*$", re.I)


class IllegalMove(ValueError):
    """A move the rules do not allow here, or text that is not a move. The message
    says why; the round is left exactly as it was."""


class Play:
    """Place ``tile`` at ``end`` ("left", "right", "up", "down"; ``None`` for a lead).

    Plays are interned like tiles, so ``Play(Tile(6, 3), "right")`` is always the same
    object and comparing two plays costs nothing.

    >>> Play(Tile(3, 6), "right") is Play(Tile(6, 3), "right")
    True
    """

    __slots__ = ("end", "place", "tile")
    tile: Tile
    end: str | None
    place: int  # the index of ``end`` in ENDS, -1 for a lead
    _made: ClassVar[dict[tuple[Tile, str | None], Play]] = {}

    def __new__(cls, tile: Tile, end: str | None = None) -> Play:
        try:
            return cls._made[tile, end]
        except (KeyError, TypeError):
            if len(cls._made) == len(DOUBLE_SIX) * len(_PLACE):  # all made, at import
                raise ValueError(f"a play is a Tile and an end from {ENDS} or None, "
                                 f"not {tile!r}, {end!r}") from None
        # Made here, not in a helper: compiled (``setup.py``), only ``__new__`` may.
        play = object.__new__(cls)
        play.tile, play.end, play.place = tile, end, _PLACE[end]
        cls._made[tile, end] = play
        return play

    def __str__(self) -> str:
        return f"{self.tile}" if self.end is None else f"{self.tile} {self.end}"

    def __repr__(self) -> str:
        return f"Play(tile={self.tile!r}, end={self.end!r})"

    def __reduce__(self) -> tuple[type[Play], tuple[Tile, str | None]]:
        return (Play, (self.tile, self.end))


class _Word:
    """A move said in one word; each kind is a single object."""

    __slots__ = ()
    word: ClassVar[str] = ""
    _made: ClassVar[dict[type, Any]] = {}

    def __new__(cls) -> Self:
        made: Self = _Word._made.setdefault(cls, object.__new__(cls))
        return made

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> tuple[type[Self], tuple[()]]:
        return (type(self), ())


class Draw(_Word):
    """Take the top tile of the boneyard (only when nothing in hand fits)."""

    __slots__ = ()
    word = "draw"


class Pass(_Word):
    """Knock: nothing fits and nothing can be drawn."""

    __slots__ = ()
    word = "pass"


_PLACE: dict[str | None, int] = {None: -1, **{end: i for i, end in enumerate(ENDS)}}
Move = Play | Draw | Pass
DRAW = Draw()
PASS = Pass()

PLAYS: tuple[dict[str | None, Play], ...] = tuple(
    {end: Play(tile, end) for end in (None, *ENDS)} for tile in DOUBLE_SIX
)
"""``PLAYS[tile.index][end]``: the interned ``Play`` objects."""


def _fits(end: str) -> dict[int, tuple[Play, ...]]:
    table: dict[int, tuple[Play, ...]] = {}
    for suit in SUIT:
        members = [t.bit for t in BY_INDEX if t.bit & suit]
        for choice in range(1 << len(members)):
            mask = sum(bit for i, bit in enumerate(members) if choice >> i & 1)
            table[mask] = tuple(PLAYS[t.index][end] for t in tiles_of(mask))
    return table


FITS: tuple[dict[int, tuple[Play, ...]], ...] = tuple(_fits(end) for end in ENDS)
"""``FITS[place][hand & SUIT[n]]``: the plays of those tiles at that place, high first."""


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
