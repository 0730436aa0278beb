"""Round: one deal played out, with legal moves, push and pop, and the round's result.

Hands are 28-bit masks and the legal moves are interned objects, so a round is cheap to
play out and to undo; the public surface speaks in ``Tile`` and ``Move`` objects.

>>> from bones import Rules
>>> rnd = Round.from_hands(Rules.preset("draw"),
...     hands=[["6-6", "6-5", "5-5", "4-2", "3-1", "2-0", "1-0"],
...            ["6-4", "6-3", "5-4", "5-3", "4-4", "3-3", "2-2"]],
...     boneyard=["6-2", "6-1", "6-0", "5-2", "5-1", "5-0", "4-3",
...               "4-1", "4-0", "3-2", "3-0", "2-1", "1-1", "0-0"])
>>> rnd.line, rnd.turn, rnd.ends           # 6-6 was led by itself
((Placed(tile=Tile(6, 6), a=6, b=6),), 1, (6, 6))
>>> [str(m) for m in rnd.legal_moves()]
['6-4 left', '6-3 left', '6-4 right', '6-3 right']
>>> rnd.push("6-4 left"); rnd.ends
(4, 6)
>>> rnd.push("pass")
Traceback (most recent call last):
...
bones.moves.IllegalMove: seat 0 can play (4-2 left): a player who can play must
>>> str(rnd.pop()), rnd.ends
('6-4 left', (6, 6))
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, NamedTuple, overload

from bones.layout import Line, Placed, SpinnerLine
from bones.moves import (
    DRAW,
    FITS,
    PASS,
    PLAYS,
    Draw,
    IllegalMove,
    Move,
    Pass,
    Play,
    parse_move,
)
from bones.rules import Rules
from bones.scoring import RoundResult, score
from bones.tiles import BY_INDEX, DOUBLE_SIX, DOUBLES, FULL_SET, SUIT, Tile, mask_of, tiles_of
from bones.view import Lead, PlayerView, infer_lacks

__all__ = ["Deal", "Round", "opening_order", "rng_for", "shuffled", "split", "void_reason"]

_STRONGEST_FIRST = tuple(sorted(DOUBLE_SIX, key=Tile.strength_key, reverse=True))
_ONE_ONE = (Tile(1, 1),)
_DRAW_ONLY: tuple[Move, ...] = (DRAW,)
_PASS_ONLY: tuple[Move, ...] = (PASS,)


def opening_order(rules: Rules) -> tuple[Tile, ...]:
    """The tiles that may be forced to open a first round, in order: the first of them
    dealt leads it (Kozel: 1-1 alone). So no tile before a forced lead was dealt.

    >>> [str(t) for t in opening_order(Rules.preset("draw"))[:3]]
    ['6-6', '5-5', '4-4']
    """
    return _ONE_ONE if rules.variant == "kozel" else _STRONGEST_FIRST


class Deal(NamedTuple):
    """The tiles as dealt: hands (seat 0 first) and the boneyard (top first)."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"hands": [[str(t) for t in h] for h in self.hands],
                "boneyard": [str(t) for t in self.boneyard]}

    def masks(self) -> list[int]:
        """Each hand as a mask."""
        return [mask_of(h) for h in self.hands]

    @classmethod
    def check(
        cls, rules: Rules, hands: Sequence[Sequence[Tile | str]], boneyard: Sequence[Tile | str]
    ) -> Deal:
        """A deal that fits the rules: the number of hands and their size, every tile
        once, the boneyard holding the rest (or nothing, where nothing is drawn)."""
        if isinstance(hands, str) or len(hands) != rules.players:
            raise ValueError(f"{rules.variant} for {rules.players} needs {rules.players} hands")
        checked = []
        seen = 0
        for seat, hand in enumerate(hands):
            if isinstance(hand, str) or len(hand) != rules.hand_size:
                raise ValueError(f"seat {seat} must hold {rules.hand_size} tiles, "
                                 f"not {len(hand)}")
            mask = mask_of(hand)
            if mask & seen:
                raise ValueError(f"{tiles_of(mask & seen)[0]} is dealt twice")
            checked.append(tuple(Tile.coerce(t) for t in hand))
            seen |= mask
        if isinstance(boneyard, str):
            raise ValueError("the boneyard is a list of tiles")
        if not rules.draws and boneyard:
            raise ValueError(f"nothing is drawn in {rules.variant}: the boneyard must be empty")
        bone_mask = mask_of(boneyard)
        if bone_mask & seen:
            raise ValueError(f"{tiles_of(bone_mask & seen)[0]} is both in a hand and the boneyard")
        if rules.draws and bone_mask | seen != FULL_SET:
            raise ValueError(f"the boneyard must hold the {28 - seen.bit_count()} tiles not dealt, "
                             f"not {len(boneyard)}")
        return cls(tuple(checked), tuple(Tile.coerce(t) for t in boneyard))

    @classmethod
    def shuffle(cls, rules: Rules, rng: random.Random) -> Deal:
        """Shuffle the set and deal it (void Kozel deals included: see ``void_reason``)."""
        hands, rest = split(rules, shuffled(rng))
        return cls(tuple(tiles_of(h) for h in hands), tuple(BY_INDEX[i] for i in rest))


_INDICES = range(28)


def shuffled(rng: random.Random) -> list[int]:
    """The 28 tile indices in a uniformly random order.

    Sorting by 28 independent uniform keys gives every order the same chance, and costs
    a fifth of ``random.shuffle``'s time, which matters when dealing millions of rounds.
    """
    keys = [rng.random() for _ in _INDICES]
    return sorted(_INDICES, key=keys.__getitem__)


def split(rules: Rules, order: Sequence[int]) -> tuple[list[int], list[int]]:
    """Deal tile indices in ``order``: a hand's worth to each seat in turn (as masks),
    and the rest as the boneyard, top first (nothing where nothing is drawn)."""
    size = rules.hand_size
    hands = []
    for seat in range(rules.players):
        mask = 0
        for index in order[seat * size:(seat + 1) * size]:
            mask |= 1 << index
        hands.append(mask)
    return hands, list(order[rules.players * size:]) if rules.draws else []


def void_reason(rules: Rules, hands: Sequence[int]) -> str | None:
    """Why a Kozel deal must be dealt again, or ``None``: a hand with 5 or more doubles,
    or with 6 or more tiles carrying the same number."""
    if rules.variant != "kozel":
        return None
    for seat, hand in enumerate(hands):
        if (hand & DOUBLES).bit_count() >= 5:
            return f"seat {seat} holds {(hand & DOUBLES).bit_count()} doubles"
        for number, suit in enumerate(SUIT):
            if (hand & suit).bit_count() >= 6:
                return f"seat {seat} holds {(hand & suit).bit_count()} tiles with a {number}"
    return None


def rng_for(seed: int | None) -> random.Random:
    """A repeatable generator for a seed; without one, the system's secure source."""
    return random.Random(seed) if seed is not None else secrets.SystemRandom()


class Round:
    """One deal, from the lead to the domino or the block.

    Build it with :meth:`deal` or :meth:`from_hands`. ``push`` plays a move, ``pop``
    takes it back exactly; ``view(seat)`` is all a player may see.
    """

    __slots__ = (
        "_all", "_bone", "_count", "_drawn", "_hands", "_last", "_layout", "_lead", "_legal",
        "_log", "_n", "_out", "_result", "_scores", "_spin", "_target", "_turn", "rules",
    )
    rules: Rules
    _n: int
    _hands: list[int]  # a mask per seat
    _all: int  # the union of the hands
    _bone: list[int]  # tile indices, top first
    _drawn: int  # how many of _bone are drawn
    _out: int  # tiles out of play
    _spin: bool
    _layout: Line
    _count: list[int]
    _scores: tuple[int, ...]
    _target: int | None
    _log: list[tuple[int, Move, int, int, int]]  # seat, move, place or tile, extra, last
    _legal: tuple[Move, ...] | None
    _result: RoundResult | None
    _last: int
    _lead: Lead | None
    _turn: int

    def __new__(cls) -> Round:
        """An empty round for :meth:`deal`, :meth:`from_hands` and :meth:`copy` to fill
        in. Made here rather than with ``object.__new__`` in each: compiled (``setup.py``),
        only ``__new__`` may make the object."""
        return object.__new__(cls)

    # -- building ------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int | None = None,
        *,
        leader: int | None = None,
        scores: Sequence[int] | None = None,
        rng: random.Random | None = None,
    ) -> Round:
        """A shuffled deal (Kozel: dealt again until not void), led by the rules.

        ``seed`` makes the shuffle repeatable, for tests and benchmarks; without it the
        shuffle uses ``secrets.SystemRandom``. A running ``rng`` may be passed instead,
        to deal many rounds from one generator.
        """
        rng = rng if rng is not None else rng_for(seed)
        while True:
            hands, bone = split(rules, shuffled(rng))
            if rules.variant != "kozel" or void_reason(rules, hands) is None:
                return cls._build(rules, hands, bone, leader, scores)

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Tile | str]],
        boneyard: Sequence[Tile | str] = (),
        leader: int | None = None,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """A round from explicit hands (seat 0 first) and boneyard (top first).

        ``leader=None`` applies the first-round lead rule and plays that lead at once;
        a seat number lets that seat lead any tile. ``scores`` are the match scores
        before this round (All Fives' blocked rule and target need them).
        """
        deal = Deal.check(rules, hands, boneyard)
        masks = deal.masks()
        why = void_reason(rules, masks)
        if why is not None:
            raise ValueError(f"void deal: {why}; Kozel deals again")
        return cls._build(rules, masks, [t.index for t in deal.boneyard], leader, scores)

    @classmethod
    def _build(
        cls,
        rules: Rules,
        hands: list[int],
        bone: list[int],
        leader: int | None,
        scores: Sequence[int] | None,
    ) -> Round:
        self = cls()
        self.rules = rules
        self._n = rules.players
        self._hands = hands
        self._all = 0
        for hand in hands:
            self._all |= hand
        self._bone = bone
        self._drawn = 0
        out = FULL_SET & ~self._all
        for index in bone:
            out ^= 1 << index
        self._out = out
        self._spin = rules.spinner
        self._layout = SpinnerLine() if rules.spinner else Line()
        self._count = [0] * self._n
        if scores is None:
            scores = (0,) * rules.sides
        if len(scores) != rules.sides or not all(type(s) is int for s in scores):
            raise ValueError(f"scores must be {rules.sides} whole numbers, one per side")
        self._scores = tuple(scores)
        self._target = rules.target if rules.variant == "allfives" else None
        self._log = []
        self._legal = None
        self._result = None
        self._last = -1
        self._lead = None
        if leader is None:
            seat, tile = self._opening()
            self._lead = Lead(seat, tile, True)
            self._turn = seat
            self._apply_play(seat, PLAYS[tile.index][None])
        elif type(leader) is int and 0 <= leader < self._n:
            self._turn = leader
        else:
            raise ValueError(
                f"leader must be None or a seat from 0 to {self._n - 1}, not {leader!r}")
        self._log.clear()  # the automatic lead is part of the deal, not a move
        return self

    def _opening(self) -> tuple[int, Tile]:
        """The forced first lead: Kozel's 1-1, else the strongest tile dealt."""
        for tile in opening_order(self.rules):
            if self._all & tile.bit:
                return self._holder(tile), tile
        raise ValueError("no tile was dealt")

    def _holder(self, tile: Tile) -> int:
        return next(s for s, h in enumerate(self._hands) if h & tile.bit)

    # -- reading -------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to move; ``None`` once the round is over."""
        return None if self._result is not None else self._turn

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every hand, high tiles first: the whole truth, for the round's owner only."""
        return tuple(tiles_of(h) for h in self._hands)

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles left to draw, top first."""
        return tuple(BY_INDEX[i] for i in self._bone[self._drawn:])

    @property
    def boneyard_order(self) -> tuple[Tile, ...]:
        """The boneyard as it stands ordered now, the tiles drawn so far first: what the
        round was dealt, once :meth:`reorder_boneyard` has changed the tiles left."""
        return tuple(BY_INDEX[i] for i in self._bone)

    def reorder_boneyard(self, order: Sequence[Tile | str]) -> None:
        """Put the tiles left to draw in a new order, top first. A server does this when
        a player takes back a draw, so that the player cannot know what comes next.

        >>> from bones import Rules
        >>> rnd = Round.deal(Rules.preset("draw"), seed=3)
        >>> rnd.reorder_boneyard(rnd.boneyard[::-1])
        >>> rnd.reorder_boneyard(["6-6"])
        Traceback (most recent call last):
        ...
        ValueError: a new order holds exactly the 14 tiles left to draw
        """
        tiles = [Tile.coerce(t).index for t in order]
        left = self._bone[self._drawn:]
        if sorted(tiles) != sorted(left):  # the tiles left are all different
            raise ValueError(f"a new order holds exactly the {len(left)} tiles left to draw")
        self._bone = self._bone[:self._drawn] + tiles  # a new list: copies share the old

    @property
    def out_of_play(self) -> tuple[Tile, ...]:
        """Tiles the block game never deals (never seen, never counted)."""
        return tiles_of(self._out)

    @property
    def line(self) -> tuple[Placed, ...]:
        """The placed tiles along the line, left to right, oriented."""
        return self._layout.line

    @property
    def arms(self) -> dict[str, tuple[Placed, ...]]:
        """All Fives: the spinner's open arms (``up``, ``down``), outwards."""
        return self._layout.arms

    @property
    def spinner(self) -> Tile | None:
        """All Fives: the first double placed, once there is one."""
        return self._layout.spinner if isinstance(self._layout, SpinnerLine) else None

    @property
    def ends(self) -> tuple[int, ...]:
        """Open numbers: left, right, then the spinner's up and down once open."""
        return self._layout.ends

    @property
    def places(self) -> dict[str, int]:
        """Each open place and its number, e.g. ``{"left": 6, "right": 3}``."""
        return self._layout.places

    @property
    def count(self) -> int:
        """All Fives' count: the sum of the open ends as the rules count them."""
        return self._layout.count()

    @property
    def count_points(self) -> tuple[int, ...]:
        """Per seat: All Fives points scored during this deal (zeros elsewhere)."""
        return tuple(self._count)

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores per side before this round."""
        return self._scores

    @property
    def lead(self) -> Lead | None:
        """Who led which tile, and whether the rules forced it."""
        return self._lead

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move pushed, in order (the automatic lead is part of the deal)."""
        return tuple(entry[1] for entry in self._log)

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        """The public record of moves: ``(seat, "6-3 right" | "draw" | "pass")``."""
        return tuple((entry[0], str(entry[1])) for entry in self._log)

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> RoundResult | None:
        return self._result

    def hand_count(self, seat: int) -> int:
        return self._hands[seat].bit_count()

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: plays (a tile fitting two places is listed once per place),
        else ``[Draw()]`` or ``[Pass()]``; ``[]`` once the round is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> tuple[Move, ...]:
        if self._result is not None:
            return ()
        hand = self._hands[self._turn]
        layout = self._layout
        if layout.left < 0:
            return tuple(PLAYS[t.index][None] for t in tiles_of(hand))
        if self._spin:
            moves: tuple[Move, ...] = ()
            for place, number in layout.open_places():
                moves += FITS[place][hand & SUIT[number]]
        else:
            moves = FITS[0][hand & SUIT[layout.left]] + FITS[1][hand & SUIT[layout.right]]
        if moves:
            return moves
        if self._drawn < len(self._bone):
            return _DRAW_ONLY
        return _PASS_ONLY

    def forced(self) -> Move | None:
        """The move the rules force (a lone ``Draw()`` or ``Pass()``), else ``None``."""
        legal = self._legal if self._legal is not None else self.legal_moves()
        if len(legal) == 1 and type(legal[0]) is not Play:
            return legal[0]
        return None

    # A move comes from players' and programs' input, so the two below take any object
    # and answer a wrong one with ``IllegalMove`` (compiled, a narrower type would be
    # checked first, with a ``TypeError``); their overloads keep callers' types checked.

    @overload
    def is_legal(self, move: Move) -> bool: ...
    @overload
    def is_legal(self, move: str) -> bool: ...
    def is_legal(self, move: object) -> bool:
        try:
            self._check(move)
        except IllegalMove:
            return False
        return True

    @overload
    def push(self, move: Move) -> None: ...
    @overload
    def push(self, move: str) -> None: ...
    def push(self, move: object) -> None:
        """Play a move given as a ``Move`` or as text (``"6-3 right"``, ``"6-3"``,
        ``"draw"``, ``"pass"``). An illegal, ambiguous or unreadable move raises
        ``IllegalMove`` and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if move not in legal:
            move = self._check(move)
        seat = self._turn
        kind = type(move)
        if kind is Play:
            assert isinstance(move, Play)
            if move.place < 0:
                self._lead = Lead(seat, move.tile, False)
            self._apply_play(seat, move)
        elif kind is Draw:
            opened = self._open_numbers()
            index = self._bone[self._drawn]
            self._drawn += 1
            self._hands[seat] |= 1 << index
            self._all |= 1 << index
            self._log.append((seat, move, index, opened, self._last))
            if self._drawn == len(self._bone) and not self._all & self._layout.playable():
                self._end("blocked")
        else:
            self._log.append((seat, move, -1, self._open_numbers(), self._last))
            self._turn = (seat + 1) % self._n
        self._legal = None

    def _apply_play(self, seat: int, move: Play) -> None:
        tile = move.tile
        place = move.place
        layout = self._layout
        if place < 0:
            layout.lead(tile)
        else:
            layout.place(tile, place)
        hand = self._hands[seat] ^ tile.bit
        self._hands[seat] = hand
        self._all ^= tile.bit
        scored = 0
        if self._spin:
            count = layout.count()
            if count and count % 5 == 0:
                scored = count
                self._count[seat] += count
        self._log.append((seat, move, place, scored, self._last))
        self._last = seat
        self._turn = seat + 1 if seat + 1 < self._n else 0
        if scored and self._target is not None \
                and self._scores[seat] + self._count[seat] >= self._target:
            self._end("target")
        elif not hand:
            self._end("domino")
        elif self._drawn == len(self._bone) and not self._all & layout.playable():
            self._end("blocked")

    def _end(self, reason: str) -> None:
        standing = [s + c for s, c in zip(self._scores, self._count, strict=False)]
        self._result = score(self.rules, reason, self._hands, self._last, standing)

    def _open_numbers(self) -> int:
        mask = 0
        for _, number in self._layout.open_places():
            mask |= 1 << number
        return mask

    def pop(self) -> Move:
        """Take back the last move exactly; ``IndexError`` when there is none (the
        automatic lead is part of the deal)."""
        if not self._log:
            raise IndexError("no move to take back")
        seat, move, where, extra, last = self._log.pop()
        if type(move) is Play:
            assert isinstance(move, Play)
            if where < 0:
                self._layout.undo_lead()
                self._lead = None
            else:
                self._layout.unplace(where)
            self._hands[seat] |= move.tile.bit
            self._all |= move.tile.bit
            self._count[seat] -= extra
            self._last = last
        elif type(move) is Draw:
            self._drawn -= 1
            self._hands[seat] ^= 1 << where
            self._all ^= 1 << where
        self._turn = seat
        self._result = None
        self._legal = None
        return move

    # -- explaining illegal moves --------------------------------------------------------

    def _check(self, move: object) -> Move:
        """The legal move meant by ``move``, or ``IllegalMove`` saying why there is none."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, (Play, Draw, Pass)):
            raise IllegalMove(f"a move is a Play, Draw, Pass or text, not {type(move).__name__}")
        if self._result is not None:
            raise IllegalMove("the round is over")
        legal = self._generate()
        if move in legal:
            return legal[legal.index(move)]
        seat = self._turn
        plays = [m for m in legal if isinstance(m, Play)]
        if isinstance(move, Play):
            return self._check_play(seat, move, plays)
        if plays:
            raise IllegalMove(f"seat {seat} can play ({plays[0]}): a player who can play must")
        if isinstance(move, Draw):
            if not self.rules.draws:
                raise IllegalMove(f"nothing is drawn in {self.rules.variant}: pass")
            raise IllegalMove("the boneyard is empty: pass")
        raise IllegalMove(f"seat {seat} must draw: the boneyard still holds "
                          f"{len(self._bone) - self._drawn} tiles")

    def _check_play(self, seat: int, move: Play, plays: list[Play]) -> Move:
        tile = move.tile
        if not self._hands[seat] & tile.bit:
            raise IllegalMove(f"seat {seat} does not hold {tile}")
        if self._layout.empty:
            raise IllegalMove(f"{tile} leads the round: push '{tile}' without an end")
        if move.end is None:
            mine = [m for m in plays if m.tile is tile]
            if len(mine) == 1:
                return mine[0]
            if mine:
                names = " and ".join(str(m.end) for m in mine)
                raise IllegalMove(f"{tile} fits {names}: say where, e.g. '{mine[0]}'")
            raise IllegalMove(f"{tile} fits no open end ({self._describe_places()})")
        number = self._layout.number(move.place)
        if number < 0:
            raise IllegalMove(f"{move.end} is not open ({self._describe_places()})")
        if not tile.has(number):
            raise IllegalMove(f"{tile} does not fit {move.end}, which shows {number}")
        raise IllegalMove(f"{move} is not a legal move here")  # pragma: no cover

    def _describe_places(self) -> str:
        return ", ".join(f"{end} {n}" for end, n in self.places.items())

    # -- views and copies ----------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand and everything public."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise ValueError(f"no seat {seat!r} at a table of {self._n}")
        events = [(s, str(m), extra) for s, m, _, extra, _ in self._log if type(m) is not Play]
        turn = self.turn
        drawing = turn if self._log and type(self._log[-1][1]) is Draw else None
        standing = list(self._scores)
        if self._spin:
            for s, points in enumerate(self._count):
                standing[self.rules.side_of(s)] += points
        return PlayerView(
            seat=seat,
            rules=self.rules,
            hand=tiles_of(self._hands[seat]),
            line=self._layout.line,
            arms=self._layout.arms,
            spinner=self.spinner,
            ends=self._layout.ends,
            places=self._layout.places,
            hand_counts=tuple(h.bit_count() for h in self._hands),
            boneyard_count=len(self._bone) - self._drawn,
            turn=turn,
            lead=self._lead,
            history=self.history,
            count_points=tuple(self._count),
            scores=tuple(standing),
            legal_moves=tuple(self.legal_moves()) if turn == seat else (),
            lacks=infer_lacks(self._n, events, drawing),
            is_over=self._result is not None,
            result=self._result,
            count=self._layout.count() if self._spin and self._layout.line else None,
        )

    def rewound(self, moves: int) -> Round:
        """A copy taken back to how it stood after its first ``moves`` moves.

        >>> from bones import Rules
        >>> rnd = Round.deal(Rules.preset("block"), seed=1)
        >>> rnd.push(rnd.legal_moves()[0]); rnd.push(rnd.legal_moves()[0])
        >>> len(rnd.rewound(1).moves), len(rnd.moves)
        (1, 2)
        """
        if not 0 <= moves <= len(self._log):
            raise ValueError(f"no position after {moves} moves: {len(self._log)} were played")
        earlier = self.copy()
        while len(earlier._log) > moves:
            earlier.pop()
        return earlier

    def copy(self) -> Round:
        """An independent copy, undo history included."""
        new = Round()
        new.rules, new._n, new._spin, new._target = self.rules, self._n, self._spin, self._target
        new._hands, new._all, new._out = self._hands.copy(), self._all, self._out
        new._bone, new._drawn = self._bone, self._drawn
        new._layout, new._count = self._layout.copy(), self._count.copy()
        new._scores, new._log, new._legal = self._scores, self._log.copy(), None
        new._result, new._last, new._lead, new._turn = (self._result, self._last, self._lead,
                                                        self._turn)
        return new

    def state_key(self) -> tuple[Any, ...]:
        """Everything that defines the position, for comparing two rounds."""
        return (
            self.rules, tuple(self._hands), tuple(self._bone), self._drawn, self._out,
            self._layout.line, tuple(self._layout.arms.items()), self.turn, tuple(self._count),
            self._scores, self._lead, self.history, self._result, self._last,
        )

    def __repr__(self) -> str:
        state = f"over: {self._result}" if self._result else f"turn {self._turn}"
        line = " ".join(str(p) for p in self._layout.line)
        return f"<Round {self.rules.variant} [{line}] {state}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Round) and self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]

