"""Quick match: who plays whom. Waiting players (each a :class:`Ticket`: one player, or
two friends queued as a Kozel pair) are grouped by rating, the band of ratings a ticket
accepts widening the longer it waits, as lichess's pool does. Nothing here waits, stores
or talks: tickets in, groups out, so the server (:mod:`bones.server.meeting.seeking`) can run it
over a queue in memory or in Redis, and tests over any tickets they like.

>>> ann = Ticket.single("t1", "draw", 2, Member("Ann", 1, 1500), since=0.0)
>>> bob = Ticket.single("t2", "draw", 2, Member("Bob", 2, 1580), since=0.0)
>>> pair_up([ann, bob], now=0.0)  # 80 apart: within both bands at once
[Group(tickets=('t1', 't2'), bots=0, target=100)]
>>> cy = Ticket.single("t3", "draw", 2, Member("Cy", 3, 1900), since=0.0)
>>> pair_up([ann, cy], now=0.0), pair_up([ann, cy], now=20.0)  # 400 apart: after a while
([], [Group(tickets=('t1', 't3'), bots=0, target=100)])
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

__all__ = ["BASE", "DEFAULT_TARGET", "GROWTH", "Group", "Member", "Ticket", "pair_up", "seating"]

BASE = 100
"""Rating points (as players see them) a ticket accepts either side of its own at first ..."""
GROWTH = 20
"""... and more for each second it has waited."""
DEFAULT_TARGET = 100
"""A group whose players all said "any target" plays to this."""


@dataclass(frozen=True)
class Member:
    """A waiting player: name, account and rating in the ticket's variant and player
    count (as shown; a player without one counts as a newcomer's 1500)."""

    name: str
    account: int
    rating: int
    guest: bool = False
    apart: tuple[int, ...] = ()
    """The accounts this one blocked or was blocked by: never seated together."""


@dataclass(frozen=True)
class Ticket:
    """A seek: what its players want to play, and since when (epoch seconds).

    ``target`` None takes any target. ``wanted`` members: 2 for friends queued as a
    pair (the ticket waits for the second one, who joins by ``code``). With
    ``bots_after`` (casual games only) the ticket is seated with bots in the free seats
    once it has waited that long."""

    id: str
    variant: str
    players: int
    members: tuple[Member, ...]
    since: float
    rated: bool = False
    target: int | None = None
    wanted: int = 1
    code: str | None = None
    bots_after: float | None = None
    level: str = "medium"
    address: str | None = None
    """Where the seek came from: its table counts against that address's allowance, at
    whichever process seats it."""

    @classmethod
    def single(cls, ticket_id: str, variant: str, players: int, member: Member,
               since: float, **options: Any) -> Ticket:
        return cls(ticket_id, variant, players, (member,), since, **options)

    @property
    def pool(self) -> str:
        """The tickets that may play each other: same game, player count and rating."""
        return f"{self.variant}:{self.players}:{'rated' if self.rated else 'casual'}"

    @property
    def ready(self) -> bool:
        """Every member is here (a pair's friend has joined)."""
        return len(self.members) == self.wanted

    @property
    def rating(self) -> float:
        return sum(m.rating for m in self.members) / len(self.members)

    def band(self, now: float) -> float:
        """How far from its own rating it accepts others' by now."""
        return BASE + GROWTH * max(0.0, now - self.since)

    def with_bots(self, now: float) -> bool:
        """Whether it takes bots in the free seats by now."""
        return (self.bots_after is not None and not self.rated
                and now - self.since >= self.bots_after)

    def joined(self, member: Member) -> Ticket:
        """The pair, its friend come."""
        return replace(self, members=(*self.members, member))

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Ticket:
        data = json.loads(text)
        data["members"] = tuple(Member(**{**m, "apart": tuple(m.get("apart", ()))})
                                for m in data["members"])
        return cls(**data)


@dataclass(frozen=True)
class Group:
    """Tickets to seat at one table (by id), the seats bots fill, and the target."""

    tickets: tuple[str, ...]
    bots: int
    target: int


@dataclass
class _Gathering:
    """A group being gathered around its longest-waiting ticket."""

    first: Ticket
    now: float
    chosen: list[Ticket] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.chosen.append(self.first)
        self.low = self.high = self.first.rating
        self.band = self.first.band(self.now)
        self.target = self.first.target
        self.accounts = {m.account for m in self.first.members}
        self.apart = {a for m in self.first.members for a in m.apart}

    @property
    def need(self) -> int:
        return self.first.players - sum(len(t.members) for t in self.chosen)

    def fits(self, other: Ticket) -> bool:
        """``other`` may sit with those chosen: room for its members, a target all
        accept, every rating within every member's band, and nobody blocked by another."""
        low, high = min(self.low, other.rating), max(self.high, other.rating)
        theirs = {m.account for m in other.members}
        return (len(other.members) <= self.need
                and (self.target is None or other.target in (None, self.target))
                and high - low <= min(self.band, other.band(self.now))
                and self.accounts.isdisjoint(theirs) and self.apart.isdisjoint(theirs)
                and self.accounts.isdisjoint(a for m in other.members for a in m.apart))

    def add(self, other: Ticket) -> None:
        self.chosen.append(other)
        self.low, self.high = min(self.low, other.rating), max(self.high, other.rating)
        self.band = min(self.band, other.band(self.now))
        self.target = self.target if self.target is not None else other.target
        self.accounts.update(m.account for m in other.members)
        self.apart.update(a for m in other.members for a in m.apart)

    def group(self) -> Group:
        return Group(tuple(t.id for t in self.chosen), self.need,
                     self.target if self.target is not None else DEFAULT_TARGET)


def pair_up(tickets: Iterable[Ticket], now: float) -> list[Group]:
    """Groups of one pool's tickets to seat now. The longest waiting gathers first, the
    nearest ratings first; a ticket whose time for bots has come is seated with whoever
    of the nearest also takes bots, bots in the other seats."""
    waiting = sorted((t for t in tickets if t.ready), key=lambda t: (t.rating, t.since, t.id))
    ratings = [t.rating for t in waiting]
    taken: set[str] = set()
    groups = []
    for first in sorted(waiting, key=lambda t: (t.since, t.id)):
        if first.id in taken:
            continue
        gathering = _Gathering(first, now)
        for other in _nearest(waiting, ratings, first, gathering.band):
            if gathering.need == 0:
                break
            if other.id not in taken and other.id != first.id and gathering.fits(other):
                gathering.add(other)
        if gathering.need and first.with_bots(now):
            gathering.chosen = [t for t in gathering.chosen if t.with_bots(now)]
        elif gathering.need:
            continue
        groups.append(gathering.group())
        taken.update(t.id for t in gathering.chosen)
    return groups


def _nearest(waiting: Sequence[Ticket], ratings: Sequence[float], first: Ticket,
             band: float) -> Iterable[Ticket]:
    """The tickets within ``band`` of ``first``'s rating, nearest first."""
    below = bisect.bisect_left(ratings, first.rating) - 1
    above = below + 1
    while True:
        down = first.rating - ratings[below] if below >= 0 else None
        up = ratings[above] - first.rating if above < len(ratings) else None
        if up is not None and (down is None or up <= down):
            if up > band:
                return
            yield waiting[above]
            above += 1
        elif down is not None:
            if down > band:
                return
            yield waiting[below]
            below -= 1
        else:
            return


def seating(tickets: Sequence[Ticket], bots: int, kozel: bool) -> list[Member | None]:
    """Who sits where (None: a bot). Kozel's partners sit opposite (seats 0 and 2, 1 and
    3): friends queued as a pair together, and otherwise the strongest with the weakest.

    >>> a, b, c, d = (Member(n, i, r) for i, (n, r) in enumerate(
    ...     [("A", 1700), ("B", 1600), ("C", 1500), ("D", 1400)]))
    >>> [m.name for m in seating([Ticket.single(str(m.account), "kozel", 4, m, 0.0)
    ...                           for m in (a, b, c, d)], 0, kozel=True)]
    ['A', 'B', 'D', 'C']
    """
    if not kozel:
        return [m for t in tickets for m in t.members] + [None] * bots
    pairs = [list(t.members) for t in tickets if len(t.members) == 2]
    ranked = sorted((t.members[0] for t in tickets if len(t.members) == 1),
                    key=lambda m: -m.rating)
    singles: list[Member | None] = [*ranked, *[None] * bots]
    if len(pairs) == 2:
        teams: list[list[Member | None]] = [list(p) for p in pairs]
    elif pairs:
        teams = [list(pairs[0]), singles]
    else:
        teams = [[singles[0], singles[3]], [singles[1], singles[2]]]
    return [teams[0][0], teams[1][0], teams[0][1], teams[1][1]]
