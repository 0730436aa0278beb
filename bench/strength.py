"""Bot strength on duplicate deals (every deal played twice, seats swapped), the lines
of issue 6, with a fixed budget per level, on this machine's cores.

    python bench/strength.py [--deals 2000] [--matches 300] [--jobs 2]

Prints one table and writes bench/strength.csv and bench/strength.png.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from rich.progress import Progress

from bones.arena import duel
from bones.arena_report import print_table, write_csv, write_png

HERE = Path(__file__).resolve().parent
LINES = [  # variant, players, A, B, what issue 6 asks
    ("draw", 2, "medium", "easy", "points per deal above 0"),
    ("block", 2, "medium", "easy", "points per deal above 0"),
    ("block", 4, "medium", "easy", "points per deal above 0"),
    ("kozel", 4, "medium", "easy", "points per deal above 0"),
    ("allfives", 2, "medium", "easy", "points per deal above 0"),
    ("draw", 2, "hard", "medium", ">= 60% of rounds; >= 70% of matches to 100"),
    ("allfives", 2, "hard", "medium", ">= 60% of rounds"),
    ("kozel", 4, "hard", "medium", ">= 60% of rounds"),
    ("kozel", 4, "hard", "heaviest", ">= 72% of rounds"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=300,
                        help="duplicate match pairs to 100, for the Hard/Medium draw line")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    duels = []
    start = time.time()
    with Progress() as progress:
        for variant, players, a, b, _ in LINES:
            matches = args.matches if (variant, a, b) == ("draw", "hard", "medium") else 0
            task = progress.add_task(f"{variant}/{players} {a}:{b}", total=args.deals + matches)
            duels.append(duel(variant, players, a, b, args.deals, seed=2026, matches=matches,
                              jobs=args.jobs,
                              progress=lambda n, t=task: progress.advance(t, n)))
    print_table(duels)
    for variant, players, a, b, goal in LINES:
        print(f"{variant}/{players} {a}:{b}: issue 6 asks {goal}")
    write_csv(duels, HERE / "strength.csv")
    write_png(duels, HERE / "strength.png")
    print(f"{time.time() - start:.0f} s; wrote bench/strength.csv and bench/strength.png")


if __name__ == "__main__":
    main()
