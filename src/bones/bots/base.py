"""The bot interface: ``choose(view) -> Move``, deterministic under a seed."""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod

from bones.moves import IllegalMove, Move
from bones.view import PlayerView


class Bot(ABC):
    """A computer player. It is handed a seat's ``PlayerView`` and nothing else."""

    level: str = ""
    thinks: bool = False
    """True where a move takes long enough (milliseconds) that a server should think in
    a worker process rather than hold up its event loop."""

    def __init__(self, seed: int | None = None) -> None:
        # Without a seed, the generator is seeded by the operating system. Not the
        # system's own generator (as a deal's shuffle is): a bot's draws shape only its
        # guesses from its own view, so they hide nothing, and that generator is one
        # system call a draw, thousands a decision (a Kozel decision of Hard's cost 21 ms
        # of CPU through it against 13 ms through this one).
        self.rng = random.Random(seed if seed is not None else secrets.randbits(128))

    def choose(self, view: PlayerView) -> Move:
        """The move to make; the view must be this seat's turn."""
        if not view.legal_moves:
            raise IllegalMove(f"seat {view.seat} has no move to make: it is not its turn")
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        return self.pick(view)

    @abstractmethod
    def pick(self, view: PlayerView) -> Move:
        """Choose among two or more legal moves."""
