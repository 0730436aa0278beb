"""The rules of each tournament format, as the issue states them: an arena's scoring
(two wins in a row start a streak of doubled wins) and its waves of pairings; a Swiss's
pairings (no one met twice where it can be avoided, one bye each with an odd field) and
its tiebreaks, by a hand-checked example; a duplicate's movement (everyone meets
everyone once) and its matchpoints, by a hand-checked example. Over REST: a player makes
a tournament, others list it, join and withdraw, within who may enter; an arena of
scripted players runs to its end, its standings the games' results."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from bones import cli
from bones.server.people.accounts import Accounts
from bones.server.protocol import Tournamenting
from bones.server.store.records import Store
from bones.server.tournaments import arena, duplicate, swiss
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import Planned, Played, TournamentGames
from bones.server.tournaments.running import Board, standings
from tests.server.chaos import play_through, running
from tests.server.live import Client, Server, in_threads, play_tournament, sqlite_url


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([2, 3, 4]), st.booleans()),
                max_size=30))
def test_an_arena_doubles_each_win_after_two_wins_in_a_row(
        games: list[tuple[int, int, bool]]) -> None:
    """"A win scores 2 (with 3-4 players: by place ...); two wins in a row start a
    streak in which each win counts double, until a game is not won." """
    games = [(min(place, players - 1), players, shared and place == 0)
             for place, players, shared in games]
    player = arena.Standing(1)
    counted = [player.record(place, players, shared) for place, players, shared in games]
    won = [place == 0 and not shared for place, _, shared in games]
    for n, (place, players, shared) in enumerate(games):
        doubled = won[n] and n >= 2 and won[n - 1] and won[n - 2]
        assert counted[n] == arena.points(place, players, shared) * (2 if doubled else 1)
    assert player.score == sum(counted) == sum(player.sheet)


@given(st.data())
def test_an_arena_s_kept_standings_are_its_whole_standings(data: st.DataObject) -> None:
    """The runner adds each game taken in once to the standings it keeps; after every
    look (the games taken in by then, in any batches, some after the arena's time, some
    being played) they are exactly the standings made again from every game."""
    start = datetime(2026, 12, 6, tzinfo=UTC)
    until = start + timedelta(minutes=data.draw(st.integers(1, 60)))
    entrants = [(n, f"P{n}", False) for n in range(1, 7)]
    games: list[Played] = []
    free_at = dict.fromkeys(range(1, 8), 0)  # a player's games one after another
    for table in range(data.draw(st.integers(0, 25))):
        players = data.draw(st.lists(st.integers(1, 7), min_size=2, max_size=2, unique=True))
        begins = max(free_at[p] for p in players) + 1
        ends = begins + data.draw(st.integers(1, 5))
        for p in players:
            free_at[p] = ends
        first = data.draw(st.integers(0, 1))
        tie = data.draw(st.booleans())
        games.append(Played(f"t{table}", players, [(0, tie), (0 if tie else 1, tie)][
            ::1 if first == 0 else -1], start + timedelta(minutes=ends), True))
    games.sort(key=lambda g: (g.ended, g.table))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(games)), max_size=4)))
    kept = Board(2, until)
    for cut in [*cuts, len(games)]:
        taken = games[:cut]
        playing = [Played("now", [6, 1], None, None)]
        shown = kept.ranked(entrants, kept.add([*taken, *playing]))  # those known: once
        whole = standings(entrants, [*taken, *playing], until, 2)
        assert [(s.player, s.score, s.sheet, s.run, s.last, name, at) for s, name, at in shown] \
            == [(s.player, s.score, s.sheet, s.run, s.last, name, at) for s, name, at in whole]


def test_an_arena_of_twenty_players_to_its_end() -> None:
    """Twenty scripted players play waves of games for as long as an arena lasts: every
    wave seats everyone waiting, nobody plays the opponent of their last game again, and
    the standings are the games' results."""
    rng = random.Random(20)
    standings = {n: arena.Standing(n) for n in range(1, 21)}
    results: dict[int, list[int]] = {n: [] for n in standings}
    for _ in range(40):
        waiting = [s for s in standings.values() if rng.random() < 0.7]  # others still play
        tables = arena.pair(waiting)
        assert len(tables) == len(waiting) // 2
        assert len({p for t in tables for p in t}) == 2 * len(tables)
        for a, b in tables:
            if len(waiting) > 3:  # someone else was waiting for each of them
                assert b not in standings[a].last
            winner = rng.choice((a, b))
            for me, them in ((a, b), (b, a)):
                results[me].append(standings[me].record(0 if me == winner else 1, 2,
                                                        opponents=(them,)))
    for n, standing in standings.items():
        assert standing.score == sum(results[n])
    order = arena.ranked(list(standings.values()))
    assert [s.score for s in order] == sorted((s.score for s in order), reverse=True)


@given(st.integers(4, 30), st.randoms(use_true_random=False))
def test_an_arena_wave_never_rematches_a_whole_field_that_just_played(
        size: int, rng: random.Random) -> None:
    """Everyone waits at once after a wave in which they all played: with four or more,
    nobody meets the same opponent again, and the tables are as many as can be."""
    players = [arena.Standing(n, score=rng.randrange(20)) for n in range(size)]
    order = players[:]
    rng.shuffle(order)
    for a, b in zip(order[::2], order[1::2], strict=False):
        a.last, b.last = (b.player,), (a.player,)
    tables = arena.pair(players)
    assert len(tables) == size // 2
    for a, b in tables:
        assert b not in players[a].last


@given(st.integers(4, 30), st.randoms(use_true_random=False))
def test_an_arena_wave_keeps_apart_those_a_block_keeps_apart(
        size: int, rng: random.Random) -> None:
    """"A blocked player cannot ... be paired with them by ... a tournament's pairing
    where anyone else can be": each player blocks at most one other, and nobody who just
    played meets again either; the blocks weigh more than the rematches."""
    players = [arena.Standing(n, score=rng.randrange(20)) for n in range(size)]
    order = players[:]
    rng.shuffle(order)
    apart: dict[int, set[int]] = {}
    for a, b in zip(order[::2], order[1::2], strict=False):
        apart[a.player], apart[b.player] = {b.player}, {a.player}
    tables = arena.pair(players, apart=apart)
    assert len(tables) == size // 2
    for a, b in tables:
        assert b not in apart.get(a, set())


def test_an_arena_of_four_a_table_seats_the_waiting_in_order() -> None:
    """In standings order, each table passing over the nearest a block keeps apart from
    it, or who just played at it; the ninth waits for the next wave."""
    players = [arena.Standing(n, score=10 - n) for n in range(1, 10)]
    assert arena.pair(players, seats=4) == [(1, 2, 3, 4), (5, 6, 7, 8)]
    assert arena.pair(players, seats=4, apart={2: {1}}) == [(1, 3, 4, 5), (2, 6, 7, 8)]
    players[0].last = (3,)
    assert arena.pair(players, seats=4, apart={2: {1}}) == [(1, 4, 5, 6), (2, 3, 7, 8)]


def _swiss(size: int, rounds: int, rng: random.Random) -> tuple[
        list[tuple[int, int, float]], list[int]]:
    """A Swiss of ``size`` players played for ``rounds`` rounds with random results: the
    games and the byes."""
    games: list[tuple[int, int, float]] = []
    byes: list[int] = []
    for _ in range(rounds):
        tables, bye = swiss.pair(swiss.entrants(range(1, size + 1), games, byes))
        assert all(b is not None for _, b in tables)
        games += [(a, b, rng.choice((0.0, 0.5, 1.0))) for a, b in tables if b is not None]
        if bye is not None:
            byes.append(bye)
    return games, byes


@given(st.randoms(use_true_random=False))
def test_a_swiss_of_nine_players_and_four_rounds(rng: random.Random) -> None:
    """Nine players, four rounds: nobody meets anyone twice, each round one bye, never
    twice to one player; everyone plays or sits out every round."""
    games, byes = _swiss(9, 4, rng)
    met = [frozenset((a, b)) for a, b, _ in games]
    assert len(met) == len(set(met)) == 16
    assert len(byes) == len(set(byes)) == 4
    for round_ in range(4):
        seated = [p for a, b, _ in games[4 * round_:4 * round_ + 4] for p in (a, b)]
        assert sorted([*seated, byes[round_]]) == list(range(1, 10))


def test_a_swiss_breaks_its_ties_by_buchholz_then_sonneborn_berger() -> None:
    """By hand: A beat B and drew with C; B beat C and D; C beat D; D beat A.
    Scores: A 1.5, B 2, C 1.5, D 1. Buchholz: A = B+C+D = 4.5, C = A+B+D = 4.5,
    B = A+C+D = 4, D = 5. Sonneborn-Berger: A = B (2) + half of C (0.75) = 2.75,
    C = half of A (0.75) + D (1) = 1.75. A and C tie on score and Buchholz; A is ahead
    on Sonneborn-Berger."""
    a, b, c, d = 1, 2, 3, 4
    games = [(a, b, 1.0), (a, c, 0.5), (b, c, 1.0), (b, d, 1.0), (c, d, 1.0), (d, a, 1.0)]
    found = {e.player: e for e in swiss.entrants([a, b, c, d], games)}
    assert [found[p].score for p in (a, b, c, d)] == [1.5, 2.0, 1.5, 1.0]
    assert [found[p].buchholz for p in (a, b, c, d)] == [4.5, 4.0, 4.5, 5.0]
    assert (found[a].sonneborn_berger, found[c].sonneborn_berger) == (2.75, 1.75)
    assert [e.player for e in swiss.ranked(list(found.values()))] == [b, a, c, d]


@given(st.integers(2, 17))
def test_a_duplicate_movement_meets_everyone_once(size: int) -> None:
    field = list(range(size))
    rounds = size - 1 if size % 2 == 0 else size
    schedule = duplicate.movement(field, rounds)
    met = [frozenset(t) for tables in schedule for t in tables]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(field, 2)), key=sorted)
    for tables in schedule:
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated)) == size - size % 2


def test_a_duplicate_board_is_scored_in_matchpoints() -> None:
    """By hand: four tables play one board. Those who held the first seat's hand made
    +12, +12, +30 and -5 (their points in the deal less the other's): +30 beats three
    (6), each +12 beats one and equals one (3), -5 beats none (0); the second seat's
    results are the same deals seen from the other side."""
    first = {"ann": 12, "bob": 12, "cy": 30, "dee": -5}
    second = {"eve": -12, "fay": -12, "gus": -30, "hal": 5}
    assert duplicate.matchpoints(first) == {"ann": 3, "bob": 3, "cy": 6, "dee": 0}
    assert duplicate.matchpoints(second) == {"eve": 3, "fay": 3, "gus": 0, "hal": 6}
    assert duplicate.seat_of(("ann", "eve"), "ann", 1) == 0
    assert duplicate.seat_of(("ann", "eve"), "ann", 2) == 1


@given(st.dictionaries(st.integers(), st.integers(-100, 100), min_size=1, max_size=20))
def test_matchpoints_share_out_two_per_comparison(results: dict[int, int]) -> None:
    points = duplicate.matchpoints(results)
    assert sum(points.values()) == len(results) * (len(results) - 1)
    for a, b in itertools.combinations(results, 2):
        assert (points[a] > points[b]) <= (results[a] >= results[b])


def _arena(**more: object) -> dict[str, object]:
    starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    return {"kind": "arena", "name": "Evening arena", "minutes": 30, "starts": starts,
            "table": {"variant": "draw", "options": {"target": 50},
                      "seats": [{"kind": "human"}, {"kind": "human"}]}, **more}


def test_a_tournament_is_made_listed_joined_and_left(server: Server) -> None:
    tag = random.randrange(10**7)
    ann, bob = server.account(f"Tann{tag}"), server.account(f"Tbob{tag}")
    guest = httpx.Client(base_url=server.url)
    guest.post("/api/guest").raise_for_status()
    assert guest.post("/api/tournaments", json=_arena()).status_code == 403  # sign up first
    assert ann.post("/api/tournaments", json=_arena(minutes=None)).status_code == 422
    assert ann.post("/api/tournaments", json=_arena(rounds=3)).status_code == 422
    made = ann.post("/api/tournaments", json=_arena(name=f"Arena {tag}"))
    assert made.status_code == 201, made.text
    info = made.json()
    assert (info["by"], info["state"], info["entrants"]) == (f"Tann{tag}", "upcoming", [])
    assert info["table"]["clock"] == 15.0  # public tables have a clock
    assert info["id"] in [t["id"] for t in httpx.get(f"{server.url}/api/tournaments").json()]
    joined = f"/api/tournaments/{info['id']}/join"
    for player in (ann, bob, guest):
        assert player.post(joined).status_code == 204
    assert len(server.get(f"/api/tournaments/{info['id']}")["entrants"]) == 3
    left = f"/api/tournaments/{info['id']}/withdraw"
    assert bob.post(left).status_code == 204
    assert bob.post(left).status_code == 409  # not in it any more
    assert server.get(f"/api/tournaments/{info['id']}")["entrants"][:1] == [f"Tann{tag}"]
    assert [t["id"] for t in server.get(f"/api/tournaments?player=Tbob{tag}")] == [info["id"]]
    assert bob.post(joined).status_code == 204  # back again
    assert ann.post("/api/tournaments/nope/join").status_code == 404
    stranger = ann.post(joined, headers={"origin": "https://elsewhere.example"})
    assert stranger.status_code == 403


def test_who_may_enter_a_tournament(server: Server) -> None:
    """A rated tournament takes no guest; bot accounts only where bots are allowed; a
    least rating keeps out those below it; a private one is not listed."""
    tag = random.randrange(10**7)
    ann = server.account(f"Tcy{tag}")
    rated = ann.post("/api/tournaments", json=_arena(
        table={"variant": "draw", "rated": True,
               "seats": [{"kind": "human"}, {"kind": "human"}]},
        least_rating=1500, public=False)).json()
    guest = httpx.Client(base_url=server.url)
    guest.post("/api/guest").raise_for_status()
    assert guest.post(f"/api/tournaments/{rated['id']}/join").status_code == 403
    refused = ann.post(f"/api/tournaments/{rated['id']}/join")
    assert refused.status_code == 403 and "1500" in refused.json()["detail"]
    assert rated["id"] not in [t["id"] for t in server.get("/api/tournaments")]
    token = ann.post("/api/tokens", json={"label": "my robot"}).json()["token"]
    robot = httpx.Client(base_url=server.url, headers={"authorization": f"Bearer {token}"})
    unrated = ann.post("/api/tournaments", json=_arena()).json()
    assert robot.post(f"/api/tournaments/{unrated['id']}/join").status_code == 403
    for_bots = ann.post("/api/tournaments", json=_arena(bots=True)).json()
    assert robot.post(f"/api/tournaments/{for_bots['id']}/join").status_code == 204


def _counted(results: list[str]) -> list[int]:
    """The arena's scoring, said again: 2 a win, 1 a tie, 0 a loss; a win after two
    wins in a row counts double."""
    sheet, run = [], 0
    for result in results:
        sheet.append((4 if run >= 2 else 2) if result == "win" else int(result == "tie"))
        run = run + 1 if result == "win" else 0
    return sheet


def test_an_arena_runs_to_its_end_and_its_standings_are_the_games(server: Server) -> None:
    """Twenty scripted players in a one-minute arena (each told when it starts):
    paired again and again whenever their game ends, until time is up; each one's sheet
    is their games' results by the arena's scoring (a game still being played at the
    end does not count), and the standings are in order of score."""
    tag = random.randrange(10**7)
    names = [f"Ar{n}{tag}" for n in range(20)]
    clients = [server.account(name) for name in names]
    made = clients[0].post("/api/tournaments", json=_arena(  # all in before it starts
        minutes=1, starts=(datetime.now(UTC) + timedelta(seconds=25)).isoformat(),
        table={"variant": "draw", "options": {"target": None},
               "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
    for client in clients:
        assert client.post(f"/api/tournaments/{made['id']}/join").status_code == 204
    assert server.get(f"/api/tournaments/{made['id']}")["state"] == "upcoming"
    played = in_threads([lambda c=c, n=n: play_tournament(server, c, made["id"], n)
                         for n, c in enumerate(clients)])
    _shown_over(server, made["id"], "standings", lambda rows: not any(
        row["playing"] for row in rows))
    board = server.get(f"/api/tournaments/{made['id']}/standings")
    assert sorted(row["name"] for row in board) == sorted(names)
    assert [row["score"] for row in board] == sorted((r["score"] for r in board), reverse=True)
    for row in board:
        results = played[names.index(row["name"])]
        assert results, "everyone was paired"
        assert row["sheet"] == _counted(results)[:len(row["sheet"])]
        assert len(row["sheet"]) >= len(results) - 1  # only a game at the end is left out
        assert row["score"] == sum(row["sheet"]) and not row["playing"]
    listed: list[dict[str, Any]] = []  # every game, a page of 100 at a time
    while not listed or len(listed) % 100 == 0:
        page = server.get(f"/api/tournaments/{made['id']}/games?offset={len(listed)}")
        if not page:
            break
        listed += page
    assert len(listed) * 2 >= sum(len(row["sheet"]) for row in board)
    assert len({game["id"] for game in listed}) == len(listed)
    assert all(set(game["names"]) <= set(names) for game in listed)
    for client in clients:  # each entrant was told it began
        told = client.get("/api/notifications").json()["items"]
        assert [(n["kind"], n["tournament"]) for n in told] == [("tournament", made["id"])]


def _in_rounds(server: Server, kind: str, players: int, variant: str = "draw",
               partners: dict[int, int] | None = None, **more: object
               ) -> tuple[str, list[str], list[list[str]]]:
    """A ``kind`` tournament of ``players`` scripted players (those in ``partners``
    asking for each other) run to its end: its id, the players' names and each one's
    results."""
    tag = random.randrange(10**7)
    names = [f"R{kind[0]}{n}x{tag}" for n in range(players)]
    clients = [server.account(name) for name in names]
    seats = [{"kind": "human"}] * (4 if variant == "kozel" else 2)
    made = clients[0].post("/api/tournaments", json={
        "kind": kind, "name": f"{kind} {tag}", **more,
        "starts": (datetime.now(UTC) + timedelta(seconds=8 + players)).isoformat(),
        "table": {"variant": variant, "options": {"target": None}, "seats": seats}})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for n, client in enumerate(clients):
        mate = (partners or {}).get(n)
        body = None if mate is None else {"partner": names[mate]}
        assert client.post(f"/api/tournaments/{tid}/join", json=body).status_code == 204
    played = in_threads([lambda c=c, n=n: play_tournament(server, c, tid, n)
                         for n, c in enumerate(clients)])
    assert server.get(f"/api/tournaments/{tid}")["state"] == "finished"
    late = clients[0].post(f"/api/tournaments/{tid}/join")
    assert late.status_code == 409
    _shown_over(server, tid, "rounds", lambda drawn: all(
        t["points"] is not None for r in drawn for t in r["tables"]))
    return tid, names, played


def _shown_over(server: Server, tid: str, part: str, over: Callable[[Any], bool]) -> None:
    """Wait for the process's look at a finished tournament to be made after its end:
    its standings and rounds are read from a look at most a second or two old (made
    again later still on a busy machine), so the first read after the end may show the
    last games being played."""
    deadline = time.monotonic() + 60
    while not over(server.get(f"/api/tournaments/{tid}/{part}")):
        assert time.monotonic() < deadline, f"the {part} were never shown over"
        time.sleep(0.2)


def test_a_swiss_of_nine_runs_its_four_rounds(server: Server) -> None:
    """Nine scripted players, four rounds: every round four tables and a bye, nobody
    met twice, nobody given two byes; each one's score is their games' (1 a win, ½ a
    tie) and the bye's, and the Buchholz is the sum of the opponents' scores."""
    tid, names, played = _in_rounds(server, "swiss", 9, rounds=4)
    drawn = server.get(f"/api/tournaments/{tid}/rounds")
    assert [r["round"] for r in drawn] == [1, 2, 3, 4]
    met: set[frozenset[str]] = set()
    byes = [r["bye"] for r in drawn]
    assert None not in byes and len(set(byes)) == 4
    score = dict.fromkeys(names, 0.0)
    opponents: dict[str, list[str]] = {n: [] for n in names}
    for r in drawn:
        assert len(r["tables"]) == 4
        assert sorted([*(s for t in r["tables"] for s in t["sides"]), r["bye"]]) == sorted(names)
        score[r["bye"]] += 1
        for table in r["tables"]:
            pair = frozenset(table["sides"])
            assert pair not in met, f"{pair} met twice"
            met.add(pair)
            assert len(table["tables"]) == 1 and sum(table["points"]) == 1
            for side, name in enumerate(table["sides"]):
                score[name] += table["points"][side]
                opponents[name].append(table["sides"][1 - side])
    standings = server.get(f"/api/tournaments/{tid}/standings")
    for row in standings:
        assert row["score"] == score[row["name"]] == sum(row["sheet"])
        assert row["buchholz"] == sum(score[o] for o in opponents[row["name"]])
    assert [r["score"] for r in standings] == sorted(score.values(), reverse=True)
    for name, results in zip(names, played, strict=True):
        assert len(results) == 4 - (name in byes)


def _boards_of(document: dict[str, Any]) -> dict[tuple[int, int], list[dict[str, Any]]]:
    found: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for game in document["games"]:
        found.setdefault((game["round"], game["board"]), []).append(game)
    return found


def _checked(server: Server, tid: str, tmp_path: Path, tables: int) -> dict[str, Any]:
    """A finished duplicate's document: every board played at ``tables`` tables, all
    dealt the same hands and boneyard; ``bones verify`` passes it, and refuses it with
    one deal changed."""
    document = server.get(f"/api/tournaments/{tid}/record")
    assert document["fair"]["commitment"] == server.get(f"/api/tournaments/{tid}")["commitment"]
    for games in _boards_of(document).values():
        assert len(games) == tables
        deals = [g["record"]["deals"][0] for g in games]
        assert all(d == deals[0] for d in deals), "every table of a board has its deal"
    kept = tmp_path / "tournament.json"
    kept.write_text(json.dumps(document))
    assert cli.main(["verify", str(kept)]) == 0
    hands = document["games"][-1]["record"]["deals"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    kept.write_text(json.dumps(document))
    assert cli.main(["verify", str(kept)]) == 2
    return document


def _matchpoints_by_hand(document: dict[str, Any], sides: int) -> dict[frozenset[str], int]:
    """Each entrant's matchpoints from the records themselves: on each board, each
    side's points less the other's, compared with those who held the same hands."""
    earned: dict[frozenset[str], int] = {}
    for games in _boards_of(document).values():
        for side in (0, 1):
            results = []
            for game in games:
                names = frozenset(n for seat, n in enumerate(game["names"]) if seat % 2 == side)
                scores = game["scores"]
                mine = scores[side] - scores[1 - side]
                results.append((names, -mine if sides == 4 else mine))
            for names, mine in results:
                earned[names] = earned.get(names, 0) + sum(
                    2 if mine > theirs else mine == theirs for _, theirs in results) - 1
    return earned


def test_a_duplicate_of_eight_deals_every_table_the_same_boards(
        server: Server, tmp_path: Path) -> None:
    """Eight players, two rounds of two boards: each board dealt alike at all four
    tables (``bones verify`` checks the deals against the seed revealed at the end);
    each one's matchpoints those of their results against the others who held the
    same hands."""
    tid, _, played = _in_rounds(server, "duplicate", 8, rounds=2, boards=2)
    assert all(len(results) == 4 for results in played)
    document = _checked(server, tid, tmp_path, tables=4)
    standings = server.get(f"/api/tournaments/{tid}/standings")
    by_hand = _matchpoints_by_hand(document, 2)
    for row in standings:
        assert row["score"] == by_hand[frozenset([row["name"]])] == sum(row["sheet"])
    boards = server.get(f"/api/tournaments/{tid}/boards")
    assert [(b["round"], b["board"], len(b["results"])) for b in boards] == [
        (1, 1, 4), (1, 2, 4), (2, 1, 4), (2, 2, 4)]


def test_a_duplicate_of_four_kozel_pairs(server: Server, tmp_path: Path) -> None:
    """Eight players, two of them naming each other, make four pairs: the two play
    together, the others are paired as they joined; three rounds, every pair meets
    every other, every board alike at both tables, verified."""
    tid, names, _ = _in_rounds(server, "duplicate", 8, variant="kozel",
                               partners={0: 5, 5: 0, 2: 7}, rounds=3, boards=1)
    standings = server.get(f"/api/tournaments/{tid}/standings")
    assert sorted(sorted(row["players"]) for row in standings) == sorted(
        [sorted([names[0], names[5]]), [names[1], names[2]], [names[3], names[4]],
         [names[6], names[7]]])
    document = _checked(server, tid, tmp_path, tables=2)
    by_hand = _matchpoints_by_hand(document, 4)
    for row in standings:
        assert row["score"] == by_hand[frozenset(row["players"])]
    met = {frozenset(t["sides"]) for r in server.get(f"/api/tournaments/{tid}/rounds")
           for t in r["tables"]}
    assert len(met) == 6  # each of four pairs met the three others


def test_a_swiss_of_three_kozel_pairs(server: Server) -> None:
    """Six players make three pairs for a Swiss of two rounds: each round one table of
    two pairs, partners across from each other, and the third pair's bye (a different
    pair each round); each pair's score its games' and its bye's."""
    tid, names, _ = _in_rounds(server, "swiss", 6, variant="kozel", rounds=2)
    drawn = server.get(f"/api/tournaments/{tid}/rounds")
    pairs = {f"{names[0]} & {names[1]}", f"{names[2]} & {names[3]}",
             f"{names[4]} & {names[5]}"}
    assert [len(r["tables"]) for r in drawn] == [1, 1]
    assert len({r["bye"] for r in drawn}) == 2 and {r["bye"] for r in drawn} <= pairs
    score = dict.fromkeys(pairs, 0.0)
    for r in drawn:
        score[r["bye"]] += 1
        table = r["tables"][0]
        for side, pair in enumerate(table["sides"]):
            score[pair] += table["points"][side]
        seated = next(g for name in names for g in server.get(f"/api/games?name={name}")
                      if g["id"] == table["tables"][0])["names"]
        assert {f"{seated[0]} & {seated[2]}", f"{seated[2]} & {seated[0]}"} & pairs
        assert {f"{seated[1]} & {seated[3]}", f"{seated[3]} & {seated[1]}"} & pairs
    standings = server.get(f"/api/tournaments/{tid}/standings")
    assert {row["name"]: row["score"] for row in standings} == score


def test_a_player_who_misses_two_games_in_a_row_is_withdrawn_and_told(
        tmp_path: Path) -> None:
    """A Swiss of four in which one never comes: a bot plays their seat each time
    (after a second away), and after the second game missed they are withdrawn,
    told, and the last round pairs the three others (one with a bye)."""
    server = Server(sqlite_url(tmp_path / "bones.db"), leave_after=1).start()
    try:
        tag = random.randrange(10**7)
        names = [f"Miss{n}x{tag}" for n in range(4)]
        clients = [server.account(name) for name in names]
        made = clients[0].post("/api/tournaments", json={
            "kind": "swiss", "name": "three rounds", "rounds": 3,
            "starts": (datetime.now(UTC) + timedelta(seconds=6)).isoformat(),
            "table": {"variant": "draw", "options": {"target": None},
                      "seats": [{"kind": "human"}] * 2}}).json()
        for client in clients:
            assert client.post(f"/api/tournaments/{made['id']}/join").status_code == 204
        in_threads([lambda c=c, n=n: play_tournament(server, c, made["id"], n)
                    for n, c in enumerate(clients[:3])])
        drawn = server.get(f"/api/tournaments/{made['id']}/rounds")
        assert [r["bye"] for r in drawn][:2] == [None, None]
        assert drawn[2]["bye"] is not None
        assert names[3] not in [s for t in drawn[2]["tables"] for s in t["sides"]]
        assert server.get(f"/api/tournaments/{made['id']}")["entrants"] == names[:3]
        told = clients[3].get("/api/notifications").json()["items"]
        assert ("withdrawn", made["id"]) in [(n["kind"], n["tournament"]) for n in told]
    finally:
        server.stop()


def test_a_tournament_page_is_pushed_and_carries_its_chat(server: Server) -> None:
    """``/ws/tournament/{id}`` sends the page at once and again when it changes (a
    player joins: pushed, not asked for; the entrants counted, not named); its chat
    is heard by the page's other sockets but not by one who blocked the speaker; an
    unknown tournament is closed with 4404."""
    tag = random.randrange(10**7)
    ann, bob, cy = (server.account(f"{n}{tag}") for n in ("Wann", "Wbob", "Wcy"))
    made = ann.post("/api/tournaments", json=_arena()).json()
    url = f"ws://127.0.0.1:{server.port}/ws/tournament/{made['id']}"
    pages = [Client(url, c) for c in (ann, bob, cy)]
    for page in pages:
        first = page.recv()
        assert (first["type"], first["info"]["id"], first["standings"]) == (
            "tournament", made["id"], [])
    assert bob.post(f"/api/tournaments/{made['id']}/join").status_code == 204
    pushed = pages[0].until(lambda m: m["type"] == "tournament", timeout=10)
    assert (pushed["entered"], pushed["total"], pushed["info"]["entrants"]) == (1, 1, [])
    assert [row["name"] for row in pushed["standings"]] == [f"Wbob{tag}"]
    assert cy.post(f"/api/tournaments/{made['id']}/join").status_code == 204
    pages[0].until(lambda m: m["type"] == "tournament" and m["total"] == 2, timeout=10)
    both = server.get(f"/api/tournaments/{made['id']}/standings")  # (as fresh as the page)
    assert len(both) == 2
    assert server.get(f"/api/tournaments/{made['id']}/standings?offset=1&limit=1") == both[1:]
    assert cy.post("/api/blocks", json={"name": f"Wann{tag}"}).status_code == 204
    pages[0].send({"v": 1, "type": "chat", "text": "good luck, all"})
    heard = pages[1].until(lambda m: m["type"] == "chat")
    assert (heard["room"], heard["name"], heard["text"]) == ("tournament", f"Wann{tag}",
                                                            "good luck, all")
    pages[1].send({"v": 1, "type": "chat", "text": "and to you"})
    assert pages[2].until(lambda m: m["type"] == "chat")["text"] == "and to you"
    assert all(m.get("text") != "good luck, all" for m in pages[2].received)
    late = Client(url, bob)  # a newcomer hears the lines said
    late.recv()
    assert [late.recv()["text"] for _ in range(2)] == ["good luck, all", "and to you"]
    unknown = Client(f"ws://127.0.0.1:{server.port}/ws/tournament/nope")
    with pytest.raises(ConnectionClosed) as closed:
        unknown.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    for page in [*pages, late, unknown]:
        page.close()


SITE = """
[serve]
rest-rate = 100000

[[tournament]]
name = "Hourly draw arena"
kind = "arena"
every = "hour"
at = "00"
minutes = 55
table = { variant = "draw", options = { target = 50 }, rated = true }

[[tournament]]
name = "Sunday duplicate Kozel"
kind = "duplicate"
every = "week"
at = "Sun 18:00"
rounds = 3
boards = 2
table = { variant = "kozel" }
"""


def test_the_site_makes_its_own_tournaments_ahead_once(tmp_path: Path) -> None:
    """The operator's configuration lists an hourly arena and a weekly duplicate: the
    server makes every hourly one of the next six hours and the next weekly one, made
    by the site; started again over the same store it makes none twice. A listing that
    will not do stops the server with a line saying which."""
    config = tmp_path / "bones.toml"
    config.write_text(SITE)
    db = sqlite_url(tmp_path / "bones.db")
    for _ in range(2):
        server = Server(db, extra=["--config", str(config)]).start()
        try:
            listed = server.get("/api/tournaments?state=upcoming")
        finally:
            server.stop()
        names = sorted(t["name"] for t in listed)
        assert names == ["Hourly draw arena"] * 6 + ["Sunday duplicate Kozel"]
        assert all(t["by"] is None and t["public"] for t in listed)
        starts = sorted(datetime.fromisoformat(t["starts"]) for t in listed
                        if t["kind"] == "arena")
        assert all(b - a == timedelta(hours=1) for a, b in itertools.pairwise(starts))
        assert all(s.minute == 0 for s in starts)
        weekly = next(t for t in listed if t["kind"] == "duplicate")
        assert datetime.fromisoformat(weekly["starts"]).strftime("%a %H:%M") == "Sun 18:00"
        assert weekly["commitment"] and weekly["table"]["options"]["target"] is None
    config.write_text(SITE.replace('at = "Sun 18:00"', 'at = "Someday"'))
    refused = subprocess.run([sys.executable, "-m", "bones", "serve", "--db", db, "--config",
                              str(config)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "Someday" in refused.stderr


def _resilient(site: list[Server], cookies: httpx.Cookies, tournament: str,
               seed: int) -> list[str]:
    """A scripted player of a site of many processes: it asks any live process for its
    game and plays it through whichever is alive, coming back when a process dies;
    the tables it played."""
    rng = random.Random(seed)
    signed_in = httpx.Client(cookies=cookies)  # its seat is the account's, anywhere
    played: list[str] = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        try:
            server = rng.choice(running(site))
            if httpx.get(f"{server.url}/api/tournaments/{tournament}",
                         timeout=10).json()["state"] == "finished":
                return played
            seat = httpx.get(f"{server.url}/api/tournaments/{tournament}/game",
                             cookies=cookies, timeout=10)
        except (httpx.HTTPError, IndexError, ValueError):
            time.sleep(0.3)
            continue
        if seat.status_code != 200 or seat.json()["table"] in played:
            time.sleep(0.3)
            continue
        table = seat.json()
        last, _ = play_through(lambda: running(site), table["table"], None, rng,
                               deadline, pace=0.2, signed_in=signed_in)
        assert last is not None and last["table"]["status"] == "over"
        played.append(table["table"])
    raise AssertionError("the tournament never ended")


def test_a_swiss_goes_on_when_the_process_running_it_is_killed(
        site: list[Server], redis_url: str) -> None:
    """Four players at a site of three processes; as the first round is played the
    process that runs the tournament (its lease's holder) is killed, and started again
    a moment later. Another takes over where it left off: every round drawn once with
    every player, nobody seated twice in a round, nobody met twice, and the standings
    are the games' results."""
    tag = random.randrange(10**7)
    names = [f"K{n}x{tag}" for n in range(4)]
    clients = [site[n % len(site)].account(name) for n, name in enumerate(names)]
    made = clients[0].post("/api/tournaments", json={
        "kind": "swiss", "name": "killed", "rounds": 3,
        "starts": (datetime.now(UTC) + timedelta(seconds=6)).isoformat(),
        "table": {"variant": "draw", "options": {"target": None},
                  "seats": [{"kind": "human"}] * 2}}).json()
    for client in clients:
        assert client.post(f"/api/tournaments/{made['id']}/join").status_code == 204
    holder = redis.Redis.from_url(redis_url)
    killed: list[int] = []

    def kill_the_runner() -> None:
        while not site[0].get(f"/api/tournaments/{made['id']}/rounds"):
            time.sleep(0.2)
        deadline = time.monotonic() + 30  # (a loaded runner's lease may lapse a moment)
        while (lease := holder.get(f"bones:lease:tournament:{made['id']}")) is None \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        assert lease is not None, "a process runs the tournament"
        pid = int(lease.decode().split(":")[1])
        victim = next(s for s in site if s.process is not None and s.process.pid == pid)
        victim.kill()
        killed.append(pid)
        time.sleep(2)
        victim.start()

    in_threads([kill_the_runner, *[
        lambda c=c, n=n: _resilient(site, c.cookies, made["id"], n)
        for n, c in enumerate(clients)]])
    assert killed
    drawn = site[0].get(f"/api/tournaments/{made['id']}/rounds")
    assert [r["round"] for r in drawn] == [1, 2, 3]
    met: set[frozenset[str]] = set()
    score = dict.fromkeys(names, 0.0)
    for r in drawn:
        assert sorted(s for t in r["tables"] for s in t["sides"]) == sorted(names)
        for table in r["tables"]:
            assert len(table["tables"]) == 1, "one game a table of a round"
            assert frozenset(table["sides"]) not in met
            met.add(frozenset(table["sides"]))
            for side, name in enumerate(table["sides"]):
                score[name] += table["points"][side]
    standings = site[0].get(f"/api/tournaments/{made['id']}/standings")
    assert {row["name"]: row["score"] for row in standings} == score


def test_fifty_players_join_at_once(tmp_path: Path) -> None:
    """Fifty joins at once, each in a thread of its own as the server runs them: a join
    read the tournament with a second connection while holding the first, and fifty of
    them held every connection of the pool and waited 30 s for another."""
    accounts = Accounts(Store(sqlite_url(tmp_path / "bones.db")).engine)
    host, _ = accounts.sign_up("Host", "correct horse")
    book = Tournaments(accounts.engine)
    made = book.make(host, Tournamenting.model_validate(_arena()))
    guests = [accounts.guest()[0] for _ in range(50)]
    with ThreadPoolExecutor(40) as threads:  # as many as the server's
        # each join answers, none raises: a pool held by fifty joins waiting for a second
        # connection each raised SQLAlchemy's TimeoutError after its 30 s wait
        joined = list(threads.map(lambda guest: book.join(made, guest), guests))
    assert len(joined) == 50 and len(book.get(made).entrants) == 50


def test_a_reserved_table_keeps_its_seats_should_its_process_stop(tmp_path: Path) -> None:
    """Each seat is kept with the table's reservation, in its transaction: a process
    that stops after making the table, before telling its players, leaves each their
    seat to find (as ``GET /api/tournaments/{id}/game`` does; theirs by their account,
    no token kept); none is offered before the table is made, nor a seat at a table
    reserved twice."""
    store = Store(sqlite_url(tmp_path / "bones.db"))
    accounts = Accounts(store.engine)
    host, _ = accounts.sign_up("Host", "correct horse")
    book, games = Tournaments(store.engine), TournamentGames(store.engine)
    made = book.make(host, Tournamenting.model_validate(_arena()))
    ann, bob = accounts.guest()[0], accounts.guest()[0]
    for guest in (ann, bob):
        book.join(made, guest)
    [plan] = games.reserve(made, [Planned("t1", [ann.id, bob.id])])
    assert plan.table == "t1"
    assert games.reserve(made, [Planned("t2", [bob.id, ann.id])]) == []  # seated already
    assert games.mine(made, ann.id) is None  # reserved, not made
    store.create("t1", {"rules": {"variant": "draw"}}, [{"kind": "human"}, {"kind": "human"}])
    assert games.mine(made, ann.id) == ("t1", 0)
    assert games.mine(made, bob.id) == ("t1", 1)


def test_a_swiss_keeps_blocked_players_apart_where_it_can() -> None:
    """Four players level on points: 1 and 2 would meet (placed next to each other),
    but 1 blocked 2, so each meets another; a block is kept as a rematch is, only where
    no pairing avoids it."""
    players = swiss.entrants([1, 2, 3, 4], [])
    assert swiss.pair(players)[0] == [(1, 2), (3, 4)]
    tables, _ = swiss.pair(players, {1: {2}, 2: {1}})
    assert {frozenset(t) for t in tables} & {frozenset((1, 2))} == set()
    assert swiss.pair(swiss.entrants([1, 2], []), {1: {2}})[0] == [(1, 2)]
