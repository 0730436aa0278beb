"""Expert's hard facts beyond the sampler's: the hand a seat held before each draw, and
a forced lead. The count of ways is checked against brute force: every way to say which
tile each draw brought, replayed against the history."""

from __future__ import annotations

import math
import random
from itertools import permutations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bones import DOUBLE_SIX, Round, Rules, Tile
from bones.bots.expert import ExpertBot
from bones.bots.holdings import Holdings
from bones.bots.sampler import Sampler
from bones.moves import Play, parse_move
from bones.tiles import mask_of, tiles_of
from bones.view import PlayerView


def played_round(variant: str, seed: int, moves: int,
                 players: int = 2) -> tuple[Round, list[tuple[int, ...]]]:
    """A round after random moves, and the open numbers before each move."""
    rnd = Round.deal(Rules.preset(variant, players=players), seed=seed)
    rng = random.Random(seed)
    ends = []
    for _ in range(moves):
        if rnd.is_over:
            break
        ends.append(rnd.ends)
        rnd.push(rng.choice(rnd.legal_moves()))
    return rnd, ends


def brute_ways(rnd: Round, ends: list[tuple[int, ...]], seat: int, hand: int) -> int:
    """Ways for ``seat`` to have come by ``hand``: which tile each of its draws brought,
    the rest dealt to it (a forced lead was dealt, and placed before the history),
    replayed move by move: a seat draws or passes only when nothing in its hand fits;
    it places only what it holds."""
    lead = rnd.lead
    came = [*tiles_of(hand), *(parse_move(text).tile  # type: ignore[union-attr]
                               for s, text in rnd.history
                               if s == seat and text not in ("draw", "pass"))]
    draws = sum(1 for s, text in rnd.history if s == seat and text == "draw")
    outranks = {t for t in DOUBLE_SIX if lead is not None and lead.automatic
                and t.strength > lead.tile.strength}
    ways = 0
    for brought in permutations(came, draws):
        held = set(came) - set(brought)
        if held & outranks:
            continue
        ways += _replays(rnd, ends, seat, held, list(brought))
    return ways


def _replays(rnd: Round, ends: list[tuple[int, ...]], seat: int, held: set[Tile],
             brought: list[Tile]) -> bool:
    for (s, text), open_ in zip(rnd.history, ends, strict=True):
        if s != seat:
            continue
        move = parse_move(text)
        if isinstance(move, Play):
            if move.tile not in held:
                return False
            held.remove(move.tile)
            continue
        if any(set(open_) & {t.high, t.low} for t in held):
            return False
        if text == "draw":
            held.add(brought.pop(0))
    return True


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 40),
       st.sampled_from([("draw", 2), ("draw", 3), ("draw", 4), ("block", 2),
                        ("allfives", 2)]))
def test_the_count_is_every_way_the_hands_came_about(seed: int, moves: int,
                                                     game: tuple[str, int]) -> None:
    """RULES.md: "draw tiles from the boneyard one at a time until one fits, then play
    it at once, in the same turn; a player holding a fitting tile may not draw" and
    "the holder of the highest double must lead it; if no double was dealt, the holder
    of the strongest tile leads that tile": a hand held at a draw had nothing that
    fitted, and no hand was dealt a tile that outranks the forced lead."""
    variant, players = game
    rnd, ends = played_round(variant, seed, moves, players)
    assume(not rnd.is_over)
    view = rnd.view(rnd.turn)  # type: ignore[arg-type]
    others = [s for s in range(len(rnd.hands)) if s != view.seat]
    assume(all(sum(1 for s, t in view.history if s == seat and t == "draw") <= 4
               for seat in others))
    truth = [mask_of(hand) for hand in rnd.hands]
    ways = {seat: brute_ways(rnd, ends, seat, truth[seat]) for seat in others}
    assert all(ways.values())  # the truth is one of the ways
    sampler, rng = Sampler(view), random.Random(seed)
    for seat in others:  # other hands for one seat, the rest as they are
        hands = [mask_of(sampler.sample(rng).hands[seat]) for _ in range(4)]
        deals = np.array([[hand if s == seat else truth[s] for s in range(len(truth))]
                          for hand in hands], dtype=np.int64)
        rest = sum(math.log(w) for s, w in ways.items() if s != seat)
        for log, hand in zip(Holdings(view).log_counts(deals), hands, strict=True):
            brute = brute_ways(rnd, ends, seat, hand)
            assert log == pytest.approx(rest + math.log(brute)) if brute else log == -math.inf


def test_a_forced_lead_rules_out_a_higher_double_in_the_block_game() -> None:
    """RULES.md: "the holder of the highest double must lead it": seat 1 led 5-5, so
    the 6-6 is out of play, in no hand; the sampler never deals it to seat 1 either."""
    rnd = Round.from_hands(Rules.preset("block"), [
        ["6-0", "4-1", "3-0", "2-1", "6-1", "5-0", "4-0"],
        ["5-5", "3-2", "6-2", "5-1", "4-2", "1-0", "3-1"]])
    view = rnd.view(0)
    assert view.lead == (1, Tile(5, 5), True)
    deals = np.array([[0, Tile(3, 2).bit], [0, Tile(6, 6).bit]])
    assert Holdings(view).log_counts(deals).tolist() == [0.0, -math.inf]
    sampler = Sampler(view)
    assert not any(Tile(6, 6) in sampler.sample(random.Random(n)).hands[1] for n in range(300))
    assert any(Tile(5, 4) in sampler.sample(random.Random(n)).hands[1] for n in range(300))


def ruled_out(view: PlayerView, hands: list[int]) -> int:
    """How many of the other seat's ``hands`` (tile masks) it cannot have come by."""
    deals = np.zeros((len(hands), 2), dtype=np.int64)
    deals[:, 1 - view.seat] = hands
    return int(np.isinf(Holdings(view).log_counts(deals)).sum())


def test_expert_never_keeps_a_deal_the_draws_rule_out() -> None:
    """Where uniform deals of the looser facts give the other seat a hand it cannot
    have come by, Expert's deals never do."""
    found = 0
    for seed in range(100):
        rnd, _ = played_round("draw", seed, 20)
        if rnd.is_over:
            continue
        view = rnd.view(rnd.turn)  # type: ignore[arg-type]
        sampler, rng = Sampler(view), random.Random(seed)
        uniform = [sampler.sample_dealt(rng).hands[1 - view.seat] for _ in range(200)]
        if ruled_out(view, uniform):
            found += 1
            kept = ExpertBot(seed=seed, samples=200).deals(view)
            assert ruled_out(view, [deal.hands[1 - view.seat] for deal in kept]) == 0
    assert found >= 5
