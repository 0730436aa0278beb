"""RULES.md, "Common to all variants": each test quotes the sentences it checks."""

from __future__ import annotations

import json
import random
import re

import pytest

from bones import DOUBLE_SIX, Draw, IllegalMove, Pass, Play, Round, Rules, Tile

from .helpers import make_round, play, texts, tiles


def test_the_set() -> None:
    """Double-six: 28 tiles, one for each unordered pair of 0..6."""
    pairs = {(t.high, t.low) for t in DOUBLE_SIX}
    assert len(DOUBLE_SIX) == 28
    assert pairs == {(a, b) for a in range(7) for b in range(7) if a >= b}
    assert Tile(2, 5) is Tile(5, 2)
    with pytest.raises(ValueError):
        Tile(7, 1)


def test_value_and_double() -> None:
    """A tile's *value* is its pip sum (6-6 = 12, 2-5 = 7, 0-0 = 0).
    A *double* has equal halves."""
    assert (Tile(6, 6).value, Tile(2, 5).value, Tile(0, 0).value) == (12, 7, 0)
    assert [t for t in DOUBLE_SIX if t.is_double] == [Tile(n, n) for n in range(7)]
    assert not Tile(6, 5).is_double


def test_writing_tiles() -> None:
    """Write tiles high half first: 6-3, 4-4, 0-0."""
    assert [str(Tile(3, 6)), str(Tile(4, 4)), str(Tile(0, 0))] == ["6-3", "4-4", "0-0"]
    assert Tile.parse("3-6") is Tile(6, 3)
    assert str(Play(Tile(3, 6), "left")) == "6-3 left"


def test_tile_strength() -> None:
    """Tile strength (who opens): every double outranks every non-double; doubles rank
    6-6 > 5-5 > ... > 0-0; non-doubles rank by value, equal values by the higher half
    (6-3 > 5-4)."""
    ranked = sorted(DOUBLE_SIX, key=Tile.strength_key, reverse=True)
    assert ranked[:7] == [Tile(n, n) for n in range(6, -1, -1)]
    assert ranked[7:11] == tiles("6-5 6-4 6-3 5-4")
    assert Tile(0, 0).strength > Tile(6, 5).strength
    assert Tile(6, 3).strength > Tile(5, 4).strength
    # the engine opens with it: 0-0, the only double dealt, beats 6-5
    rnd = make_round("draw", ["6-5 4-2 3-1 2-1 5-1", "0-0 6-4 5-3 4-3 3-2", "6-3 5-4 5-2 4-1 4-0"])
    assert rnd.lead is not None and (rnd.lead.seat, rnd.lead.tile) == (1, Tile(0, 0))


def test_seats_play_clockwise() -> None:
    """Seats are numbered 0..n-1; play passes clockwise, seat i then seat i+1 mod n."""
    rnd = make_round("block", ["5-2 3-3 3-1 2-2 2-1 5-0 6-0", "6-4 5-5 4-2 3-0 2-0 1-1 0-0",
                               "6-5 6-3 6-1 5-3 4-3 4-0 1-0", "6-6 6-2 5-4 5-1 4-4 4-1 3-2"])
    assert rnd.lead is not None and rnd.lead.seat == 3
    seen = []
    for move in ["6-0 right", "6-4 left", "4-3 left", "3-2 left"]:
        seen.append(rnd.turn)
        rnd.push(move)
    assert seen == [0, 1, 2, 3] and rnd.turn == 0
    assert [Rules.preset("draw", players=n).players for n in (2, 3, 4)] == [2, 3, 4]


def test_two_open_ends() -> None:
    """After the first tile the line has two open ends."""
    rnd = make_round("draw", ["6-6 5-4 3-1 2-1 5-1", "6-0 6-4 5-3 4-3 3-2", "6-3 5-5 5-2 4-1 4-0"])
    assert rnd.ends == (6, 6) and list(rnd.places) == ["left", "right"]
    rnd = make_round("draw", ["6-5 4-2 3-1 2-1 5-1", "6-1 6-4 5-3 4-3 3-2", "6-3 5-4 5-2 4-1 4-0"])
    assert rnd.ends == (6, 5)


def test_placing_a_tile() -> None:
    """A tile may be placed at an end when one of its halves equals that end's number;
    its other half becomes the new end."""
    rnd = make_round("draw", ["6-6 5-4 3-1 2-1 5-1", "6-0 6-4 5-3 4-3 3-2", "6-3 5-5 5-2 4-1 4-0"])
    play(rnd, "6-0 left")
    assert rnd.ends == (0, 6)
    assert [str(p) for p in rnd.line] == ["0|6", "6|6"]
    before = rnd.state_key()
    with pytest.raises(IllegalMove, match="does not fit"):
        rnd.push("5-2 left")
    assert rnd.state_key() == before
    play(rnd, "4-0 left")
    assert rnd.ends == (4, 6)


def test_a_tile_fitting_both_ends() -> None:
    """A tile that fits both ends may go to either: the player chooses."""
    rnd = make_round("draw", ["6-6 5-4 3-1 2-1 5-1", "6-0 6-4 5-3 4-3 3-2", "6-3 5-5 5-2 4-1 4-0"])
    assert texts(rnd.legal_moves()) == ["6-4 left", "6-0 left", "6-4 right", "6-0 right"]
    with pytest.raises(IllegalMove, match="fits left and right"):
        rnd.push("6-4")
    left, right = rnd.copy(), rnd.copy()
    play(left, "6-4 left")
    play(right, "6-4 right")
    assert (left.ends, right.ends) == ((4, 6), (6, 4))


def test_doubles_never_branch_the_line() -> None:
    """Doubles are laid crosswise, which is only a picture: they still have one
    neighbour on each side and never branch the line — except the spinner of All Fives."""
    rnd = make_round("block", ["6-6 6-3 3-3 1-0 2-0 4-0 5-0", "6-4 4-4 2-1 3-1 4-1 5-1 6-1"])
    play(rnd, "6-4 right", "6-3 left", "4-4 right", "3-3 left")
    assert rnd.ends == (3, 4) and list(rnd.places) == ["left", "right"]
    assert [str(p) for p in rnd.line] == ["3|3", "3|6", "6|6", "6|4", "4|4"]
    assert rnd.arms == {}
    spinner = make_round("allfives", ["6-6 6-3 3-3 1-0 2-0 4-0 5-0",
                                      "6-4 4-4 2-1 3-1 4-1 5-1 6-1"])
    play(spinner, "6-4 right", "6-3 left")
    assert list(spinner.places) == ["left", "right", "up", "down"]


def test_must_play() -> None:
    """A player who has a fitting tile must play one."""
    rnd = make_round("draw", ["6-6 5-4 3-1 2-1 5-1", "6-0 6-4 5-3 4-3 3-2", "6-3 5-5 5-2 4-1 4-0"])
    assert all(isinstance(m, Play) for m in rnd.legal_moves())
    for move in ("draw", "pass"):
        with pytest.raises(IllegalMove, match="can play"):
            rnd.push(move)
    block = make_round("block", ["6-6 5-4 3-1 2-1 5-1 1-1 0-0", "6-0 6-4 5-3 4-3 3-2 2-2 1-0"])
    with pytest.raises(IllegalMove, match="can play"):
        block.push("pass")


def test_draw_until_one_fits() -> None:
    """where the variant draws: draw tiles from the boneyard one at a time until one fits,
    then play it at once, in the same turn; a player holding a fitting tile may not draw;
    only when the boneyard is empty and nothing fits does the player pass;"""
    rnd = make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-4 5-3 4-3 3-2 2-1 5-0 4-0"],
                     top="5-5 4-4 6-2 2-2")
    assert rnd.turn == 1 and rnd.legal_moves() == [Draw()] and rnd.forced() == Draw()
    play(rnd, "draw")
    assert rnd.turn == 1 and rnd.legal_moves() == [Draw()]
    play(rnd, "draw")
    assert rnd.turn == 1 and rnd.legal_moves() == [Draw()]
    play(rnd, "draw")  # 6-2 fits: it must be played now, by the same player
    assert rnd.turn == 1 and texts(rnd.legal_moves()) == ["6-2 left", "6-2 right"]
    assert rnd.forced() is None
    with pytest.raises(IllegalMove, match="can play"):
        rnd.push("draw")
    play(rnd, "6-2 left")
    assert rnd.turn == 0 and rnd.hand_count(1) == 9 and len(rnd.boneyard) == 11
    assert rnd.history == ((1, "draw"), (1, "draw"), (1, "draw"), (1, "6-2 left"))


def test_pass_only_when_the_boneyard_is_empty() -> None:
    """where the variant draws: draw tiles from the boneyard one at a time until one fits,
    then play it at once, in the same turn; a player holding a fitting tile may not draw;
    only when the boneyard is empty and nothing fits does the player pass;"""
    # 13 tiles each leave a boneyard of two; seat 0 holds every 6
    rnd = make_round("draw", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4 5-3 5-2 5-1 5-0",
                              "4-4 4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1"],
                     top="1-0 0-0")
    assert rnd.turn == 1 and rnd.legal_moves() == [Draw()]
    with pytest.raises(IllegalMove, match="must draw"):
        rnd.push("pass")
    play(rnd, "draw", "draw")  # neither 1-0 nor 0-0 fits 6|6
    assert rnd.boneyard == () and rnd.turn == 1 and not rnd.is_over
    assert rnd.legal_moves() == [Pass()] and rnd.forced() == Pass()
    with pytest.raises(IllegalMove, match="boneyard is empty"):
        rnd.push("draw")
    play(rnd, "pass")
    assert rnd.turn == 0 and not rnd.is_over


def test_knock_where_nothing_is_drawn() -> None:
    """where it does not draw: the player passes ("knocks")."""
    rnd = make_round("block", ["6-6 5-5 5-4 5-1 3-1 2-1 1-1", "6-0 6-4 5-3 4-3 3-2 2-2 1-0"])
    play(rnd, "6-0 left")
    assert rnd.legal_moves() == [Pass()] and rnd.forced() == Pass()
    with pytest.raises(IllegalMove, match="nothing is drawn"):
        rnd.push("draw")
    play(rnd, "pass")
    assert rnd.turn == 1


def test_forced_actions() -> None:
    """Forced actions (the opening tile, drawing, passing) happen automatically in the UI."""
    rnd = make_round("block", ["6-6 5-5 5-4 5-1 3-1 2-1 1-1", "6-0 6-4 5-3 4-3 3-2 2-2 1-0"])
    assert rnd.lead is not None and rnd.lead.automatic and rnd.moves == ()
    assert rnd.forced() is None  # seat 1 has a choice
    play(rnd, "6-0 left")
    assert rnd.forced() == Pass()
    drawing = make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-4 5-3 4-3 3-2 2-1 5-0 4-0"])
    assert drawing.forced() == Draw()


def test_round_ends_at_once() -> None:
    """A round ends at once when a player places their last tile ("domino"), or when it is
    *blocked*: nobody can place a tile and nobody can draw (a full circle of passes would
    follow; the engine ends the round at once, without them)."""
    # 2-player block: the other 6s and 5s are out of play
    rnd = make_round("block", ["6-6 6-5 4-4 3-3 2-2 1-1 0-0", "4-3 4-2 4-1 3-2 3-1 2-1 1-0"])
    play(rnd, "pass")  # seat 1 holds no 6, but seat 0 can still play: not blocked
    assert not rnd.is_over
    play(rnd, "6-5 left")  # 5|6: nobody holds a 5 or a 6
    assert rnd.is_over and rnd.turn is None and rnd.legal_moves() == []
    assert rnd.result is not None and rnd.result.reason == "blocked" and rnd.result.blocked
    assert rnd.history == ((1, "pass"), (0, "6-5 left"))  # no passes after the block
    assert (rnd.result.winner, rnd.result.points) == (0, (31 - 20, 0))
    with pytest.raises(IllegalMove, match="over"):
        rnd.push("pass")


def test_domino_ends_the_round_with_its_last_tile() -> None:
    """A round ends at once when a player places their last tile ("domino"), or when it is
    *blocked*: nobody can place a tile and nobody can draw (a full circle of passes would
    follow; the engine ends the round at once, without them)."""
    rnd = make_round("block", ["6-6 6-5", "6-4 4-4"], hand_size=2)
    play(rnd, "6-4 right")  # seat 1: ends 6|4; seat 0 plays 6-5 and is out
    play(rnd, "6-5 left")
    assert rnd.is_over and rnd.result is not None
    assert (rnd.result.reason, rnd.result.winner, rnd.result.points) == ("domino", 0, (8, 0))


def test_nothing_else_ends_a_round(rng: random.Random) -> None:
    """Nothing else ends a round, except All Fives' target rule."""
    for variant, players in [("draw", 2), ("draw", 4), ("block", 3), ("kozel", 4)]:
        for seed in range(60):
            rnd = Round.deal(Rules.preset(variant, players=players), seed=seed)
            while not rnd.is_over:
                hands = rnd.hands
                fits = any(t.has(n) for h in hands for t in h for n in rnd.ends)
                assert all(hands) and (fits or rnd.boneyard)
                rnd.push(rng.choice(rnd.legal_moves()))
            assert rnd.result is not None
            if rnd.result.reason == "domino":
                assert not rnd.hands[rnd.result.ended_by or 0]
            else:
                assert rnd.result.reason == "blocked" and not rnd.boneyard
                assert not any(t.has(n) for h in rnd.hands for t in h for n in rnd.ends)


def test_what_a_player_sees() -> None:
    """A player sees their own hand, the line, every player's tile count, the boneyard's
    count, and every action so far (who drew how many, who passed)."""
    rnd = make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-4 5-3 4-3 3-2 2-1 5-0 4-0"],
                     top="5-5 4-4 6-2 2-2")
    play(rnd, "draw", "draw", "draw", "6-2 left", "6-5 right")
    view = rnd.view(1)
    assert view.hand == rnd.hands[1]
    assert view.line == rnd.line and view.ends == rnd.ends == (2, 5)
    assert view.hand_counts == (5, 9) and view.boneyard_count == 11
    assert view.history == ((1, "draw"), (1, "draw"), (1, "draw"), (1, "6-2 left"),
                            (0, "6-5 right"))
    assert view.turn == 1 and view.legal_moves == tuple(rnd.legal_moves())
    assert rnd.view(0).legal_moves == ()  # not seat 0's turn
    assert view.lacks[1] == frozenset({6})  # it drew while only 6 was open


def test_never_another_hand() -> None:
    """Never another hand or the boneyard's order."""
    rnd = make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-4 5-3 4-3 3-2 2-1 5-0 4-0"],
                     top="5-5 4-4 6-2 2-2")
    play(rnd, "draw", "draw")
    for seat in (0, 1):
        view = rnd.view(seat)
        text = json.dumps(view.to_dict())
        named = {Tile.parse(t) for t in re.findall(r"\b[0-6]-[0-6]\b", text)}
        placed = {p.tile for p in rnd.line}
        assert named <= set(rnd.hands[seat]) | placed
        assert not hasattr(view, "hands") and not hasattr(view, "boneyard")
    assert "5-5" not in json.dumps(rnd.view(0).to_dict())  # seat 1 drew it
