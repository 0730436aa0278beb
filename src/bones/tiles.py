"""Tiles of the double-six set, and the tables the engine computes with.

A tile is an unordered pair of numbers 0..6. The 28 tiles are interned: ``Tile(6, 3)``
and ``Tile(3, 6)`` return the same object, so comparing and hashing cost nothing and the
engine can keep hands as 28-bit masks, bit ``tile.index`` standing for ``tile``.

>>> Tile(6, 3) is Tile(3, 6) is Tile.parse("3-6")
True
>>> str(Tile(3, 6)), Tile(6, 3).value, Tile(6, 3).high, Tile(6, 3).low
('6-3', 9, 6, 3)
>>> len(DOUBLE_SIX), Tile(4, 4).is_double
(28, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

__all__ = ["DOUBLE_SIX", "NUMBERS", "Tile", "mask_of", "tiles_of"]

NUMBERS = range(7)
_TEXT = re.compile(r"^\s*([0-6])\s*[-|:/]\s*([0-6])\s*$")


class Tile:
    """One domino. Written high half first: ``6-3``, ``4-4``, ``0-0``.

    >>> sorted([Tile(1, 0), Tile(6, 3), Tile(0, 0), Tile(5, 4)], key=Tile.strength_key)
    [Tile(1, 0), Tile(5, 4), Tile(6, 3), Tile(0, 0)]
    """

    __slots__ = ("bit", "high", "index", "is_double", "low", "value")
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    high: int
    low: int
    index: int
    bit: int
    value: int
    is_double: bool

    def __new__(cls, a: int, b: int) -> Tile:
        try:
            return cls._interned[a, b]
        except (KeyError, TypeError):
            if len(cls._interned) == 49:  # all 28 made, both ways round (at import)
                raise ValueError(f"a tile has two numbers from 0 to 6, not {a!r} and {b!r}"
                                 ) from None
        # Made here, not in a helper: compiled (``setup.py``), only ``__new__`` may.
        high, low = a, b
        tile = object.__new__(cls)
        tile.high, tile.low = high, low
        tile.index = high * (high + 1) // 2 + low
        tile.bit = 1 << tile.index
        tile.value = high + low
        tile.is_double = high == low
        cls._interned[high, low] = cls._interned[low, high] = tile
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"6-3"`` (either order; ``|``, ``:`` and ``/`` also separate).

        >>> Tile.parse(" 2|5 ")
        Tile(5, 2)
        """
        match = _TEXT.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a tile: {text!r} (write it like '6-3')")
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def coerce(cls, tile: Tile | str) -> Tile:
        """A tile from a ``Tile`` or its text, for functions that take either."""
        return tile if isinstance(tile, Tile) else cls.parse(tile)

    @property
    def strength(self) -> tuple[int, int, int]:
        """Who opens: every double outranks every non-double; doubles rank by their
        number; non-doubles by value, then by the higher half (6-3 > 5-4)."""
        if self.is_double:
            return (1, self.high, 0)
        return (0, self.value, self.high)

    def strength_key(self) -> tuple[int, int, int]:
        """``strength`` as a method, to pass as a sort key."""
        return self.strength

    def has(self, number: int) -> bool:
        """True when one half shows ``number``."""
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The half that is not ``number`` (the same number for a double).

        >>> Tile(6, 3).other(3)
        6
        """
        if number == self.high:
            return self.low
        if number == self.low:
            return self.high
        raise ValueError(f"{self} has no {number}")

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))


DOUBLE_SIX: tuple[Tile, ...] = tuple(Tile(h, lo) for h in NUMBERS for lo in range(h + 1))
"""All 28 tiles, ordered by ``index`` (0-0, 1-0, 1-1, 2-0, ... 6-6)."""

FULL_SET = (1 << 28) - 1
BY_INDEX: tuple[Tile, ...] = DOUBLE_SIX
SUIT: tuple[int, ...] = tuple(
    sum(t.bit for t in DOUBLE_SIX if t.has(n)) for n in NUMBERS
)
"""``SUIT[n]``: the mask of the seven tiles that carry ``n``."""
DOUBLES = sum(t.bit for t in DOUBLE_SIX if t.is_double)


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles in a mask, high first (6-6, 6-5, ...), the order hands are shown in.

    >>> tiles_of(Tile(6, 3).bit | Tile(0, 0).bit)
    (Tile(6, 3), Tile(0, 0))
    """
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(BY_INDEX[top])
        mask ^= 1 << top
    return tuple(out)


def mask_of(tiles: Iterable[Tile | str]) -> int:
    """The mask of some tiles; a repeated tile is an error."""
    mask = 0
    for item in tiles:
        tile = Tile.coerce(item)
        if mask & tile.bit:
            raise ValueError(f"{tile} appears twice")
        mask |= tile.bit
    return mask


def pips(mask: int) -> int:
    """The pip total of the tiles in a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += BY_INDEX[low.bit_length() - 1].value
        mask ^= low
    return total
