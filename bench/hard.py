"""Where Hard's time goes: one decision split into its parts, over positions from random
games of every variant (each seat to move, from the start of a round to its end).

Parts: drawing the deals (``Sampler``), encoding them for the kernel, the kernel's
successors, and the kernel's evaluation, which solves exactly where few tiles are left
(and gives up after ``budget`` positions) and plays out the rest. Printed per variant:
decisions, milliseconds per decision (median, mean, p95) and each part's share.

    python bench/hard.py [--positions 60]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections import defaultdict

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from bones import Round, Rules, kernel
from bones.bots import HardBot
from bones.bots.hard import WIN_BONUS
from bones.bots.sampler import Sampler
from bones.view import PlayerView

CONFIGS = [("draw", {"players": 2}), ("block", {"players": 2}), ("block", {"players": 4}),
           ("kozel", {}), ("allfives", {})]


def positions(variant: str, options: dict[str, int], n: int, seed: int) -> list[PlayerView]:
    """``n`` views of the seat to move, from random rounds, every stage of a round."""
    rng = random.Random(seed)
    rules = Rules.preset(variant, **options)
    views: list[PlayerView] = []
    while len(views) < n:
        rnd = Round.deal(rules, seed=rng.getrandbits(32))
        while not rnd.is_over and len(views) < n:
            assert rnd.turn is not None
            if len(rnd.legal_moves()) > 1:
                views.append(rnd.view(rnd.turn))
            rnd.push(rng.choice(rnd.legal_moves()))
    return views


def timed(bot: HardBot, view: PlayerView) -> dict[str, float]:
    """One decision of ``bot``, as ``HardBot.evaluate`` makes it, part by part."""
    parts: dict[str, float] = {}
    start = time.perf_counter()
    sampler = Sampler(view)
    deals = [sampler.sample(bot.rng) for _ in range(bot.samples)]
    parts["sample"] = time.perf_counter() - start
    start = time.perf_counter()
    states = [kernel.position(view.rules, d.hands, d.boneyard, view) for d in deals]
    parts["encode"] = time.perf_counter() - start
    start = time.perf_counter()
    after = kernel.successors(states, view.legal_moves)
    parts["successors"] = time.perf_counter() - start
    start = time.perf_counter()
    kernel.evaluate(after, view.rules.side_of(view.seat), bot.playouts, bot.policy,
                    bot.budget, WIN_BONUS.get(view.rules.variant, 10.0),
                    seed=bot.rng.getrandbits(32), solvable=bot.solvable)
    parts["evaluate"] = time.perf_counter() - start
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    console = Console()
    console.print(f"{platform.processor() or platform.machine()}; one core")
    bot = HardBot(seed=1)
    timed(bot, positions("draw", {"players": 2}, 1, 0)[0])  # compile, load caches
    out = Table(title="Hard: one decision, part by part")
    for name in ("variant", "decisions", "median ms", "mean ms", "p95 ms", "sample",
                 "encode", "successors", "evaluate"):
        out.add_column(name, justify="right")
    with Progress(console=console) as progress:
        task = progress.add_task("positions", total=len(CONFIGS) * args.positions)
        for variant, options in CONFIGS:
            totals: dict[str, float] = defaultdict(float)
            times = []
            for view in positions(variant, options, args.positions, 7):
                parts = timed(bot, view)
                for name, seconds in parts.items():
                    totals[name] += seconds
                times.append(sum(parts.values()))
                progress.advance(task)
            whole = sum(totals.values())
            times.sort()
            label = variant + (f" {options['players']}p" if options else "")
            out.add_row(label, str(len(times)), f"{1000 * statistics.median(times):.1f}",
                        f"{1000 * statistics.mean(times):.1f}",
                        f"{1000 * times[int(0.95 * (len(times) - 1))]:.1f}",
                        *(f"{100 * totals[n] / whole:.0f}%" for n in
                          ("sample", "encode", "successors", "evaluate")))
    console.print(out)


if __name__ == "__main__":
    main()
