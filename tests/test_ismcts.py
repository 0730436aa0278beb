"""The compiled information-set search grows exactly the tree a plain Python search grows
from the same deals and the same random numbers, in every variant; and it finds what
is plainly there to find."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np
import pytest

from bones import Round, Rules
from bones.bots.sampler import Sampler
from bones.kernel import core, encode, evaluate, ismcts, position, successors, tree
from bones.kernel.bits import rand_below
from bones.kernel.solve import margin, side_of

from .helpers import random_positions


@dataclass
class Node:
    code: int
    side: int
    visits: int = 0
    avail: int = 0
    total: float = 0.0
    children: list[Node] = field(default_factory=list)  # newest first, as in the kernel


def reference(deals: np.ndarray, iterations: int, c: float, win_bonus: float,
              scale: float, seed: int) -> Node:
    """Single-observer ISMCTS written out plainly: the game's steps (legal moves, a move,
    a heuristic playout) and the random numbers are the kernel's, the search is this."""
    rng, moves, s, scratch = core.workspace(seed)
    root = Node(-1, 0)
    sides = 2 if deals[0, core.VARIANT] == core.KOZEL else int(deals[0, core.PLAYERS])
    for it in range(iterations):
        s[:] = deals[it % len(deals)]
        path = [root]
        node = root
        while not s[core.OVER]:
            legal = [int(m) for m in moves[:core.legal(s, moves)]]
            known = {child.code: child for child in node.children}
            found = [known.get(code) for code in legal]
            for child in found:
                if child is not None:
                    child.avail += 1
            untried = [code for code, child in zip(legal, found, strict=True) if child is None]
            if untried:
                code = untried[rand_below(rng, len(untried))]
                child = Node(code, int(side_of(s, s[core.TURN])), avail=1)
                node.children.insert(0, child)
                core.apply(s, code)
                path.append(child)
                break
            node = max(found, key=lambda n: n.total / n.visits  # type: ignore[union-attr]
                       + c * math.sqrt(math.log(n.avail) / n.visits))  # type: ignore[union-attr]
            assert node is not None
            core.apply(s, node.code)
            path.append(node)
        if not s[core.OVER]:
            core.play_out(s, core.HEURISTIC, moves, scratch, rng)
        rewards = [margin(s, side, win_bonus, 0.0) / scale for side in range(sides)]
        for n in path:
            n.visits += 1
            n.total += rewards[n.side]
    return root


def flatten(table: np.ndarray, total: np.ndarray, node: int = 0,
            prefix: tuple[int, ...] = ()) -> dict[tuple[int, ...], tuple[int, int, float]]:
    """Every node of the kernel's tree by its moves from the root."""
    out = {prefix: (int(table[tree.VISITS, node]), int(table[tree.AVAIL, node]),
                    float(total[node]))}
    child = int(table[tree.FIRST, node])
    while child != tree.NO_NODE:
        out |= flatten(table, total, child, (*prefix, int(table[tree.CODE, child])))
        child = int(table[tree.SIBLING, child])
    return out


def flatten_reference(node: Node, prefix: tuple[int, ...] = ()
                      ) -> dict[tuple[int, ...], tuple[int, int, float]]:
    out = {prefix: (node.visits, node.avail, node.total)}
    for child in node.children:
        out |= flatten_reference(child, (*prefix, child.code))
    return out


def deals_of(rnd: Round, count: int, seed: int) -> np.ndarray:
    view = rnd.view(rnd.turn or 0)
    sampler, rng = Sampler(view), random.Random(seed)
    return np.array([position(view.rules, d.hands, d.boneyard, view)
                     for d in (sampler.sample(rng) for _ in range(count))])


CASES = [("draw", 2), ("draw", 3), ("block", 2), ("block", 4), ("kozel", 4),
         ("allfives", 2)]


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_kernel_grows_the_reference_tree(variant: str, players: int) -> None:
    rules = Rules.preset(variant, players=players)
    rng = random.Random(variant)
    checked = 0
    for seed, rnd in enumerate(random_positions(rules, range(6), rng, 12)):
        deals = deals_of(rnd, 25, seed)
        nodes, table, total = tree.search(deals, 400, 0.7, core.HEURISTIC, 10.0, 0.0, 30.0,
                                          seed)
        mine = flatten(table, total)
        theirs = flatten_reference(reference(deals, 400, 0.7, 10.0, 30.0, seed))
        assert len(mine) == nodes
        assert mine.keys() == theirs.keys()
        for path, (visits, avail, value) in theirs.items():
            assert mine[path][:2] == (visits, avail), path
            assert mine[path][2] == pytest.approx(value, abs=1e-9), path
        checked += 1
    assert checked >= 4


def test_every_iteration_passes_the_root() -> None:
    rnd = Round.deal(Rules.preset("kozel"), seed=8)
    visits, values = ismcts(deals_of(rnd, 50, 1), rnd.legal_moves(), 3000, seed=2)
    assert sum(visits) == 3000
    assert all(-10 < v < 10 for v in values)


def test_seeing_everything_it_plays_the_exact_best_move() -> None:
    """Walked in one deal, the truth, the search is UCT on a game of perfect information,
    which converges to minimax: near a round's end its most visited move is one the
    exact search values best."""
    rules = Rules.preset("block", players=2)
    rng = random.Random(11)
    checked = 0
    for rnd in random_positions(rules, range(60), rng, 14):
        moves = rnd.legal_moves()
        if len(moves) < 2 or sum(map(len, rnd.hands)) > 8:
            continue
        side = rnd.turn or 0
        exact = evaluate(successors([encode(rnd)], moves), side, budget=10**7, win_bonus=10.0,
                         solvable=28)
        visits, _ = ismcts([encode(rnd)], moves, 20_000, win_bonus=10.0, seed=checked)
        assert exact[int(np.argmax(visits))] == pytest.approx(exact.max())
        checked += 1
    assert checked >= 5
