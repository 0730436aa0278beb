"""Bots: legal, deterministic under a seed, and blind to what their seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bones import Round, Rules, bots
from bones.bots.sampler import Dealt
from bones.tiles import DOUBLE_SIX
from bones.view import PlayerView

from .helpers import random_positions

LEVELS = [*bots.LEVELS, "master"]
VARIANTS = [("draw", 2), ("draw", 4), ("block", 3), ("kozel", 4), ("allfives", 2)]


def small(level: str, seed: int) -> bots.Bot:
    if level == "hard":  # small batches, so that a choice may settle before the last
        return bots.HardBot(seed=seed, samples=40, batch=10)
    if level == "master":
        return bots.MasterBot(seed=seed, samples=40, iterations=2000)
    return bots.get(level, seed=seed)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_bots_play_whole_rounds_legally(level: str, variant: str, players: int) -> None:
    rules = Rules.preset(variant, players=players)
    bot = small(level, 1)
    for seed in range(3):
        rnd = Round.deal(rules, seed=seed)
        while not rnd.is_over:
            move = bot.choose(rnd.view(rnd.turn or 0))
            assert move in rnd.legal_moves()
            rnd.push(move)


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_under_a_seed(level: str) -> None:
    rng = random.Random(5)
    for seed, rnd in enumerate(random_positions(Rules.preset("kozel"), range(15), rng, 10)):
        view = rnd.view(rnd.turn or 0)
        if len(view.legal_moves) < 2:
            continue
        assert small(level, seed).choose(view) == small(level, seed).choose(view)


@pytest.mark.parametrize("level", LEVELS)
def test_without_a_seed_each_bot_draws_its_own_stream(level: str) -> None:
    """An unseeded bot is seeded by the operating system: no two draw alike (the chance
    that two 64-bit draws agree is 2**-64)."""
    assert bots.get(level).rng.getrandbits(64) != bots.get(level).rng.getrandbits(64)


class Counting(bots.HardBot):
    """Hard that counts the deals it draws."""

    drawn = 0

    def dealing(self, view: PlayerView) -> Iterator[Dealt]:
        for deal in super().dealing(view):
            self.drawn += 1
            yield deal


def test_hard_deals_until_the_choice_is_settled() -> None:
    """Hard stops dealing once the move ahead is settled: on some choices before the
    last of its deals, never beyond them; told never to stop (``tolerance=None``), as
    Expert is, it draws every deal."""
    rng = random.Random(8)
    settling, every = Counting(seed=1), Counting(seed=1, tolerance=None)
    early = 0
    for rnd in random_positions(Rules.preset("block", players=2), range(20), rng, 12):
        view = rnd.view(rnd.turn or 0)
        if len(view.legal_moves) < 2:
            continue
        before = settling.drawn
        settling.evaluate(view)
        assert settling.drawn - before <= 360
        early += settling.drawn - before < 360
        before = every.drawn
        every.evaluate(view)
        assert every.drawn - before == 360
    assert early >= 3


def same_view_other_hands(rnd: Round, seat: int, rng: random.Random) -> Round:
    """A round of a variant without drawing whose hidden tiles are dealt differently but
    which shows ``seat`` the same view: the other hands' tiles shuffled among them (voids
    kept), the same moves played."""
    assert not rnd.rules.draws
    view = rnd.view(seat)
    placed = {text.split()[0]: mover for mover, text in rnd.history if text != "pass"}
    lead = rnd.lead
    assert lead is not None
    placed[str(lead.tile)] = lead.seat
    hidden = [t for s, h in enumerate(rnd.hands) if s != seat for t in h]
    hidden += list(rnd.out_of_play)
    others = [s for s in range(rnd.rules.players) if s != seat]
    for _ in range(2000):
        rng.shuffle(hidden)
        hands, start = [], 0
        for s in range(rnd.rules.players):
            size = len(rnd.hands[s])
            hands.append(list(rnd.hands[s]) if s == seat else hidden[start:start + size])
            start += 0 if s == seat else size
        if any({t.high, t.low} & view.lacks[s] for s in others for t in hands[s]):
            continue
        for tile_text, owner in placed.items():
            hands[owner].append(DOUBLE_SIX[[str(t) for t in DOUBLE_SIX].index(tile_text)])
        try:
            twin = Round.from_hands(rnd.rules, hands, leader=None if lead.automatic else
                                    lead.seat, scores=rnd.scores)
            for _, text in rnd.history:
                twin.push(text)
        except ValueError:  # a void Kozel deal, or moves this deal does not allow
            continue
        if twin.view(seat) == view and twin.hands != rnd.hands:
            return twin
    pytest.skip("no other deal fits this view")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", ["kozel", "block"])
def test_a_bot_sees_only_its_view(level: str, variant: str) -> None:
    """Two rounds that differ only in tiles a seat cannot see get the same decision from
    the same bot with the same seed: the view is all it reads."""
    rng = random.Random(variant)
    checked = 0
    for seed, rnd in enumerate(random_positions(Rules.preset(variant), range(40), rng, 8)):
        seat = rnd.turn or 0
        twin = same_view_other_hands(rnd, seat, rng)
        assert twin.view(seat) == rnd.view(seat)
        assert twin.hands != rnd.hands
        if len(rnd.legal_moves()) > 1:
            assert small(level, seed).choose(rnd.view(seat)) == small(level, seed).choose(
                twin.view(seat))
            checked += 1
    assert checked > 5


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        bots.get("genius")


def test_expert_plays_for_the_match() -> None:
    """Expert counts a round that ends the match (``MATCH_BONUS``): from 0:0 no round of
    the draw game reaches 100 and its values are those of the same search without the
    bonus to the last digit; at 95:95 whoever wins the round wins the match, and the
    bonus moves each move's value, by at most the bonus."""
    from bones.bots.expert import MATCH_BONUS, ExpertBot

    rules = Rules.preset("draw")
    moved = 0
    for seed in range(4):
        for scores, ends in (((0, 0), False), ((95, 95), True)):
            rnd = Round.deal(rules, seed=seed, scores=scores)
            view = rnd.view(rnd.turn or 0)
            with_bonus = ExpertBot(seed=seed, samples=40).evaluate(view)
            without = ExpertBot(seed=seed, samples=40, match_bonus=0.0).evaluate(view)
            shifts = [a - b for a, b in zip(with_bonus, without, strict=True)]
            if not ends:
                assert shifts == [0.0] * len(shifts)
                continue
            assert all(abs(d) <= MATCH_BONUS + 1e-9 for d in shifts)
            moved += any(abs(d) > 1 for d in shifts)
    assert moved == 4
