"""RULES.md, "Kozel": each test quotes the sentences it checks."""

from __future__ import annotations

import random

import pytest

from bones import Match, Pass, Round, RoundResult, Rules, Tile
from bones.match import write_penalty
from bones.scoring import hand_value, score
from bones.tiles import mask_of

from .helpers import tiles

KOZEL = Rules.preset("kozel")
# Seat 1 leads 1-1 and goes out; seat 0 keeps the lone 6-6 (worked example 07).
DEAL_07 = {"hands": [["6-6", "6-1", "5-2", "4-0", "3-0", "2-1", "1-0"],
                     ["6-5", "6-3", "5-4", "4-3", "3-1", "2-0", "1-1"],
                     ["6-4", "6-2", "6-0", "5-5", "5-3", "5-1", "4-1"],
                     ["5-0", "4-4", "4-2", "3-3", "3-2", "2-2", "0-0"]], "boneyard": []}
MOVES_07 = ["5-1 left", "5-0 left", "4-0 left", "3-1 right", "4-1 left", "3-2 right", "5-2 right",
            "6-5 right", "6-0 right", "0-0 right", "2-1 left", "2-0 right", "6-2 right",
            "4-2 left", "6-1 right", "4-3 left", "5-3 left", "pass", "1-0 right", "5-4 left",
            "6-4 left", "pass", "3-0 right", "6-3 left"]
# Seat 0 leads 1-1; seat 2's 2-1 makes a fish (worked example 08).
DEAL_08 = {"hands": [["6-6", "6-5", "5-3", "4-3", "4-1", "4-0", "1-1"],
                     ["6-4", "6-2", "5-5", "5-4", "5-1", "3-2", "2-0"],
                     ["6-3", "5-2", "5-0", "4-4", "2-2", "2-1", "1-0"],
                     ["6-1", "6-0", "4-2", "3-3", "3-1", "3-0", "0-0"]], "boneyard": []}
MOVES_08 = ["5-1 right", "5-0 right", "6-1 left", "6-5 left", "5-4 left", "1-0 right",
            "3-1 right", "4-1 left", "3-2 right", "2-1 right"]
# Seat 2 leads 1-1 and goes out; pair 1+3 keeps 9 pips (round 1 of worked example 10).
DEAL_10 = {"hands": [["6-5", "6-0", "5-2", "5-0", "4-4", "4-1", "2-2"],
                     ["6-1", "5-4", "4-2", "4-0", "3-0", "2-1", "0-0"],
                     ["6-2", "5-5", "3-3", "3-2", "2-0", "1-1", "1-0"],
                     ["6-6", "6-4", "6-3", "5-3", "5-1", "4-3", "3-1"]], "boneyard": []}
MOVES_10 = ["3-1 left", "4-1 right", "4-0 right", "2-0 right", "4-3 left", "5-2 right",
            "5-4 left", "5-5 right", "5-3 left", "6-5 right", "3-0 left", "1-0 left", "6-3 right",
            "pass", "6-1 left", "3-3 right", "6-4 left", "4-4 left", "4-2 left", "6-2 left",
            "6-6 left", "6-0 left", "0-0 left", "3-2 right"]


def played(deals: list[dict[str, list[list[str]]]], moves: list[str],
           rules: Rules = KOZEL) -> Match:
    match = Match.from_deals(rules, deals, seed=1)
    for move in moves:
        match.push(move)
    return match


def test_pairs_sit_opposite() -> None:
    """Exactly 4 players in 2 pairs; partners sit opposite (seats 0+2 against 1+3)."""
    for players in (2, 3, 5):
        with pytest.raises(ValueError, match="exactly 4 players"):
            Rules.preset("kozel", players=players)
    assert KOZEL.players == 4 and KOZEL.sides == 2
    assert [KOZEL.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert KOZEL.seats_of(0) == (0, 2) and KOZEL.seats_of(1) == (1, 3)


def test_seven_each_and_knocks() -> None:
    """7 tiles each, no boneyard; who cannot play passes automatically."""
    rnd = Round.deal(KOZEL, seed=4)
    assert sum(len(h) for h in rnd.hands) == 27 and rnd.boneyard == () and not rnd.out_of_play
    with pytest.raises(ValueError, match="7 to each player"):
        Rules.preset("kozel", hand_size=6)
    with pytest.raises(ValueError, match="boneyard must be empty"):
        Round.from_hands(KOZEL, DEAL_07["hands"], ["6-6"])
    match = Match.from_deals(KOZEL, [DEAL_07])
    for move in MOVES_07[:17]:
        match.push(move)
    assert match.round.forced() == Pass() and match.round.turn == 3


def test_void_deals_are_dealt_again() -> None:
    """Redeal: if any hand holds 5 or more doubles, or 6 or more tiles carrying the same
    number, the deal is void and is shuffled and dealt again."""
    five_doubles = [["6-6", "5-5", "4-4", "3-3", "2-2", "6-5", "6-4"],
                    ["1-1", "0-0", "6-3", "6-2", "6-1", "6-0", "5-4"],
                    ["5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1"],
                    ["4-0", "3-2", "3-1", "3-0", "2-1", "2-0", "1-0"]]
    six_fives = [["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "6-6"],
                 ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "4-4"],
                 ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
                 ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"]]
    four_doubles = [["6-6", "5-5", "4-4", "3-3", "6-5", "6-4", "6-3"],
                    ["2-2", "1-1", "0-0", "6-2", "6-1", "6-0", "5-4"],
                    ["5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1"],
                    ["4-0", "3-2", "3-1", "3-0", "2-1", "2-0", "1-0"]]
    with pytest.raises(ValueError, match="void deal: seat 0 holds 5 doubles"):
        Round.from_hands(KOZEL, five_doubles)
    with pytest.raises(ValueError, match="void deal: seat 0 holds 6 tiles with a 5"):
        Round.from_hands(KOZEL, six_fives)
    Round.from_hands(KOZEL, four_doubles)  # four doubles are fine
    match = Match.from_deals(KOZEL, [{"hands": five_doubles}, DEAL_07])
    assert match.deals[0][1] == "seat 0 holds 5 doubles" and match.deals[1][1] is None
    assert match.round.hands[1] == tuple(t for t in map(Tile.parse, DEAL_07["hands"][1])
                                         if t != Tile(1, 1))
    for seed in range(300):
        rnd = Round.deal(KOZEL, seed=seed)
        full = [set(h) | ({rnd.lead.tile} if rnd.lead and rnd.lead.seat == s else set())
                for s, h in enumerate(rnd.hands)]
        for hand in full:
            assert sum(t.is_double for t in hand) < 5
            assert all(sum(t.has(n) for t in hand) < 6 for n in range(7))


def test_one_one_leads_the_first_round() -> None:
    """Leads: first round, the holder of 1-1 leads it (automatically)."""
    rnd = Round.from_hands(KOZEL, DEAL_07["hands"])
    assert rnd.lead is not None and rnd.lead.automatic
    assert (rnd.lead.seat, rnd.lead.tile) == (1, Tile(1, 1))  # though seat 0 holds 6-6
    assert rnd.turn == 2 and rnd.ends == (1, 1)


def test_who_ended_the_round_leads_the_next() -> None:
    """Later rounds, the player who ended the previous round (placed its last tile: the
    domino, or the tile after which it was blocked) leads any tile."""
    after_domino = played([DEAL_07, DEAL_08], MOVES_07)
    assert after_domino.results[0].reason == "domino"
    rnd = after_domino.round
    assert rnd.lead is None and rnd.turn == 1
    assert len(rnd.legal_moves()) == 7 and all(m.end is None for m in rnd.legal_moves())
    # target 150, so that the 110 of this fish does not end the match
    after_fish = played([DEAL_08, DEAL_07], MOVES_08, Rules.preset("kozel", target=150))
    assert after_fish.results[0].reason == "blocked" and after_fish.results[0].ended_by == 2
    assert after_fish.round.lead is None and after_fish.round.turn == 2
    after_fish.push("6-4")
    lead = after_fish.round.lead
    assert lead is not None and (lead.seat, str(lead.tile), lead.automatic) == (2, "6-4", False)


def test_points_are_penalties() -> None:
    """Points are penalties."""
    match = played([DEAL_07], MOVES_07)
    assert match.results[0].winner == 1 and match.scores == (60, 0)  # the losers write


def test_domino_the_other_pair_writes_both_hands() -> None:
    """Domino: that player's pair wins the round; the other pair writes down the pips left
    in both of its hands."""
    hands = [mask_of(tiles("5-3")), 0, mask_of(tiles("4-4 1-0")), mask_of(tiles("6-6 6-5"))]
    result = score(KOZEL, "domino", hands, 1, (0, 0))
    assert (result.winner, result.points) == (1, (8 + 9, 0))
    result = score(KOZEL, "domino", hands, 3, (0, 0))  # seat 3 cannot be out, but a pair wins
    assert result.winner == 1


def test_lone_zero_and_lone_six() -> None:
    """A hand consisting of the lone 0-0 counts 25, of the lone 6-6 counts 50 (this hand
    value is used everywhere below)."""
    assert hand_value(KOZEL, mask_of(tiles("0-0"))) == 25
    assert hand_value(KOZEL, mask_of(tiles("6-6"))) == 50
    assert hand_value(KOZEL, mask_of(tiles("6-6 0-0"))) == 12
    assert hand_value(Rules.preset("draw"), mask_of(tiles("6-6"))) == 12
    match = played([DEAL_07], MOVES_07)
    assert match.results[0].points == (50 + 10, 0)
    # in a fish too: a lone 0-0 makes its pair the heavier one
    hands = [mask_of(tiles("0-0")), mask_of(tiles("6-5")), mask_of(tiles("1-0")),
             mask_of(tiles("4-3"))]
    result = score(KOZEL, "blocked", hands, 2, (0, 0))
    assert (result.winner, result.points) == (1, (25 + 1 + 11 + 7, 0))


def test_fish_heavier_pair_writes_everything() -> None:
    """Fish (рыба, blocked): the pair with more pips in hand writes down all pips left in
    all four hands."""
    # pair 0+2 holds 12 + 3 in 3 tiles, pair 1+3 holds 12 + 4 in 5: pips decide, not tiles
    hands = [mask_of(tiles("6-5 1-0")), mask_of(tiles("3-3 2-2 1-1 0-0")),
             mask_of(tiles("2-1")), mask_of(tiles("4-0"))]
    result = score(KOZEL, "blocked", hands, 0, (0, 0))
    assert (result.winner, result.points, result.eggs) == (0, (0, 12 + 3 + 12 + 4), 0)
    match = played([DEAL_08], MOVES_08)
    assert match.results[0].points == (110, 0) and match.scores == (110, 0)


def test_eggs_on_a_tie() -> None:
    """Eggs (яйца) on a tie: nobody writes; that total is carried and added to the penalty
    of the pair that loses the next round (eggs accumulate over several tied fishes)."""
    hands = [mask_of(tiles("6-5")), mask_of(tiles("5-5")), mask_of(tiles("1-0")),
             mask_of(tiles("2-0"))]
    result = score(KOZEL, "blocked", hands, 0, (0, 0))
    assert (result.winner, result.points, result.eggs) == (None, (0, 0), 24)
    tied = RoundResult(None, "blocked", (0, 0), 24)
    assert write_penalty([30, 0], tied, 0) == ([30, 0], 24)
    assert write_penalty([30, 0], tied, 24) == ([30, 0], 48)  # eggs accumulate
    assert write_penalty([30, 0], RoundResult(0, "domino", (0, 20)), 48) == ([30, 68], 0)
    # and in whole matches: tests/golden/kozel-eggs-accumulate.json


def test_thirteen_rule() -> None:
    """13 rule: while a pair's score is still 0, a round penalty (eggs included) below 13
    is not written for it; the carried eggs are spent all the same."""
    below = played([DEAL_10], MOVES_10)
    assert below.results[0].points == (0, 9) and below.scores == (0, 0)
    above = played([DEAL_07], MOVES_07)
    assert above.scores == (60, 0)
    lost_by_1 = RoundResult(0, "domino", (0, 4))
    assert write_penalty([0, 0], lost_by_1, 8) == ([0, 0], 0)  # 4 + 8 eggs: spent, unwritten
    assert write_penalty([0, 0], lost_by_1, 9) == ([0, 13], 0)  # 4 + 9 eggs: written
    assert write_penalty([0, 5], lost_by_1, 0) == ([0, 9], 0)  # no longer at 0
    assert write_penalty([20, 0], lost_by_1, 0) == ([20, 0], 0)  # pair 1+3 is still at 0


def test_goat_and_shutout(rng: random.Random) -> None:
    """End: the pair that first has more than the target (101 for the default 100; 51 for
    50; 151 for 150) loses the match — it is the goat.
    If the winners still have 0, it is a shutout ("dry" win) and the result says so."""
    shutouts = 0
    for target in (50, 100, 150):
        for seed in range(12):
            match = Match(Rules.preset("kozel", target=target), seed=seed)
            while not match.is_over:
                match.push(rng.choice(match.round.legal_moves()))
            assert match.loser is not None and match.winner == 1 - match.loser
            assert match.scores[match.loser] > target >= match.scores[match.winner]
            assert all(max(s) <= target for s in match.scores_after[:-1])
            assert match.shutout == (match.scores[match.winner] == 0)
            shutouts += match.shutout
    assert shutouts > 0
