"""The OpenSpiel bridge: OpenSpiel's own checks, consistency of information states, a
differential test against OpenSpiel's block game, and the leak test."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import get_all_states, ismcts, mcts
from open_spiel.python.games import block_dominoes

import bones.openspiel  # noqa: F401  (registers the games)
from bones.encoding import PASS_ACTION, action_of
from bones.moves import Play
from bones.tiles import Tile

GAMES = [
    "bones_draw", "bones_draw(players=3)", "bones_draw(players=4,target=50)",
    "bones_block", "bones_block(players=3,blocked_scoring=others)",
    "bones_block(players=4,opening_every_round=True,target=50)",
    "bones_kozel", "bones_kozel(target=100)", "bones_allfives", "bones_allfives(target=100)",
]


def _chance(state: Any, rng: random.Random) -> None:
    actions, weights = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(actions, weights)[0])


def _random_states(game: Any, rng: random.Random, games: int) -> Any:
    """Every decision state of ``games`` random games, as they are reached."""
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _chance(state, rng)
                continue
            yield state
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_random_simulation_test_passes(name: str) -> None:
    """OpenSpiel's own checks: legal actions, chance outcomes, returns, cloning, and
    serialization (a state written and read back)."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True,
                            verbose=False)


def test_parameters_reach_the_rules() -> None:
    game = pyspiel.load_game("bones_draw(players=3,target=100,hand_size=4)")
    assert game.num_players() == 3
    assert (game.rules.players, game.rules.target, game.rules.hand_size) == (3, 100, 4)
    with pytest.raises(Exception, match="target must be one of"):
        pyspiel.load_game("bones_block(target=75)")
    with pytest.raises(Exception, match="Unknown parameter 'players'"):
        pyspiel.load_game("bones_kozel(players=2)")
    with pytest.raises(Exception, match="blocked_scoring must be"):
        pyspiel.load_game("bones_draw(blocked_scoring=most)")


def _check_consistency(states: list[Any], game: Any) -> int:
    """States one seat cannot tell apart have its same legal actions and the same tensor;
    strings and tensors have the declared sizes. Returns how many states shared an
    information state with one met before (the cases the check is about)."""
    seen: dict[tuple[int, str], tuple[list[int], bytes]] = {}
    shared = 0
    for state in states:
        if state.is_chance_node() or state.is_terminal():
            continue
        player = state.current_player()
        key = (player, state.information_state_string(player))
        tensor = np.asarray(state.information_state_tensor(player), np.float32)
        assert tensor.shape == (game.information_state_tensor_size(),)
        assert len(state.observation_tensor(player)) == game.observation_tensor_size()
        facts = (state.legal_actions(), tensor.tobytes())
        shared += key in seen
        assert seen.setdefault(key, facts) == facts, key
    return shared


def test_openspiels_get_all_states_walks_a_whole_small_game() -> None:
    """The 2-player block game with one tile each: 756 deals, each led at once by the
    rules' opening; every state's tensors have the declared sizes, every end is 0-sum."""
    game = pyspiel.load_game("bones_block(hand_size=1)")
    states = get_all_states.get_all_states(game, include_terminals=True,
                                           include_chance_states=True)
    terminals = [s for s in states.values() if s.is_terminal()]
    assert len(terminals) == 28 * 27
    _check_consistency(list(states.values()), game)
    assert all(sum(s.returns()) == 0 for s in terminals)


def _below(state: Any, limit: int) -> list[Any]:
    """Every state reachable from ``state`` (chance included), at most ``limit``."""
    found, stack = [], [state]
    while stack and len(found) < limit:
        here = stack.pop()
        found.append(here)
        if here.is_terminal():
            continue
        actions = ([a for a, _ in here.chance_outcomes()] if here.is_chance_node()
                   else here.legal_actions())
        stack.extend(here.child(a) for a in actions)
    return found


@pytest.mark.parametrize("name", ["bones_draw", "bones_draw(players=3)", "bones_allfives"])
def test_states_below_a_late_position_are_consistent(name: str) -> None:
    """All continuations of late positions in the variants too big to enumerate whole:
    the draws' chance makes states a seat cannot tell apart."""
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    starts = [s.clone() for s in _random_states(game, rng, 30)
              if sum(s.match.round.hand_count(p) for p in range(game.num_players())) <= 8]
    assert starts
    shared = sum(_check_consistency(_below(start, 1500), game)
                 for start in rng.sample(starts, min(4, len(starts))))
    assert shared > 0


def _spiel_tile(action: Any) -> Tile:
    return Tile(int(action.tile[0]), int(action.tile[1]))


def _bones_action(spiel: Any, ends: tuple[int, ...]) -> int:
    """The bones action for OpenSpiel's block-game action at these open ends."""
    tile = _spiel_tile(spiel)
    if spiel.edge is None:
        return action_of(Play(tile))
    return action_of(Play(tile, "left" if ends[0] == int(spiel.edge) else "right"))


def _legal_plays(spiel_state: Any, ends: tuple[int, ...]) -> set[tuple[Tile, int | None]]:
    """OpenSpiel's legal actions as (tile, number covered)."""
    legal = set()
    for action in spiel_state.legal_actions():
        spiel = block_dominoes._ACTIONS[action]
        legal.add((_spiel_tile(spiel), None if spiel.edge is None else int(spiel.edge)))
    return legal


def _bones_plays(state: Any) -> set[tuple[Tile, int | None]]:
    places = state.match.round.places
    return {(m.tile, None if m.end is None else places[m.end])
            for m in state.match.round.legal_moves() if isinstance(m, Play)}


def test_the_block_game_agrees_with_openspiels_own() -> None:
    """2,000 random games of 2-player block dealt and played alike through the bridge
    and through OpenSpiel's ``python_block_dominoes``: the same legal plays at every turn
    and the same returns. bones scores a blocked round as OpenSpiel does with
    ``blocked_scoring=others`` and seat 0 leads freely with ``free_lead``; the lone-0-0
    rule that would differ is Kozel's alone, so no case is set apart."""
    ours = pyspiel.load_game("bones_block(free_lead=True,blocked_scoring=others)")
    theirs = pyspiel.load_game("python_block_dominoes")
    deck = [Tile(int(a), int(b)) for a, b in block_dominoes._DECK]
    rng = random.Random(11)
    passes = 0
    for _ in range(2000):
        mine, spiel = ours.new_initial_state(), theirs.new_initial_state()
        for tile in rng.sample(deck, 14):
            mine.apply_action(tile.index)
            spiel.apply_action(deck.index(tile))
        while not spiel.is_terminal():
            player = spiel.current_player()
            while mine.current_player() != player:
                assert mine.legal_actions() == [PASS_ACTION]
                mine.apply_action(PASS_ACTION)
                passes += 1
            ends = mine.match.round.ends
            assert _bones_plays(mine) == _legal_plays(spiel, ends)
            action = rng.choice(spiel.legal_actions())
            mine.apply_action(_bones_action(block_dominoes._ACTIONS[action], ends))
            spiel.apply_action(action)
        assert mine.is_terminal()
        assert mine.returns() == pytest.approx(spiel.returns())
    assert passes > 100  # the games did reach the turns a player must skip


_PUBLIC = ("line", "arms", "spinner", "ends", "places", "hand_counts", "boneyard_count", "turn",
           "lead", "history", "count_points", "scores", "lacks", "is_over", "result", "count",
           "round")


@pytest.mark.parametrize("name", ["bones_draw(players=3)", "bones_block(players=4)",
                                  "bones_kozel(target=100)", "bones_allfives(target=100)"])
def test_information_states_share_public_facts_and_hide_every_hand(name: str) -> None:
    """Two seats' information states never disagree about a public fact; the only tiles a
    seat's state names outside public facts are its own; and its tensors stay the same
    when the tiles it cannot see are dealt again."""
    game = pyspiel.load_game(name)
    rng = random.Random(3)
    for checked, state in enumerate(_random_states(game, rng, 6)):
        texts = [json.loads(state.information_state_string(p))
                 for p in range(game.num_players())]
        for seat, text in enumerate(texts):
            assert {k: text[k] for k in _PUBLIC} == {k: texts[0][k] for k in _PUBLIC}
            own = {str(t) for t in state.match.round.hands[seat]}
            assert set(text["hand"]) == own
            assert {m.split()[0] for m in text["legal_moves"]} - {"draw", "pass"} <= own
        if checked % 5 == 0:
            player = state.current_player()
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(
                0.0, 1.0))
            assert world.information_state_tensor(player) == \
                state.information_state_tensor(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)


@pytest.mark.parametrize("name", ["bones_draw", "bones_draw(players=4)", "bones_kozel",
                                  "bones_allfives(target=50)"])
def test_resampling_keeps_the_information_state_and_deals_the_rest_again(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed: defaultdict[bool, int] = defaultdict(int)
    for state in _random_states(game, rng, 4):
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.match.round.hands[player] == state.match.round.hands[player]
        changed[world.match.round.hands != state.match.round.hands] += 1
    assert changed[True] > changed[False]


def test_openspiels_ismcts_plays_kozel_through_the_bridge() -> None:
    """OpenSpiel's ISMCTS needs nothing but the bridge: its own resampling call."""
    game = pyspiel.load_game("bones_kozel")
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           2.0, 20, random_state=np.random.RandomState(1))
    state, rng = game.new_initial_state(), random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == 0
    assert state.match.round.is_over


@pytest.mark.parametrize("name", ["bones_draw", "bones_draw(players=3)", "bones_allfives"])
def test_a_deal_some_history_of_draws_fits_always_replays(name: str) -> None:
    """Resampling is exact: a sampled deal is only set aside when no history of draws
    fits it (the search says so) or when it would have ended the round; a history the
    search finds always replays through the engine."""
    from bones.bots.sampler import Sampler
    from bones.openspiel import _draws, _ever_held, _past, _world

    game = pyspiel.load_game(name)
    rng = random.Random(9)
    replayed = 0
    for state in _random_states(game, rng, 8):
        player, past = state.current_player(), _past(state)
        sampler = Sampler(state.view(player))
        for _ in range(5):
            hands = sampler.sample(rng).hands
            fits = all(_draws(past, seat, _ever_held(past, seat, hands[seat]), rng)
                       is not None for seat in range(game.num_players()) if seat != player)
            if fits:
                assert _world(state, player, hands, past, rng) is not None
                replayed += 1
    assert replayed > 500


@pytest.mark.parametrize("name", ["bones_allfives(target=100)", "bones_kozel(target=100)"])
def test_a_seat_observes_the_deal_as_it_is_dealt(name: str) -> None:
    """While a deal is dealt (the first and every later one) a seat's strings and
    tensors show the match's scores and the tiles dealt to it so far, and no other
    seat's; All Fives' scores are not counted twice between rounds."""
    game = pyspiel.load_game(name)
    rng = random.Random(6)
    state, dealing = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node() and state.match.waiting:
            dealing += 1
            size = game.rules.hand_size
            for seat in range(game.num_players()):
                own = state.dealt[seat * size:(seat + 1) * size]
                text = state.information_state_string(seat)
                assert f"scores {list(state.match.scores)}" in text
                assert {t for t in state.dealt if str(t) in text.split("dealing")[1]} \
                    == set(own)
                tensor = np.asarray(state.observation_tensor(seat))
                assert set(np.flatnonzero(tensor)) == {t.index for t in own}
            if state.match.results:
                assert list(state.match.scores) == list(state.match.scores_after[-1])
            _chance(state, rng)
        elif state.is_chance_node():
            _chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert dealing > 2 * 28
