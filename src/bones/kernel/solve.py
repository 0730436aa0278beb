"""Exact play of a round's end: alpha-beta search over a determinized position.

With every tile known (a determinization) the rest of a round is a game of perfect
information. When little is left it is cheap to play it perfectly: this module returns
the best margin a side can force, the other sides playing against it (the usual
"paranoid" reading when there are more than two).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bones.kernel.bits import popcount
from bones.kernel.core import (
    BONE_COUNT,
    DRAWN,
    HANDS,
    KOZEL,
    MAX_MOVES,
    OVER,
    PLAYERS,
    SCORES,
    TARGET,
    TURN,
    VARIANT,
    WINNER,
    apply,
    copy_moving,
    legal,
    play_out,
    side_points,
    workspace,
)

DEPTH = 28 + 28 + 3 * 28  # plies: every tile placed, every draw, three passes a placement


@njit(cache=True)
def side_of(s: np.ndarray, seat: int) -> int:
    return seat % 2 if s[VARIANT] == KOZEL else seat


@njit(cache=True)
def margin(s: np.ndarray, side: int, win_bonus: float, match_bonus: float = 0.0) -> float:
    """A finished round's points for ``side`` minus the mean of the other sides', and
    ``win_bonus`` more (or less) when ``side`` won (or another side won) the round, and
    ``match_bonus`` more (or less) when the round ends the match in its favour (or not)."""
    sides = 2 if s[VARIANT] == KOZEL else s[PLAYERS]
    mine, others = 0.0, 0.0
    for other in range(sides):
        points = side_points(s, other)
        if other == side:
            mine = points
        else:
            others += points
    value = mine - others / (sides - 1)
    value = -value if s[VARIANT] == KOZEL else value
    if s[WINNER] >= 0:
        value += win_bonus if s[WINNER] == side else -win_bonus
    if match_bonus != 0.0:
        winner = match_winner(s)
        if winner >= 0:
            value += match_bonus if winner == side else -match_bonus
    return value


@njit(cache=True)
def match_winner(s: np.ndarray) -> int:
    """The side this finished round makes the match's winner, as ``bones.match`` decides
    (the first side with the highest score, once it reaches the target), or -1."""
    if s[TARGET] < 0:
        return -1
    best, winner = -1, -1
    for side in range(s[PLAYERS]):
        score = s[SCORES + side] + side_points(s, side)
        if score > best:
            best, winner = score, side
    return winner if best >= s[TARGET] else -1


@njit(cache=True)
def tiles_left(s: np.ndarray) -> int:
    total = s[BONE_COUNT] - s[DRAWN]
    for seat in range(s[PLAYERS]):
        total += popcount(s[HANDS + seat])
    return total


@njit(cache=True)
def solve(state: np.ndarray, side: int, win_bonus: float = 0.0,
          budget: int = 1 << 62, match_bonus: float = 0.0) -> float:
    """The margin ``side`` can force from ``state`` with perfect play on all sides, or
    NaN when that takes more than ``budget`` positions.

    Alpha-beta, kept iterative with one row per ply (numba's recursion overflows the
    native stack in deep searches)."""
    stack = np.empty((DEPTH + 1, state.shape[0]), dtype=np.int64)  # a row per ply
    moves = np.empty((DEPTH + 1, MAX_MOVES), dtype=np.int64)
    count = np.zeros(DEPTH + 1, dtype=np.int64)
    next_move = np.zeros(DEPTH + 1, dtype=np.int64)
    best = np.zeros(DEPTH + 1)
    alpha = np.zeros(DEPTH + 1)
    beta = np.zeros(DEPTH + 1)
    maximizing = np.zeros(DEPTH + 1, dtype=np.bool_)
    stack[0] = state
    if state[OVER]:
        return margin(state, side, win_bonus, match_bonus)
    level, whole = 0, 0  # rows up to ``whole`` hold the fixed slots already
    _enter(stack[0], side, -1e18, 1e18, 0, moves, count, next_move, best, alpha, beta,
           maximizing)
    while True:
        if next_move[level] < count[level]:
            budget -= 1
            if budget < 0:
                return np.nan
            child = stack[level + 1]
            if level < whole:
                copy_moving(child, stack[level])
            else:
                child[:] = stack[level]
                whole = level + 1
            apply(child, moves[level, next_move[level]])
            next_move[level] += 1
            if child[OVER]:
                value = margin(child, side, win_bonus, match_bonus)
                _update(level, value, count, next_move, best, alpha, beta, maximizing)
            else:
                level += 1
                _enter(child, side, alpha[level - 1], beta[level - 1], level, moves, count,
                       next_move, best, alpha, beta, maximizing)
        else:
            if level == 0:
                return best[0]
            level -= 1
            _update(level, best[level + 1], count, next_move, best, alpha, beta, maximizing)


@njit(cache=True, inline="always")
def _enter(s: np.ndarray, side: int, low: float, high: float, level: int, moves: np.ndarray,
           count: np.ndarray, next_move: np.ndarray, best: np.ndarray, alpha: np.ndarray,
           beta: np.ndarray, maximizing: np.ndarray) -> None:
    count[level] = legal(s, moves[level])
    next_move[level] = 0
    maximizing[level] = side_of(s, s[TURN]) == side
    best[level] = -1e18 if maximizing[level] else 1e18
    alpha[level], beta[level] = low, high


@njit(cache=True, inline="always")
def _update(level: int, value: float, count: np.ndarray, next_move: np.ndarray,
            best: np.ndarray, alpha: np.ndarray, beta: np.ndarray,
            maximizing: np.ndarray) -> None:
    if maximizing[level]:
        best[level] = max(best[level], value)
        alpha[level] = max(alpha[level], best[level])
    else:
        best[level] = min(best[level], value)
        beta[level] = min(beta[level], best[level])
    if alpha[level] >= beta[level]:
        next_move[level] = count[level]  # cut off: the rest cannot change the choice above


@njit(cache=True)
def evaluate(states: np.ndarray, side: int, repeats: int, policy: int, budget: int,
             solvable: int, win_bonus: float, seed: int, out: np.ndarray,
             match_bonus: float = 0.0) -> None:
    """``out[i]``: the margin of ``side`` from ``states[i]``: exact where at most
    ``solvable`` tiles are left and a search of at most ``budget`` positions settles it,
    else the mean of ``repeats`` playouts with ``policy``."""
    rng, moves, s, scratch = workspace(seed)
    for i in range(states.shape[0]):
        if budget > 0 and tiles_left(states[i]) <= solvable:
            exact = solve(states[i], side, win_bonus, budget, match_bonus)
            if not np.isnan(exact):
                out[i] = exact
                continue
        total = 0.0
        for _ in range(repeats):
            s[:] = states[i]
            play_out(s, policy, moves, scratch, rng)
            total += margin(s, side, win_bonus, match_bonus)
        out[i] = total / repeats
