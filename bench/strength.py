"""Bot strength on duplicate deals (every deal played twice, seats swapped), the lines
of issues 6 and 20 (Master against Expert), with a fixed budget per level, on this
machine's cores.

    python bench/strength.py [--deals 2000] [--expert-deals 500] [--master-deals 1000]
                             [--matches 300] [--jobs 2] [--only expert]

Prints one table and writes bench/strength.csv and bench/strength.png (with ``--only``,
bench/strength-LEVEL.csv and .png).
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
LINES = [  # variant, players, A, B, what the line asks
    ("draw", 2, "medium", "easy", "points per deal above 0"),
    ("block", 2, "medium", "easy", "points per deal above 0"),
    ("block", 4, "medium", "easy", "points per deal above 0"),
    ("kozel", 4, "medium", "easy", "points per deal above 0"),
    ("allfives", 2, "medium", "easy", "points per deal above 0"),
    ("draw", 2, "hard", "medium", ">= 60% of rounds; >= 70% of matches to 100"),
    ("allfives", 2, "hard", "medium", ">= 60% of rounds"),
    ("kozel", 4, "hard", "medium", ">= 60% of rounds"),
    ("kozel", 4, "hard", "heaviest", ">= 72% of rounds"),
    ("draw", 2, "expert", "hard", ">= 55% of rounds, the interval above 50%"),
    ("kozel", 4, "expert", "hard", ">= 55% of rounds, the interval above 50%"),
    ("draw", 2, "master", "expert", ">= 55% of rounds, the interval above 50%"),
    ("block", 2, "master", "expert", ">= 55% of rounds, the interval above 50%"),
    ("allfives", 2, "master", "expert", ">= 55% of rounds, the interval above 50%"),
    ("kozel", 4, "master", "expert", ">= 55% of rounds, the interval above 50%"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=300,
                        help="duplicate match pairs to 100, for the Hard/Medium draw line")
    parser.add_argument("--expert-deals", type=int, default=500,
                        help="deal pairs for the lines where Expert plays (it thinks longer)")
    parser.add_argument("--master-deals", type=int, default=1000,
                        help="deal pairs for the lines where Master plays")
    parser.add_argument("--only", default=None, help="only the lines where this level plays")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    lines = [line for line in LINES if args.only in (None, line[2], line[3])]
    duels = []
    start = time.time()
    with Progress() as progress:
        for variant, players, a, b, _ in lines:
            matches = args.matches if (variant, a, b) == ("draw", "hard", "medium") else 0
            deals = (args.master_deals if "master" in (a, b) else
                     args.expert_deals if "expert" in (a, b) else args.deals)
            task = progress.add_task(f"{variant}/{players} {a}:{b}", total=deals + matches)
            duels.append(duel(variant, players, a, b, deals, seed=2026, matches=matches,
                              jobs=args.jobs,
                              progress=lambda n, t=task: progress.advance(t, n)))
    print_table(duels)
    for variant, players, a, b, goal in lines:
        print(f"{variant}/{players} {a}:{b}: the line asks {goal}")
    name = "strength" if args.only is None else f"strength-{args.only}"
    write_csv(duels, HERE / f"{name}.csv")
    write_png(duels, HERE / f"{name}.png")
    print(f"{time.time() - start:.0f} s; wrote bench/{name}.csv and bench/{name}.png")


if __name__ == "__main__":
    main()
