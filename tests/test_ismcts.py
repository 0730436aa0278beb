"""The compiled information-set search grows exactly the nodes a plain Python search grows
from the same deals and the same random numbers, in every variant; and where it sees
everything it plays as exact search does."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from bones import Round, Rules
from bones.bots.sampler import Sampler
from bones.kernel import core, encode, evaluate, ismcts, position, successors, tree
from bones.kernel.bits import rand_below
from bones.kernel.solve import margin, side_of

from .helpers import random_positions


def deals_of(rnd: Round, count: int, seed: int) -> np.ndarray:
    view = rnd.view(rnd.turn or 0)
    sampler, rng = Sampler(view), random.Random(seed)
    return np.array([position(view.rules, d.hands, d.boneyard, view)
                     for d in (sampler.sample(rng) for _ in range(count))])


CASES = [("draw", 2), ("draw", 3), ("block", 2), ("block", 4), ("kozel", 4),
         ("allfives", 2)]


def test_every_iteration_passes_the_root() -> None:
    rnd = Round.deal(Rules.preset("kozel"), seed=8)
    visits, values = ismcts(deals_of(rnd, 50, 1), rnd.legal_moves(), 3000, seed=2)
    assert sum(visits) == 2999  # the first finds the root
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


def reference(deals: np.ndarray, iterations: int, c: float, win_bonus: float, scale: float,
              seed: int) -> dict[tuple[tuple[int, ...], int, int], dict[int, tuple[int, float]]]:
    """ISMCTS over the mover's information sets written out plainly: a node is the
    public moves so far, the mover and its hand; its moves' visits and total rewards."""
    rng, moves, s, scratch = core.workspace(seed)
    nodes: dict[tuple[tuple[int, ...], int, int], dict[int, list[float]]] = {}
    sides = 2 if deals[0, core.VARIANT] == core.KOZEL else int(deals[0, core.PLAYERS])
    for it in range(iterations):
        s[:] = deals[it % len(deals)]
        history: tuple[int, ...] = ()
        path = []
        while not s[core.OVER]:
            legal = [int(m) for m in moves[:core.legal(s, moves)]]
            if len(legal) == 1:
                core.apply(s, legal[0])
                history += (legal[0],)
                continue
            turn = int(s[core.TURN])
            key = (history, turn, int(s[core.HANDS + turn]))
            if key not in nodes:
                nodes[key] = {code: [0, 0.0] for code in legal}
                break
            stats = nodes[key]
            untried = [code for code in legal if stats[code][0] == 0]
            if untried:
                code = untried[rand_below(rng, len(untried))]
            else:
                visits = sum(v for v, _ in stats.values())
                code = max(legal, key=lambda m: stats[m][1] / stats[m][0]
                           + c * math.sqrt(math.log(visits) / stats[m][0]))
            path.append((stats[code], int(side_of(s, turn))))
            core.apply(s, code)
            history += (code,)
        if not s[core.OVER]:
            core.play_out(s, core.HEURISTIC, moves, scratch, rng)
        rewards = [margin(s, side, win_bonus, 0.0) / scale for side in range(sides)]
        for edge, side in path:
            edge[0] += 1
            edge[1] += rewards[side]
    return {key: {code: (int(v), t) for code, (v, t) in stats.items()}
            for key, stats in nodes.items()}


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_kernel_grows_the_reference_tree(variant: str, players: int) -> None:
    rules = Rules.preset(variant, players=players)
    rng = random.Random(variant)
    checked = 0
    for seed, rnd in enumerate(random_positions(rules, range(6), rng, 12)):
        deals = deals_of(rnd, 25, seed)
        nodes, table, codes, visits, totals = tree.search(
            deals, 400, 0.7, core.HEURISTIC, 10.0, 0.0, 30.0, seed)
        theirs = reference(deals, 400, 0.7, 10.0, 30.0, seed)
        assert nodes == len(theirs)
        mine = sorted(sorted(
            (int(codes[e]), int(visits[e]), round(float(totals[e]), 9))
            for e in range(table[tree.FIRST, n], table[tree.FIRST, n] + table[tree.COUNT, n]))
            for n in range(nodes))
        expected = sorted(sorted((code, v, round(t, 9)) for code, (v, t) in stats.items())
                          for stats in theirs.values())
        assert mine == expected
        checked += 1
    assert checked >= 4
