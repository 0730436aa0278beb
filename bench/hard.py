"""Where Hard's time goes: one decision split into its parts, over positions from random
games of every variant (each seat to move, from the start of a round to its end).

Parts: drawing the deals (``Sampler``), encoding them for the kernel, the kernel's
successors, and the kernel's evaluation, which solves exactly where few tiles are left
(and gives up after ``budget`` positions) and plays out the rest. Printed per variant:
decisions, milliseconds per decision (median, mean, p95) and each part's share, for the
whole of every deal. Then Hard as it plays (deals in batches until the choice is
settled) against the Hard of 2026-12-01 (four playouts a move, every deal), in this
process on the same positions: CPU milliseconds a decision and the deals it took.

    python bench/hard.py [--positions 60]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from bones import Round, Rules, kernel
from bones.bots import HardBot
from bones.bots.sampler import Dealt, Sampler
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


class Counting(HardBot):
    """Hard that counts the deals it draws."""

    drawn = 0

    def dealing(self, view: PlayerView) -> Iterator[Dealt]:
        for deal in super().dealing(view):
            self.drawn += 1
            yield deal


def against_the_old(views: list[PlayerView]) -> tuple[list[float], list[float], float]:
    """CPU seconds a decision of today's Hard and of the Hard of 2026-12-01, and the
    deals today's drew a decision."""
    new, old = Counting(seed=5), HardBot(seed=5, playouts=4, tolerance=None)
    times: tuple[list[float], list[float]] = ([], [])
    for view in views:
        for bot, out in zip((new, old), times, strict=True):
            start = time.process_time()
            bot.evaluate(view)
            out.append(time.process_time() - start)
    return times[0], times[1], new.drawn / len(views)


def summary(times: list[float]) -> tuple[float, float, float]:
    """Mean, median and p95 milliseconds."""
    ordered = sorted(times)
    return (1000 * statistics.mean(ordered), 1000 * statistics.median(ordered),
            1000 * ordered[int(0.95 * (len(ordered) - 1))])


def timed(bot: HardBot, view: PlayerView) -> dict[str, float]:
    """One decision of ``bot``, as ``HardBot.evaluate`` makes it, part by part."""
    parts: dict[str, float] = {}
    start = time.perf_counter()
    sampler = Sampler(view)
    deals = [sampler.sample_dealt(bot.rng) for _ in range(bot.samples)]
    parts["sample"] = time.perf_counter() - start
    start = time.perf_counter()
    states = bot.positions(view, deals)
    parts["encode"] = time.perf_counter() - start
    start = time.perf_counter()
    after = kernel.successors(states, view.legal_moves)
    parts["successors"] = time.perf_counter() - start
    start = time.perf_counter()
    kernel.evaluate(after, view.rules.side_of(view.seat), bot.playouts, bot.policy,
                    bot.budget, bot.bonus(view.rules.variant),
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
    versus = Table(title="Hard against the Hard of 2026-12-01 (4 playouts, every deal): "
                         "CPU ms a decision, mean / median / p95")
    for name in ("variant", "today", "2026-12-01", "mean ratio", "deals a decision"):
        versus.add_column(name, justify="right")
    with Progress(console=console) as progress:
        task = progress.add_task("positions", total=2 * len(CONFIGS) * args.positions)
        for variant, options in CONFIGS:
            label = variant + (f" {options['players']}p" if options else "")
            views = positions(variant, options, args.positions, 11)
            new, old, deals = against_the_old(views)
            progress.advance(task, len(views))
            versus.add_row(label, *("{:.1f} / {:.1f} / {:.1f}".format(*summary(t))
                                    for t in (new, old)),
                           f"{sum(new) / sum(old):.2f}", f"{deals:.0f}")
            totals: dict[str, float] = defaultdict(float)
            times = []
            for view in positions(variant, options, args.positions, 7):
                parts = timed(bot, view)
                for name, seconds in parts.items():
                    totals[name] += seconds
                times.append(sum(parts.values()))
                progress.advance(task)
            whole = sum(totals.values())
            mean, median, p95 = summary(times)
            out.add_row(label, str(len(times)), f"{median:.1f}", f"{mean:.1f}", f"{p95:.1f}",
                        *(f"{100 * totals[n] / whole:.0f}%" for n in
                          ("sample", "encode", "successors", "evaluate")))
    console.print(out)
    console.print(versus)


if __name__ == "__main__":
    main()
