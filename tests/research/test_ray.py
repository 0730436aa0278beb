"""Tournaments on Ray: the same seed gives the same figures locally, on processes and on
a local Ray cluster, and the command writes the same table, CSV and chart."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bones.arena import Duel, duel
from bones.cli import main


def _figures(result: Duel) -> tuple[int, int, int, list[float], int, int]:
    return (result.rounds, result.wins, result.decided, result.margins, result.matches,
            result.match_wins)


def test_a_seed_gives_the_same_results_here_on_processes_and_on_ray() -> None:
    here = duel("block", 3, "medium", "easy", deals=30, seed=4, matches=2)
    pooled = duel("block", 3, "medium", "easy", deals=30, seed=4, matches=2, jobs=2)
    on_ray = duel("block", 3, "medium", "easy", deals=30, seed=4, matches=2, jobs=2,
                  ray="local")
    assert _figures(here) == _figures(pooled) == _figures(on_ray)
    assert here.rounds == 60 and here.matches == 4


def test_the_arena_command_runs_on_ray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for how in (["--jobs", "1"], ["--jobs", "2", "--ray"]):
        out = tmp_path / how[-1]
        out.mkdir()
        code = main(["arena", "medium:easy", "--variant", "kozel", "--deals", "20", "--seed",
                     "2", *how, "--csv", str(out / "a.csv"), "--png", str(out / "a.png")])
        assert code == 0
        assert (out / "a.png").stat().st_size > 0
        rows = list(csv.DictReader((out / "a.csv").open()))
        files.append([{k: v for k, v in row.items() if not k.endswith(" s")} for row in rows])
    assert files[0] == files[1]
    assert "medium" in capsys.readouterr().out
