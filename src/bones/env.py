"""bones as PettingZoo and Gymnasium environments, for reinforcement learning.

``aec_env`` is a PettingZoo AEC environment: every seat an agent (``player_0`` ...),
each observing ``{"observation": vector, "action_mask": mask}`` from its own
``PlayerView`` (``bones.encoding`` lays the vector out), acting with the 142 action
numbers. ``BonesEnv`` is a Gymnasium environment for one learner: the other seats are
bones bots of a chosen level. Both deal with the engine's shuffle from the reset's seed,
so a seeded reset repeats the game; rewards come once the match (by default a single
round) is over, as ``bones.encoding.returns`` scores it.

>>> env = aec_env("draw", players=2)
>>> env.reset(seed=1)
>>> final = {}
>>> while env.agents:
...     observation, reward, done, cut, info = env.last()
...     if done:
...         final[env.agent_selection] = reward
...     env.step(None if done else int(observation["action_mask"].argmax()))
>>> sorted(final.values())
[-43.0, 43.0]
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from bones import bots
from bones.encoding import ACTIONS, legal_mask, move_of, observation_size, observe, returns
from bones.match import Match
from bones.moves import IllegalMove
from bones.rules import Rules

__all__ = ["BonesAEC", "BonesEnv", "aec_env"]

_HIGH = 10_000.0
"""Above any number an observation holds (scores included)."""


def _rules(variant: str, options: dict[str, Any]) -> Rules:
    options.setdefault("target", None)
    return Rules.preset(variant, **options)


def _observation_space(rules: Rules) -> spaces.Box:
    return spaces.Box(0.0, _HIGH, (observation_size(rules),), np.float32)


def _match_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2**62))


def _new_match(rules: Rules, rng: np.random.Generator) -> Match:
    """A match from the environment's generator. A deal whose forced lead ends the round
    at once (nobody holds its number) leaves nobody a decision: it is dealt again."""
    while True:
        match = Match(rules, seed=_match_seed(rng))
        if not match.is_over:
            return match


class BonesAEC(AECEnv):  # type: ignore[misc]
    """Every seat of a bones match, each an agent taking turns as the rules say."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "bones_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(rules.players)]
        self._observation_space = spaces.Dict({
            "observation": _observation_space(rules),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        })
        self._action_space = spaces.Discrete(ACTIONS)
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        self.match = _new_match(self.rules, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.match is not None
        self.agent_selection = self.possible_agents[self.match.round.turn or 0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.match is not None
        view = self.match.round.view(self.possible_agents.index(agent))
        return {"observation": observe(view), "action_mask": legal_mask(view)}

    def step(self, action: int | None) -> None:
        """Play the selected agent's move; ``ValueError`` (nothing changed) for an illegal
        one. Once the match is over, each agent steps with ``None`` to leave."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None and action is not None
        move = move_of(action)
        try:
            self.match.push(move)
        except IllegalMove as error:
            raise ValueError(f"{agent} cannot play {move}: {error}") from None
        self._cumulative_rewards[agent] = 0.0
        if self.match.is_over:
            for agent_, value in zip(self.agents, returns(self.match), strict=True):
                self.rewards[agent_] = value
                self.terminations[agent_] = True
            self._accumulate_rewards()
        else:
            self._select()

    def render(self) -> str:
        assert self.match is not None
        return f"{self.match!r} {self.match.round!r}"

    def close(self) -> None:
        """Nothing to release."""


def aec_env(variant: str = "draw", render_mode: str | None = None, **options: Any) -> AECEnv:
    """A PettingZoo AEC environment of ``variant`` with bones' rule options (``players``,
    ``target`` — by default a single round — and the rest), wrapped in PettingZoo's
    order check."""
    from pettingzoo.utils import wrappers

    env = BonesAEC(_rules(variant, options), render_mode)
    return wrappers.OrderEnforcingWrapper(env)


class BonesEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat against bones bots: ``seat`` learns, the others play ``opponents`` (a
    level name, e.g. ``"easy"``). The legal moves come in ``info["action_mask"]`` (and
    ``action_masks()``, for masked learners); a deal that ends before the learner's first
    move is dealt again. An illegal action ends the episode at once
    with ``illegal_reward`` and ``info["illegal"]`` saying why, leaving the match as it
    was; ``illegal="raise"`` raises ``ValueError`` instead.

    >>> env = BonesEnv("block", opponents="easy")
    >>> observation, info = env.reset(seed=3)
    >>> observation, reward, over, cut, info = env.step(int(info["action_mask"].argmax()))
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium declares it so)

    def __init__(self, variant: str = "draw", opponents: str = "easy", seat: int = 0,
                 illegal: str = "lose", illegal_reward: float = -100.0,
                 render_mode: str | None = None, **options: Any) -> None:
        self.rules = _rules(variant, options)
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat} at a table of {self.rules.players}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal is 'lose' or 'raise', not {illegal!r}")
        bots.get(opponents)  # a bad level is refused here, not at the first move
        self.seat, self.opponents = seat, opponents
        self.illegal, self.illegal_reward = illegal, illegal_reward
        self.render_mode = render_mode
        self.observation_space = _observation_space(self.rules)
        self.action_space = spaces.Discrete(ACTIONS)
        self.match: Match | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._bots = [bots.get(self.opponents, seed=_match_seed(self.np_random))
                      for _ in range(self.rules.players)]
        while True:  # deal again when the round ends before the learner's first move
            self.match = _new_match(self.rules, self.np_random)
            self._play_bots()
            if not self.match.is_over:
                return self._observation(), self._info()

    def step(
        self, action: int | np.int64
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert self.match is not None, "reset the environment first"
        move = move_of(int(action))
        try:
            self.match.push(move)
        except IllegalMove as error:
            if self.illegal == "raise":
                raise ValueError(f"seat {self.seat} cannot play {move}: {error}") from None
            return (self._observation(), self.illegal_reward, True, False,
                    {**self._info(), "illegal": str(error)})
        self._play_bots()
        over = self.match.is_over
        reward = returns(self.match)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all 0 once the match is over)."""
        assert self.match is not None
        return legal_mask(self.match.round.view(self.seat)).astype(bool)

    def _play_bots(self) -> None:
        match = self.match
        assert match is not None
        while not match.is_over and match.round.turn != self.seat:
            seat = match.round.turn
            assert seat is not None
            match.push(self._bots[seat].choose(match.round.view(seat)))

    def _observation(self) -> np.ndarray:
        assert self.match is not None
        return observe(self.match.round.view(self.seat))

    def _info(self) -> dict[str, Any]:
        assert self.match is not None
        return {"action_mask": legal_mask(self.match.round.view(self.seat))}

    def render(self) -> str:
        assert self.match is not None
        return f"{self.match!r} {self.match.round!r}"
