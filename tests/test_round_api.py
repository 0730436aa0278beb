"""The Round API of DESIGN.md: building, pushing text and moves, errors, pop, copy."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bones import Draw, IllegalMove, Pass, Play, Round, Rules, Tile

from .helpers import make_round, play, texts


def opening() -> Round:
    return make_round("draw", ["6-6 5-4 3-1 2-1 5-1", "6-0 6-4 5-3 4-3 3-2", "6-3 5-5 5-2 4-1 4-0"])


@pytest.mark.parametrize("text", ["6-4 left", "4-6 left", " 6|4   LEFT ", "6:4 left", "6/4 Left"])
def test_push_reads_text(text: str) -> None:
    rnd = opening()
    rnd.push(text)
    assert rnd.moves == (Play(Tile(6, 4), "left"),) and rnd.history == ((1, "6-4 left"),)


def test_push_takes_move_objects() -> None:
    rnd = opening()
    rnd.push(Play(Tile(4, 6), "right"))
    assert rnd.ends == (6, 4)
    rnd.push(Play(Tile.parse("4-1"), "right"))
    assert rnd.ends == (6, 1)


def test_a_tile_without_an_end_when_only_one_place_fits() -> None:
    rnd = opening()
    play(rnd, "6-4 left")  # 4|6; seat 2 holds 4-1, 4-0 (left) and 6-3 (right)
    rnd.push("4-1")
    assert rnd.ends == (1, 6) and rnd.moves[-1] == Play(Tile(4, 1), "left")
    with pytest.raises(IllegalMove, match="fits no open end"):
        rnd.push("5-4")


@pytest.mark.parametrize(("move", "why"), [
    ("hello", "cannot read"), ("6-7 left", "cannot read"), ("6-4 middle", "cannot read"),
    ("", "cannot read"), (42, "not int"), (None, "not NoneType"),
    ("5-3 left", "does not fit left, which shows 6"), ("2-2 left", "does not hold 2-2"),
    ("6-4 up", "up is not open"), ("6-4", "fits left and right"), ("draw", "can play"),
    ("pass", "can play"), ("6-6 left", "does not hold 6-6"),
])
def test_illegal_moves_explain_and_change_nothing(move: Any, why: str) -> None:
    rnd = opening()
    before = rnd.state_key()
    with pytest.raises(IllegalMove, match=why):
        rnd.push(move)
    assert rnd.state_key() == before
    assert isinstance(IllegalMove("x"), ValueError)
    assert not rnd.is_legal(move)


def test_a_lead_takes_no_end() -> None:
    rnd = make_round("draw", ["6-6 5-4 3-1 2-1 5-1 1-1 0-0", "6-0 6-4 5-3 4-3 3-2 2-2 1-0"],
                     leader=1)
    assert rnd.turn == 1 and rnd.lead is None and rnd.ends == () and rnd.places == {}
    assert texts(rnd.legal_moves()) == ["6-4", "6-0", "5-3", "4-3", "3-2", "2-2", "1-0"]
    with pytest.raises(IllegalMove, match="without an end"):
        rnd.push("6-4 left")
    rnd.push("4-3")
    assert rnd.ends == (4, 3) and rnd.lead is not None and not rnd.lead.automatic
    assert rnd.pop() == Play(Tile(4, 3)) and rnd.lead is None and rnd.line == ()


def test_pop_undoes_exactly_and_then_raises() -> None:
    rnd = make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-4 5-3 4-3 3-2 2-1 5-0 4-0"],
                     top="5-5 4-4 6-2 2-2")
    start = rnd.state_key()
    keys = [start]
    for move in ["draw", "draw", "draw", "6-2 left", "6-5 right"]:
        rnd.push(move)
        keys.append(rnd.state_key())
    for key in reversed(keys[:-1]):
        rnd.pop()
        assert rnd.state_key() == key
    with pytest.raises(IndexError):
        rnd.pop()
    assert rnd == make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0",
                                      "5-4 5-3 4-3 3-2 2-1 5-0 4-0"], top="5-5 4-4 6-2 2-2")


def test_pop_reopens_a_finished_round() -> None:
    rnd = make_round("block", ["6-6 6-5", "6-4 4-4"], hand_size=2)
    play(rnd, "6-4 right", "6-5 left")
    assert rnd.is_over
    assert rnd.pop() == Play(Tile(6, 5), "left")
    assert not rnd.is_over and rnd.result is None and rnd.turn == 0


def test_copy_is_independent() -> None:
    rnd = opening()
    twin = rnd.copy()
    play(twin, "6-4 left", "4-1 left")
    assert rnd.moves == () and rnd.ends == (6, 6) and twin.ends == (1, 6)
    assert rnd != twin
    twin.pop()
    twin.pop()
    assert rnd == twin


def test_forced() -> None:
    assert opening().forced() is None
    stuck = make_round("block", ["6-6 5-5 5-4 5-1 3-1 2-1 1-1", "6-0 6-4 5-3 4-3 3-2 2-2 1-0"])
    play(stuck, "6-0 left")
    assert stuck.forced() == Pass() and isinstance(stuck.forced(), Pass)
    drawing = make_round("draw", ["6-6 6-5 6-4 6-3 1-1 1-0 0-0", "5-4 5-3 4-3 3-2 2-1 5-0 4-0"])
    assert drawing.forced() == Draw() and drawing.legal_moves() == [Draw()]


def test_legal_moves_are_fresh_lists() -> None:
    rnd = opening()
    moves = rnd.legal_moves()
    moves.clear()
    assert len(rnd.legal_moves()) == 4


@pytest.mark.parametrize(("build", "why"), [
    (lambda r: Round.from_hands(r, [["6-6"]]), "needs 2 hands"),
    (lambda r: Round.from_hands(r, [["6-6", "6-5"], ["6-4", "6-3"]]), "must hold 7 tiles"),
    (lambda r: Round.from_hands(r, [["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]] * 2),
     "dealt twice"),
    (lambda r: Round.from_hands(r, [["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
                                    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"]], ["3-3"]),
     "must hold the 14 tiles"),
    (lambda r: Round.from_hands(r, [["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "9-9"],
                                    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"]]),
     "not a tile"),
    (lambda r: Round.deal(r, seed=1, leader=2), "leader must be None or a seat"),
    (lambda r: Round.deal(r, seed=1, scores=(1, 2, 3)), "scores must be 2"),
])
def test_bad_deals_are_refused(build: Any, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        build(Rules.preset("draw"))


def test_views_are_frozen() -> None:
    view = opening().view(1)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    with pytest.raises(ValueError, match="no seat 3"):
        opening().view(3)


@given(seed=st.integers(0, 10**6), junk=st.one_of(
    st.text(max_size=12), st.sampled_from(["draw", "pass", "6-6", "0-0 up", "3-3 down"]),
    st.builds(lambda i, e: f"{i // 7}-{i % 7} {e}", st.integers(0, 48),
              st.sampled_from(["left", "right", "up", "down", ""]))))
def test_refused_moves_never_change_the_round(seed: int, junk: str) -> None:
    """Whatever is pushed, a refused move leaves the round exactly as it was."""
    rng = random.Random(seed)
    variant = rng.choice(["draw", "block", "kozel", "allfives"])
    rnd = Round.deal(Rules.preset(variant), seed=seed)
    for _ in range(rng.randrange(20)):
        if rnd.is_over:
            break
        rnd.push(rng.choice(rnd.legal_moves()))
    before = rnd.state_key()
    legal = rnd.legal_moves()
    try:
        rnd.push(junk)
    except IllegalMove:
        assert rnd.state_key() == before
    else:
        assert rnd.moves[-1] in legal


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_rounds_views_and_results_pickle_and_copy(variant: str) -> None:
    """A finished round, a seat's view and the result travel whole (to another process,
    into a copy), as written and compiled (``tests/test_native.py`` runs this again)."""
    rnd = Round.deal(Rules.preset(variant), seed=11)
    while not rnd.is_over:
        rnd.push(rnd.legal_moves()[-1])
    for value in (rnd, rnd.view(1), rnd.result):
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert (again.state_key() == rnd.state_key() if isinstance(again, Round)
                    else again == value)
    assert pickle.loads(pickle.dumps(rnd.moves)) == rnd.moves
    assert all(a is b for a, b in zip(pickle.loads(pickle.dumps(rnd.moves)), rnd.moves,
                                      strict=True))
