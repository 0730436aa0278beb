"""Random full rounds per second on one core: bones' engine against its peers.

Plays uniformly random legal moves from a fresh shuffled deal to the round's end, for
each bones variant and for the peers, all in one process, and prints the ratio of
bones' rounds per second to the faster peer on the nearest comparable variant:

- OpenSpiel's Python ``python_block_dominoes`` (2 players, 7 tiles each, no drawing)
  and ``python_team_dominoes`` (4 players in pairs, all 28 tiles dealt);
- ``dominoes`` 6.1.0 (4 players in pairs, all 28 tiles dealt, no drawing).

The peers are not dependencies of bones: on its first run this script makes its own
environment (``bench/.venv``) with them and bones installed, and runs itself there.

    python bench/engine.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
PEERS = ["open_spiel==2.0.2", "dominoes==6.1.0", "rich==15.0.0"]


def ensure_environment() -> None:
    """Re-run this script inside bench/.venv, made (or brought up to date) with the peers
    and bones installed."""
    python = VENV / "bin" / "python"
    inside = Path(sys.prefix).resolve() == VENV.resolve()
    if inside and _importable():
        return
    if not python.exists():
        print(f"creating {VENV} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if not inside or not _importable():
        print(f"installing {', '.join(PEERS)} and bones into {VENV} ...", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEERS, "-e", str(HERE.parent)],
                       check=True)
    os.execv(str(python), [str(python), *sys.argv])


def _importable() -> bool:
    try:
        import dominoes  # noqa: F401
        import pyspiel  # noqa: F401
        import rich  # noqa: F401

        import bones.kernel  # noqa: F401
    except ImportError:
        return False
    return True


def timed(play_one: Callable[[], int], seconds: float, slices: int = 3) -> tuple[float, float]:
    """Rounds and moves per second of ``play_one`` (which returns its move count): the
    best of a few slices of the time, so that a busy moment of the machine does not count
    against whoever was running then."""
    play_one()  # warm up
    best = (0.0, 0.0)
    for _ in range(slices):
        rounds = moves = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / slices:
            for _ in range(20):
                moves += play_one()
            rounds += 20
        best = max(best, (rounds / elapsed, moves / elapsed))
    return best


def bones_player(variant: str, players: int, rng: random.Random) -> Callable[[], int]:
    from bones import Round, Rules

    rules = Rules.preset(variant, players=players)

    def play_one() -> int:
        rnd = Round.deal(rules, rng=rng)
        moves = 0
        while not rnd.is_over:
            rnd.push(rng.choice(rnd.legal_moves()))
            moves += 1
        return moves

    return play_one


def openspiel_player(name: str, rng: random.Random) -> Callable[[], int]:
    import pyspiel
    from open_spiel.python.games import block_dominoes, team_dominoes  # noqa: F401 (register)

    game = pyspiel.load_game(name)

    def play_one() -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    return play_one


def dominoes_player(rng: random.Random) -> Callable[[], int]:
    import dominoes

    def play_one() -> int:
        game = dominoes.Game.new()
        moves = 0
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
            moves += 1
        return moves

    return play_one


# bones variant -> the peers it is compared with (the nearest comparable variants)
CASES = [
    ("block", 2, "2-player block", ["openspiel block"]),
    ("draw", 2, "2-player draw", ["openspiel block"]),
    ("allfives", 2, "All Fives", ["openspiel block"]),
    ("block", 4, "4-player block", ["dominoes", "openspiel team"]),
    ("kozel", 4, "Kozel", ["dominoes", "openspiel team"]),
]


def start(description: str) -> argparse.Namespace:
    """Read ``--seconds``, move into the benchmarks' environment, keep to one core."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    ensure_environment()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    return args


def main() -> None:
    args = start(__doc__.split("\n\n")[0])
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    rng = random.Random(2026)
    peers = {
        "openspiel block": openspiel_player("python_block_dominoes", rng),
        "openspiel team": openspiel_player("python_team_dominoes", rng),
        "dominoes": dominoes_player(rng),
    }
    jobs = [(f"peer {name}", play) for name, play in peers.items()]
    jobs += [(f"bones {label}", bones_player(v, p, rng)) for v, p, label, _ in CASES]
    speed = {}
    for name, play in track(jobs, description="playing random rounds"):
        speed[name] = timed(play, args.seconds)

    machine = platform.processor() or platform.machine()
    table = Table(title=f"Random full rounds on one core ({machine}, "
                  f"Python {platform.python_version()})")
    for column in ("bones variant", "rounds/s", "moves/s", "faster peer", "peer rounds/s", "ratio"):
        table.add_column(column, justify="right" if column != "bones variant" else "left",
                         no_wrap=True)
    for _, _, label, compared in CASES:
        rounds, moves = speed[f"bones {label}"]
        best = max(compared, key=lambda n: speed[f"peer {n}"][0])
        peer_rounds = speed[f"peer {best}"][0]
        table.add_row(label, f"{rounds:,.0f}", f"{moves:,.0f}", best, f"{peer_rounds:,.0f}",
                      f"{rounds / peer_rounds:.2f}x")
    console = Console(width=110)
    console.print(table)
    for name in peers:
        rounds, moves = speed[f"peer {name}"]
        console.print(f"peer {name}: {rounds:,.0f} rounds/s, {moves:,.0f} moves/s")


if __name__ == "__main__":
    main()
