"""The game record: saved, replayed and checked; ``bones replay`` on good and bad files."""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bones import Match, RecordError, Rules
from bones.cli import main
from bones.record import save

from .conftest import SHARED_EXAMPLES as SHARED


def finished_match(variant: str, seed: int, **options: Any) -> Match:
    rng = random.Random(seed)
    match = Match(Rules.preset(variant, **options), seed=seed)
    while not match.is_over:
        match.push(rng.choice(match.round.legal_moves()))
    return match


@pytest.fixture(scope="module")
def kozel_record() -> dict[str, Any]:
    return finished_match("kozel", 4).record()


def test_record_holds_rules_deals_moves_and_results(kozel_record: dict[str, Any]) -> None:
    record = kozel_record
    assert record["format"] == "bones-record" and record["version"] == 1
    assert record["rules"]["variant"] == "kozel"
    assert len(record["deals"]) >= len(record["results"])
    first = record["results"][0]
    assert first["lead"] == {"seat": first["lead"]["seat"], "tile": "1-1", "automatic": True}
    assert set(first) == {"lead", "move_count", "winner", "reason", "points", "eggs",
                          "ended_by", "count_points", "scores_after"}
    assert sum(r["move_count"] for r in record["results"]) == len(record["moves"])
    assert record["is_over"] and record["loser"] in (0, 1)
    json.dumps(record)  # JSON-ready


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_replay_rebuilds_the_match(variant: str) -> None:
    match = finished_match(variant, 9)
    again = Match.from_record(json.loads(json.dumps(match.record())))
    assert again.results == match.results and again.scores == match.scores
    assert again.record() == match.record()


def test_an_unfinished_match_replays_too() -> None:
    match = Match(Rules.preset("allfives"), seed=3)
    for _ in range(9):
        match.push(match.round.legal_moves()[0])
    again = Match.from_record(match.record())
    assert again.round.state_key() == match.round.state_key()


def tamper(record: dict[str, Any], change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    change(bad)
    return bad


def set_move(record: dict[str, Any], text: str) -> None:
    record["moves"][3] = text


CORRUPTIONS = [
    ("illegal move", lambda r: set_move(r, "0-0 up"), "round 1, move 4 ('0-0 up'):"),
    ("unreadable move", lambda r: set_move(r, "sideways"), "cannot read 'sideways'"),
    ("wrong tile count", lambda r: r["deals"][0]["hands"][1].pop(), "must hold 7 tiles, not 6"),
    ("tile twice", lambda r: r["deals"][0]["hands"][1].__setitem__(0, r["deals"][0]["hands"][0][0]),
     "dealt twice"),
    ("unknown variant", lambda r: r["rules"].__setitem__("variant", "poker"),
     "rules: unknown variant 'poker'"),
    ("bad option", lambda r: r["rules"].__setitem__("players", 3), "rules: kozel is played"),
    ("wrong result", lambda r: r["results"][0].__setitem__("points", [1, 2]),
     "round 1: the record says points [1, 2], the moves give"),
    ("wrong lead", lambda r: r["results"][0]["lead"].__setitem__("tile", "6-6"),
     "round 1: the record says lead"),
    ("wrong score", lambda r: r.__setitem__("scores", [0, 0]), "scores: the record says"),
    ("wrong winner", lambda r: r.__setitem__("winner", 5), "winner: the record says"),
    ("moves not a list", lambda r: r.__setitem__("moves", "6-6"), "moves must be a list"),
    ("extra move", lambda r: r["moves"].append("pass"), "the match was over before move"),
    ("extra result", lambda r: r["results"].append(r["results"][0]),
     "results, but the moves finish"),
    ("not a record", lambda r: r.__setitem__("format", "pgn"), "not a bones record"),
    ("future version", lambda r: r.__setitem__("version", 9), "version 9 is not supported"),
    ("deals not a list", lambda r: r.__setitem__("deals", {}), "deals must be a list"),
]


@pytest.mark.parametrize(("name", "change", "message"), CORRUPTIONS,
                         ids=[c[0] for c in CORRUPTIONS])
def test_tampered_records_are_named(kozel_record: dict[str, Any], name: str, change: Any,
                                    message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        Match.from_record(tamper(kozel_record, change))


def test_bones_replay_prints_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = finished_match("draw", 12, players=3, target=50)
    path = tmp_path / "game.json"
    save(match, path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bones record: draw, 3 players, 5 tiles each, target 50")
    moves = sum(len(r.moves) for r in match.rounds)
    assert out.count(". seat ") == moves
    assert out.rstrip().endswith(f"seat {match.winner} wins")
    assert f"Final score {' : '.join(map(str, match.scores))}" in out


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not JSON: Expecting property name enclosed in double quotes at line 1"),
    ("[]", "not a bones record"),
    (None, "cannot read"),
])
def test_bones_replay_fails_cleanly(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    run = subprocess.run([sys.executable, "-m", "bones.cli", "replay", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and message in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.skipif(not (SHARED / "11-kozel-goat-shutout.json").exists(),
                    reason="../shared/examples is not beside this checkout")
def test_bones_replay_reads_a_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SHARED / "11-kozel-goat-shutout.json")]) == 0
    out = capsys.readouterr().out
    assert "fish: pair 0+2 wins the round; penalties [0, 20]" in out
    assert out.rstrip().endswith("pair 0+2 wins, pair 1+3 is the goat (a dry win)")


def test_bones_replay_names_a_tampered_move(tmp_path: Path,
                                            kozel_record: dict[str, Any]) -> None:
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tamper(kozel_record, lambda r: set_move(r, "0-0 up"))))
    run = subprocess.run([sys.executable, "-m", "bones.cli", "replay", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.startswith(f"bones replay: {path}: round 1, move 4 ('0-0 up'): ")
