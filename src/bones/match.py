"""Match: rounds played to the target — who leads next, the running score, Kozel's eggs,
its 13 rule and the goat — or to a player's forfeit (resigned, out of time, gone).

>>> from bones import Rules
>>> match = Match(Rules.preset("draw", target=None), seed=3)
>>> while not match.is_over:
...     match.push(match.round.legal_moves()[0])
>>> len(match.results), match.winner == match.results[0].winner
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bones.moves import IllegalMove, Move
from bones.round import Deal, Round, rng_for, void_reason
from bones.rules import Rules
from bones.scoring import RoundResult
from bones.tiles import Tile

__all__ = ["FORFEITS", "Forfeit", "Match", "write_penalty"]

DealLike = Deal | Mapping[str, Sequence[Any]]
FORFEITS = ("resigned", "time", "absent")
"""How a player can give a match up: they resigned, their clock ran out, or they left
and the others claimed the match."""


@dataclass(frozen=True)
class Forfeit:
    """The player of ``seat`` gave the match up (``how``: one of :data:`FORFEITS`).

    >>> Forfeit(1, "time").to_dict()
    {'seat': 1, 'how': 'time'}
    """

    seat: int
    how: Literal["resigned", "time", "absent"]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "how": self.how}


def write_penalty(
    scores: Sequence[int], result: RoundResult, eggs: int
) -> tuple[list[int], int]:
    """Kozel's scores and carried eggs after a round.

    The losing pair writes its penalty plus the eggs, unless it is still at 0 and that
    sum is below 13 (the eggs are spent either way); a tied fish lays its pips as eggs.

    >>> tie = RoundResult(None, "blocked", (0, 0), 8)
    >>> write_penalty([0, 0], tie, 2)
    ([0, 0], 10)
    >>> write_penalty([0, 0], RoundResult(0, "domino", (0, 2)), 10)   # 12: not written
    ([0, 0], 0)
    >>> write_penalty([0, 0], RoundResult(0, "domino", (0, 3)), 10)   # 13: written
    ([0, 13], 0)
    """
    scores = list(scores)
    if result.winner is None:
        return scores, eggs + result.eggs
    loser = 1 - result.winner
    penalty = result.points[loser] + eggs
    if scores[loser] > 0 or penalty >= 13:
        scores[loser] += penalty
    return scores, 0


class Match:
    """Rounds to the target. A finished round starts the next one by itself.

    ``scores`` run per side (All Fives' count points count at once; Kozel's are
    penalties). ``winner`` is the winning side; Kozel also names the ``loser`` (the
    goat) and whether the win was a ``shutout``.
    """

    def __init__(self, rules: Rules, seed: int | None = None) -> None:
        self._setup(rules, rng_for(seed), ())

    @classmethod
    def from_deals(
        cls,
        rules: Rules,
        deals: Iterable[DealLike],
        seed: int | None = None,
        *,
        leader: int | None = None,
        wait: bool = False,
    ) -> Match:
        """A match whose rounds use ``deals`` first, in order (each a ``Deal`` or
        ``{"hands": ..., "boneyard": ...}``; a void Kozel deal is skipped as a redeal),
        then random deals from ``seed``. ``deals`` is read as the match needs them, so it
        may be a generator without end (``bones.fair.FairDeck.deals``).

        ``leader`` lets that seat lead the first round with any tile instead of the
        rules' opening (OpenSpiel's block game starts so). With ``wait``, a match whose
        ``deals`` run out does not shuffle: it stands ``waiting`` until :meth:`give`
        hands it the next deal, so that a caller can deal tile by tile (the OpenSpiel
        bridge's chance nodes).

        >>> from bones import Rules
        >>> match = Match.from_deals(Rules.preset("block", target=None), [], wait=True)
        >>> match.waiting, match.rounds
        (True, [])
        >>> match.give(Deal.shuffle(match.rules, random.Random(5)))
        >>> match.waiting, len(match.rounds)
        (False, 1)
        """
        match = object.__new__(cls)
        match._setup(rules, rng_for(seed), deals, leader, wait)
        return match

    def _setup(
        self,
        rules: Rules,
        rng: random.Random,
        deals: Iterable[DealLike],
        leader: int | None = None,
        wait: bool = False,
    ) -> None:
        self.rules = rules
        self._rng = rng
        self._wait = wait
        self._given: Iterator[DealLike] = iter(deals)
        self.waiting = False
        """True while a match made with ``wait`` needs :meth:`give` to deal on."""
        self._leader: int | None = None
        self.deals: list[tuple[Deal, str | None]] = []
        """Every deal so far with the reason it was void (Kozel redeals), else None."""
        self.rounds: list[Round] = []
        self.results: list[RoundResult] = []
        self.scores_after: list[tuple[int, ...]] = []
        """The score per side after each finished round."""
        self._committed = [0] * rules.sides
        self.eggs = 0
        """Kozel: pips of tied fishes waiting for the pair that loses the next round."""
        self.winner: int | None = None
        self.loser: int | None = None
        self.shutout = False
        self.is_over = False
        self.forfeit: Forfeit | None = None
        """Who gave the match up, and how, if it ended so (see :meth:`resign`)."""
        self._start(leader)

    # -- reading -------------------------------------------------------------------------

    @property
    def round(self) -> Round:
        """The round being played (the last one, once the match is over)."""
        return self.rounds[-1]

    @property
    def scores(self) -> tuple[int, ...]:
        """The running score per side, this deal's All Fives count points included (none
        while the match waits for a deal: the last round's are committed already)."""
        scores = list(self._committed)
        if not self.is_over and not self.waiting and self.rules.variant == "allfives":
            for seat, points in enumerate(self.round.count_points):
                scores[seat] += points
        return tuple(scores)

    # -- playing -------------------------------------------------------------------------

    def push(self, move: Move | str) -> None:
        """Play a move in the current round; a round that ends starts the next."""
        if self.is_over:
            raise IllegalMove("the match is over")
        if self.waiting:
            raise IllegalMove("the match waits for its next deal")
        self.round.push(move)
        self._settle()

    def give(self, deal: DealLike) -> None:
        """The next deal of a match that is ``waiting`` (see :meth:`from_deals`); a void
        Kozel deal is recorded and the match waits again."""
        if not self.waiting:
            raise ValueError("the match is not waiting for a deal")
        self._given = iter([deal])
        self.waiting = False
        self._start(self._leader)

    def resign(self, seat: int, how: str = "resigned") -> None:
        """The player of ``seat`` gives the match up, in the middle of a round or between
        deals: it ends at once. Their side loses; with two sides the other side wins
        (Kozel: ``seat``'s pair is the goat); with three or four players the winner is
        the best score among the others (none on a tie), and ``seat`` ranks last. The
        round under way is not finished: it has no result, but All Fives' count points
        already made stand, as they count at once.

        >>> from bones import Rules
        >>> match = Match(Rules.preset("kozel"), seed=2)
        >>> match.resign(3)
        >>> match.is_over, match.winner, match.loser, match.forfeit
        (True, 0, 1, Forfeit(seat=3, how='resigned'))
        """
        if self.is_over:
            raise IllegalMove("the match is over")
        if how not in FORFEITS:
            raise ValueError(f"a match is given up as one of {', '.join(FORFEITS)}, not {how!r}")
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat!r} in a game of {self.rules.players}")
        self._committed = list(self.scores)
        self.forfeit = Forfeit(seat, how)  # type: ignore[arg-type]
        self.is_over = True
        side = self.rules.side_of(seat)
        if self.rules.sides == 2:
            self.winner = 1 - side
            self.loser = side if self.rules.variant == "kozel" else None
            return
        rest = [s for s in range(self.rules.sides) if s != side]
        best = max(self._committed[s] for s in rest)
        leaders = [s for s in rest if self._committed[s] == best]
        self.winner = leaders[0] if len(leaders) == 1 else None

    def _settle(self) -> None:
        while self.round.is_over and not self.is_over and not self.waiting:
            self._finish(self.round)
            if not self.is_over:
                self._start(self._next_leader())

    def _start(self, leader: int | None) -> None:
        while True:
            deal = self._next_deal()
            if deal is None:
                self.waiting, self._leader = True, leader
                return
            why = void_reason(self.rules, deal.masks())
            self.deals.append((deal, why))
            if why is None:
                break
        self.rounds.append(Round.from_hands(
            self.rules, deal.hands, deal.boneyard, leader=leader, scores=tuple(self._committed)
        ))
        self._settle()

    def _next_deal(self) -> Deal | None:
        given = next(self._given, None)
        if given is None:
            return None if self._wait else Deal.shuffle(self.rules, self._rng)
        if isinstance(given, Deal):
            return Deal.check(self.rules, given.hands, given.boneyard)
        try:
            return Deal.check(self.rules, given["hands"], given.get("boneyard", ()))
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"a deal is an object with hands and a boneyard ({error})") from None

    def _next_leader(self) -> int | None:
        last = self.results[-1]
        variant = self.rules.variant
        if variant == "kozel":
            return last.ended_by
        if variant == "allfives" or self.rules.opening_every_round:
            return None
        return last.winner

    def _finish(self, rnd: Round) -> None:
        result = rnd.result
        assert result is not None
        self.results.append(result)
        if self.rules.variant == "kozel":
            self._committed, self.eggs = write_penalty(self._committed, result, self.eggs)
        else:
            for seat, points in enumerate(rnd.count_points):
                self._committed[seat] += points
            for side, points in enumerate(result.points):
                self._committed[side] += points
        self.scores_after.append(tuple(self._committed))
        self._decide(result)

    def _decide(self, result: RoundResult) -> None:
        target = self.rules.target
        scores = self._committed
        if self.rules.variant == "kozel":
            over = [side for side, s in enumerate(scores) if target is not None and s > target]
            if over or target is None:
                self.is_over = True
                self.loser = over[0] if over else (
                    None if result.winner is None else 1 - result.winner)
                self.winner = None if self.loser is None else 1 - self.loser
                self.shutout = self.winner is not None and scores[self.winner] == 0
            return
        if result.reason == "target":
            self.is_over, self.winner = True, result.winner
        elif target is None:
            self.is_over = True
            self.winner = result.winner
            if self.rules.variant == "allfives":  # count points may outweigh the award
                best = max(scores)
                self.winner = scores.index(best) if scores.count(best) == 1 else None
        elif max(scores) >= target:
            self.is_over, self.winner = True, scores.index(max(scores))

    # -- the record ----------------------------------------------------------------------

    def reorder_boneyard(self, order: Sequence[Tile | str]) -> None:
        """:meth:`Round.reorder_boneyard` on the round being played; the record's deal
        of that round then lists the boneyard in the order its tiles were drawn."""
        rnd = self.round
        rnd.reorder_boneyard(order)
        deal, void = self.deals[-1]
        self.deals[-1] = (Deal(deal.hands, rnd.boneyard_order), void)

    def record(self) -> dict[str, Any]:
        """The game as JSON-ready data: rules, every deal, every move, every result.
        ``Match.from_record`` replays it and checks it."""
        from bones.record import to_record

        return to_record(self)

    @classmethod
    def from_record(cls, data: Any) -> Match:
        """Replay a record, checking every move and result; ``RecordError`` names the
        first problem."""
        from bones.record import from_record

        return from_record(data)

    def __repr__(self) -> str:
        state = f"winner {self.winner}" if self.is_over else f"round {len(self.rounds)}"
        return f"<Match {self.rules.variant} {list(self.scores)} {state}>"
