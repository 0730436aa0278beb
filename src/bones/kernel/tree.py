"""Information-set Monte Carlo tree search (single observer), compiled.

Perfect-information Monte Carlo (Hard) solves each sampled deal as if it could see it, so
it plans a different answer in each deal though the seat could not tell them apart
(strategy fusion), and it never values what a move reveals or hides. ISMCTS keeps one
tree for the searching seat's information: a node is a sequence of moves as that seat
sees them (its own moves, the others' placements, their draws and passes, never a tile
drawn by another), and each iteration walks it in one deal of the hidden tiles. Where
a deal allows only some of a node's moves, UCB counts a move's availability rather than
its parent's visits (Cowling, Powley and Whitehouse 2012), so a move that exists in few
deals is not drowned by the others.

An iteration: take the next deal; descend by UCB among the moves legal in it, each
node's value read for the side that moved into it; add one new node; play the rest of
the round out with the rollout policy; give every node on the path the margin of the
side that moved into it (``solve.margin`` over ``scale``).

``tests/test_ismcts.py`` checks it against a plain Python search that draws the same
random numbers: the same visit counts, node for node.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bones.kernel.bits import rand_below
from bones.kernel.core import (
    KOZEL,
    MAX_MOVES,
    OVER,
    PLAYERS,
    TURN,
    VARIANT,
    apply,
    legal,
    play_out,
    workspace,
)
from bones.kernel.solve import margin, side_of

NO_NODE = -1


FIRST, SIBLING, CODE, SIDE, VISITS, AVAIL = range(6)
"""The rows of a tree's integer table: a node's first child and next sibling (or
``NO_NODE``), the move into it, the side that made it, its visits, and how often it was
available. Node 0 is the root; a node's children are newest first."""


@njit(cache=True)
def search(deals: np.ndarray, iterations: int, c: float, policy: int, win_bonus: float,
           match_bonus: float, scale: float, seed: int) -> tuple[int, np.ndarray, np.ndarray]:
    """Run ``iterations`` iterations over ``deals`` (one state row each, the same
    position as the searching seat sees it, taken in turn). Returns the number of nodes,
    the tree's integer table (rows as ``FIRST`` ... ``AVAIL`` name them) and each node's
    total reward."""
    rng, moves, s, scratch = workspace(seed)
    size = iterations + 1
    tree = np.zeros((6, size), dtype=np.int64)
    tree[FIRST, :] = NO_NODE
    tree[SIBLING, :] = NO_NODE
    tree[CODE, :] = -1
    total = np.zeros(size)
    path = np.empty(size, dtype=np.int64)
    found = np.empty(MAX_MOVES, dtype=np.int64)
    rewards = np.zeros(4)
    nodes = 1
    sides = 2 if deals[0, VARIANT] == KOZEL else deals[0, PLAYERS]
    for it in range(iterations):
        s[:] = deals[it % deals.shape[0]]
        node, depth = 0, 0
        path[0] = 0
        while not s[OVER]:
            k = legal(s, moves)
            untried = _children(tree, node, moves, k, found)
            if untried:
                i = _untried(found, k, rand_below(rng, untried))
                tree[CODE, nodes], tree[SIDE, nodes] = moves[i], side_of(s, s[TURN])
                tree[SIBLING, nodes], tree[FIRST, node] = tree[FIRST, node], nodes
                tree[AVAIL, nodes] = 1
                apply(s, moves[i])
                depth += 1
                path[depth] = nodes
                nodes += 1
                break
            node = _select(tree, total, found, k, c)
            apply(s, tree[CODE, node])
            depth += 1
            path[depth] = node
        if not s[OVER]:
            play_out(s, policy, moves, scratch, rng)
        for j in range(sides):
            rewards[j] = margin(s, j, win_bonus, match_bonus) / scale
        for d in range(depth + 1):
            n = path[d]
            tree[VISITS, n] += 1
            total[n] += rewards[tree[SIDE, n]]
    return nodes, tree, total


@njit(cache=True, inline="always")
def _children(tree: np.ndarray, node: int, moves: np.ndarray, k: int,
              found: np.ndarray) -> int:
    """Find the child for each of the ``k`` legal moves (``found[i]``, or ``NO_NODE``),
    count each found one as available once more; return how many have none yet."""
    untried = 0
    for i in range(k):
        found[i] = NO_NODE
        n = tree[FIRST, node]
        while n != NO_NODE:
            if tree[CODE, n] == moves[i]:
                found[i] = n
                tree[AVAIL, n] += 1
                break
            n = tree[SIBLING, n]
        if found[i] == NO_NODE:
            untried += 1
    return untried


@njit(cache=True, inline="always")
def _untried(found: np.ndarray, k: int, pick: int) -> int:
    """The index of the ``pick``-th legal move without a child."""
    for i in range(k):
        if found[i] == NO_NODE:
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True, inline="always")
def _select(tree: np.ndarray, total: np.ndarray, found: np.ndarray, k: int, c: float) -> int:
    """The child with the highest upper confidence bound, the first of equals."""
    best, best_score = found[0], -np.inf
    for i in range(k):
        n = found[i]
        visits = tree[VISITS, n]
        score = total[n] / visits + c * np.sqrt(np.log(tree[AVAIL, n]) / visits)
        if score > best_score:
            best, best_score = n, score
    return best
