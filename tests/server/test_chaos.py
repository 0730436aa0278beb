"""The short chaos run CI makes (``bench/chaos.py`` is the long one, 200 games): games
at a site of three app processes and two bot workers, a random one of them killed with
SIGKILL and started again every few seconds. Every game finishes; every record replays;
every message agrees with its finished match and names no tile its seat could not know."""

from __future__ import annotations

from tests.server import chaos


def test_games_survive_processes_killed_at_random(postgres_url: str, redis_url: str) -> None:
    report = chaos.run(postgres_url, redis_url, games=15, at_once=5, every=3.0, timeout=420)
    print("\n".join(report.lines()))
    assert report.problems == []
    assert report.finished == report.games
    assert len(report.kills) >= 2, "the run was too short to kill anything"
    assert report.messages > 0
