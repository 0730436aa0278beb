"""The PettingZoo and Gymnasium environments pass their libraries' own checks."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from bones.encoding import PASS_ACTION, observation_size, returns
from bones.env import BonesEnv, aec_env
from bones.rules import Rules

TABLES = [("draw", 2), ("draw", 3), ("draw", 4), ("block", 2), ("block", 3), ("block", 4),
          ("kozel", 4), ("allfives", 2)]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_pettingzoos_api_test_passes(variant: str, players: int) -> None:
    api_test(aec_env(variant, players=players), num_cycles=300)


@pytest.mark.parametrize(("variant", "players"), [("draw", 2), ("kozel", 4), ("allfives", 2)])
def test_pettingzoos_seed_test_passes(variant: str, players: int) -> None:
    seed_test(functools.partial(aec_env, variant, players=players), num_cycles=200)


def test_a_match_to_a_target_plays_through_rounds() -> None:
    env = aec_env("block", players=2, target=50)
    env.reset(seed=2)
    moves = 0
    while env.agents:
        observation, _, done, _, _ = env.last()
        env.step(None if done else int(observation["action_mask"].argmax()))
        moves += 1
    assert len(env.unwrapped.match.results) > 1
    assert max(env.unwrapped.match.scores) >= 50


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    env = aec_env("draw")
    env.reset(seed=4)
    before = env.unwrapped.match.round.state_key()
    with pytest.raises(ValueError, match="cannot play pass"):
        env.step(PASS_ACTION)
    assert env.unwrapped.match.round.state_key() == before


@pytest.mark.parametrize(("variant", "players"), [("draw", 2), ("block", 3), ("kozel", 4),
                                                  ("allfives", 2)])
def test_gymnasiums_env_checker_passes(variant: str, players: int) -> None:
    check_env(BonesEnv(variant, players=players, opponents="easy"), skip_render_check=True)


def test_the_learner_plays_bots_to_the_end_and_is_paid_the_returns() -> None:
    env = BonesEnv("kozel", opponents="medium", seat=1)
    observation, info = env.reset(seed=5)
    assert observation.shape == (observation_size(Rules.preset("kozel")),)
    rewards, over = [], False
    while not over:
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, over, _, info = env.step(action)
        rewards.append(reward)
    assert env.match is not None and env.match.is_over
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == returns(env.match)[1]
    assert not info["action_mask"].any()


def test_seeded_resets_repeat_the_game_and_illegal_moves_are_handled() -> None:
    first, second = BonesEnv("draw"), BonesEnv("draw")
    observation, info = first.reset(seed=9)
    assert np.array_equal(observation, second.reset(seed=9)[0])
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = first.match.round.state_key()
    _, reward, over, _, info = first.step(illegal)
    assert (reward, over) == (-100.0, True)
    assert info["illegal"]
    assert first.match.round.state_key() == before
    strict = BonesEnv("draw", illegal="raise")
    strict.reset(seed=9)
    with pytest.raises(ValueError, match="cannot play"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="unknown bot level"):
        BonesEnv("draw", opponents="grandmaster")
