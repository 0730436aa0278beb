"""RULES.md, "All Fives": each test quotes the sentences it checks.

Several tests let seat 0 choose the lead (``leader=0``) to reach a layout quickly; the
spinner and counting rules do not depend on who led.
"""

from __future__ import annotations

import random

import pytest

from bones import Draw, Match, Round, Rules, Tile
from bones.scoring import score
from bones.tiles import mask_of

from .helpers import make_round, play, tiles

ALLFIVES = Rules.preset("allfives")
SPINNER_HANDS = ["6-3 3-3 3-0 6-5 2-2 1-1 5-0", "6-6 6-1 6-4 4-4 2-1 4-2 5-2"]


def spinner_round() -> Round:
    return make_round("allfives", SPINNER_HANDS, leader=0)


def test_two_players_seven_tiles_and_a_boneyard() -> None:
    """2 players, 7 tiles each, 14 in the boneyard; drawing as in the draw game."""
    for players in (3, 4):
        with pytest.raises(ValueError, match="exactly 2 players"):
            Rules.preset("allfives", players=players)
    rnd = Round.deal(ALLFIVES, seed=5)
    assert sorted(len(h) for h in rnd.hands) == [6, 7] and len(rnd.boneyard) == 14
    stuck = make_round("allfives", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-4 5-3 4-3 3-2 2-1 1-0 0-0"],
                       top="5-5 4-4")
    assert stuck.legal_moves() == [Draw()]


def test_every_deal_led_by_the_strongest_tile(rng: random.Random) -> None:
    """Every deal is led automatically by the holder of the strongest tile (tile strength
    above)."""
    no_double = make_round("allfives", ["6-5 6-1 5-3 4-2 3-1 2-0 1-0",
                                        "6-4 6-3 5-4 5-1 4-1 3-2 2-1"])
    assert no_double.lead is not None and no_double.lead.automatic
    assert (no_double.lead.seat, no_double.lead.tile) == (0, Tile(6, 5))
    for seed in range(6):
        match = Match(ALLFIVES, seed=seed)
        while not match.is_over:
            match.push(rng.choice(match.round.legal_moves()))
        for number, rnd in enumerate(match.rounds):
            dealt = [t for h in match.deals[number][0].hands for t in h]
            assert rnd.lead is not None and rnd.lead.automatic
            assert rnd.lead.tile == max(dealt, key=Tile.strength_key)


def test_the_first_double_is_the_spinner() -> None:
    """Spinner: the first double placed in the deal (the lead or later).
    No other double branches."""
    rnd = spinner_round()
    play(rnd, "6-3")
    assert rnd.spinner is None
    play(rnd, "6-6 left")
    assert rnd.spinner == Tile(6, 6)
    play(rnd, "3-3 right", "6-1 left", "3-0 right")
    assert rnd.spinner == Tile(6, 6)
    assert rnd.places == {"left": 1, "right": 0, "up": 6, "down": 6}  # nothing off 3-3
    led = make_round("allfives", ["5-5 5-3 5-2 5-0 4-2 4-1 0-0", "6-4 6-3 6-2 5-1 4-3 2-1 1-1"])
    assert led.spinner == Tile(5, 5)


def test_up_and_down_open_after_both_line_sides() -> None:
    """It takes tiles on four sides: its two line sides first; its two other sides (up and
    down) open once both line sides hold a tile."""
    rnd = make_round("allfives", ["5-5 5-3 5-2 5-0 4-2 4-1 0-0", "6-4 6-3 6-2 5-1 4-3 2-1 1-1"])
    assert list(rnd.places) == ["left", "right"]
    play(rnd, "5-1 left")
    assert list(rnd.places) == ["left", "right"]
    legal = [str(m) for m in rnd.legal_moves()]
    assert legal == ["4-1 left", "5-3 right", "5-2 right", "5-0 right"]  # no up, no down
    play(rnd, "5-0 right")
    assert rnd.places == {"left": 1, "right": 0, "up": 5, "down": 5}


def test_two_three_or_four_open_ends() -> None:
    """So the layout has 2, 3 or 4 open ends."""
    rnd = spinner_round()

    def ends_in_use() -> int:
        return 2 + sum(1 for arm in rnd.arms.values() if arm)

    play(rnd, "6-3", "6-6 left", "3-3 right", "6-1 left", "3-0 right")
    assert ends_in_use() == 2
    play(rnd, "6-4 up")
    assert ends_in_use() == 3
    play(rnd, "6-5 down")
    assert ends_in_use() == 4 and rnd.ends == (1, 0, 4, 5)


def test_counting_the_ends() -> None:
    """Counting the ends: the sum of the outer numbers of all open ends, where a double
    lying at an end counts both halves (6 + 2x2 = 10)."""
    rnd = make_round("allfives", ["6-2 5-1 4-1 3-1 1-0 0-0 6-0", "2-2 6-4 5-4 4-3 3-2 5-3 6-5"],
                     leader=0)
    play(rnd, "6-2", "2-2 right")
    assert rnd.count == 6 + 2 * 2 and rnd.count_points == (0, 10)
    rnd = spinner_round()
    counts = []
    for move in ["6-3", "6-6 left", "3-3 right", "6-1 left", "3-0 right", "6-4 up", "6-5 down",
                 "4-4 up"]:
        rnd.push(move)
        counts.append(rnd.count)
    assert counts == [9, 15, 18, 7, 1, 5, 10, 14]


def test_spinner_ends_and_empty_arms() -> None:
    """A spinner with an empty line side is an end with both halves; once both line sides
    are covered it counts nothing itself, and an open but empty up/down side counts
    nothing."""
    rnd = spinner_round()
    play(rnd, "6-3", "6-6 left")
    assert rnd.count == 12 + 3  # 6-6 is an end with an empty side
    play(rnd, "3-3 right", "6-1 left")
    assert rnd.places["up"] == rnd.places["down"] == 6
    assert rnd.count == 1 + 6  # the covered spinner and its empty arms count nothing


def test_lone_lead() -> None:
    """A lone lead counts both its halves (5-5 = 10, 3-2 = 5)."""
    five = make_round("allfives", ["5-5 5-3 5-2 5-0 4-2 4-1 0-0", "6-4 6-3 6-2 5-1 4-3 2-1 1-1"])
    assert five.count == 10 and five.count_points == (10, 0)
    three = make_round("allfives", ["3-2 5-1 4-1 3-1 1-0 0-0 6-0", "2-2 6-4 5-4 4-3 6-2 5-3 6-5"],
                       leader=0)
    play(three, "3-2")
    assert three.count == 5 and three.count_points == (5, 0)


def test_points_during_play() -> None:
    """Points during play: after each placement (the automatic lead too), if the count is a
    positive multiple of 5, the player who placed the tile scores the count."""
    rnd = spinner_round()
    seen = []
    for move in ["6-3", "6-6 left", "3-3 right", "6-1 left", "3-0 right", "6-4 up", "6-5 down"]:
        rnd.push(move)
        seen.append(rnd.count_points)
    assert seen == [(0, 0), (0, 15), (0, 15), (0, 15), (0, 15), (0, 20), (10, 20)]
    zero = make_round("allfives", ["2-0 6-0 5-1 4-1 3-1 2-2 1-1", "6-2 6-4 5-4 4-3 5-3 6-5 3-2"],
                      leader=0)
    play(zero, "2-0", "6-2 left", "6-0 left")  # 0|0 counts 0: not a positive multiple
    assert zero.ends == (0, 0) and zero.count == 0 and zero.count_points == (0, 0)


def test_domino_rounds_down() -> None:
    """Domino: the player who went out scores the opponent's pips rounded down to a
    multiple of 5 (23 → 20)."""
    hands = [0, mask_of(tiles("6-5 6-4 1-1"))]  # 11 + 10 + 2 = 23
    result = score(ALLFIVES, "domino", hands, 0, (0, 0))
    assert (result.winner, result.points) == (0, (20, 0))
    result = score(ALLFIVES, "domino", [mask_of(tiles("2-2")), 0], 1, (0, 0))
    assert result.points == (0, 0)


def test_blocked_winner() -> None:
    """Blocked: the winner is the player ahead in the match score at that moment (this
    deal's count points included); if level, the one with fewer tiles; if still level, the
    one who placed the last tile."""
    hands = [mask_of(tiles("6-6 5-5")), mask_of(tiles("1-0 2-0 3-0"))]
    ahead = score(ALLFIVES, "blocked", hands, 1, (60, 55))
    assert ahead.winner == 0  # ahead, though with more pips
    fewer = score(ALLFIVES, "blocked", hands, 1, (60, 60))
    assert fewer.winner == 0
    same = [mask_of(tiles("6-6 5-5")), mask_of(tiles("1-0 2-0"))]
    assert score(ALLFIVES, "blocked", same, 1, (60, 60)).winner == 1
    assert score(ALLFIVES, "blocked", same, 0, (60, 60)).winner == 0
    # "this deal's count points included": the round passes match score + count points
    rnd = make_round("allfives", ["5-5 5-3 5-2 5-0 4-2 4-1 0-0", "6-4 6-3 6-2 5-1 4-3 2-1 1-1"],
                     scores=(0, 5))
    assert rnd.view(1).scores == (10, 5)


def test_blocked_award_may_be_negative() -> None:
    """The winner scores the opponent's pips minus their own — which may be negative."""
    hands = [mask_of(tiles("6-6 5-5")), mask_of(tiles("1-0 2-0 3-0"))]
    result = score(ALLFIVES, "blocked", hands, 1, (60, 55))
    assert (result.winner, result.points) == (0, (6 - 22, 0))


def test_match_ends_the_moment_a_player_reaches_100() -> None:
    """Match: first to 100; the game ends the moment a player reaches it, even in the
    middle of a deal (a count score can end it)."""
    lead_scores = make_round("allfives", ["5-5 5-3 5-2 5-0 4-2 4-1 0-0",
                                          "6-4 6-3 6-2 5-1 4-3 2-1 1-1"], scores=(90, 95))
    assert lead_scores.is_over and lead_scores.result is not None
    assert (lead_scores.result.reason, lead_scores.result.winner) == ("target", 0)
    assert lead_scores.result.points == (0, 0) and lead_scores.turn is None
    assert ALLFIVES.target == 100
    rnd = make_round("allfives", SPINNER_HANDS, leader=0, scores=(99, 85))
    play(rnd, "6-3", "6-6 left")
    assert rnd.is_over and rnd.result is not None and rnd.result.winner == 1
    assert rnd.result.reason == "target" and rnd.count_points == (0, 15)


def test_count_first_then_the_domino() -> None:
    """A placement's count is scored before anything else: if it reaches the target, the
    match ends there and no end-of-deal points are added, even when that placement also
    ended the deal."""
    rnd = make_round("allfives", ["3-2", "6-1"], hand_size=1, leader=0, scores=(95, 0))
    play(rnd, "3-2")  # the lone lead counts 5: 100, and seat 0 is out as well
    assert rnd.result is not None
    assert (rnd.result.reason, rnd.result.winner, rnd.result.points) == ("target", 0, (0, 0))
    not_yet = make_round("allfives", ["3-2", "6-1"], hand_size=1, leader=0, scores=(90, 0))
    play(not_yet, "3-2")
    assert not_yet.result is not None
    assert (not_yet.result.reason, not_yet.result.points) == ("domino", (5, 0))
