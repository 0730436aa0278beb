"""Who plays whom (``bones.server.meeting.matching``), over any tickets: groups never share a
ticket or a player, fill their table exactly, keep every rating within every member's
band, agree on a target and never seat two who blocked one another; nobody who could
play is left waiting beside a partner; the band widens with waiting; bots come only when
asked for, and only to casual games; and the queue and matcher of the server drop what
nobody watches."""

from __future__ import annotations

import asyncio
import itertools
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bones.server.meeting.matching import BASE, GROWTH, Member, Ticket, pair_up, seating
from bones.server.meeting.seekbook import MemoryBook
from bones.server.meeting.seeking import Seeker
from bones.server.metrics import Metrics
from bones.server.people.players import Player
from bones.server.protocol import Seek

_ids = itertools.count()


@st.composite
def tickets(draw: st.DrawFn, players: int = 2) -> list[Ticket]:
    """A pool's tickets: players (some queued twice as friends' pairs in Kozel) with
    ratings, targets, waits and bots wanted or not."""
    count = draw(st.integers(0, 12))
    made = []
    accounts = draw(st.lists(st.integers(1, 20), min_size=count, max_size=count, unique=True))
    blocked = draw(st.sets(st.tuples(st.integers(1, 20), st.integers(1, 20)), max_size=8))

    def member(name: str, account: int) -> Member:
        apart = {b for a, b in blocked if a == account} | {a for a, b in blocked if b == account}
        return Member(name, account, draw(st.integers(1000, 2000)),
                      apart=tuple(sorted(apart - {account})))

    for account in accounts:
        members = [member(f"p{account}", account)]
        wanted = draw(st.sampled_from([1, 2])) if players == 4 else 1
        if wanted == 2 and draw(st.booleans()):
            members.append(member(f"f{account}", 100 + account))
        made.append(Ticket(f"t{next(_ids)}", "kozel" if players == 4 else "draw", players,
                           tuple(members), since=draw(st.floats(0, 60)),
                           target=draw(st.sampled_from([None, None, 50, 100])),
                           wanted=wanted,
                           bots_after=draw(st.sampled_from([None, 0.0, 10.0, 30.0]))))
    return made


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([2, 3, 4]).flatmap(lambda n: st.tuples(st.just(n), tickets(n))),
       st.floats(0, 90))
def test_groups_are_sound(drawn: tuple[int, list[Ticket]], now: float) -> None:
    players, pool = drawn
    now = max(now, max((t.since for t in pool), default=0.0))
    by_id = {t.id: t for t in pool}
    groups = pair_up(pool, now)
    seen: list[str] = []
    for group in groups:
        chosen = [by_id[i] for i in group.tickets]
        seen += group.tickets
        members = [m for t in chosen for m in t.members]
        assert all(t.ready for t in chosen), "a pair waiting for its friend was seated"
        assert len(members) + group.bots == players
        assert len({m.account for m in members}) == len(members)
        assert not {m.account for m in members} & {a for m in members for a in m.apart}, \
            "two who blocked one another sit together"
        ratings = [t.rating for t in chosen]
        assert max(ratings) - min(ratings) <= min(t.band(now) for t in chosen) + 1e-9
        targets = {t.target for t in chosen} - {None}
        assert targets <= {group.target} and len(targets) <= 1
        if group.bots:
            assert all(t.with_bots(now) for t in chosen)
        seated = seating(chosen, group.bots, kozel=players == 4)
        assert sorted(m.account for m in seated if m) == sorted(m.account for m in members)
        for ticket in chosen:  # friends sit opposite
            if len(ticket.members) == 2:
                places = [seated.index(m) for m in ticket.members]
                assert abs(places[0] - places[1]) == 2
    assert len(seen) == len(set(seen)), "a ticket sits at two tables"
    if players == 2:  # nobody is left waiting beside someone they could play now
        left = [t for t in pool if t.id not in seen]
        for a, b in itertools.combinations(left, 2):
            assert not _could_play(a, b, now), (a, b)


def _could_play(a: Ticket, b: Ticket, now: float) -> bool:
    return (abs(a.rating - b.rating) <= min(a.band(now), b.band(now))
            and (a.target is None or b.target is None or a.target == b.target)
            and not {m.account for m in a.members} & {x for m in b.members for x in m.apart})


def test_the_band_widens_with_waiting() -> None:
    ann = Ticket.single("a", "draw", 2, Member("Ann", 1, 1500), since=0.0)
    far = Ticket.single("b", "draw", 2, Member("Bob", 2, 1500 + BASE + 10 * GROWTH), 0.0)
    assert pair_up([ann, far], now=9.0) == []
    assert [g.tickets for g in pair_up([ann, far], now=10.0)] == [("a", "b")]


def test_the_nearest_rating_is_chosen_and_the_longest_waiting_first() -> None:
    old = Ticket.single("old", "draw", 2, Member("Old", 1, 1500), since=0.0)
    near = Ticket.single("near", "draw", 2, Member("Near", 2, 1540), since=5.0)
    nearer = Ticket.single("nearer", "draw", 2, Member("Nearer", 3, 1470), since=5.0)
    assert [g.tickets for g in pair_up([near, nearer, old], now=5.0)] == [("old", "nearer")]


def test_bots_only_when_asked_and_only_casual() -> None:
    alone = Ticket.single("a", "draw", 3, Member("Ann", 1, 1500), 0.0, bots_after=5.0)
    other = Ticket.single("b", "draw", 3, Member("Bob", 2, 1500), 0.0)
    assert pair_up([alone, other], now=4.0) == []
    [group] = pair_up([alone, other], now=5.0)
    assert group.tickets == ("a",) and group.bots == 2, "Bob did not ask for bots"
    rated = Ticket.single("r", "draw", 2, Member("Cy", 3, 1500), 0.0, rated=True,
                          bots_after=0.0)  # (the API refuses this seek; the pool too)
    assert pair_up([rated], now=100.0) == []


def test_kozel_strangers_are_paired_strongest_with_weakest() -> None:
    four = [Ticket.single(f"t{r}", "kozel", 4, Member(f"P{r}", r, r), 0.0)
            for r in (1500, 1520, 1540, 1560)]
    [group] = pair_up(four, now=0.0)
    seats = seating([t for t in four if t.id in group.tickets], group.bots, kozel=True)
    assert [m.rating for m in seats if m] == [1560, 1540, 1500, 1520]


class _Hub:
    """Stands in for the server's hub: records the tables made."""

    def __init__(self) -> None:
        self.made: list[dict[int, Player]] = []
        self.metrics = Metrics()
        self.blocks = SimpleNamespace(apart=lambda account: set())  # nobody blocked anyone

    async def may_make(self, address: str | None, account: int | None) -> None:
        """Every table may be made."""

    async def seat_together(self, spec: Any, players: dict[int, Player],
                            creator: str | None = None) -> Any:
        self.made.append(players)
        table = SimpleNamespace(id=f"T{len(self.made)}", invite=None)
        return table, {n: f"token{n}" for n in players}


class _Ratings:
    def shown(self, wanted: set[tuple[str, str, int]]) -> dict[tuple[str, str, int], int]:
        return {}


def test_the_matcher_drops_unwatched_tickets_and_seats_the_watched() -> None:
    async def run() -> None:
        hub = _Hub()
        seeker = Seeker(hub, _Ratings(), stale=10.0)  # type: ignore[arg-type]
        ann, bob, cy = (Player(n, i, guest=True) for i, n in enumerate(("Ann", "Bob", "Cy")))
        tickets = [(await seeker.seek(Seek(variant="draw"), p)).ticket for p in (ann, bob)]
        book = seeker.book
        assert isinstance(book, MemoryBook)
        start = book.tickets[tickets[0]].since
        assert await seeker.match_once(start + 30) == 0, "nobody watched: both dropped"
        assert book.tickets == {}
        tickets = [(await seeker.seek(Seek(variant="draw"), p)).ticket for p in (bob, cy)]
        assert await seeker.match_once(book.tickets[tickets[0]].since + 1) == 1
        [players] = hub.made
        assert sorted(p.name for p in players.values()) == ["Bob", "Cy"]
        seated = await seeker.standing(tickets[0], bob)
        assert seated is not None and seated.type == "matched" and seated.table == "T1"
        assert await seeker.standing(tickets[0], ann) is None, "not Ann's ticket"
        await seeker.close()

    asyncio.run(run())
