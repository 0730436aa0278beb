"""The public table of a view as a kernel state, to ask what a move would do to it.

Only the seat's own hand goes in; the other hands stay empty, so nothing hidden can be
read, and the ends and All Fives' count after a move are all that is asked.
"""

from __future__ import annotations

from bones.kernel import core, encode_move, position
from bones.moves import Move, Play
from bones.view import PlayerView


class PublicTable:
    """What a move does to the ends and the count, from a view alone."""

    def __init__(self, view: PlayerView) -> None:
        hands = [view.hand if seat == view.seat else () for seat in range(view.rules.players)]
        self.view = view
        self.state = position(view.rules, hands, (), view)

    def after(self, move: Move) -> tuple[tuple[int, ...], int]:
        """The open numbers and the count once ``move`` is played (a draw or a pass
        changes neither)."""
        if not isinstance(move, Play):
            return self.view.ends, int(core.count(self.state))
        state = self.state.copy()
        core.lay(state, move.tile.index, encode_move(move) % 5)
        places = 4 if state[core.UP] >= 0 else 2
        ends = tuple(int(n) for n in state[core.ENDS:core.ENDS + places])
        return ends, int(core.count(state))


def scored(count: int) -> int:
    """All Fives: what a count scores for the player who made it."""
    return count if count > 0 and count % 5 == 0 else 0
