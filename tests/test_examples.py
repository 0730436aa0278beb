"""Replays every worked example of RULES.md (``../shared/examples``) and the project's own
golden files (``tests/golden``) through the public API, checking what the engine reports
after every move."""

from __future__ import annotations

from typing import Any

import pytest

from bones import Match, Round, Rules, Tile

from .conftest import GOLDEN, SHARED_EXAMPLES, load_examples

SHARED = load_examples(SHARED_EXAMPLES) if SHARED_EXAMPLES.is_dir() else []
OWN = load_examples(GOLDEN)


def rules_of(example: dict[str, Any]) -> Rules:
    options = dict(example["rules"])
    return Rules.preset(options.pop("variant"), **options)


def result_fields(result: Any) -> dict[str, Any]:
    return {"winner": result.winner, "reason": result.reason,
            "points": list(result.points), "eggs": result.eggs}


def as_set(tiles: Any) -> set[Tile]:
    return {Tile.parse(t) if isinstance(t, str) else t for t in tiles}


def replay_round(example: dict[str, Any]) -> None:
    expect = example["expect"]
    rnd = Round.from_hands(rules_of(example), hands=example["hands"],
                           boneyard=example["boneyard"], leader=example["leader"],
                           scores=example["scores"])
    start = expect["start"]
    assert list(rnd.ends) == start["ends"]
    assert rnd.turn == start["turn"]
    assert list(rnd.count_points) == start["count_points"]
    moves = example["moves"]
    for number, move in enumerate(moves):
        assert not rnd.is_over, f"round over before move {number}: {move}"
        rnd.push(move)
        assert list(rnd.ends) == expect["ends_after"][number], f"ends after {move!r}"
        if "count_points_after" in expect:
            assert list(rnd.count_points) == expect["count_points_after"][number], move
    assert rnd.is_over
    assert list(rnd.count_points) == expect["count_points"]
    assert [as_set(h) for h in rnd.hands] == [as_set(h) for h in expect["hands_left"]]
    assert rnd.result is not None
    assert result_fields(rnd.result) == expect["result"]
    # and every move undoes back to the deal
    for _ in moves:
        rnd.pop()
    with pytest.raises(IndexError):
        rnd.pop()
    assert list(rnd.ends) == start["ends"] and rnd.turn == start["turn"]


def replay_match(example: dict[str, Any]) -> None:
    expect = example["expect"]
    match = Match.from_deals(rules_of(example), example["deals"])
    for move in example["moves"]:
        assert not match.is_over
        match.push(move)
    results = expect["results"]
    assert len(match.results) == len(results)
    for number, (want, got) in enumerate(zip(results, match.results, strict=True)):
        rnd = match.rounds[number]
        assert rnd.lead is not None
        assert {"seat": rnd.lead.seat, "tile": str(rnd.lead.tile),
                "automatic": rnd.lead.automatic} == want["lead"]
        assert len(rnd.moves) == want["move_count"]
        assert result_fields(got) == {k: want[k] for k in ("winner", "reason", "points", "eggs")}
        assert list(match.scores_after[number]) == want["scores_after"]
        if "hands_left" in want:
            assert [as_set(h) for h in rnd.hands] == [as_set(h) for h in want["hands_left"]]
    assert list(match.scores) == expect["scores"]
    assert match.is_over == expect["is_over"]
    assert match.winner == expect["winner"]
    assert match.loser == expect["loser"]
    assert match.shutout == expect["shutout"]
    # the record replays to the same match
    again = Match.from_record(match.record())
    assert again.results == match.results and again.scores == match.scores


@pytest.mark.skipif(not SHARED, reason="../shared/examples is not beside this checkout")
@pytest.mark.parametrize(("name", "example"), SHARED, ids=[n for n, _ in SHARED])
def test_shared_example(name: str, example: dict[str, Any]) -> None:
    """Each worked example quotes its rule in ``rule``; the engine must report exactly
    what the example expects."""
    assert example["rule"]
    (replay_round if example["kind"] == "round" else replay_match)(example)


@pytest.mark.parametrize(("name", "example"), OWN, ids=[n for n, _ in OWN])
def test_golden(name: str, example: dict[str, Any]) -> None:
    (replay_round if example["kind"] == "round" else replay_match)(example)


def test_shared_examples_present_in_ci() -> None:
    """CI has ../shared: the examples must run there, not be skipped."""
    import os

    if os.environ.get("CI"):
        assert len(SHARED) >= 18
