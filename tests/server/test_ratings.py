"""Ratings: OpenSkill's own computation, per variant and player count, teams in Kozel;
a player who left is ranked last; a game is rated exactly once, even across a restart
in the middle of it (SIGKILL); leaderboards and profiles read them."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import httpx
import pytest

from bones.server.people.ratings import rank_game
from tests.server.live import Server, play_all, sqlite_url
from tests.server.skill import openskill_after

PASSWORD = "correct horse"


def _rated(server: Server, variant: str, names: list[str], clock: tuple[float, float] = (
        15, 120), **options: object) -> tuple[str, list[httpx.Client], list[str]]:
    """A rated table of ``names`` (accounts), every seat taken, with ``clock`` (a move's
    seconds and the bank's): its id, the players' clients and seat tokens."""
    clients = [server.account(name) for name in names]
    made = server.create(variant, [{"kind": "human", "me": True}] +
                         [{"kind": "human"}] * (len(names) - 1), rated=True,
                         options={"target": None, **options}, client=clients[0],
                         clock=clock[0], bank=clock[1])
    table = made["table"]["id"]
    tokens = [made["token"]] + [server.join(table, None, client=c)["token"]
                                for c in clients[1:]]
    return table, clients, tokens


def test_left_players_rank_last() -> None:
    # Kozel: the pair with fewer penalty points would be first, but seat 1 of it left
    assert rank_game([100, 40], [0, 1, 0, 1], {1}, lower_wins=True) == [1, 2]
    assert rank_game([90, 100, 40], [0, 1, 2], {0}, lower_wins=False) == [3, 1, 2]


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("draw", 2, {}), ("block", 3, {"players": 3}), ("kozel", 4, {})])
def test_ratings_are_openskills_own(server: Server, variant: str, players: int,
                                    options: dict[str, object]) -> None:
    tag = random.randrange(10**6)
    names = [f"R{variant}{n}x{tag}" for n in range(players)]
    table, _, tokens = _rated(server, variant, names, **options)
    ends = play_all([server.socket(table, t) for t in tokens], seed=tag)
    game = ends[0]["table"]
    record = server.get(f"/api/games/{table}/record")
    sides = list(range(players)) if variant != "kozel" else [0, 1, 0, 1]
    by_side = [[n for n, s in zip(names, sides, strict=True) if s == side]
               for side in range(max(sides) + 1)]
    assert record["scores"] == game["scores"]
    ranks = rank_game(game["scores"], sides, set(), lower_wins=variant == "kozel")
    expected = openskill_after(by_side, ranks)
    for name in names:
        profile = server.get(f"/api/profile/{name}")
        [rating] = [r for r in profile["ratings"]
                    if (r["variant"], r["players"]) == (variant, players)]
        assert (rating["mu"], rating["sigma"]) == pytest.approx(expected[name])
        assert rating["games"] == 1 and len(profile["history"]) == 1
    board = server.get(f"/api/leaderboard?variant={variant}&players={players}&limit=200")
    assert not {row["name"] for row in board} & set(names)  # one game: not established


def test_only_players_who_signed_up_sit_at_rated_tables(server: Server) -> None:
    guest = httpx.Client(base_url=server.url)
    guest.post("/api/guest")
    two = [{"kind": "human", "me": True}, {"kind": "human"}]
    refused = guest.post("/api/tables", json={"variant": "draw", "seats": two, "rated": True})
    assert refused.status_code == 403
    with_bot = server.account(f"Rb{random.randrange(10**6)}").post("/api/tables", json={
        "variant": "draw", "rated": True,
        "seats": [{"kind": "human", "me": True}, {"kind": "bot", "level": "easy"}]})
    assert with_bot.status_code == 422 and "no bot seats" in with_bot.text
    made = server.create("draw", two, rated=True,
                         client=server.account(f"Ra{random.randrange(10**6)}"))
    invite = server.invites[made["table"]["id"]]
    joined = guest.post(f"/api/tables/{made['table']['id']}/join", json={"invite": invite})
    assert joined.status_code == 403 and "signed up" in joined.text
    typed = httpx.post(f"{server.url}/api/tables/{made['table']['id']}/join",
                       json={"invite": invite, "name": "Typed"})
    assert typed.status_code == 403


def test_a_player_who_never_comes_cannot_be_farmed(tmp_path: Path) -> None:
    """The farm a review found: a rated table with the least clock, joined by an account
    that never connects. No bot plays for it: at its first turn its clock runs out, the
    game is lost on time, and, as it never moved, aborted: nobody's rating moves."""
    server = Server(sqlite_url(tmp_path / "farm.db")).start()
    try:
        table, _, tokens = _rated(server, "draw", ["Ann", "Ben"], (5, 30), target=150)
        ann = server.socket(table, tokens[0])
        end = play_all([ann], seed=3, timeout=120)[0]["table"]
        assert end["forfeit"] == {"seat": 1, "how": "time"} and end["aborted"]
        for name in ("Ann", "Ben"):
            assert server.get(f"/api/profile/{name}")["ratings"] == []
    finally:
        server.stop()


def test_a_killed_server_rates_the_game_once(tmp_path: Path) -> None:
    """SIGKILL in the middle of a rated match, and again once it is over: the game is
    rated exactly once, as OpenSkill rates it."""
    db = sqlite_url(tmp_path / "killed.db")
    server = Server(db).start()
    table, _, tokens = _rated(server, "draw", ["Cy", "Di"], target=150)
    clients = [server.socket(table, t) for t in tokens]
    paused = play_all(clients, seed=5, stop=lambda m: m["type"] == "state"
                      and m["table"]["status"] == "between")
    assert {m["table"]["status"] for m in paused} == {"between"}  # the match goes on
    server.kill(signal.SIGKILL)
    server = Server(db, port=server.port).start()
    try:
        ends = play_all([server.socket(table, t) for t in tokens], seed=6)
        game = ends[0]["table"]
        server.kill(signal.SIGKILL)
        server = Server(db, port=server.port).start()
        ranks = rank_game(game["scores"], [0, 1], set(), lower_wins=False)
        expected = openskill_after([["Cy"], ["Di"]], ranks)
        for name in ("Cy", "Di"):
            profile = server.get(f"/api/profile/{name}")
            [rating] = profile["ratings"]
            assert rating["games"] == 1 and len(profile["history"]) == 1
            assert (rating["mu"], rating["sigma"]) == pytest.approx(expected[name])
    finally:
        server.stop()
