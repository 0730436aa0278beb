"""bones' four games as OpenSpiel games, so OpenSpiel's algorithms play them unchanged.

Importing this module registers ``bones_draw``, ``bones_block``, ``bones_kozel`` and
``bones_allfives`` with pyspiel (``pip install 'bones[research]'``):

>>> import pyspiel
>>> import bones.openspiel
>>> game = pyspiel.load_game("bones_kozel(target=100)")
>>> game.num_players(), game.num_distinct_actions()
(4, 142)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 28)

The engine decides everything: a state holds a ``bones.Match`` and each action is a move
pushed on it, so the rules are the engine's to the letter. Chance deals the tiles one at
a time (a hand's worth to each seat in turn, Kozel dealing again when a deal is void)
and picks the tile each draw takes, uniformly among the tiles left. Actions are
``bones.encoding``'s numbers (a play is ``5 * tile.index + slot``, then draw and pass).

Parameters: ``target`` (0, the default, plays a single round; 50, 100 or 150 a match),
``free_lead`` (seat 0 leads the first round with any tile, as OpenSpiel's own block
game does, instead of the rules' opening); the draw and block games also take
``players``, ``hand_size`` (0: the variant's), ``blocked_scoring`` and
``opening_every_round``.

Returns come at the end: each side's points minus the mean of the other sides' points
(``bones.encoding.returns``), so they add up to 0. A seat's information state is what
its ``PlayerView`` holds (the JSON of the view, with the round's number); its
observation leaves out the history. ``resample_from_infostate`` deals the hidden tiles
uniformly among the deals the seat cannot rule out (``bones.bots.sampler.Sampler``), so
OpenSpiel's ISMCTS runs on these games as they are.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from bones.bots.sampler import Sampler
from bones.encoding import (
    ACTIONS,
    DRAW_ACTION,
    history,
    history_size,
    max_moves,
    move_of,
    observation_size,
    observe,
    returns,
)
from bones.encoding import action_of as _action_of
from bones.match import Match
from bones.moves import DRAW, IllegalMove
from bones.round import Deal, Round, opening_order
from bones.rules import PLAYERS, VARIANTS, Rules
from bones.tiles import BY_INDEX, Tile
from bones.view import PlayerView

__all__ = ["BonesGame", "BonesState", "Observer", "rules_of"]

_ROUND_POINTS = 1000
"""More points than one round can score: all the pips, and All Fives' count points."""
_ROUNDS_BOUND = 200
"""Rounds a match is assumed never to exceed, for ``max_game_length``."""

_LINE_OPTIONS = {"players": 2, "hand_size": 0, "blocked_scoring": "others_minus_own",
                 "opening_every_round": False}


def _parameters(variant: str) -> dict[str, Any]:
    common = {"target": 0, "free_lead": False}
    return {**common, **_LINE_OPTIONS} if variant in ("draw", "block") else common


def rules_of(variant: str, params: dict[str, Any]) -> Rules:
    """The bones rule set a game's parameters name (``ValueError`` for a bad option).

    >>> rules_of("draw", {"players": 3, "target": 0}).hand_size
    5
    """
    options = {k: v for k, v in params.items() if k in _LINE_OPTIONS or k == "target"}
    options["target"] = options.get("target") or None
    if not options.get("hand_size"):
        options.pop("hand_size", None)
    return Rules.preset(variant, **options)


def _game_type(variant: str) -> Any:
    players = PLAYERS[variant]
    return pyspiel.GameType(
        short_name=f"bones_{variant}",
        long_name=f"bones {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(variant),
    )


class BonesGame(pyspiel.Game):  # type: ignore[misc]
    """One bones variant with its options, as an OpenSpiel game."""

    variant = "draw"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = params or {}
        variant = self.variant
        self.rules = rules_of(variant, {**_parameters(variant), **given})
        self.free_lead = bool(given.get("free_lead", False))
        rounds = 1 if self.rules.target is None else _ROUNDS_BOUND
        bound = _ROUND_POINTS + (self.rules.target or 0)
        per_round = 3 * 28 + 2 * 28 + max_moves(self.rules)  # deals, draws, moves
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=28,
            num_players=self.rules.players,
            min_utility=-float(bound),
            max_utility=float(bound),
            utility_sum=0.0,
            max_game_length=rounds * per_round,
        )
        super().__init__(_game_type(variant), info, given)

    def new_initial_state(self) -> BonesState:
        return BonesState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"bones observers take no parameters, not {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.rules, kind)


class BonesState(pyspiel.State):  # type: ignore[misc]
    """A match (or a single round) in play, with the chance events still to come."""

    def __init__(self, game: BonesGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.match = Match.from_deals(self.rules, (), seed=0, wait=True,
                                      leader=0 if game.free_lead else None)
        self.dealt: list[Tile] = []
        """The tiles dealt so far in the deal being dealt."""
        self.drawing = False
        """True between a player's draw and the chance event that picks the tile."""
        self.deal_start = 0
        """Where in the history the current round's deal began."""

    # -- OpenSpiel's state API -----------------------------------------------------------

    def current_player(self) -> int:
        if self.match.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.match.waiting or self.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        turn = self.match.round.turn
        assert turn is not None
        return turn

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(_action_of(m) for m in self.match.round.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.drawing:
            tiles = sorted(t.index for t in self.match.round.boneyard)
        else:
            dealt = {t.index for t in self.dealt}
            tiles = [i for i in range(28) if i not in dealt]
        return [(i, 1.0 / len(tiles)) for i in tiles]

    def _apply_action(self, action: int) -> None:
        if self.drawing:
            self._draw(BY_INDEX[action])
        elif self.match.waiting:
            self._deal(BY_INDEX[action])
        else:
            move = move_of(action)
            if move is DRAW:
                self.drawing = True
            else:
                self.match.push(move)

    def _deal(self, tile: Tile) -> None:
        if not self.dealt:
            self.deal_start = len(self.history())
        if tile in self.dealt:
            raise IllegalMove(f"{tile} is dealt already")
        self.dealt.append(tile)
        rules = self.rules
        if len(self.dealt) < rules.players * rules.hand_size:
            return
        size = rules.hand_size
        hands = tuple(tuple(self.dealt[s * size:(s + 1) * size]) for s in range(rules.players))
        rest = tuple(t for t in BY_INDEX if t not in self.dealt) if rules.draws else ()
        self.dealt = []
        self.match.give(Deal(hands, rest))

    def _draw(self, tile: Tile) -> None:
        left = self.match.round.boneyard
        if tile not in left:
            raise IllegalMove(f"{tile} is not in the boneyard")
        self.match.reorder_boneyard([tile, *(t for t in left if t is not tile)])
        self.drawing = False
        self.match.push(DRAW)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"tile {BY_INDEX[action]}"
        return str(move_of(action))

    def is_terminal(self) -> bool:
        return self.match.is_over

    def returns(self) -> list[float]:
        if not self.match.is_over:
            return [0.0] * self.rules.players
        return returns(self.match)

    def view(self, seat: int) -> PlayerView | None:
        """The seat's view of the round being played (``None`` while a deal is dealt)."""
        return None if self.match.waiting else self.match.round.view(seat)

    def resample_from_infostate(self, player: int, sampler: Any) -> BonesState:
        """A state the seat cannot tell from this one: the same public history and own
        hand, the hidden tiles dealt uniformly among the deals it cannot rule out."""
        rng = random.Random(int(sampler() * 2**53))
        return resample(self, player, rng)

    def __str__(self) -> str:
        if not self.match.rounds:
            return f"dealing: {' '.join(str(t) for t in self.dealt)}"
        hands = " | ".join(" ".join(str(t) for t in h) for h in self.match.round.hands)
        return f"{self.match!r} {self.match.round!r} hands: {hands}"


class Observer:
    """OpenSpiel's observer of a bones state: a seat's ``PlayerView`` as text and as
    ``bones.encoding``'s vectors (the history added for an information state)."""

    def __init__(self, rules: Rules, kind: Any) -> None:
        self.rules = rules
        self.recall = bool(kind.perfect_recall)
        self.private = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        sizes = [("view", observation_size(rules))]
        if self.recall:
            sizes.append(("history", history_size(rules)))
        self.tensor = np.zeros(sum(size for _, size in sizes), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in sizes:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: BonesState, player: int) -> None:
        self.tensor.fill(0)
        view = state.view(player)
        if view is None:
            if self.private:
                for tile in _own_dealt(state, player):
                    self.dict["view"][tile.index] = 1
            return
        self.dict["view"][:] = observe(view)
        if not self.private:
            self.dict["view"][:28] = 0
        if self.recall:
            self.dict["history"][:] = history(view)

    def string_from(self, state: BonesState, player: int) -> str:
        view = state.view(player)
        if view is None:
            own = " ".join(str(t) for t in _own_dealt(state, player)) if self.private else ""
            return (f"seat {player} round {len(state.match.rounds) + 1} "
                    f"scores {list(state.match.scores)} dealing {own}")
        data = view.to_dict()
        del data["rules"]
        if not self.private:
            data["hand"], data["legal_moves"] = [], []
        if not self.recall:
            del data["history"]
        data["round"] = len(state.match.rounds)
        return json.dumps(data, separators=(",", ":"))


def resample(state: BonesState, player: int, rng: random.Random) -> BonesState:
    """``state`` with the tiles ``player`` cannot see dealt again: a uniform deal from
    the sampler, and a history of draws that leads to it.

    A deal that no history of draws fits, or that would have ended the round already
    (the sampler does not read "nobody is blocked", nor "the deal was not void", as
    facts), is one the seat can rule out, and another is drawn: so the deals stay
    uniform among those the seat cannot rule out."""
    view = state.view(player)
    if view is None or state.drawing:
        raise ValueError("a state is resampled at a player's turn")
    sampler = Sampler(view)
    seen = state.information_state_string(player)
    past = _past(state)
    for _ in range(1000):
        world = _world(state, player, sampler.sample(rng).hands, past, rng)
        if world is not None and world.information_state_string(player) == seen:
            return world
    raise RuntimeError("no history of draws fits the sampled deals")


_Event = tuple[int, int, Tile | None]
"""A move of the round being played: seat, action, the tile drawn (``None`` unless a
draw)."""


class _Past(NamedTuple):
    """What every sampled deal is fitted to: the round being played, its moves, and the
    numbers open before each move (read once a resample, not once a deal)."""

    rnd: Round
    events: list[_Event]
    ends: list[set[int]]


def _past(state: BonesState) -> _Past:
    rnd = state.match.round
    actions = state.history()[state.deal_start + state.rules.players * state.rules.hand_size:]
    events: list[_Event] = []
    at = 0
    for seat, _ in rnd.history:
        action = actions[at]
        tile = BY_INDEX[actions[at + 1]] if action == DRAW_ACTION else None
        events.append((seat, action, tile))
        at += 2 if tile is not None else 1
    replay, ends = rnd.rewound(0), []
    for move in rnd.moves:
        ends.append(set(replay.ends))
        replay.push(move)
    return _Past(rnd, events, ends)


def _world(
    state: BonesState,
    player: int,
    hands: tuple[tuple[Tile, ...], ...],
    past: _Past,
    rng: random.Random,
) -> BonesState | None:
    rnd, events = past.rnd, past.events
    deal: list[set[Tile]] = []
    drawn: list[list[Tile]] = []
    for seat in range(state.rules.players):
        ever = _ever_held(past, seat, rnd.hands[seat] if seat == player else hands[seat])
        if seat == player:
            draws: list[Tile] | None = [t for s, _, t in events if s == seat and t is not None]
        else:
            draws = _draws(past, seat, ever, rng)
        if draws is None:
            return None
        deal.append(ever - set(draws))
        drawn.append(draws)
    world: BonesState = state.get_game().new_initial_state()
    try:
        for action in state.history()[:state.deal_start]:
            world.apply_action(action)
        for hand in deal:
            for tile in sorted(hand, key=lambda t: t.index):
                world.apply_action(tile.index)
        if world.match.waiting:  # a void Kozel deal
            return None
        for seat, action, taken in events:
            world.apply_action(action)
            if taken is not None:
                world.apply_action(drawn[seat].pop(0).index)
    except (ValueError, RuntimeError):
        return None
    return world


def _ever_held(past: _Past, seat: int, now: Iterable[Tile]) -> set[Tile]:
    """The tiles ``seat`` has held this round: those it holds ``now`` and those placed."""
    rnd = past.rnd
    held = set(now) | {BY_INDEX[a // 5] for s, a, _ in past.events
                       if s == seat and a < DRAW_ACTION}
    if rnd.lead is not None and rnd.lead.automatic and rnd.lead.seat == seat:
        held.add(rnd.lead.tile)
    return held


def _draws(past: _Past, seat: int, ever: set[Tile], rng: random.Random) -> list[Tile] | None:
    """The tiles ``seat`` drew, in order, in some history where it held ``ever``, or
    ``None`` if there is none (the deal can be ruled out).

    A run of draws that ends in a play drew the tile played last. Every tile the seat
    held when it drew or passed did not fit the open numbers then, and a tile is held
    from the deal (or its draw) until it is placed; no tile dealt outranks a forced lead.
    The other draws are matched to tiles by a search that tries the tiles in a random
    order, so any history that fits may come out."""
    rnd, events = past.rnd, past.events
    placed = {BY_INDEX[a // 5]: k for k, (s, a, _) in enumerate(events)
              if s == seat and a < DRAW_ACTION}
    if rnd.lead is not None and rnd.lead.automatic and rnd.lead.seat == seat:
        placed[rnd.lead.tile] = -1  # led with the deal, before any move
    checks = {k: past.ends[k] for k, (s, a, _) in enumerate(events)
              if s == seat and a >= DRAW_ACTION}
    runs: list[tuple[int, Tile | None]] = []
    for k, (s, action, _) in enumerate(events):
        if s == seat and action == DRAW_ACTION:
            after = events[k + 1] if k + 1 < len(events) else None
            played = after is not None and after[0] == seat and after[1] < DRAW_ACTION
            runs.append((k, BY_INDEX[after[1] // 5] if after is not None and played else None))

    def fits_while_held(tile: Tile, start: int) -> bool:
        stop = placed.get(tile, len(events))
        return any({tile.high, tile.low} & ends for k, ends in checks.items() if start <= k < stop)

    outranking = _outranking(rnd)
    free = ever - {tile for _, tile in runs if tile is not None}
    must_draw = {t for t in free if t in outranking or fits_while_held(t, 0)}
    open_runs = [k for k, known in runs if known is None]
    chosen: dict[int, Tile] = {}

    def search(at: int) -> bool:
        if len(must_draw - set(chosen.values())) > len(open_runs) - at:
            return False
        if at == len(open_runs):
            return True
        k = open_runs[at]
        options = [t for t in free - set(chosen.values())
                   if placed.get(t, len(events)) > k and not fits_while_held(t, k)]
        rng.shuffle(options)
        for tile in sorted(options, key=lambda t: t not in must_draw):
            chosen[k] = tile
            if search(at + 1):
                return True
            del chosen[k]
        return False

    if not search(0):
        return None
    return [known if known is not None else chosen[k] for k, known in runs]


def _outranking(rnd: Round) -> set[Tile]:
    """The tiles no hand was dealt: those that outrank a lead the rules forced."""
    lead = rnd.lead
    if lead is None or not lead.automatic:
        return set()
    order = opening_order(rnd.rules)
    return set(order[:order.index(lead.tile)])


def _own_dealt(state: BonesState, seat: int) -> list[Tile]:
    size = state.rules.hand_size
    return state.dealt[seat * size:(seat + 1) * size]


def _register() -> None:
    for variant in VARIANTS:
        game = type(f"Bones{variant.title()}Game", (BonesGame,), {"variant": variant})
        pyspiel.register_game(_game_type(variant), game)


_register()
