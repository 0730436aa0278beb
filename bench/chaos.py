"""Chaos, the long run: 200 games at a site of three app processes and two bot workers
on one PostgreSQL and one Redis (throwaway ones, started here from Debian's packages),
while a random process is killed with SIGKILL and started again every few seconds.
Prints the report of ``tests/server/chaos.py``: games finished, kills, how long the
killed app processes' tables waited for a new holder and for their next move, clients
that came back, messages checked against the finished matches. ``--load N`` keeps N
processes spinning beside the site the whole run (``--load 2``: both cores busy, as on a
loaded machine).

    python bench/chaos.py [--games 200] [--at-once 8] [--every 3] [--load 2]
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.progress import Progress

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server import chaos  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--at-once", type=int, default=8)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between kills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=int, default=0,
                        help="processes spinning beside the site the whole run")
    args = parser.parse_args()
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(args.load)]
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        pg, rd = Path(folder) / "pg", Path(folder) / "redis"
        pg.mkdir(mode=0o755)
        Path(folder).chmod(0o755)
        db = subprocess.check_output([ROOT / "scripts/pg-temp", "start", pg], text=True).strip()
        url = subprocess.check_output([ROOT / "scripts/redis-temp", "start", rd],
                                      text=True).strip()
        try:
            with Progress() as progress:
                task = progress.add_task("games", total=args.games)
                report = chaos.run(db, url, args.games, at_once=args.at_once,
                                   every=args.every, timeout=3600, seed=args.seed,
                                   progress=lambda n: progress.advance(task, n))
        finally:
            for spinner in spinning:
                spinner.kill()
            subprocess.run([ROOT / "scripts/pg-temp", "stop", pg], check=False)
            subprocess.run([ROOT / "scripts/redis-temp", "stop", rd], check=False)
    print(f"{platform.processor() or platform.machine()}, {args.at_once} games at once, "
          f"a kill every {args.every:g} s (± half), {args.load} processes spinning beside")
    for line in report.lines():
        print(line)
    for problem in report.problems:
        print("PROBLEM:", repr(problem))
    sys.exit(0 if not report.problems and report.finished == report.games else 1)


if __name__ == "__main__":
    main()
