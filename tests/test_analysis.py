"""Looking back at a game: frames with every hand, and every choice graded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bones import Match, Rules
from bones.analysis import analyze, frames, grade_round
from bones.cli import main


def _careless(variant: str, seed: int) -> Match:
    """Seat 0 always plays its last legal move; the others their first."""
    match = Match(Rules.preset(variant, target=None), seed=seed)
    while not match.is_over:
        moves = match.round.legal_moves()
        match.push(moves[-1] if match.round.turn == 0 else moves[0])
    return match


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_frames_show_every_position_and_hand(variant: str) -> None:
    match = _careless(variant, 3)
    shown = frames(match)
    rnd = match.rounds[0]
    assert len(shown) == sum(len(r.moves) + 1 for r in match.rounds)
    dealt = [{str(t) for t in h} for h in match.deals[-1][0].hands]
    at_start = [set(h) for h in shown[0]["hands"]]
    lead = shown[0]["lead"]
    if lead is not None and lead["automatic"]:      # the forced lead is part of the deal
        at_start[lead["seat"]].add(lead["tile"])
    assert at_start == dealt
    assert shown[-1]["hands"] == [[str(t) for t in h] for h in rnd.hands]
    assert shown[-1]["is_over"] and shown[-1]["result"] == rnd.result.to_dict()
    assert [f["index"] for f in shown] == list(range(len(rnd.moves) + 1))


def test_grades_are_from_the_choosers_view_and_never_negative() -> None:
    match = _careless("draw", 5)
    report = analyze(match, seed=0)
    assert report.grader == "expert"  # issue 7: the Expert bot grades
    assert report.grades and all(g.loss >= 0 for g in report.grades)
    assert all((g.loss == 0) == (g.value == g.best_value) for g in report.grades)
    careless = [g for g in report.grades if g.seat == 0]
    assert max(g.loss for g in careless) > 1       # the last legal move is often poor
    assert report.mistakes(3) == sorted(report.mistakes(3), key=lambda g: -g.loss)
    assert analyze(match, seed=0).grades == report.grades    # repeatable under a seed


def test_bones_analyze(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_careless("draw", 5).record()))
    assert main(["analyze", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert "graded by Expert" in out and "costliest mistakes:" in out and "cost" in out
    path.write_text("{}")
    assert main(["analyze", str(path)]) == 2


def test_a_cost_is_in_points_of_its_round_whatever_the_match_score() -> None:
    """A replay showed "cost 124.3" in a game to 50: the grader's bonus for ending the
    match sat inside the cost. The last round of a match to 50 is graded as the same
    round is where the match goes on to 150."""
    short = Match(Rules.preset("draw", target=50), seed=1)
    while not short.is_over:
        moves = short.round.legal_moves()
        short.push(moves[-1] if short.round.turn == 0 else moves[0])
    long = Match(Rules.preset("draw", target=150), seed=1)
    for move in (move for played in short.rounds for move in played.moves):
        long.push(move)
    last = len(short.rounds) - 1
    assert not long.is_over and long.deals[last] == short.deals[last]
    graded = grade_round(short, last)
    assert graded == grade_round(long, last)
    assert max(g.loss for g in graded) < 60
