"""Soft inference reads the other seats' placements back correctly: for the true deal,
each choice's options are exactly the moves the engine allowed at that moment."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bones import Round, Rules, Tile
from bones.bots import HardBot
from bones.bots.inference import MODELS, SPINNER_FEATURES, Mixture, choices, features, options
from bones.bots.sampler import Sampler
from bones.moves import Play
from bones.tiles import mask_of

from .helpers import make_round, play

GAMES = [("draw", 2), ("draw", 4), ("block", 3), ("kozel", 4), ("allfives", 2)]


def _played(variant: str, players: int, seed: int) -> Round:
    rnd = Round.deal(Rules.preset(variant, players=players), seed=seed)
    rng = random.Random(seed)
    while not rnd.is_over:
        rnd.push(rng.choice(rnd.legal_moves()))
    return rnd


@pytest.mark.parametrize(("variant", "players"), GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_options_are_the_engines_moves_then(variant: str, players: int, seed: int) -> None:
    rnd = _played(variant, players, seed)
    truth = [mask_of(h) for h in rnd.hands]
    for seat in range(players):
        view = rnd.view(seat)
        for choice in choices(view):
            assert choice.seat != seat
            then = rnd.rewound(choice.at)
            assert then.turn == choice.seat
            assert view.history[choice.at] == (choice.seat, str(choice.move))
            hand = truth[choice.seat] | choice.since
            assert hand == mask_of(then.hands[choice.seat])
            allowed = [m for m in then.legal_moves() if isinstance(m, Play)]
            assert options(hand, choice.ends) == allowed
            assert math.isfinite(MODELS[variant].log_probability(hand, choice))


def test_a_seat_that_drew_later_is_not_read() -> None:
    """In the draw game a hand after a draw is not the hand before it plus what it
    placed since, so choices made before a draw are left out."""
    seen = 0
    for seed in range(40):
        view = _played("draw", 2, seed).view(0)
        draws = [n for n, (s, m) in enumerate(view.history) if s == 1 and m == "draw"]
        placed = [n for n, (s, m) in enumerate(view.history) if s == 1 and " " in m]
        read = [c.at for c in choices(view)]
        assert read == [n for n in placed if not draws or n > draws[-1]]
        seen += bool(draws and read)
    assert seen, "no round of 40 had a draw and a placement after it"


def test_the_first_seat_has_nothing_to_read_before_anyone_placed() -> None:
    rnd = Round.deal(Rules.preset("draw"), seed=5)
    assert choices(rnd.view(rnd.turn or 0)) == []


def test_all_fives_reads_points_passed_up() -> None:
    """RULES.md, All Fives: "after each placement ..., if the count is a positive
    multiple of 5, the player who placed the tile scores the count". A seat that did not
    take points it could have made probably could not make them: a hand holding the
    scoring tile explains the choice worse than one holding a tile that scores nothing."""
    rnd = make_round("allfives", ["5-5 6-6 6-4 4-4 3-3 2-2 1-1",
                                  "5-1 5-0 4-3 4-2 3-2 2-1 6-3"], leader=0)
    play(rnd, "5-5", "5-1 left")  # 5-0 would have counted 0 + 10: ten points
    [choice] = choices(rnd.view(0))
    hand = mask_of(rnd.hands[1]) | choice.since
    scores = {str(p): features(hand, choice, p)[SPINNER_FEATURES.index("scores")]
              for p in options(hand, choice.ends)}
    assert scores == {"5-1 left": 0.0, "5-1 right": 0.0, "5-0 left": 1.0, "5-0 right": 1.0}
    held_instead = hand & ~Tile(5, 0).bit | Tile(5, 2).bit  # counts 2 + 10: nothing
    model = MODELS["allfives"]
    assert model.log_probability(hand, choice) < model.log_probability(held_instead, choice) - 1


@pytest.mark.parametrize(("variant", "players"), [("kozel", 4), ("block", 2), ("allfives", 2)])
def test_the_true_deal_explains_hards_choices_better_than_a_random_one(
        variant: str, players: int) -> None:
    """The model must tell deals apart in the right direction: over positions from rounds
    Hard played, the deal that really was scores higher than the uniform deals the
    sampler offers, on average."""
    model = MODELS[variant]
    rules = Rules.preset(variant, players=players)
    seats = [HardBot(seed=n, samples=30) for n in range(players)]
    rng = random.Random(7)
    gaps = []
    for seed in range(8):
        rnd = Round.deal(rules, seed=seed)
        while not rnd.is_over:
            view = rnd.view(rnd.turn or 0)
            made = choices(view)
            if len(made) >= 3:
                truth = model.log_likelihood(made, [mask_of(h) for h in rnd.hands])
                sampler = Sampler(view)
                others = [model.log_likelihood(made, [mask_of(h) for h in sampler.sample(
                    rng).hands]) for _ in range(30)]
                gaps.append(truth - sum(others) / len(others))
            rnd.push(seats[view.seat].choose(view))
    assert len(gaps) > 20
    assert sum(gaps) / len(gaps) > 0.5, f"mean log-likelihood gap {sum(gaps) / len(gaps):.2f}"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(4, 12))
def test_a_mixture_is_the_mean_of_its_styles(seed: int, moves: int) -> None:
    """A player of unknown style: the deal's likelihood under a mixture is the mean of
    the likelihoods under each style, so it lies between them and never below the
    likelier style's by more than a factor of how many styles there are."""
    rnd = Round.deal(Rules.preset("block", players=2), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if rnd.is_over:
            break
        rnd.push(rng.choice(rnd.legal_moves()))
    made = choices(rnd.view(0))
    truth = [mask_of(h) for h in rnd.hands]
    mixture = MODELS["block"]
    assert isinstance(mixture, Mixture)
    each = [model.log_likelihood(made, truth) for model in mixture.models]
    mixed = mixture.log_likelihood(made, truth)
    assert mixed == pytest.approx(math.log(sum(math.exp(x) for x in each) / len(each)))
    assert min(each) - 1e-9 <= mixed <= max(each) + 1e-9
    assert mixed >= max(each) - math.log(len(each)) - 1e-9
