"""Information-set Monte Carlo tree search, compiled.

Perfect-information Monte Carlo (Hard, Expert) solves each sampled deal as if it could see
it, so it plans a different answer in each deal though its seat could not tell them apart
(strategy fusion), and it never values what a move reveals or hides. This search keeps
statistics per information set instead: a node is what the player to move knows there,
the public moves so far (placements, draws and passes, never a tile another drew) and
its own hand. Each iteration walks the moves in one deal of the hidden tiles, so at the
searching seat's nodes every deal it cannot tell apart shares one set of statistics,
and at another player's nodes that player chooses by what it holds in that deal, as it
would (the nodes OpenSpiel's ISMCTS keys by the mover's information state).

An iteration: take the next deal; from the root, at a node seen before, try each move
once (in random order) and then take the highest upper confidence bound; stop at the
first node not seen before and add it; play the rest out with the rollout policy; give
each move on the path the margin (``solve.margin`` over ``scale``) of the side that made
it. A position with one legal move is passed through without a node.

``tests/test_ismcts.py`` checks it against a plain Python search that draws the same
random numbers: the same nodes with the same visits and rewards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bones.kernel.bits import rand_below
from bones.kernel.core import (
    HANDS,
    KOZEL,
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

EMPTY = -1
FIRST, COUNT, VISITS, SIDE = range(4)
MOST_CHOICES = 28
"""The most nodes one walk passes: a node is a choice, and only placements offer one."""


@njit(cache=True, inline="always")
def _mix(x: np.int64) -> np.int64:
    """splitmix64's finalizer: a well-spread 64-bit key from a sequence hash and a hand."""
    z = np.uint64(x)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64(z ^ (z >> np.uint64(31)))


@njit(cache=True, inline="always")
def _after(history: np.int64, code: int) -> np.int64:
    """The public history's hash once ``code`` is played (a draw shows no tile)."""
    return _mix(history * np.int64(1_000_003) + code + 1)


@njit(cache=True)
def search(deals: np.ndarray, iterations: int, c: float, policy: int, win_bonus: float,
           match_bonus: float, scale: float, seed: int
           ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Run ``iterations`` iterations over ``deals`` (one state row each, the same
    position as the searching seat sees it, taken in turn). Returns the number of nodes,
    the node table (rows ``FIRST`` ... ``SIDE``: where a node's moves start among the
    edges, how many it has, its visits, the side to move) and the edges' move codes,
    visits and total rewards. Node 0 is the root."""
    rng, moves, s, scratch = workspace(seed)
    capacity = 1
    while capacity < 2 * (iterations + 1):
        capacity *= 2
    keys = np.zeros(capacity, dtype=np.int64)
    slots = np.full(capacity, EMPTY, dtype=np.int64)
    nodes_table = np.zeros((4, iterations + 1), dtype=np.int64)
    edge_code = np.empty(8 * (iterations + 1), dtype=np.int64)
    edge_visits = np.zeros(8 * (iterations + 1), dtype=np.int64)
    edge_total = np.zeros(8 * (iterations + 1))
    path_node = np.empty(MOST_CHOICES, dtype=np.int64)
    path_edge = np.empty(MOST_CHOICES, dtype=np.int64)
    rewards = np.zeros(4)
    nodes, edges = 0, 0
    sides = 2 if deals[0, VARIANT] == KOZEL else deals[0, PLAYERS]
    for it in range(iterations):
        s[:] = deals[it % deals.shape[0]]
        history = np.int64(0)
        depth = 0
        while not s[OVER]:
            k = legal(s, moves)
            if k == 1:  # no choice: nothing to learn here
                apply(s, moves[0])
                history = _after(history, moves[0])
                continue
            key = _mix(history ^ _mix(s[HANDS + s[TURN]] * np.int64(8) + s[TURN]))
            slot = key & (capacity - 1)
            while slots[slot] != EMPTY and keys[slot] != key:
                slot = (slot + 1) & (capacity - 1)
            if slots[slot] == EMPTY:  # a new information set: add it, play on by the policy
                if edges + k > edge_code.shape[0]:
                    edge_code = np.concatenate((edge_code, np.empty_like(edge_code)))
                    edge_visits = np.concatenate((edge_visits, np.zeros_like(edge_visits)))
                    edge_total = np.concatenate((edge_total, np.zeros_like(edge_total)))
                keys[slot], slots[slot] = key, nodes
                nodes_table[FIRST, nodes], nodes_table[COUNT, nodes] = edges, k
                nodes_table[SIDE, nodes] = side_of(s, s[TURN])
                edge_code[edges:edges + k] = moves[:k]
                edges += k
                nodes += 1
                break
            node = slots[slot]
            edge = _pick_edge(nodes_table, edge_visits, edge_total, node, c, rng)
            path_node[depth], path_edge[depth] = node, edge
            depth += 1
            apply(s, edge_code[edge])
            history = _after(history, edge_code[edge])
        if not s[OVER]:
            play_out(s, policy, moves, scratch, rng)
        for j in range(sides):
            rewards[j] = margin(s, j, win_bonus, match_bonus) / scale
        for d in range(depth):
            node, edge = path_node[d], path_edge[d]
            nodes_table[VISITS, node] += 1
            edge_visits[edge] += 1
            edge_total[edge] += rewards[nodes_table[SIDE, node]]
    return nodes, nodes_table, edge_code[:edges], edge_visits[:edges], edge_total[:edges]


@njit(cache=True, inline="always")
def _pick_edge(nodes_table: np.ndarray, edge_visits: np.ndarray, edge_total: np.ndarray,
               node: int, c: float, rng: np.ndarray) -> int:
    """An untried move at random, else the highest upper confidence bound."""
    first, k = nodes_table[FIRST, node], nodes_table[COUNT, node]
    untried = 0
    for e in range(first, first + k):
        untried += edge_visits[e] == 0
    if untried:
        pick = rand_below(rng, untried)
        for e in range(first, first + k):
            if edge_visits[e] == 0:
                if pick == 0:
                    return e
                pick -= 1
    log_n = np.log(nodes_table[VISITS, node])
    best, best_score = first, -np.inf
    for e in range(first, first + k):
        score = edge_total[e] / edge_visits[e] + c * np.sqrt(log_n / edge_visits[e])
        if score > best_score:
            best, best_score = e, score
    return best
