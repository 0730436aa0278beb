"""bones' bots against OpenSpiel's ISMCTS bot, on OpenSpiel's own 2-player block game.

    python bench/openspiel.py [--pairs 100] [--simulations 1000] [--levels heaviest,hard,expert]
                              [--uct-c 10,20] [--first 9000] [--jobs 2] [--choices FILE]
                              [--record FILE]

The game is OpenSpiel's ``python_block_dominoes``, played by OpenSpiel: it deals, says
whose turn it is, and scores. A bones bot takes part through an adapter: the same deal
and every move so far are mirrored in a bones block-game ``Round`` (seat 0 leads any
tile, a player who cannot play passes), the bot is handed that round's ``PlayerView``
for its seat and nothing else, and its move is turned back into OpenSpiel's action.
ISMCTS (OpenSpiel's Python implementation, random-rollout evaluator, max-visit final
policy, UCT c = ``UCT_C`` unless ``--uct-c`` lists others to sweep) deals
its worlds through a resampler that keeps what it has seen: its own hand, the tiles
played, and the numbers its opponent has shown it lacks by being skipped.

Every deal is played twice, the bones bot at seat 0 and then at seat 1 (paired games).
A line that takes hours (ISMCTS at 10,000 simulations plays a deal pair in about two
minutes) is run in pieces with ``--record``: each deal pair is added to a CSV file as it
ends, a deal the file already holds for the setting is not played again, and the table
counts every game the file holds for it.
Runs in bench/.venv with the peers installed, like bench/engine.py.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import os
import pickle
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine import ensure_environment

SIMULATIONS = 1000
UCT_C = 20.0
"""ISMCTS's exploration constant at its strongest on this game, found by a sweep of 2, 5,
10 and 20 at 1,000 simulations against Hard on 400 games each (``bench/RESULTS.md``): its
rewards are the points of a round, so the constant is in points too."""


def _tile(pair: tuple[float, float]) -> Any:
    from bones.tiles import Tile

    return Tile(int(pair[0]), int(pair[1]))


def _spiel_action(module: Any, player: int, move: Any, ends: tuple[int, ...]) -> int:
    """OpenSpiel's action for a bones play: the tile low half first, and the number of
    the end it covers (``None`` for the lead)."""
    tile = (float(move.tile.low), float(move.tile.high))
    edge = None if move.end is None else float(ends[0] if move.end == "left" else ends[1])
    return int(module._ACTIONS_STR.index(f"p{player} tile:{tile} pip:{edge}"))


def _bones_move(action: Any, ends: tuple[int, ...]) -> Any:
    """The bones play for an OpenSpiel action."""
    from bones.moves import Play

    tile = _tile(action.tile)
    if action.edge is None:
        return Play(tile)
    return Play(tile, "left" if ends[0] == int(action.edge) else "right")


def _resampler(game: Any, module: Any, seed: int) -> Any:
    """Worlds for ISMCTS: the mover's hand and the history kept, the other hand dealt
    uniformly from the unseen tiles it may hold (a player who was skipped lacks the
    numbers open then)."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        history = state.actions_history
        other = 1 - player
        played = {a.tile for a in history}
        lacks: set[float] = set()
        edges: list[float] = []
        for before, after in itertools.pairwise(history):
            edges = _edges(edges, before)
            if before.player == after.player == player:
                lacks |= set(edges)
        if history and history[-1].player == player and state.current_player() == player:
            lacks |= set(_edges(edges, history[-1]))
        mine = set(state.hands[player])
        unseen = [t for t in module._DECK if t not in mine and t not in played
                  and not (set(t) & lacks)]
        theirs = rng.sample(unseen, len(state.hands[other]))
        held = {player: mine, other: set(theirs)}
        world = game.new_initial_state()
        for seat in (0, 1):
            for tile in sorted(held[seat] | {a.tile for a in history if a.player == seat}):
                world.apply_action(module._DECK.index(tile))
        for action in history:
            world.apply_action(module._ACTIONS_STR.index(str(action)))
        return world

    return resample


def _edges(edges: list[float], action: Any) -> list[float]:
    if not edges:
        return sorted(action.tile)
    rest = list(edges)
    rest.remove(action.edge)
    rest.append(action.tile[0] if action.tile[0] != action.edge else action.tile[1])
    return sorted(rest)


Game = tuple[int, float, list[Any]]


def _game(level: str, deal_seed: int, bones_seat: int, simulations: int,
          uct_c: float) -> Game:
    """One game; the bones bot's result (1 won, 0 lost, -1 drawn), its seconds a move,
    and the choices ISMCTS made (for fitting a choice model, ``bench/choices.py``)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.games import block_dominoes as module

    from bones import Round, Rules, bots
    from bones.moves import PASS
    from choices import made_by

    game = pyspiel.load_game("python_block_dominoes")
    state = game.new_initial_state()
    deck = list(module._DECK)
    random.Random(deal_seed).shuffle(deck)
    for tile in deck[:14]:
        state.apply_action(module._DECK.index(tile))
    rnd = Round.from_hands(Rules.preset("block", players=2),
                           [[_tile(t) for t in state.hands[s]] for s in (0, 1)], leader=0)
    bot = bots.get(level, seed=deal_seed)
    peer = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(
        1, np.random.RandomState(deal_seed)), uct_c, simulations,
        random_state=np.random.RandomState(deal_seed + 1))
    peer.set_resampler(_resampler(game, module, deal_seed))
    spent: list[float] = []
    while not state.is_terminal():
        player = state.current_player()
        while rnd.turn != player:
            rnd.push(PASS)
        if player == bones_seat:
            start = time.perf_counter()
            move = bot.choose(rnd.view(player))
            spent.append(time.perf_counter() - start)
            action = _spiel_action(module, player, move, rnd.ends)
        else:
            action = peer.step(state)
            move = _bones_move(module._ACTIONS[action], rnd.ends)
        state.apply_action(action)
        rnd.push(move)
    mine, theirs = state.returns()[bones_seat], state.returns()[1 - bones_seat]
    result = 1 if mine > theirs else 0 if mine < theirs else -1
    return result, sum(spent) / max(1, len(spent)), made_by(rnd, 1 - bones_seat)


def _pair(level: str, seed: int, simulations: int, uct_c: float) -> list[Game]:
    return [_game(level, seed, seat, simulations, uct_c) for seat in (0, 1)]


RECORD = ["level", "simulations", "uct_c", "deal", "bones_seat", "result", "seconds"]
"""The columns of ``--record``: the setting, the deal's seed, the bones bot's seat, the
result (1 won, 0 lost, -1 drawn) and its mean seconds a move."""

Setting = tuple[str, int, float]


def _recorded(path: Path | None) -> dict[Setting, dict[int, list[Game]]]:
    """The deal pairs a record holds, by setting and deal."""
    held: dict[Setting, dict[int, list[Game]]] = {}
    if path is None or not path.exists():
        return held
    with path.open(newline="") as file:
        for row in csv.DictReader(file):
            setting = (row["level"], int(row["simulations"]), float(row["uct_c"]))
            held.setdefault(setting, {}).setdefault(int(row["deal"]), []).append(
                (int(row["result"]), float(row["seconds"]), []))
    return {setting: {deal: games for deal, games in deals.items() if len(games) == 2}
            for setting, deals in held.items()}


def _record(path: Path, setting: Setting, deal: int, games: list[Game]) -> None:
    new = not path.exists()
    with path.open("a", newline="") as file:
        writer = csv.writer(file)
        if new:
            writer.writerow(RECORD)
        for seat, (result, seconds, _) in enumerate(games):
            writer.writerow([*setting, deal, seat, result, f"{seconds:.4f}"])


def main() -> None:
    ensure_environment()
    from rich.progress import Progress

    from bones.arena import wilson

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=SIMULATIONS)
    parser.add_argument("--levels", default="heaviest,hard,expert")
    parser.add_argument("--uct-c", default=str(UCT_C),
                        help="ISMCTS's exploration constants, each played against every level")
    parser.add_argument("--first", type=int, default=9000,
                        help="the first deal's seed (the deals are numbered on from it)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--choices", type=Path, default=None,
                        help="save ISMCTS's choices there, for bench/choices.py --load")
    parser.add_argument("--record", type=Path, default=None,
                        help="add each deal pair to this CSV file, skip the deals it holds, "
                             "and count all its games of the setting")
    args = parser.parse_args()
    rows, made = [], []
    held = _recorded(args.record)
    with Progress() as progress, ProcessPoolExecutor(args.jobs) as pool:
        for level, uct_c in itertools.product(args.levels.split(","),
                                              map(float, args.uct_c.split(","))):
            setting = (level, args.simulations, uct_c)
            done = held.get(setting, {})
            deals = [d for d in range(args.first, args.first + args.pairs) if d not in done]
            task = progress.add_task(f"{level} vs ISMCTS-{args.simulations} c={uct_c:g}",
                                     total=len(deals))
            futures = [pool.submit(_pair, level, deal, args.simulations, uct_c)
                       for deal in deals]
            games = [game for pair in done.values() for game in pair]
            for deal, future in zip(deals, futures, strict=True):
                pair = future.result()
                if args.record:
                    _record(args.record, setting, deal, pair)
                games += pair
                progress.advance(task)
            wins = sum(r == 1 for r, _, _ in games)
            decided = sum(r != -1 for r, _, _ in games)
            times = sorted(t for _, t, _ in games)
            made += [sample for _, _, samples in games for sample in samples]
            rows.append((level, uct_c, len(games), wins, decided, times[len(times) // 2]))
    counted = f"every game in {args.record}" if args.record else f"{args.pairs} deals x 2 seats"
    print(f"python_block_dominoes, {counted}, ISMCTS with {args.simulations} simulations a move")
    print("| bones bot | ISMCTS uct_c | games | wins of decided (95%) | bones s/move (median) |")
    print("|-----------|-------------:|------:|-----------------------|----------------------:|")
    for level, uct_c, played, wins, decided, median in rows:
        low, high = wilson(wins, decided)
        share = wins / decided if decided else 0.0
        print(f"| {level} | {uct_c:g} | {played} | {share:.1%} [{low:.1%}, {high:.1%}] "
              f"| {median:.3f} |")
    if args.choices:
        args.choices.write_bytes(pickle.dumps(made))
        print(f"{len(made)} choices of ISMCTS saved in {args.choices}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
