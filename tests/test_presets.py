"""Rules.preset: the presets, and impossible options refused with what is allowed."""

from __future__ import annotations

from typing import Any

import pytest

from bones import Rules


@pytest.mark.parametrize(("variant", "players", "hand_size", "sides"), [
    ("draw", 2, 7, 2), ("block", 2, 7, 2), ("kozel", 4, 7, 2), ("allfives", 2, 7, 2)])
def test_presets(variant: str, players: int, hand_size: int, sides: int) -> None:
    rules = Rules.preset(variant)
    assert (rules.variant, rules.players, rules.hand_size, rules.sides) == (
        variant, players, hand_size, sides)
    assert rules.target == 100 and rules.blocked_scoring == "others_minus_own"
    assert not rules.opening_every_round
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(("variant", "options", "message"), [
    ("kozel", {"players": 3}, "kozel is played by exactly 4 players"),
    ("allfives", {"players": 4}, "allfives is played by exactly 2 players"),
    ("draw", {"players": 5}, "draw is played by 2 to 4 players, not 5"),
    ("block", {"players": 1}, "block is played by 2 to 4 players"),
    ("draw", {"players": "two"}, "2 to 4 players"),
    ("block", {"players": 4, "hand_size": 8}, "8 tiles each for 4 players do not fit"),
    ("draw", {"players": 3, "hand_size": 10}, "allows at most 9"),
    ("draw", {"hand_size": 0}, "hand_size must be a whole number"),
    ("kozel", {"hand_size": 5}, "kozel deals all 28 tiles, 7 to each player"),
    ("dominoes", {}, "unknown variant 'dominoes'; choose one of draw, block, kozel, allfives"),
    ("draw", {"spinner": True}, "unknown option spinner; options are"),
    ("draw", {"target": 75}, "target must be one of 50, 100, 150 or None"),
    ("draw", {"target": True}, "target must be one of"),
    ("draw", {"blocked_scoring": "half"}, "blocked_scoring must be"),
    ("draw", {"opening_every_round": "yes"}, "opening_every_round must be True or False"),
    ("kozel", {"blocked_scoring": "others"}, "kozel has its own blocked scoring"),
    ("allfives", {"opening_every_round": True}, "allfives has its own leads"),
])
def test_impossible_options_are_refused(variant: str, options: dict[str, Any],
                                        message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules.preset(variant, **options)


def test_options_that_fit() -> None:
    assert Rules.preset("block", players=3, hand_size=7).hand_size == 7
    assert Rules.preset("draw", players=4).hand_size == 5
    assert Rules.preset("kozel", target=None).target is None
    assert Rules.preset("draw", target=150, blocked_scoring="others").blocked_scoring == "others"
    with pytest.raises(AttributeError):
        Rules.preset("draw").players = 3  # type: ignore[misc]
