"""The rollout kernel: rounds played to the end at native speed, in batches.

Bots buy strength with simulations. The kernel holds a position as one int64 vector and
plays it out, many times over, in compiled code; ``bones.round`` stays the readable
reference, and a differential test plays both side by side.

>>> from bones import Round, Rules
>>> rnd = Round.deal(Rules.preset("kozel"), seed=3)
>>> points = playouts([encode(rnd)], repeats=1000, policy="heuristic", seed=1)
>>> points.shape                      # one position, 1000 playouts, 2 sides
(1, 1000, 2)
>>> bool((points >= 0).all())         # Kozel's penalties are never negative
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from bones.kernel import core, solve, tree
from bones.moves import DRAW, PASS, PLAYS, Draw, Move, Play
from bones.round import Round
from bones.rules import Rules
from bones.tiles import Tile, mask_of
from bones.view import PlayerView

__all__ = ["POLICIES", "dealt", "decode_move", "encode", "encode_move", "evaluate", "ismcts",
           "playouts", "position", "public", "random_rounds", "successors", "template"]

POLICIES = {"random": core.RANDOM, "heuristic": core.HEURISTIC}
VARIANTS = {"draw": core.DRAW_GAME, "block": core.BLOCK_GAME, "kozel": core.KOZEL,
            "allfives": core.ALLFIVES}
REASONS = ("domino", "blocked", "target")


def template(rules: Rules, scores: Sequence[int] | None = None) -> np.ndarray:
    """An empty table for these rules: no hands, no line, the match scores set."""
    s = np.zeros(core.SIZE, dtype=np.int64)
    s[core.PLAYERS] = rules.players
    s[core.VARIANT] = VARIANTS[rules.variant]
    s[core.TARGET] = rules.target if rules.target and rules.variant != "kozel" else -1
    s[core.OTHERS_ONLY] = rules.blocked_scoring == "others"
    for slot in (core.LEFT, core.RIGHT, core.SPIN, core.UP, core.DOWN, core.LAST, core.WINNER):
        s[slot] = -1
    for side, score in enumerate(scores or ()):
        s[core.SCORES + side] = score
    return s


def position(
    rules: Rules,
    hands: Sequence[Iterable[Tile | str]],
    boneyard: Sequence[Tile | str],
    table: Round | PlayerView,
) -> np.ndarray:
    """A state from hands and a boneyard (the truth, or a determinization of it) and the
    public table of a ``Round`` or a ``PlayerView``: line, arms, spinner, turn, count
    points and scores."""
    masks = np.array([[mask_of(hand) for hand in hands]], dtype=np.int64)
    indices = np.array([[Tile.coerce(tile).index for tile in boneyard]], dtype=np.int64)
    return dealt(public(rules, table), masks, indices)[0]


def public(rules: Rules, table: Round | PlayerView) -> np.ndarray:
    """The state of the public table of a ``Round`` or a ``PlayerView`` (line, arms,
    spinner, turn, count points and scores) with nothing in any hand or the boneyard:
    what ``dealt`` fills, once for the many deals a bot plays out."""
    scores = list(table.scores)
    if isinstance(table, PlayerView) and rules.variant == "allfives":
        scores = [s - c for s, c in zip(scores, table.count_points, strict=True)]  # standing
    s = template(rules, scores)
    s[core.TURN] = -1 if table.turn is None else table.turn
    s[core.COUNT:core.COUNT + len(table.count_points)] = table.count_points
    _lay_table(s, table)
    s[core.LAST] = _last_placer(table)
    return s


def dealt(table: np.ndarray, hands: np.ndarray, boneyards: np.ndarray) -> np.ndarray:
    """A state a deal: ``table`` (from ``public``) with row ``i`` of ``hands`` (a tile
    mask a seat) and of ``boneyards`` (tile indices, the top first) dealt into it.

    >>> from bones import Round, Rules
    >>> rnd = Round.deal(Rules.preset("draw", players=2), seed=3)
    >>> hands = np.array([[mask_of(h) for h in rnd.hands]])
    >>> bones = np.array([[t.index for t in rnd.boneyard]])
    >>> bool((dealt(public(rnd.rules, rnd), hands, bones)[0] == encode(rnd)).all())
    True
    """
    out = np.repeat(table[np.newaxis], len(hands), axis=0)
    out[:, core.HANDS:core.HANDS + hands.shape[1]] = hands
    out[:, core.ALL] = np.bitwise_or.reduce(hands, axis=1)
    out[:, core.BONE_COUNT] = boneyards.shape[1]
    out[:, core.BONE:core.BONE + boneyards.shape[1]] = boneyards
    return out


def _lay_table(s: np.ndarray, table: Round | PlayerView) -> None:
    line = table.line
    if not line:
        return
    s[core.LEFT], s[core.RIGHT] = line[0].a, line[-1].b
    s[core.LEFT_DOUBLE] = line[0].tile.is_double
    s[core.RIGHT_DOUBLE] = line[-1].tile.is_double
    s[core.LINE] = len(line)
    spinner = table.spinner
    if spinner is not None:
        s[core.SPIN] = spinner.high
        s[core.SPIN_LEFT] = line[0].tile is spinner
        s[core.SPIN_RIGHT] = line[-1].tile is spinner
    for arm, slots in table.arms.items():
        end, tiles_slot, double_slot = _ARM_SLOTS[arm]
        s[end] = table.places[arm]
        s[tiles_slot] = len(slots)
        s[double_slot] = bool(slots) and slots[-1].tile.is_double


_ARM_SLOTS = {"up": (core.UP, core.UP_TILES, core.UP_DOUBLE),
              "down": (core.DOWN, core.DOWN_TILES, core.DOWN_DOUBLE)}


def _last_placer(table: Round | PlayerView) -> int:
    for seat, move in reversed(table.history):
        if move not in ("draw", "pass"):
            return seat
    return -1 if table.lead is None else table.lead.seat


def encode(rnd: Round) -> np.ndarray:
    """The state of a round in play: its whole truth, for the round's owner."""
    if rnd.is_over:
        raise ValueError("the round is over: there is nothing to play out")
    return position(rnd.rules, rnd.hands, rnd.boneyard, rnd)


def encode_move(move: Move) -> int:
    """The kernel's code of a move."""
    if isinstance(move, Play):
        return move.tile.index * 5 + (core.LEAD if move.place < 0 else move.place)
    return core.DRAW_CODE if isinstance(move, Draw) else core.PASS_CODE


def decode_move(code: int) -> Move:
    """The move of a kernel code."""
    if code == core.DRAW_CODE:
        return DRAW
    if code == core.PASS_CODE:
        return PASS
    tile, place = divmod(int(code), 5)
    return PLAYS[tile][None if place == core.LEAD else ("left", "right", "up", "down")[place]]


def playouts(
    states: Sequence[np.ndarray] | np.ndarray,
    repeats: int = 1,
    policy: str = "random",
    seed: int | None = None,
) -> np.ndarray:
    """Play each state to the end of its round ``repeats`` times with ``policy``
    ("random" or "heuristic"). Returns ``points[state, repeat, side]``: the award, plus
    All Fives' count points of the deal (Kozel: the raw penalty)."""
    batch = _batch(states)
    sides = 2 if (batch[:, core.VARIANT] == core.KOZEL).any() else int(batch[:, core.PLAYERS].max())
    out = np.zeros((batch.shape[0], repeats, sides), dtype=np.int64)
    core.playouts(batch, repeats, _policy(policy), sides, _seed(seed), out)
    return out


def successors(states: Sequence[np.ndarray] | np.ndarray, moves: Sequence[Move]) -> np.ndarray:
    """Each state after each of ``moves`` (legal in every one of them): one row per
    state and move, state by state, the moves in their order.

    >>> from bones import Round, Rules
    >>> rnd = Round.deal(Rules.preset("draw", players=2), seed=3)
    >>> after = successors([encode(rnd)], rnd.legal_moves())
    >>> after.shape == (len(rnd.legal_moves()), core.SIZE)
    True
    """
    batch = _batch(states)
    codes = np.array([encode_move(m) for m in moves], dtype=np.int64)
    out = np.empty((batch.shape[0] * len(codes), core.SIZE), dtype=np.int64)
    core.successors(batch, codes, out)
    return out


def evaluate(
    states: Sequence[np.ndarray] | np.ndarray,
    side: int,
    repeats: int = 4,
    policy: str = "heuristic",
    budget: int = 0,
    win_bonus: float = 0.0,
    seed: int | None = None,
    solvable: int = 16,
    match_bonus: float = 0.0,
) -> np.ndarray:
    """Each state's value for ``side``: its points minus the other sides' mean (Kozel's
    penalties the other way), plus ``win_bonus`` for winning the round (minus it when
    another side wins) and ``match_bonus`` for a round that wins the match (minus it
    when it makes another side the winner; not in Kozel); exact by alpha-beta where at
    most ``solvable`` tiles are left and a search of at most ``budget`` positions settles
    it, else averaged over ``repeats`` playouts."""
    batch = _batch(states)
    out = np.zeros(batch.shape[0])
    solve.evaluate(batch, side, repeats, _policy(policy), budget, solvable, win_bonus,
                   _seed(seed), out, match_bonus)
    return out


def ismcts(
    deals: Sequence[np.ndarray] | np.ndarray,
    moves: Sequence[Move],
    iterations: int,
    c: float = 0.7,
    policy: str = "heuristic",
    win_bonus: float = 0.0,
    match_bonus: float = 0.0,
    scale: float = 30.0,
    seed: int | None = None,
) -> tuple[list[int], list[float]]:
    """Information-set search from one seat's position with two or more legal ``moves``,
    walked in ``deals`` (states of that position with the hidden tiles dealt, taken in
    turn): for each move, its visits and its mean reward (the margin ``evaluate``
    counts, over ``scale``). The most visited move is the search's choice.

    >>> from bones import Round, Rules
    >>> rnd = Round.deal(Rules.preset("block", players=2), seed=3)
    >>> visits, values = ismcts([encode(rnd)], rnd.legal_moves(), 500, seed=1)
    >>> sum(visits)                   # the first iteration finds the root
    499
    """
    if len(moves) < 2:
        raise ValueError("a search needs two or more moves to choose from")
    _, nodes, codes, seen, totals = tree.search(
        _batch(deals), iterations, c, _policy(policy), win_bonus, match_bonus, scale,
        _seed(seed))
    first, count = int(nodes[tree.FIRST, 0]), int(nodes[tree.COUNT, 0])
    stats = {int(codes[e]): (int(seen[e]), float(totals[e])) for e in range(first, first + count)}
    out = [stats[encode_move(m)] for m in moves]
    return [v for v, _ in out], [total / v if v else 0.0 for v, total in out]


def random_rounds(
    rules: Rules, n: int, policy: str = "random", seed: int | None = None
) -> tuple[np.ndarray, int]:
    """Deal and play ``n`` rounds; returns ``points[round, side]`` and the moves made."""
    out = np.zeros((n, rules.sides), dtype=np.int64)
    moves = core.random_rounds(template(rules), rules.hand_size, n, _policy(policy),
                               rules.sides, _seed(seed), out)
    return out, int(moves)


def _batch(states: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """States as one contiguous int64 array, a row each, as the compiled calls take them."""
    return np.ascontiguousarray(np.asarray(states, dtype=np.int64).reshape(-1, core.SIZE))


def _policy(name: str) -> int:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}") from None


def _seed(seed: int | None) -> int:
    return int(np.random.SeedSequence(seed).generate_state(1)[0] & 0x7FFFFFFF)
