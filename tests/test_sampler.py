"""The sampler deals hidden tiles uniformly among the deals a seat cannot rule out:
checked against exact enumeration on small positions, with a chi-square test."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from scipy.stats import chisquare

from bones import DOUBLE_SIX, Round, Rules, Tile
from bones.bots.sampler import Sampler
from bones.view import PlayerView

from .helpers import random_positions


def consistent_deals(view: PlayerView) -> Iterator[tuple[frozenset[Tile], ...]]:
    """Every way to fill the other hands, by brute force."""
    seen = set(view.hand) | {p.tile for p in view.line}
    seen |= {p.tile for arm in view.arms.values() for p in arm}
    unseen = [t for t in DOUBLE_SIX if t not in seen]
    others = [s for s in range(view.rules.players) if s != view.seat]
    lead = view.lead  # no hand was dealt a tile stronger than a forced lead (not Kozel's)
    outranking = {t for t in DOUBLE_SIX if lead is not None and lead.automatic
                  and view.rules.variant != "kozel" and t.strength > lead.tile.strength}

    def fill(index: int, left: list[Tile]) -> Iterator[tuple[frozenset[Tile], ...]]:
        if index == len(others):
            yield ()
            return
        seat = others[index]
        allowed = [t for t in left if not ({t.high, t.low} & view.lacks[seat])
                   and (t not in outranking or kept_a_draw(view, seat))]
        for hand in combinations(allowed, view.hand_counts[seat]):
            rest = [t for t in left if t not in hand]
            for tail in fill(index + 1, rest):
                yield (frozenset(hand), *tail)

    yield from fill(0, unseen)


def kept_a_draw(view: PlayerView, seat: int) -> bool:
    """Whether ``seat`` drew a tile it did not place at once (so may hold any tile)."""
    history = list(view.history)
    after = [history[at + 1:at + 2] for at, (who, move) in enumerate(history)
             if who == seat and move == "draw"]
    return any(then in ([], [(seat, "draw")], [(seat, "pass")]) for then in after)


def small_positions(variant: str, players: int, most: int) -> Iterator[PlayerView]:
    """Views from random play with between 6 and ``most`` consistent deals, some of
    their players having shown voids."""
    rules = Rules.preset(variant, players=players)
    rng = random.Random(variant + str(players))
    for seed in range(4000):
        rnd = Round.deal(rules, seed=seed)
        while not rnd.is_over:
            view = rnd.view(rnd.turn or 0)
            if any(view.lacks[s] for s in range(players) if s != view.seat):
                count = Sampler(view).count
                if 6 <= count <= most:
                    yield view
                    break
            rnd.push(rng.choice(rnd.legal_moves()))


@pytest.mark.parametrize(("variant", "players"), [
    ("kozel", 4), ("draw", 3), ("draw", 4), ("block", 3), ("allfives", 2), ("block", 2)])
def test_uniform_against_enumeration(variant: str, players: int) -> None:
    views = small_positions(variant, players, most=300)
    for view in [next(views), next(views)]:
        deals = list(consistent_deals(view))
        sampler = Sampler(view)
        assert sampler.count == len(deals) == len(set(deals))
        rng = random.Random(7)
        draws = 60 * len(deals)
        others = [s for s in range(players) if s != view.seat]
        seen = Counter(
            tuple(frozenset(sample.hands[s]) for s in others)
            for sample in (sampler.sample(rng) for _ in range(draws)))
        assert set(seen) <= set(deals), "a sample breaks what the seat knows"
        observed = [seen[deal] for deal in deals]
        assert chisquare(observed).pvalue > 0.001


def test_samples_keep_everything_known() -> None:
    rng = random.Random(3)
    for rnd in random_positions(Rules.preset("draw", players=4), range(200), rng, 30):
        view = rnd.view(rnd.turn or 0)
        sample = Sampler(view).sample(rng)
        assert sample.hands[view.seat] == view.hand
        assert [len(h) for h in sample.hands] == list(view.hand_counts)
        assert len(sample.boneyard) == view.boneyard_count
        placed = {p.tile for p in view.line}
        dealt = [t for h in sample.hands for t in h] + list(sample.boneyard)
        assert len(dealt) == len(set(dealt)) and not placed & set(dealt)
        for seat, hand in enumerate(sample.hands):
            assert not any({t.high, t.low} & view.lacks[seat] for t in hand)


def test_the_boneyard_order_is_uniform() -> None:
    """Seat 1 led 4-4, the strongest tile dealt: 6-6 and 5-5 were not dealt and lie in
    the boneyard; of the 18 other unseen tiles, 6 are in seat 1's hand. The top tile is
    any of the boneyard's 14 alike."""
    rnd = Round.deal(Rules.preset("allfives"), seed=5)
    view = rnd.view(rnd.turn or 0)
    assert view.lead == (1, Tile(4, 4), True)
    sampler = Sampler(view)
    rng = random.Random(1)
    tops = Counter(sampler.sample(rng).boneyard[0] for _ in range(20000))
    assert len(tops) == 28 - len(view.hand) - len(view.line) == 20  # any unseen tile
    outranking = [Tile(6, 6), Tile(5, 5)]
    expected = [20000 / 14 * (1 if t in outranking else 12 / 18) for t in tops]
    assert chisquare(list(tops.values()), expected).pvalue > 0.001


def test_an_impossible_view_is_refused() -> None:
    rnd = Round.deal(Rules.preset("kozel"), seed=1)
    view = rnd.view(rnd.turn or 0)
    everything = frozenset(range(7))
    lacking = tuple(everything if s != view.seat else frozenset() for s in range(4))
    from dataclasses import replace

    with pytest.raises(ValueError, match="no deal fits"):
        Sampler(replace(view, lacks=lacking))
