"""Invariants over many random games of every variant and player count (hypothesis).

Each example deals a round from a seed and plays uniformly random legal moves. The
profile "ci" (set by .ci/run) plays 5,000 examples per test, "dev" 200.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bones import DOUBLE_SIX, Match, Play, PlayerView, Round, RoundResult, Rules, Tile

CONFIGS = [
    ("draw", {"players": 2}), ("draw", {"players": 3}), ("draw", {"players": 4}),
    ("block", {"players": 2}), ("block", {"players": 3}), ("block", {"players": 4}),
    ("block", {"players": 3, "hand_size": 7}), ("kozel", {}), ("allfives", {}),
    ("draw", {"players": 3, "blocked_scoring": "others"}),
]
configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def rules_of(config: tuple[str, dict[str, Any]], **more: Any) -> Rules:
    variant, options = config
    return Rules.preset(variant, **options, **more)


def placed(rnd: Round) -> list[Tile]:
    return [p.tile for p in rnd.line] + [p.tile for arm in rnd.arms.values() for p in arm]


def all_tiles(rnd: Round) -> list[Tile]:
    return [t for h in rnd.hands for t in h] + placed(rnd) + list(rnd.boneyard) + list(
        rnd.out_of_play)


def count_of(rnd: Round) -> int:
    """All Fives' count from the public layout, worked out afresh."""
    line = rnd.line
    if not line:
        return 0
    if len(line) == 1:
        return line[0].tile.value
    left, right = line[0], line[-1]
    total = (left.tile.value if left.tile.is_double else left.a) + (
        right.tile.value if right.tile.is_double else right.b)
    for arm in rnd.arms.values():
        if arm:
            total += arm[-1].tile.value if arm[-1].tile.is_double else arm[-1].b
    return total


def recount(rules: Rules, hands: tuple[tuple[Tile, ...], ...], result: RoundResult,
            standing: list[int]) -> tuple[int | None, tuple[int, ...], int]:
    """(winner, points, eggs) of a finished round, from RULES.md and the hands left."""
    pips = [sum(t.value for t in h) for h in hands]
    last = result.ended_by
    assert last is not None
    points = [0] * rules.sides
    if rules.variant == "kozel":
        lone = {(Tile(0, 0),): 25, (Tile(6, 6),): 50}
        values = [lone.get(h, p) for h, p in zip(hands, pips, strict=True)]
        pair = [values[0] + values[2], values[1] + values[3]]
        if result.reason == "domino":
            points[1 - last % 2] = pair[1 - last % 2]
            return last % 2, tuple(points), 0
        if pair[0] == pair[1]:
            return None, (0, 0), sum(pair)
        loser = 0 if pair[0] > pair[1] else 1
        points[loser] = sum(pair)
        return 1 - loser, tuple(points), 0
    if rules.variant == "allfives":
        if result.reason == "target":
            return last, (0, 0), 0
        if result.reason == "domino":
            points[last] = pips[1 - last] // 5 * 5
            return last, tuple(points), 0
        if standing[0] != standing[1]:
            winner = 0 if standing[0] > standing[1] else 1
        elif len(hands[0]) != len(hands[1]):
            winner = 0 if len(hands[0]) < len(hands[1]) else 1
        else:
            winner = last
        points[winner] = pips[1 - winner] - pips[winner]
        return winner, tuple(points), 0
    if result.reason == "domino":
        points[last] = sum(pips)
        return last, tuple(points), 0
    low = min(pips)
    if pips.count(low) > 1:
        return None, tuple(points), 0
    winner = pips.index(low)
    points[winner] = sum(pips) - low - (low if rules.blocked_scoring == "others_minus_own" else 0)
    return winner, tuple(points), 0


def check_view(rnd: Round, seat: int) -> None:
    view = rnd.view(seat)
    assert view.hand == rnd.hands[seat]
    assert view.hand_counts == tuple(len(h) for h in rnd.hands)
    assert view.boneyard_count == len(rnd.boneyard)
    assert view.legal_moves == (tuple(rnd.legal_moves()) if rnd.turn == seat else ())
    text = json.dumps(view.to_dict())
    assert PlayerView.from_dict(json.loads(text)) == view, "a view does not survive JSON"
    named = {Tile.parse(t) for t in re.findall(r"\b[0-6]-[0-6]\b", text)}
    assert named <= set(rnd.hands[seat]) | set(placed(rnd)), "a view names a hidden tile"
    hidden = [t for h in rnd.hands[:seat] + rnd.hands[seat + 1:] for t in h]
    unseen = set(hidden) | set(rnd.boneyard) | set(rnd.out_of_play)
    assert view.unseen == tuple(t for t in DOUBLE_SIX if t in unseen)
    assert len(view.unseen) == view.unseen_count, "unseen: the others' hands, the rest"
    for lacked, hand in zip(view.lacks, rnd.hands, strict=True):
        assert not any(t.has(n) for t in hand for n in lacked), "lacks a number it holds"


@given(config=configs, seed=seeds)
def test_random_rounds(config: tuple[str, dict[str, Any]], seed: int) -> None:
    """28 tiles accounted for after every move; push/pop round-trips exactly; the round
    ends; its points match a recount; views leak nothing."""
    rules = rules_of(config)
    rng = random.Random(seed)
    scores = tuple(rng.randrange(0, 95, 5) for _ in range(rules.sides))
    rnd = Round.deal(rules, seed=seed, scores=scores if rules.variant == "allfives" else None)
    moves = 0
    while not rnd.is_over:
        tiles = all_tiles(rnd)
        assert len(tiles) == 28 and set(tiles) == set(DOUBLE_SIX)
        seat = rnd.turn
        assert seat is not None
        if moves % 3 == 0:
            check_view(rnd, seat)
        move = rng.choice(rnd.legal_moves())
        before, points_before = rnd.state_key(), rnd.count_points
        rnd.push(move)
        after = rnd.state_key()
        assert rnd.pop() is move and rnd.state_key() == before
        rnd.push(move)
        assert rnd.state_key() == after
        if rules.variant == "allfives" and isinstance(move, Play):
            count = count_of(rnd)
            gained = rnd.count_points[seat] - points_before[seat]
            assert gained == (count if count > 0 and count % 5 == 0 else 0)
        moves += 1
        assert moves <= 28 * 2 + 28 * rules.players, "the round does not end"
    assert set(all_tiles(rnd)) == set(DOUBLE_SIX)
    result = rnd.result
    assert result is not None
    standing = [s + c for s, c in zip(rnd.scores, rnd.count_points, strict=False)]
    assert (result.winner, result.points, result.eggs) == recount(rules, rnd.hands, result,
                                                                  standing)
    for seat in range(rules.players):
        check_view(rnd, seat)


@given(config=configs, seed=seeds, target=st.sampled_from([50, 100, 150, None]))
def test_random_matches(config: tuple[str, dict[str, Any]], seed: int,
                        target: int | None) -> None:
    """A match ends; its scores add up from its rounds; its record replays to the same
    match."""
    rules = rules_of(config, target=target)
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    while not match.is_over:
        match.push(rng.choice(match.round.legal_moves()))
        assert len(match.results) < 60, "the match does not end"
    expected = [0] * rules.sides
    eggs = 0
    for rnd, result, after in zip(match.rounds, match.results, match.scores_after, strict=True):
        if rules.variant == "kozel":
            if result.winner is None:
                eggs += result.eggs
            else:
                loser = 1 - result.winner
                penalty, eggs = result.points[loser] + eggs, 0
                if expected[loser] or penalty >= 13:
                    expected[loser] += penalty
        else:
            for side in range(rules.sides):
                expected[side] += result.points[side] + rnd.count_points[side] * (
                    rules.variant == "allfives")
        assert list(after) == expected
    assert list(match.scores) == expected and match.eggs == eggs
    replayed = Match.from_record(json.loads(json.dumps(match.record())))
    assert replayed.results == match.results and replayed.scores == match.scores
    assert (replayed.winner, replayed.loser, replayed.shutout) == (
        match.winner, match.loser, match.shutout)
