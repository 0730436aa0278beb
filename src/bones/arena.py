"""The arena: two bots on duplicate deals, and what the results say about their strength.

Every deal is played twice, the second time with the bots' seats swapped, so luck of the
deal cancels out. Bot A sits at the even seats (in Kozel: pair 0+2), bot B at the odd.

>>> result = duel("draw", 2, "medium", "easy", deals=20, seed=1)
>>> result.rounds, 0.0 <= result.win_rate <= 1.0
(40, True)
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from bones import bots
from bones.match import Match
from bones.moves import Move
from bones.round import Round
from bones.rules import Rules

__all__ = ["Duel", "duel", "wilson"]


@dataclass
class Duel:
    """The tally of one pairing, from bot A's side."""

    variant: str
    players: int
    a: str
    b: str
    rounds: int = 0
    wins: int = 0  # rounds bot A's side won
    decided: int = 0  # rounds somebody won
    margins: list[float] = field(default_factory=list)  # A's points minus B's, per deal pair
    matches: int = 0
    match_wins: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """A's share of the rounds somebody won."""
        return self.wins / self.decided if self.decided else 0.5

    def add(self, other: Duel) -> None:
        self.rounds += other.rounds
        self.wins += other.wins
        self.decided += other.decided
        self.margins += other.margins
        self.matches += other.matches
        self.match_wins += other.match_wins
        for name, times in other.times.items():
            self.times.setdefault(name, []).extend(times)

    def points_interval(self) -> tuple[float, float, float]:
        """A's mean margin per deal pair and its 95% interval."""
        if not self.margins:
            return 0.0, 0.0, 0.0
        mean = statistics.fmean(self.margins)
        if len(self.margins) < 2:
            return mean, mean, mean
        half = 1.96 * statistics.stdev(self.margins) / math.sqrt(len(self.margins))
        return mean, mean - half, mean + half

    def move_time(self, name: str) -> tuple[float, float]:
        """Median and 95th percentile seconds per decision (forced moves excluded)."""
        times = sorted(self.times.get(name, [])) or [0.0]
        return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _side_points(rules: Rules, points: Iterable[int], side: int) -> int:
    """A side's round points as gains: Kozel's penalties count against the pair."""
    value = list(points)[side]
    return -value if rules.variant == "kozel" else value


def _players(rules: Rules, a: bots.Bot, b: bots.Bot, swap: bool) -> list[bots.Bot]:
    return [(b if swap else a) if seat % 2 == 0 else (a if swap else b)
            for seat in range(rules.players)]


def _next_move(rnd: Round, seats: list[bots.Bot], names: list[str],
               times: dict[str, list[float]]) -> Move:
    """The forced move, or the seat's bot's choice (timed)."""
    forced = rnd.forced()
    if forced is not None:
        return forced
    seat = rnd.turn
    assert seat is not None
    start = time.perf_counter()
    move = seats[seat].choose(rnd.view(seat))
    times.setdefault(names[seat], []).append(time.perf_counter() - start)
    return move


def _play_round(rnd: Round, seats: list[bots.Bot], names: list[str],
                times: dict[str, list[float]]) -> None:
    while not rnd.is_over:
        rnd.push(_next_move(rnd, seats, names, times))


def _duel_chunk(variant: str, players: int, a: str, b: str, seeds: list[int],
                matches: list[int]) -> Duel:
    rules = Rules.preset(variant, players=players)
    tally = Duel(variant, players, a, b)
    bot_a, bot_b = bots.get(a, seed=seeds[0] if seeds else 0), bots.get(b, seed=1 + (
        seeds[0] if seeds else 0))
    for deal_seed in seeds:
        margin = 0.0
        for swap in (False, True):
            seats = _players(rules, bot_a, bot_b, swap)
            names = [s.level + (" (A)" if s is bot_a else " (B)") for s in seats]
            rnd = Round.deal(rules, seed=deal_seed)
            _play_round(rnd, seats, names, tally.times)
            result = rnd.result
            assert result is not None
            a_side = 1 if swap else 0  # A sits at the even seats unless swapped
            totals = [r + c for r, c in zip(result.points, _count_by_side(rules, rnd),
                                            strict=True)]
            margin += _margin(rules, totals, a_side)
            tally.rounds += 1
            if result.winner is not None:
                tally.decided += 1
                tally.wins += result.winner % 2 == a_side
        tally.margins.append(margin)
    for match_seed in matches:
        for swap in (False, True):
            tally.matches += 1
            tally.match_wins += _play_match(rules, bot_a, bot_b, swap, match_seed, tally.times)
    return tally


def _count_by_side(rules: Rules, rnd: Round) -> list[int]:
    counts = [0] * rules.sides
    for seat, points in enumerate(rnd.count_points):
        counts[rules.side_of(seat)] += points
    return counts


def _margin(rules: Rules, totals: list[int], a_side: int) -> float:
    """The mean points of A's sides minus the mean of B's (penalties count against)."""
    points = [_side_points(rules, totals, side) for side in range(rules.sides)]
    mine = [p for side, p in enumerate(points) if side % 2 == a_side]
    theirs = [p for side, p in enumerate(points) if side % 2 != a_side]
    return statistics.fmean(mine) - statistics.fmean(theirs)


def _play_match(rules: Rules, a: bots.Bot, b: bots.Bot, swap: bool, seed: int,
                times: dict[str, list[float]]) -> int:
    match = Match(rules, seed=seed)
    seats = _players(rules, a, b, swap)
    names = [s.level + (" (A)" if s is a else " (B)") for s in seats]
    while not match.is_over:
        match.push(_next_move(match.round, seats, names, times))
    a_side = 1 if swap else 0
    return int(match.winner is not None and match.winner % 2 == a_side)


def duel(
    variant: str,
    players: int,
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    matches: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> Duel:
    """Play ``deals`` duplicate deal pairs (and ``matches`` duplicate match pairs to the
    target) between bots ``a`` and ``b``: in this process, on ``jobs`` processes, or on
    a Ray cluster (``ray="local"`` starts one of ``jobs`` workers on this machine; else
    the address of a running cluster). The work is cut into the same pieces each way, and
    each piece seeds its bots from its deals, so a seed gives the same results on all."""
    chunk = 10
    seeds = [seed * 1_000_003 + i for i in range(deals)]
    match_seeds = [seed * 1_000_033 + i for i in range(matches)]
    pieces: list[tuple[list[int], list[int]]] = [
        (seeds[i:i + chunk], []) for i in range(0, deals, chunk)]
    pieces += [([], match_seeds[i:i + 1]) for i in range(matches)]
    calls = [(variant, players, a, b, d, m) for d, m in pieces]
    total = Duel(variant, players, a, b)
    with ExitStack() as stack:
        if ray is not None:
            results = stack.enter_context(_on_ray(ray, jobs, calls))
        elif jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            futures = [pool.submit(_duel_chunk, *call) for call in calls]
            results = (future.result() for future in futures)
        else:
            results = (_duel_chunk(*call) for call in calls)
        for (_, _, _, _, d, m), piece in zip(calls, results, strict=True):
            total.add(piece)
            if progress:
                progress(len(d) + len(m))
    return total


_Call = tuple[str, int, str, str, list[int], list[int]]


@contextmanager
def _on_ray(address: str, jobs: int, calls: list[_Call]) -> Iterator[Iterator[Duel]]:
    """The pieces' tallies from Ray workers, in the order of ``calls``; a local cluster
    started here is stopped when done."""
    import ray

    local = address == "local"
    ray.init(address=None if local else address, num_cpus=jobs if local else None,
             include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        remote = ray.remote(_duel_chunk)
        refs = [remote.remote(*call) for call in calls]
        yield (ray.get(ref) for ref in refs)
    finally:
        ray.shutdown()
