"""RULES.md, "Draw game" and "Block game": each test quotes the sentences it checks."""

from __future__ import annotations

import random

import pytest

from bones import Draw, IllegalMove, Match, Round, Rules, Tile
from bones.scoring import score
from bones.tiles import mask_of

from .helpers import make_round, play, texts, tiles

# A 3-player draw deal won by seat 1 (worked example 01 of RULES.md).
DEAL_01 = {
    "hands": [["5-4", "5-2", "5-0", "4-0", "3-1"], ["6-3", "6-0", "5-3", "4-3", "1-0"],
              ["4-1", "3-2", "3-0", "2-1", "2-0"]],
    "boneyard": ["6-1", "6-5", "6-4", "2-2", "6-2", "3-3", "1-1", "4-2", "5-5", "6-6", "5-1",
                 "4-4", "0-0"],
}
MOVES_01 = ["3-2 right", "5-2 right", "5-3 right", "3-0 right", "5-0 right", "6-0 left",
            "2-0 left", "5-4 right", "4-3 right", "2-1 left", "3-1 right", "1-0 left"]
# A 4-player block deal that ends in a tie for the lowest hand (worked example 05).
DEAL_05 = {
    "hands": [["6-5", "6-0", "5-2", "3-3", "3-1", "2-2", "2-1"],
              ["6-4", "5-5", "4-2", "3-0", "2-0", "1-1", "0-0"],
              ["6-6", "6-3", "6-1", "5-3", "4-3", "4-0", "1-0"],
              ["6-2", "5-4", "5-1", "5-0", "4-4", "4-1", "3-2"]],
    "boneyard": [],
}
MOVES_05 = ["6-2 right", "2-1 right", "6-4 left", "6-1 right", "4-1 left", "6-0 right",
            "3-0 right", "6-3 right", "5-1 left", "6-5 left"]
SECOND_DEAL_3P = {
    "hands": [["6-6", "6-5", "6-4", "6-3", "6-2"], ["5-5", "5-4", "5-3", "5-2", "5-1"],
              ["4-4", "4-3", "4-2", "4-1", "4-0"]],
    "boneyard": ["6-1", "6-0", "5-0", "3-3", "3-2", "3-1", "3-0", "2-2", "2-1", "2-0", "1-1",
                 "1-0", "0-0"],
}


def test_draw_hands() -> None:
    """2 players: 7 tiles each; 3 or 4 players: 5 each; the rest is the boneyard."""
    for players, size, rest in [(2, 7, 14), (3, 5, 13), (4, 5, 8)]:
        rnd = Round.deal(Rules.preset("draw", players=players), seed=players)
        counts = [len(h) for h in rnd.hands]
        assert sorted(counts) == [size - 1] + [size] * (players - 1)  # the lead is out
        assert len(rnd.boneyard) == rest and rnd.out_of_play == ()
    with pytest.raises(ValueError, match="must hold 7 tiles"):
        Round.from_hands(Rules.preset("draw"), [tiles("6-6 6-5"), tiles("5-5 5-4")])


def test_first_lead_is_the_highest_double() -> None:
    """First round: the holder of the highest double must lead it; if no double was dealt,
    the holder of the strongest tile leads that tile."""
    rnd = make_round("draw", ["6-5 6-4 3-3 2-1 1-0", "5-5 5-4 5-3 5-2 5-1", "6-3 6-2 4-2 4-1 4-0"])
    assert rnd.lead is not None and (rnd.lead.seat, rnd.lead.tile) == (1, Tile(5, 5))
    assert rnd.turn == 2
    no_double = make_round("draw", ["6-5 5-3 4-1 3-0 2-1 6-0 5-0", "6-4 6-3 5-4 4-2 3-1 2-0 1-0"])
    assert no_double.lead is not None
    assert (no_double.lead.seat, no_double.lead.tile) == (0, Tile(6, 5))


def test_forced_lead_is_automatic() -> None:
    """This forced lead is played automatically."""
    rnd = make_round("draw", ["6-5 6-4 3-3 2-1 1-0", "5-5 5-4 5-3 5-2 5-1", "6-3 6-2 4-2 4-1 4-0"])
    assert rnd.lead is not None and rnd.lead.automatic
    assert [str(p) for p in rnd.line] == ["5|5"] and rnd.moves == () and rnd.hand_count(1) == 4
    with pytest.raises(IndexError):
        rnd.pop()


def test_winner_leads_the_next_round() -> None:
    """Later rounds: the winner of the previous round leads any tile; after a round that
    nobody won (tied block), the first-round rule applies again (seeds 001, 003)."""
    match = Match.from_deals(Rules.preset("draw", players=3), [DEAL_01, SECOND_DEAL_3P])
    play(match.round, *MOVES_01[:-1])
    match.push(MOVES_01[-1])
    assert match.results[0].winner == 1 and len(match.rounds) == 2
    second = match.round
    assert second.lead is None and second.turn == 1 and second.line == ()
    assert texts(second.legal_moves()) == ["5-5", "5-4", "5-3", "5-2", "5-1"]
    match.push("5-3")
    assert second.lead is not None and (second.lead.seat, str(second.lead.tile)) == (1, "5-3")
    assert not second.lead.automatic and second.ends == (5, 3) and second.turn == 2


def test_first_round_rule_after_a_tied_block() -> None:
    """Later rounds: the winner of the previous round leads any tile; after a round that
    nobody won (tied block), the first-round rule applies again (seeds 001, 003)."""
    second = {"hands": [["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"],
                        ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-4"],
                        ["5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1"],
                        ["4-0", "3-2", "3-1", "3-0", "2-1", "2-0", "1-0"]], "boneyard": []}
    match = Match.from_deals(Rules.preset("block", players=4), [DEAL_05, second])
    for move in MOVES_05:
        match.push(move)
    assert match.results[0].winner is None
    lead = match.round.lead
    assert lead is not None and lead.automatic and (lead.seat, str(lead.tile)) == (0, "6-6")


def test_opening_every_round_option() -> None:
    """Option opening_every_round: the first-round rule in every round (the reading of
    seed 000)."""
    rules = Rules.preset("draw", players=3, opening_every_round=True)
    match = Match.from_deals(rules, [DEAL_01, SECOND_DEAL_3P])
    for move in MOVES_01:
        match.push(move)
    lead = match.round.lead
    assert match.results[0].winner == 1
    assert lead is not None and lead.automatic and (lead.seat, str(lead.tile)) == (0, "6-6")


def test_domino_scores_all_other_hands() -> None:
    """Domino: the player who went out scores the sum of all pips left in all other hands."""
    rnd = make_round("draw", ["6-6 6-5", "6-4 3-2"], hand_size=2)
    play(rnd, "6-4 right", "6-5 left")
    assert rnd.result is not None and (rnd.result.winner, rnd.result.points) == (0, (5, 0))
    rules = Rules.preset("draw", players=4)
    hands = [mask_of(tiles("6-6 1-0")), mask_of(tiles("5-5")), 0, mask_of(tiles("4-3 2-2"))]
    result = score(rules, "domino", hands, 2, (0, 0, 0, 0))
    assert (result.winner, result.points) == (2, (0, 0, 13 + 10 + 11, 0))


def test_blocked_lowest_hand_scores_others_minus_own() -> None:
    """Blocked: the player with the lowest pip total wins and scores the sum of the other
    hands minus their own (seeds 000, 001)."""
    rules = Rules.preset("draw", players=3)
    # seat 1 holds more tiles but fewer pips: pips decide
    hands = [mask_of(tiles("6-5 5-3")), mask_of(tiles("2-2 2-1 1-0")), mask_of(tiles("6-6 3-3"))]
    result = score(rules, "blocked", hands, 0, (0, 0, 0))
    assert (result.winner, result.points) == (1, (0, 19 + 18 - 8, 0))


def test_blocked_scoring_others() -> None:
    """Option blocked_scoring = "others": the sum of the other hands only (seed 003)."""
    rules = Rules.preset("draw", players=3, blocked_scoring="others")
    hands = [mask_of(tiles("6-5 5-3")), mask_of(tiles("2-2 2-1 1-0")), mask_of(tiles("6-6 3-3"))]
    result = score(rules, "blocked", hands, 0, (0, 0, 0))
    assert (result.winner, result.points) == (1, (0, 19 + 18, 0))
    with pytest.raises(ValueError, match="blocked_scoring"):
        Rules.preset("draw", blocked_scoring="half")


def test_tied_lowest_hand_scores_nothing() -> None:
    """A tie for the lowest total, even with equal tile counts, scores nothing for anyone."""
    for rules in (Rules.preset("draw", players=3), Rules.preset("block", players=3)):
        equal_counts = [mask_of(tiles("6-0")), mask_of(tiles("3-3")), mask_of(tiles("6-6"))]
        other_counts = [mask_of(tiles("5-1")), mask_of(tiles("2-2 1-1")), mask_of(tiles("6-5"))]
        for hands in (equal_counts, other_counts):
            result = score(rules, "blocked", hands, 2, (0, 0, 0))
            assert (result.winner, result.points) == (None, (0, 0, 0))


def test_match_target(rng: random.Random) -> None:
    """Match: first to reach the target wins, in whatever round; target 50, 100 (default) or
    150; or a single round."""
    assert Rules.preset("draw").target == 100
    for target in (50, 100, 150):
        for seed in range(8):
            match = Match(Rules.preset("draw", target=target), seed=seed)
            while not match.is_over:
                match.push(rng.choice(match.round.legal_moves()))
            assert match.winner is not None
            assert match.scores[match.winner] >= target
            assert all(max(s) < target for s in match.scores_after[:-1])
    single = Match(Rules.preset("draw", target=None), seed=1)
    while not single.is_over:
        single.push(rng.choice(single.round.legal_moves()))
    assert len(single.results) == 1 and single.winner == single.results[0].winner
    with pytest.raises(ValueError, match="target"):
        Rules.preset("draw", target=75)


def test_block_never_draws(rng: random.Random) -> None:
    """As the draw game, but nothing is ever drawn: who cannot play passes."""
    for players in (2, 3, 4):
        for seed in range(40):
            rnd = Round.deal(Rules.preset("block", players=players), seed=seed)
            assert rnd.boneyard == ()
            while not rnd.is_over:
                legal = rnd.legal_moves()
                assert Draw() not in legal
                if legal == [rnd.forced()]:
                    with pytest.raises(IllegalMove):
                        rnd.push("draw")
                rnd.push(rng.choice(legal))


def test_block_hands() -> None:
    """Hands: 2 players 7 each (14 tiles stay out, face down), 3 players 6 each (10 out),
    4 players 7 each (all dealt)."""
    for players, size, out in [(2, 7, 14), (3, 6, 10), (4, 7, 0)]:
        rules = Rules.preset("block", players=players)
        assert rules.hand_size == size
        rnd = Round.deal(rules, seed=players)
        assert sum(len(h) for h in rnd.hands) + 1 == players * size
        assert len(rnd.out_of_play) == out and rnd.boneyard == ()


def test_block_seven_each_for_three() -> None:
    """Option: 7 each for 3 players (seed 003)."""
    rules = Rules.preset("block", players=3, hand_size=7)
    rnd = Round.deal(rules, seed=3)
    assert sum(len(h) for h in rnd.hands) + 1 == 21 and len(rnd.out_of_play) == 7
    with pytest.raises(ValueError, match="do not fit"):
        Rules.preset("block", players=4, hand_size=8)


def test_out_of_play_never_seen_nor_counted() -> None:
    """Tiles out of play are never seen and never count."""
    rnd = make_round("block", ["6-6 6-5", "6-4 3-2"], hand_size=2)
    assert Tile(5, 5) in rnd.out_of_play and len(rnd.out_of_play) == 24
    view = rnd.view(1)
    assert not set(view.hand) & set(rnd.out_of_play) and view.boneyard_count == 0
    assert view.unseen_count == 28 - 1 - 2
    play(rnd, "6-4 right", "6-5 left")
    assert rnd.result is not None and rnd.result.points == (5, 0)  # 3-2 only
