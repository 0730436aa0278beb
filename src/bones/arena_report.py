"""How arena results are shown: a table in the terminal, a CSV file and a PNG chart."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from bones.arena import Duel, wilson

COLUMNS = ["variant", "players", "bot A", "bot B", "rounds", "A round win rate", "win low",
           "win high", "A points per deal", "points low", "points high", "matches",
           "A match wins", "A median s", "A p95 s", "B median s", "B p95 s"]


def rows(duels: Sequence[Duel]) -> list[list[str]]:
    out = []
    for d in duels:
        low, high = wilson(d.wins, d.decided)
        mean, p_low, p_high = d.points_interval()
        a_med, a_p95 = d.move_time(f"{d.a} (A)")
        b_med, b_p95 = d.move_time(f"{d.b} (B)")
        out.append([d.variant, str(d.players), d.a, d.b, str(d.rounds), f"{d.win_rate:.3f}",
                    f"{low:.3f}", f"{high:.3f}", f"{mean:.2f}", f"{p_low:.2f}", f"{p_high:.2f}",
                    str(d.matches), str(d.match_wins), f"{a_med:.4f}", f"{a_p95:.4f}",
                    f"{b_med:.4f}", f"{b_p95:.4f}"])
    return out


def print_table(duels: Sequence[Duel]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="bones arena: duplicate deals, seats swapped")
    for column in ("pairing", "rounds", "A wins rounds (95%)", "A points/deal (95%)",
                   "A wins matches", "A s/move med p95", "B s/move med p95"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for d, row in zip(duels, rows(duels), strict=True):
        matches = f"{d.match_wins}/{d.matches}" if d.matches else "-"
        table.add_row(f"{d.variant}/{d.players}: {d.a} vs {d.b}", row[4],
                      f"{float(row[5]):.1%} [{float(row[6]):.1%}, {float(row[7]):.1%}]",
                      f"{row[8]} [{row[9]}, {row[10]}]", matches,
                      f"{row[13]} {row[14]}", f"{row[15]} {row[16]}")
    Console(width=140).print(table)


def write_csv(duels: Sequence[Duel], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        writer.writerows(rows(duels))


def write_png(duels: Sequence[Duel], path: Path) -> None:
    """Round win rates with their Wilson intervals, one bar per pairing."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{d.variant}/{d.players}\n{d.a} vs {d.b}" for d in duels]
    rates = [d.win_rate for d in duels]
    intervals = [wilson(d.wins, d.decided) for d in duels]
    errors = [[r - lo for r, (lo, _) in zip(rates, intervals, strict=True)],
              [hi - r for r, (_, hi) in zip(rates, intervals, strict=True)]]
    figure, axis = plt.subplots(figsize=(max(5.0, 1.6 * len(duels)), 4.0))
    axis.bar(labels, rates, yerr=errors, capsize=6, color="#3b6ea5")
    axis.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    axis.set_ylim(0, 1)
    axis.set_ylabel("bot A's share of rounds won (95% interval)")
    axis.set_title("bones arena")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
