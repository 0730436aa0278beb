"""A match given up: a player resigns, runs out of time or leaves and the others claim
it. The match ends at once, the side of the one who gave up loses, and the record says
so, replays it and checks it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bones import Forfeit, IllegalMove, Match, RecordError, Rules
from bones.cli import main
from bones.record import save


def _played(variant: str, seed: int, moves: int, **options: Any) -> Match:
    """A match ``moves`` moves in (or over sooner), the moves at random."""
    rng = random.Random(seed)
    match = Match(Rules.preset(variant, **options), seed=seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.push(rng.choice(match.round.legal_moves()))
    return match


@pytest.mark.parametrize("variant", ["draw", "block", "allfives"])
def test_in_a_game_of_two_the_opponent_wins(variant: str) -> None:
    for seat in (0, 1):
        match = _played(variant, 3, 5)
        match.resign(seat)
        assert match.is_over and match.winner == 1 - seat and match.loser is None
        assert match.forfeit == Forfeit(seat, "resigned")


def test_in_kozel_the_pair_loses_the_match() -> None:
    """Seats 0 and 2 play against 1 and 3: whoever of a pair resigns, the pair is the
    goat, and no win by resignation is a dry one."""
    for seat in range(4):
        match = _played("kozel", 8, 9)
        match.resign(seat, "time")
        assert (match.loser, match.winner) == (seat % 2, 1 - seat % 2)
        assert not match.shutout


@pytest.mark.parametrize(("variant", "players"), [
    ("draw", 3), ("draw", 4), ("block", 3), ("block", 4)])
def test_with_three_or_four_the_best_of_the_others_wins(variant: str, players: int) -> None:
    """The one who gave up is out whatever their score; of the rest the best score wins,
    and a tie for it names no winner."""
    for seed in range(30):
        match = _played(variant, seed, 60, players=players, target=150)
        if match.is_over:
            continue
        scores = list(match.scores)
        leader = scores.index(max(scores))
        match.resign(leader, "absent")
        rest = {s: v for s, v in enumerate(scores) if s != leader}
        best = max(rest.values())
        leaders = [s for s, v in rest.items() if v == best]
        assert match.winner == (leaders[0] if len(leaders) == 1 else None)
        assert list(match.scores) == scores


def test_all_fives_count_points_of_the_unfinished_round_stand() -> None:
    for seed in range(50):
        match = _played("allfives", seed, 6, target=150)
        if any(match.round.count_points) and not match.is_over:
            break
    else:
        pytest.fail("no round scored count points in its first moves")
    before = list(match.scores)
    match.resign(0)
    assert list(match.scores) == before and match.winner == 1


@pytest.mark.parametrize("bad", [
    (0, "bored", ValueError), (2, "resigned", ValueError), (-1, "time", ValueError)])
def test_a_bad_forfeit_is_refused_and_changes_nothing(bad: tuple[int, str, type]) -> None:
    seat, how, error = bad
    match = _played("draw", 1, 4)
    with pytest.raises(error):
        match.resign(seat, how)
    assert not match.is_over and match.forfeit is None
    match.push(match.round.legal_moves()[0])


def test_a_match_over_is_not_given_up_again() -> None:
    match = _played("draw", 1, 3)
    match.resign(0)
    with pytest.raises(IllegalMove):
        match.resign(1)
    with pytest.raises(IllegalMove):
        match.push(match.round.legal_moves()[0] if match.round.legal_moves() else "pass")
    assert match.winner == 1


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["draw", "block", "kozel", "allfives"]),
       seed=st.integers(0, 10_000), moves=st.integers(0, 80), players=st.integers(2, 4),
       seat=st.integers(0, 3), how=st.sampled_from(["resigned", "time", "absent"]))
def test_a_forfeit_replays_from_its_record(variant: str, seed: int, moves: int, players: int,
                                           seat: int, how: str) -> None:
    """Whenever it comes, a forfeit's record replays to the same end: the same winner,
    loser, scores and forfeit, through JSON."""
    players = {"kozel": 4, "allfives": 2}.get(variant, players)
    match = _played(variant, seed, moves, players=players)
    if match.is_over:
        return
    seat %= players
    match.resign(seat, how)
    record = json.loads(json.dumps(match.record()))
    assert record["forfeit"] == {"seat": seat, "how": how}
    again = Match.from_record(record)
    assert (again.winner, again.loser, again.scores, again.forfeit) == (
        match.winner, match.loser, match.scores, match.forfeit)
    assert again.record() == record


def test_a_finished_match_has_no_forfeit_in_its_record() -> None:
    match = _played("block", 2, 500, target=None)
    assert match.is_over and "forfeit" not in match.record()


@pytest.mark.parametrize(("forfeit", "problem"), [
    ({"seat": 5, "how": "resigned"}, "forfeit: no seat 5"),
    ({"seat": 0, "how": "bored"}, "forfeit: a match is given up as one of"),
    ({"seat": True, "how": "time"}, "forfeit must be an object with a seat and how"),
    ("seat 0", "forfeit must be an object with a seat and how"),
])
def test_a_tampered_forfeit_is_named(forfeit: Any, problem: str) -> None:
    match = _played("draw", 4, 6)
    match.resign(0)
    record = {**match.record(), "forfeit": forfeit}
    with pytest.raises(RecordError, match=problem):
        Match.from_record(record)


def test_a_forfeit_after_the_end_is_refused() -> None:
    match = _played("block", 2, 500, target=None)
    record = {**match.record(), "forfeit": {"seat": 0, "how": "resigned"}}
    with pytest.raises(RecordError, match="the moves had finished the match already"):
        Match.from_record(record)


def test_a_forfeit_changes_the_stated_winner() -> None:
    """A record that drops the forfeit but keeps its winner no longer checks out."""
    match = _played("draw", 4, 6)
    match.resign(0)
    record = match.record()
    del record["forfeit"]
    with pytest.raises(RecordError, match="is_over"):
        Match.from_record(record)


def test_bones_replay_shows_the_forfeit(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    match = _played("kozel", 5, 10)
    match.resign(1, "time")
    save(match, tmp_path / "game.json")
    assert main(["replay", str(tmp_path / "game.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  seat 1 loses on time" in lines
    assert lines[-1].endswith("pair 0+2 wins, pair 1+3 is the goat")


def test_a_match_given_up_in_its_first_round_is_replayed_and_graded() -> None:
    """The replay viewer looks back on a match resigned before any round ended: every
    position of the unfinished round, every choice in it graded."""
    from bones.analysis import analyze

    match = _played("draw", 3, 4)
    match.resign(0)
    report = analyze(Match.from_record(match.record()), "hard")
    assert len(report.frames) == len(match.round.moves) + 1
    assert len(report.grades) <= len(match.round.moves)
