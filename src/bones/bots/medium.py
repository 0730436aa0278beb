"""Medium: the rule book's heuristics, looking only at the table and its own hand.

It sheds heavy tiles and doubles, keeps numbers it can still play, leaves open the
numbers its opponents have shown they lack (and in Kozel avoids those its partner
lacks), and in All Fives takes count points and leaves few for the next player.
"""

from __future__ import annotations

from collections.abc import Sequence

from bones.bots.base import Bot
from bones.bots.table import PublicTable, scored
from bones.moves import Move, Play
from bones.tiles import Tile
from bones.view import PlayerView

HEAVY, DOUBLE, FOLLOW, BLOCK, PARTNER, TAKE, GIVE = 1.0, 2.5, 1.5, 3.0, 2.0, 1.2, 0.4


class MediumBot(Bot):
    level = "medium"

    def pick(self, view: PlayerView) -> Move:
        table = PublicTable(view)
        unseen = view.unseen
        best: list[Move] = []
        top = float("-inf")
        for move in view.legal_moves:
            value = self.value(view, table, move, unseen)
            if value > top + 1e-9:
                best, top = [move], value
            elif abs(value - top) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)

    def value(self, view: PlayerView, table: PublicTable, move: Move,
              unseen: Sequence[Tile]) -> float:
        assert isinstance(move, Play)
        tile = move.tile
        ends, count = table.after(move)
        rest = [t for t in view.hand if t is not tile]
        value = HEAVY * tile.value + (DOUBLE if tile.is_double else 0.0)
        value += FOLLOW * sum(1 for n in set(ends) if any(t.has(n) for t in rest))
        rules, seat = view.rules, view.seat
        for other in range(rules.players):
            if other == seat:
                continue
            lacked = sum(1 for n in set(ends) if n in view.lacks[other])
            if rules.side_of(other) == rules.side_of(seat):
                value -= PARTNER * lacked
            else:
                value += BLOCK * lacked
        if rules.variant == "allfives":
            value += TAKE * scored(count)
            value -= GIVE * self._threat(ends, count, unseen)
        return value

    @staticmethod
    def _threat(ends: tuple[int, ...], count: int, unseen: Sequence[Tile]) -> float:
        """Roughly what the next player could score: the best count an unseen tile
        makes on one of these ends (every end counts its number once; close enough)."""
        best = 0
        for tile in unseen:
            for number in ends:
                if tile.has(number):
                    made = count - number + tile.other(number) * (2 if tile.is_double else 1)
                    best = max(best, scored(made))
        return best
