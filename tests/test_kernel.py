"""The rollout kernel plays exactly bones' rules: rounds played side by side with
``Round`` from the same deals with the same choices must agree on every list of legal
moves and on every result.

CI plays 100,000 rounds of every variant and player count (``KERNEL_ROUNDS``); a
developer's run plays 3,000.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from bones import Match, Round, Rules
from bones.kernel import core, decode_move, encode, encode_move, playouts, random_rounds
from bones.kernel import template as kernel_template
from bones.round import split
from bones.tiles import BY_INDEX

from .helpers import random_positions

ROUNDS = int(os.environ.get("KERNEL_ROUNDS", "100000" if os.environ.get("CI") else "3000"))
CHUNK = 5000
CONFIGS = [
    ("draw", {"players": 2}), ("draw", {"players": 3}), ("draw", {"players": 4}),
    ("block", {"players": 2}), ("block", {"players": 3}), ("block", {"players": 4}),
    ("block", {"players": 3, "hand_size": 7}), ("kozel", {}), ("allfives", {}),
    ("allfives", {"target": None}), ("draw", {"players": 3, "blocked_scoring": "others"}),
]
REASONS = ("domino", "blocked", "target")


def moves_hash(moves: list[int]) -> int:
    h = 0
    for code in moves:
        h = (h * 257 + code + 1) % 1_000_000_007
    return h


def replay(rules: Rules, order: list[int], steps: list[list[int]], result: list[int],
           scores: tuple[int, ...]) -> None:
    """Play one logged round through ``Round``: its steps (legal moves counted and hashed,
    the move chosen) come as lists, since reading numpy's scalars one by one is slow."""
    hands, bone = split(rules, order)
    rnd = Round.from_hands(
        rules, [[BY_INDEX[i] for i in range(28) if h >> i & 1] for h in hands],
        [BY_INDEX[i] for i in bone], scores=scores)
    for count, digest, chosen in steps:
        legal = [encode_move(m) for m in rnd.legal_moves()]
        assert (len(legal), moves_hash(legal)) == (count, digest), (rnd.history, legal)
        rnd.push(decode_move(chosen))
    assert rnd.is_over and rnd.result is not None, rnd.history
    winner, reason, eggs = result[:3]
    assert (rnd.result.winner, rnd.result.reason, rnd.result.eggs) == (
        None if winner < 0 else winner, REASONS[reason], eggs), rnd.history
    assert list(rnd.result.points) == result[3:3 + rules.sides]
    assert list(rnd.count_points) == result[7:7 + rules.players]


@pytest.mark.parametrize(("variant", "options"), CONFIGS,
                         ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in CONFIGS])
def test_kernel_matches_round(variant: str, options: dict[str, int]) -> None:
    rules = Rules.preset(variant, **options)
    rng = random.Random(f"{variant}{options}")
    done = 0
    while done < ROUNDS:
        n = min(CHUNK, ROUNDS - done)
        scores = tuple(rng.randrange(0, 100, 5) for _ in range(rules.sides))
        if rules.variant != "allfives":
            scores = (0,) * rules.sides
        template = kernel_template(rules, scores)
        orders = np.zeros((n, 28), dtype=np.int64)
        steps = np.zeros((n, 160, 3), dtype=np.int64)
        results = np.zeros((n, 11), dtype=np.int64)
        core.logged_rounds(template, rules.hand_size, n, rng.getrandbits(31), orders, steps,
                           results)
        lengths = (steps[:, :, 0] >= 0).argmin(axis=1)
        for i, (order, result) in enumerate(zip(orders.tolist(), results.tolist(), strict=True)):
            replay(rules, order, steps[i, :lengths[i]].tolist(), result, scores)
        done += n


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_playouts_from_positions_mid_round(variant: str) -> None:
    """A round encoded mid-play and played out with the kernel ends as the same round
    played out by Round with the same moves would: every outcome the kernel reaches is
    one Round reaches, checked by replaying the kernel's random playouts move by move."""
    rules = Rules.preset(variant)
    rng = random.Random(variant)
    for seed, rnd in enumerate(random_positions(rules, range(300), rng, 12)):
        state = encode(rnd)
        moves = np.empty(core.MAX_MOVES, dtype=np.int64)
        k = core.legal(state, moves)
        assert [decode_move(int(c)) for c in moves[:k]] == rnd.legal_moves()
        points = playouts([state], repeats=3, seed=seed)
        assert points.shape == (1, 3, rules.sides)
        # play the same position out by hand through both and compare at every step
        twin = rnd.copy()
        while not twin.is_over:
            k = core.legal(state, moves)
            assert [decode_move(int(c)) for c in moves[:k]] == twin.legal_moves()
            code = int(moves[rng.randrange(k)])
            core.apply(state, code)
            twin.push(decode_move(code))
        result = twin.result
        assert result is not None and state[core.OVER] == 1
        assert [int(p) for p in state[core.POINTS:core.POINTS + rules.sides]] == list(
            result.points)


def test_views_encode_like_the_round() -> None:
    """A position built from a seat's view and the true hidden tiles is the round's."""
    from bones.kernel import position

    for variant in ("draw", "allfives", "kozel"):
        rules = Rules.preset(variant)
        rng = random.Random(variant)
        scores = (40, 55) if variant == "allfives" else None
        for rnd in random_positions(rules, range(100), rng, 20, scores=scores):
            view = rnd.view(rnd.turn or 0)
            from_view = position(rules, rnd.hands, rnd.boneyard, view)
            assert (from_view == encode(rnd)).all()


def test_successors_are_the_rounds_after_each_move() -> None:
    """A batch of positions after each legal move is what Round reaches by pushing it."""
    from bones.kernel import successors

    for variant in ("draw", "block", "kozel", "allfives"):
        rules = Rules.preset(variant)
        rng = random.Random(variant)
        for rnd in random_positions(rules, range(40), rng, 15):
            moves = rnd.legal_moves()
            after = successors([encode(rnd)], moves)
            for move, state in zip(moves, after, strict=True):
                twin = rnd.copy()
                twin.push(move)
                if twin.is_over:
                    assert state[core.OVER] == 1
                else:
                    assert (undrawn(state) == encode(twin)).all()


def undrawn(state: np.ndarray) -> np.ndarray:
    """The state with the tiles drawn taken off the boneyard, as ``encode`` writes it
    (the kernel only moves a pointer past them)."""
    s = state.copy()
    drawn, count = int(s[core.DRAWN]), int(s[core.BONE_COUNT])
    s[core.BONE:core.BONE + count - drawn] = state[core.BONE + drawn:core.BONE + count]
    s[core.BONE + count - drawn:core.BONE + count] = 0
    s[core.BONE_COUNT] -= drawn
    s[core.DRAWN] = 0
    return s


def test_random_rounds_and_policies() -> None:
    rules = Rules.preset("draw", players=3)
    points, moves = random_rounds(rules, 2000, seed=4)
    assert points.shape == (2000, 3) and moves > 2000 * 10
    winners = (points > 0).sum(axis=1)
    assert (winners <= 1).all() and winners.sum() > 1500  # one scorer a round
    again, _ = random_rounds(rules, 2000, seed=4)
    assert (again == points).all()  # deterministic under a seed
    heuristic, _ = random_rounds(rules, 2000, policy="heuristic", seed=4)
    assert not (heuristic == points).all()
    with pytest.raises(ValueError, match="unknown policy"):
        random_rounds(rules, 1, policy="clever")


def test_heuristic_beats_random_in_kozel() -> None:
    """Shedding heavy tiles is better than playing at random: in Kozel a heuristic pair
    writes fewer penalties than a random pair, over the same positions."""
    rules = Rules.preset("kozel")
    template = kernel_template(rules)
    rng_states = []
    for seed in range(400):
        rnd = Round.deal(rules, seed=seed)
        rng_states.append(encode(rnd))
    heuristic = playouts(rng_states, repeats=20, policy="heuristic", seed=1)
    randomly = playouts(rng_states, repeats=20, policy="random", seed=1)
    assert template.shape == (core.SIZE,)
    assert heuristic.sum() < randomly.sum()


def minimax(rnd: Round, side: int) -> float:
    """The margin ``side`` can force, by plain minimax over Round (others minimize)."""
    if rnd.is_over:
        result = rnd.result
        assert result is not None
        points = [p + sum(c for seat, c in enumerate(rnd.count_points)
                          if rnd.rules.side_of(seat) == s and rnd.rules.variant == "allfives")
                  for s, p in enumerate(result.points)]
        mine = points[side]
        others = [p for s, p in enumerate(points) if s != side]
        value = mine - sum(others) / len(others)
        return -value if rnd.rules.variant == "kozel" else value
    values = []
    for move in rnd.legal_moves():
        rnd.push(move)
        values.append(minimax(rnd, side))
        rnd.pop()
    mover = rnd.rules.side_of(rnd.turn or 0)
    return max(values) if mover == side else min(values)


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_exact_endgames(variant: str) -> None:
    """The kernel's alpha-beta finds the value plain minimax over Round finds."""
    from bones.kernel.solve import solve, tiles_left

    rules = Rules.preset(variant)
    rng = random.Random(variant)
    checked = 0
    for seed in range(200):
        rnd = Round.deal(rules, seed=seed)
        while not rnd.is_over and tiles_left(encode(rnd)) > 9:
            rnd.push(rng.choice(rnd.legal_moves()))
        if rnd.is_over:
            continue
        side = rules.side_of(rnd.turn or 0)
        assert solve(encode(rnd), side) == pytest.approx(minimax(rnd, side))
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(("variant", "options"), CONFIGS,
                         ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in CONFIGS])
def test_moves_change_only_the_moving_slots(variant: str, options: dict[str, int]) -> None:
    """The solver copies only ``core.MOVING`` from ply to ply: no move of any round may
    change another slot (the rules, the boneyard, the match's scores)."""
    rules = Rules.preset(variant, **options)
    moving = np.zeros(core.SIZE, dtype=bool)
    for low, high in core.MOVING:
        moving[low:high] = True
    rng = random.Random(variant)
    moves = np.empty(core.MAX_MOVES, dtype=np.int64)
    for seed in range(200):
        rnd = Round.deal(rules, seed=seed)
        if rnd.is_over:  # a deal no one can play on
            continue
        state = encode(rnd)
        while not state[core.OVER]:
            before = state.copy()
            core.apply(state, moves[rng.randrange(core.legal(state, moves))])
            assert (state[~moving] == before[~moving]).all()
            copy = np.full(core.SIZE, -7, dtype=np.int64)
            copy[~moving] = before[~moving]
            core.copy_moving(copy, state)
            assert (copy == state).all()


MATCH_CONFIGS = [("draw", {"players": 2}), ("draw", {"players": 3}), ("block", {"players": 2}),
                 ("block", {"players": 4}), ("allfives", {}), ("kozel", {})]


@pytest.mark.parametrize(("variant", "options"), MATCH_CONFIGS,
                         ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in MATCH_CONFIGS])
def test_the_match_a_round_decides(variant: str, options: dict[str, int]) -> None:
    """"Match: first to reach the target wins, in whatever round": at the end of every
    round of random matches to 50, the kernel names the match's winner as ``Match``
    does (nobody while the match goes on), and ``match_bonus`` moves the value by it.
    Kozel's target ends a match by a loss and is left to the round's value."""
    from bones.kernel.solve import margin, match_winner

    rules = Rules.preset(variant, target=50, **options)
    rng = random.Random(variant)
    ended = won = 0
    for seed in range(40):
        match = Match(rules, seed=seed)
        while not match.is_over:
            rnd = match.round
            state, move = encode(rnd), rng.choice(rnd.legal_moves())
            match.push(move)
            if not rnd.is_over:
                continue
            core.apply(state, encode_move(move))
            decided = match.is_over and match.rounds[-1] is rnd  # not by a later automatic lead
            winner = match.winner if decided else None
            expected = -1 if winner is None or variant == "kozel" else winner
            assert match_winner(state) == expected, (seed, rnd.history, match.scores)
            for side in range(rules.sides):
                bonus = 0 if expected < 0 else 25 if expected == side else -25
                assert margin(state, side, 0.0, 25.0) == margin(state, side, 0.0) + bonus
            ended += 1
            won += expected >= 0
    assert ended > 80 and (won == 0 if variant == "kozel" else won >= 20)
