"""bones for researchers, measured: steps a second through the OpenSpiel bridge and the
environments against OpenSpiel's own ``python_block_dominoes``, and an arena on a local
Ray cluster of one worker against two.

    python bench/research.py [--seconds 3] [--pairs 2000] [--pairing hard:medium]
                             [--variant draw] [--no-ray]

Steps: uniformly random legal actions (and chance outcomes) from a fresh game to its end,
all in this process, the best of three slices of the time so that a busy moment of the
machine does not count against whoever ran then. Every step counts, chance included, and
the games a second too (bones' block game has pass actions where OpenSpiel's skips).
Environments hand the mover an observation at every step, so they are set beside the
games read the same way (``observation_tensor`` at each decision). The Ray arena runs
the same duplicate deals twice, on a local cluster of one worker and of two, and checks
that the figures agree. Needs ``pip install -e '.[research]'``.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

Step = Callable[[random.Random], int]
"""Plays one game, returns the steps it took."""


def spiel_game(name: str, observe: bool = False) -> Step:
    """A game through pyspiel; with ``observe``, the mover's observation tensor is read
    at every decision, as an environment hands it to an agent."""
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers)

    import bones.openspiel  # noqa: F401  (registers)

    game = pyspiel.load_game(name)

    def play(rng: random.Random) -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def aec_game(variant: str, players: int) -> Step:
    import numpy as np

    from bones.env import aec_env

    env = aec_env(variant, players=players)

    def play(rng: random.Random) -> int:
        env.reset(seed=rng.getrandbits(32))
        steps = 0
        for _ in env.agent_iter():
            observation, _, done, _, _ = env.last()
            mask = observation["action_mask"]
            env.step(None if done else int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        return steps

    return play


def gym_game(variant: str, opponents: str) -> Step:
    import numpy as np

    from bones.env import BonesEnv

    env = BonesEnv(variant, opponents=opponents)

    def play(rng: random.Random) -> int:
        _, info = env.reset(seed=rng.getrandbits(32))
        steps, over = 0, False
        while not over:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, over, _, info = env.step(action)
            steps += 1
        return steps

    return play


def rate(play: Step, seconds: float) -> tuple[float, float]:
    """Steps and games a second: the best of three slices."""
    rng = random.Random(1)
    play(rng)  # warm up
    best = (0.0, 0.0)
    for _ in range(3):
        steps = games = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            steps += play(rng)
            games += 1
        best = max(best, (steps / elapsed, games / elapsed))
    return best


CASES: list[tuple[str, Callable[[], Step]]] = [
    ("OpenSpiel python_block_dominoes (peer)", lambda: spiel_game("python_block_dominoes")),
    ("bridge: bones_block, OpenSpiel's rules",
     lambda: spiel_game("bones_block(free_lead=True,blocked_scoring=others)")),
    ("bridge: bones_block", lambda: spiel_game("bones_block")),
    ("bridge: bones_draw", lambda: spiel_game("bones_draw")),
    ("bridge: bones_kozel", lambda: spiel_game("bones_kozel")),
    ("bridge: bones_allfives", lambda: spiel_game("bones_allfives")),
    ("OpenSpiel python_block_dominoes, observing each move",
     lambda: spiel_game("python_block_dominoes", observe=True)),
    ("bridge: bones_block, observing each move", lambda: spiel_game("bones_block", True)),
    ("PettingZoo AEC: 2-player block", lambda: aec_game("block", 2)),
    ("PettingZoo AEC: Kozel", lambda: aec_game("kozel", 4)),
    ("Gymnasium: 2-player block vs Easy", lambda: gym_game("block", "easy")),
]


def steps_table(seconds: float) -> None:
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    rows = [(name, *rate(make(), seconds)) for name, make in track(CASES, "steps a second")]
    peer = rows[0][1]
    table = Table(title="random games, one process")
    for column in ("game", "steps/s", "games/s", "steps/s vs peer"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name, steps, games in rows:
        table.add_row(name, f"{steps:,.0f}", f"{games:,.0f}", f"{steps / peer:.2f}x")
    Console().print(table)


def ray_arena(pairs: int, pairing: str, variant: str) -> None:
    from rich.progress import Progress

    from bones.arena import duel

    a, _, b = pairing.partition(":")
    runs = {}
    for workers in (1, 2):
        with Progress() as progress:
            task = progress.add_task(f"{pairing} on Ray, {workers} worker(s)", total=pairs)
            start = time.perf_counter()
            result = duel(variant, 2, a, b, pairs, seed=1, jobs=workers, ray="local",
                          progress=lambda n, task=task: progress.advance(task, n))
            runs[workers] = (time.perf_counter() - start, result)
    (one, first), (two, second) = runs[1], runs[2]
    same = (first.wins, first.decided, first.margins) == (second.wins, second.decided,
                                                         second.margins)
    print(f"{pairs} duplicate pairs of {variant}, {pairing}: 1 worker {one:.1f} s, "
          f"2 workers {two:.1f} s, speed-up {one / two:.2f}x; the same figures: {same}; "
          f"A wins {first.win_rate:.1%} of decided rounds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--pairing", default="hard:medium")
    parser.add_argument("--variant", default="draw")
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    print(f"{datetime.date.today()}, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    steps_table(args.seconds)
    if not args.no_ray:
        ray_arena(args.pairs, args.pairing, args.variant)


if __name__ == "__main__":
    main()
