"""The tiles on the table: the line with its two ends, and All Fives' spinner arms.

``Line`` is the classic layout: every tile, doubles included, has one neighbour on each
side, so there are always two open ends. ``SpinnerLine`` adds the spinner of All Fives:
the first double placed takes tiles on its two line sides first, then up and down.

>>> line = Line()
>>> line.lead(Tile(6, 3)); line.place(Tile(3, 1), RIGHT); line.place(Tile(6, 6), LEFT)
>>> [str(p) for p in line.line], line.ends
(['6|6', '6|3', '3|1'], (6, 1))
"""

from __future__ import annotations

from typing import NamedTuple

from bones.moves import ENDS
from bones.tiles import SUIT, Tile

__all__ = ["DOWN", "LEFT", "RIGHT", "UP", "Line", "Placed", "SpinnerLine"]

LEFT, RIGHT, UP, DOWN = range(4)


class Placed(NamedTuple):
    """A tile as it lies: ``a`` then ``b`` along the line (left to right), or along an
    arm from the spinner outwards."""

    tile: Tile
    a: int
    b: int

    def __str__(self) -> str:
        return f"{self.a}|{self.b}"


class Line:
    """The line of play with two open ends; ``-1`` stands for "no end" before the lead.

    Only tiles are stored: each one's orientation follows from the end it was laid on,
    and is worked out when the line is shown.
    """

    __slots__ = ("_leftward", "_rightward", "left", "right")

    def __init__(self) -> None:
        self._leftward: list[Tile] = []  # from the lead outwards to the left
        self._rightward: list[Tile] = []  # the lead, then outwards to the right
        self.left = -1
        self.right = -1

    @property
    def empty(self) -> bool:
        return self.left < 0

    def lead(self, tile: Tile) -> None:
        """Lay the first tile, high half left."""
        self._rightward.append(tile)
        self.left, self.right = tile.high, tile.low

    def number(self, place: int) -> int:
        """The number open at a place, ``-1`` where that place is not open."""
        if place == LEFT:
            return self.left
        if place == RIGHT:
            return self.right
        return -1

    def place(self, tile: Tile, place: int) -> None:
        """Lay ``tile`` at an open place it fits (the caller has checked); its other half
        becomes the new end."""
        if place == LEFT:
            self._leftward.append(tile)
            self.left = tile.value - self.left
        else:
            self._rightward.append(tile)
            self.right = tile.value - self.right

    def unplace(self, place: int) -> None:
        """Take back the last tile laid at ``place`` (the lead goes by ``undo_lead``)."""
        if place == LEFT:
            self.left = self._leftward.pop().value - self.left
        else:
            self.right = self._rightward.pop().value - self.right

    def undo_lead(self) -> None:
        """Take back the lead of an otherwise empty line."""
        self._rightward.clear()
        self.left = self.right = -1

    def open_places(self) -> tuple[tuple[int, int], ...]:
        """``(place, number)`` for every open place, in the order of ``ENDS``."""
        if self.left < 0:
            return ()
        return ((LEFT, self.left), (RIGHT, self.right))

    def playable(self) -> int:
        """The mask of tiles that fit somewhere."""
        if self.left < 0:
            return 0
        return SUIT[self.left] | SUIT[self.right]

    @property
    def line(self) -> tuple[Placed, ...]:
        """The tiles along the line, left to right, oriented."""
        if not self._rightward:
            return ()
        lead = self._rightward[0]
        left = _orient(lead.high, self._leftward)
        right = _orient(lead.low, self._rightward[1:])
        return (*(Placed(p.tile, p.b, p.a) for p in reversed(left)),
                Placed(lead, lead.high, lead.low), *right)

    @property
    def arms(self) -> dict[str, tuple[Placed, ...]]:
        """The spinner's arms, outwards; none in a classic line."""
        return {}

    @property
    def ends(self) -> tuple[int, ...]:
        return tuple(n for _, n in self.open_places())

    @property
    def places(self) -> dict[str, int]:
        return {ENDS[p]: n for p, n in self.open_places()}

    def _outer(self, place: int) -> Tile:
        if place == LEFT:
            return self._leftward[-1] if self._leftward else self._rightward[0]
        return self._rightward[-1]

    def count(self) -> int:
        """All Fives' count of the ends: the outer numbers, a double at an end counting
        both halves, a lone lead counting both its halves."""
        if self.left < 0:
            return 0
        if len(self._rightward) == 1 and not self._leftward:
            return self._rightward[0].value
        left, right = self._outer(LEFT), self._outer(RIGHT)
        return ((left.value if left.is_double else self.left)
                + (right.value if right.is_double else self.right))

    def copy(self) -> Line:
        new = type(self)()
        new._leftward = self._leftward.copy()
        new._rightward = self._rightward.copy()
        new.left, new.right = self.left, self.right
        return new


def _orient(start: int, tiles: list[Tile]) -> list[Placed]:
    """Tiles laid one after another outwards from ``start``: each touches the previous
    end with ``a`` and opens ``b``."""
    out = []
    for tile in tiles:
        out.append(Placed(tile, start, tile.value - start))
        start = tile.value - start
    return out


class SpinnerLine(Line):
    """All Fives' layout: the first double placed is the spinner; once both its line
    sides hold a tile, its arms (up and down) open too.

    >>> line = SpinnerLine()
    >>> line.lead(Tile(5, 5)); line.count()
    10
    >>> line.place(Tile(5, 1), LEFT); line.ends, line.count()
    ((1, 5), 11)
    >>> line.place(Tile(5, 0), RIGHT); line.ends, line.count()
    ((1, 0, 5, 5), 1)
    """

    __slots__ = ("_arms", "_history", "down", "spinner", "up")

    def __init__(self) -> None:
        super().__init__()
        self.spinner: Tile | None = None
        self._arms: tuple[list[Tile], list[Tile]] = ([], [])
        self.up = self.down = -1
        self._history: list[tuple[Tile | None, int, int]] = []

    def lead(self, tile: Tile) -> None:
        self._history.append((self.spinner, self.up, self.down))
        super().lead(tile)
        if tile.is_double:
            self.spinner = tile

    def number(self, place: int) -> int:
        if place == UP:
            return self.up
        if place == DOWN:
            return self.down
        return super().number(place)

    def place(self, tile: Tile, place: int) -> None:
        self._history.append((self.spinner, self.up, self.down))
        if place == UP:
            self._arms[0].append(tile)
            self.up = tile.value - self.up
        elif place == DOWN:
            self._arms[1].append(tile)
            self.down = tile.value - self.down
        else:
            super().place(tile, place)
            spinner = self.spinner
            if spinner is None:
                if tile.is_double:
                    self.spinner = tile
            elif self.up < 0 and self._outer(LEFT) is not spinner \
                    and self._outer(RIGHT) is not spinner:
                self.up = self.down = spinner.high

    def unplace(self, place: int) -> None:
        if place >= UP:
            self._arms[place - UP].pop()
        else:
            super().unplace(place)
        self.spinner, self.up, self.down = self._history.pop()

    def undo_lead(self) -> None:
        super().undo_lead()
        self.spinner, self.up, self.down = self._history.pop()

    def open_places(self) -> tuple[tuple[int, int], ...]:
        if self.up < 0:
            return super().open_places()
        return ((LEFT, self.left), (RIGHT, self.right), (UP, self.up), (DOWN, self.down))

    def playable(self) -> int:
        mask = super().playable()
        if self.up >= 0:
            mask |= SUIT[self.up] | SUIT[self.down]
        return mask

    @property
    def arms(self) -> dict[str, tuple[Placed, ...]]:
        if self.up < 0 or self.spinner is None:
            return {}
        number = self.spinner.high
        return {"up": tuple(_orient(number, self._arms[0])),
                "down": tuple(_orient(number, self._arms[1]))}

    def count(self) -> int:
        total = super().count()
        for arm, outer in zip(self._arms, (self.up, self.down), strict=True):
            if arm:
                total += arm[-1].value if arm[-1].is_double else outer
        return total

    def copy(self) -> SpinnerLine:
        new = super().copy()
        assert isinstance(new, SpinnerLine)
        new.spinner, new.up, new.down = self.spinner, self.up, self.down
        new._arms = (self._arms[0].copy(), self._arms[1].copy())
        new._history = self._history.copy()
        return new
