"""What the third attack on the public site found, each reproduced: a rating farmed with
puppet accounts, arena points for games nobody played, a person passing for a bot,
floods of challenges, tournaments and reports, an API token with a moderator's powers, a
moderator lifting the operator's ban, renamed and closed names taken over at once, a
closed account's challenge accepted afterwards, and a private game's record read by
anyone with its id. Each test fails on the code before the fix."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from bones.server.people.accounts import Accounts, Refused
from bones.server.people.challenges import Challenges
from bones.server.people.moderation import Moderation
from bones.server.people.own import Own
from bones.server.people.quotas import TooMany
from bones.server.people.ratings import ESTABLISHED, Ratings
from bones.server.protocol import Tournamenting
from bones.server.store.backup import BackupError, backup
from bones.server.store.records import Store
from bones.server.store.results import PROVISIONAL, damped
from bones.server.store.schema import RatingRow, now
from bones.server.tournaments.entries import Tournaments
from bones.server.tournaments.games import Planned, TournamentGames
from tests.server.live import Client, Server, admin, both_move, play_out, sqlite_url

PASSWORD = "correct horse"


def _tag(prefix: str) -> str:
    return f"{prefix}{random.randrange(10**7)}"


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A server whose absent player is claimed from after a second."""
    server = Server(sqlite_url(tmp_path / "farm.db"), limits={"claim-after": 1}).start()
    try:
        yield server
    finally:
        server.stop()


def _rated_pair(server: Server, farmer: httpx.Client, puppet: str
                ) -> tuple[str, Client, Client]:
    """A rated draw game to 150 between the farmer and a fresh puppet account: its id and
    both sockets."""
    made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                         rated=True, options={"target": 150}, client=farmer)
    table = made["table"]["id"]
    joined = server.join(table, None, client=server.account(puppet))
    return table, server.socket(table, made["token"]), server.socket(table, joined["token"])


def _over(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message["table"]["status"] == "over"


def test_puppets_that_never_play_feed_no_rating(quick: Server) -> None:
    """The farm the attack found (a fresh account to 2304 in nine games), every way it was
    run: puppets that never move, that make a move and resign, that make a move and
    leave. No game of theirs rates, the farmer has no rating to show, and is on no
    leaderboard."""
    farmer_name = _tag("Farm")
    farmer = quick.account(farmer_name)
    ends = []
    for way in ("never moves", "one move then resigns", "one move then leaves"):
        table, mine, puppet = _rated_pair(quick, farmer, _tag("Pup"))
        for client in (mine, puppet):
            client.until(lambda m: m["type"] == "state")
        if way != "never moves":
            both_move(mine, puppet, moves=1)
        if way == "one move then resigns":
            puppet.send({"v": 1, "type": "resign"})
        else:
            puppet.close()
            mine.until(lambda m: m["type"] == "state" and m["table"]["absent"][1] == 0)
            mine.send({"v": 1, "type": "claim"})
        end = mine.until(_over)["table"]
        assert end["winner"] == 0 and end["aborted"], way
        ends.append(quick.get(f"/api/games/{table}/ratings")["unrated"])
    assert ends == ["aborted", "short", "short"]
    assert quick.get(f"/api/profile/{farmer_name}")["ratings"] == []
    board = quick.get("/api/leaderboard?variant=draw&players=2&limit=200")
    assert farmer_name not in {row["name"] for row in board}


def test_a_game_given_up_after_real_play_rates(quick: Server) -> None:
    """The rule's other side: once each has made three moves of their own, a
    resignation is a result like any other."""
    table, mine, theirs = _rated_pair(quick, quick.account(_tag("Hon")), _tag("Opp"))
    both_move(mine, theirs)
    theirs.send({"v": 1, "type": "resign"})
    mine.until(_over)
    moved = quick.get(f"/api/games/{table}/ratings")
    assert moved["unrated"] is None and len(moved["changes"]) == 2


def _rated_game(store: Store, table: str, first: int, second: int) -> None:
    """A finished rated draw game that ``first`` won against ``second``, as a table
    stores it."""
    store.create(table, {}, [])
    store.finish(table, {
        "variant": "draw", "names": ["a", "b"], "sides": [0, 1], "accounts": [first, second],
        "scores": [100, 0], "winner": 0, "loser": None, "public": True,
        "record": {"idle": [], "short": False}, "rating": {"ranks": [1, 2], "left": []}})


def test_a_provisional_opponent_moves_an_established_rating_little(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path / "r.db"))
    accounts = Accounts(store.engine)
    settled, fresh = (accounts.sign_up(_tag("Est"), PASSWORD)[0].id,
                      accounts.sign_up(_tag("New"), PASSWORD)[0].id)
    with Session(store.engine) as session, session.begin():
        session.add(RatingRow(account_id=settled, variant="draw", players=2, mu=30.0,
                              sigma=3.0, games=80, opponents=20))
    _rated_game(store, "g1", settled, fresh)
    [(_, before, after)] = [r for r in Ratings(store.engine).of_game("g1") if r[0] == settled]
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    [[whole], _] = model.rate([[model.rating(mu=30.0, sigma=3.0)], [model.rating()]],
                              ranks=[1, 2])
    weight = (PROVISIONAL / (25 / 3)) ** 2
    assert after.mu - before.mu == pytest.approx(weight * (whole.mu - 30.0))
    assert damped(3.0, 4.0) == 1.0 and damped(6.0, 8.0) == 1.0


def test_a_leaderboard_lists_established_players_only(tmp_path: Path) -> None:
    """Listed: a rating no longer provisional, from rated games against at least
    ESTABLISHED different opponents; the opponents counted as games are rated."""
    store = Store(sqlite_url(tmp_path / "board.db"))
    accounts = Accounts(store.engine)
    ids = [accounts.sign_up(f"Lead{n}", PASSWORD)[0].id for n in range(ESTABLISHED + 1)]
    star = ids[0]
    for n, other in enumerate(ids[1:]):
        _rated_game(store, f"t{n}", star, other)
    _rated_game(store, "again", star, ids[1])  # the same opponent twice counts once
    with Session(store.engine) as session:
        row = session.get_one(RatingRow, (star, "draw", 2))
        assert (row.games, row.opponents) == (ESTABLISHED + 1, ESTABLISHED)
    ratings = Ratings(store.engine)
    assert ratings.board("draw", 2) == []  # every rating still provisional
    with Session(store.engine) as session, session.begin():
        session.execute(update(RatingRow).values(sigma=PROVISIONAL))
    assert [name for name, *_ in ratings.board("draw", 2)] == ["Lead0"]  # the others met one
    with Session(store.engine) as session, session.begin():  # one more, rated higher
        session.execute(update(RatingRow).where(RatingRow.account_id == ids[1])
                        .values(opponents=ESTABLISHED, mu=99.0))
    assert [name for name, *_ in ratings.board("draw", 2)] == ["Lead1", "Lead0"]


def test_an_arena_scores_only_games_really_played(tmp_path: Path) -> None:
    """Two arena games a puppet never moved in (aborted: rating nobody) gave the farmer 4
    points: now a game with an idle player, or given up too soon, scores nobody."""
    store = Store(sqlite_url(tmp_path / "arena.db"))
    accounts = Accounts(store.engine)
    farmer, puppet = (accounts.sign_up(name, PASSWORD)[0] for name in ("Farmer", "Puppet"))
    book, games = Tournaments(store.engine), TournamentGames(store.engine)
    table_spec = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}]}
    made = book.make(farmer, Tournamenting.model_validate({
        "kind": "arena", "name": "Night", "minutes": 30, "table": table_spec,
        "starts": (now() + timedelta(minutes=1)).isoformat()}))
    for n, record in enumerate(({"idle": [1]}, {"idle": [], "short": True},
                                {"idle": [], "short": False})):
        table = f"a{n}"
        games.reserve(made, [Planned(table, [farmer.id, puppet.id])])
        store.create(table, {}, [])
        store.finish(table, {
            "variant": "draw", "names": ["Farmer", "Puppet"], "sides": [0, 1],
            "accounts": [farmer.id, puppet.id], "scores": [60, 0], "winner": 0,
            "loser": None, "public": True, "rating": None, "record": record})
    games.settle(made)
    played = {g.table: g.places for g in games.played(made)}
    assert played["a0"] == [] and played["a1"] == []
    assert played["a2"] == [(0, False), (1, False)]


def test_nobody_passes_for_a_bot_a_renamed_player_or_the_site(server: Server) -> None:
    for typed in ("bot:expert", "Bot:Hard", "b0t_easy", "Player123456", "operator"):
        made = httpx.post(f"{server.url}/api/tables", json={
            "variant": "draw", "seats": [{"kind": "human", "name": typed},
                                         {"kind": "bot", "level": "easy"}]})
        assert made.status_code == 409, typed
    for name in ("bot-hard", "Player_42", "Moderator"):
        answer = httpx.post(f"{server.url}/api/signup", json={"name": name,
                                                              "password": PASSWORD})
        assert answer.status_code in (400, 409), name
    fine = httpx.post(f"{server.url}/api/signup", json={"name": _tag("Bottle"),
                                                        "password": PASSWORD})
    assert fine.status_code == 201


def test_challenges_from_one_player_are_limited(tmp_path: Path) -> None:
    """165 challenges in 10 s reached one player: one is open to a player at a time,
    three an hour to them, five open at once, thirty an hour in all."""
    store = Store(sqlite_url(tmp_path / "ch.db"))
    accounts = Accounts(store.engine)
    ann = accounts.sign_up("Ann", PASSWORD)[0]
    names = [f"Target{n}" for n in range(8)]
    for name in names:
        accounts.sign_up(name, PASSWORD)
    challenges = Challenges(store.engine)
    spec = {"variant": "draw"}
    first = challenges.make(ann.id, "Target0", spec)
    with pytest.raises(TooMany, match="challenged this player already"):
        challenges.make(ann.id, "Target0", spec)
    for _ in range(2):
        challenges.end(first, ann.id, "cancelled")
        first = challenges.make(ann.id, "Target0", spec)
    challenges.end(first, ann.id, "cancelled")
    with pytest.raises(TooMany, match="3 challenges to one player in an hour"):
        challenges.make(ann.id, "Target0", spec)
    for name in names[1:6]:
        challenges.make(ann.id, name, spec)
    with pytest.raises(TooMany, match="5 open challenges at once"):
        challenges.make(ann.id, "Target6", spec)


def test_floods_are_answered_429_over_http(server: Server) -> None:
    """The same limits through the API: tournaments made, challenges, reports."""
    flooder, target = _tag("Fl"), _tag("Tg")
    client, _ = server.account(flooder), server.account(target)
    starts = (now() + timedelta(hours=1)).isoformat()
    table = {"variant": "draw", "seats": [{"kind": "human"}, {"kind": "human"}]}
    made = [client.post("/api/tournaments", json={
        "kind": "arena", "name": f"Flood {n}", "minutes": 30, "starts": starts,
        "table": table}).status_code for n in range(7)]
    assert made == [201] * 5 + [429] * 2
    challenge = {"name": target, "table": {"variant": "draw", "seats": [
        {"kind": "human", "me": True}, {"kind": "human"}]}}
    answers = [client.post("/api/challenges", json=challenge) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 429, 429]
    assert answers[1].headers["retry-after"]
    reports = [client.post("/api/reports", json={"kind": "player", "name": target,
                                                 "reason": f"reason {n}"}) for n in range(5)]
    assert {r.status_code for r in reports} == {201}
    assert len({r.json()["id"] for r in reports}) == 1  # one open report, merged
    [kept] = client.get("/api/reports").json()
    assert kept["reason"] == "; ".join(f"reason {n}" for n in range(5))


def test_reports_are_limited_a_day(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path / "rep.db"))
    accounts = Accounts(store.engine)
    reporter = accounts.sign_up("Rep", PASSWORD)[0]
    for n in range(21):
        accounts.sign_up(f"Other{n}", PASSWORD)
    moderation = Moderation(store.engine)
    for n in range(20):
        moderation.report(reporter.id, "player", "rude", name=f"Other{n}")
    with pytest.raises(TooMany, match="20 reports in a day"):
        moderation.report(reporter.id, "player", "rude", name="Other20")


def test_roles_nest(server: Server) -> None:
    """A moderator's API token is refused every moderator route; a moderator cannot lift
    the operator's ban, nor act on another moderator."""
    mod_name, player = _tag("Mod"), _tag("Pl")
    moderator = server.account(mod_name)
    server.account(player)
    admin(server.db, "grant", mod_name, "moderator")
    token = moderator.post("/api/tokens", json={"label": "my bot"}).json()["token"]
    bearer = {"authorization": f"Bearer {token}"}
    for path in ("/api/mod/reports", "/api/mod/audit", f"/api/mod/players/{player}"):
        assert httpx.get(server.url + path, headers=bearer).status_code == 403, path
    warned = httpx.post(f"{server.url}/api/mod/players/{player}/sanctions", headers=bearer,
                        json={"kind": "warn", "reason": "by token"})
    assert warned.status_code == 403
    admin(server.db, "ban", player, "--reason", "the operator's")
    lifted = moderator.post(f"/api/mod/players/{player}/lift",
                            json={"kind": "ban", "reason": "a friend"})
    assert lifted.status_code == 403 and "operator" in lifted.text
    other = _tag("Mod")
    server.account(other)
    admin(server.db, "grant", other, "moderator")
    assert moderator.post(f"/api/mod/players/{other}/lift",
                          json={"kind": "mute", "reason": "x"}).status_code == 403


def test_a_renamed_name_is_replaced_everywhere_and_kept(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path / "rn.db"))
    accounts = Accounts(store.engine)
    rude = accounts.sign_up("Rudename", PASSWORD)[0]
    other = accounts.sign_up("Fine", PASSWORD)[0]
    _rated_game(store, "g1", rude.id, other.id)
    new = Moderation(store.engine, kept_days=30).rename("operator", "Rudename", "offends")
    [game] = store.games("Fine")
    assert game.names[0] == new and "Rudename" not in str(store.game("g1").names)
    for taken in ("Rudename", "RUDENAME", "Rudenаme"):  # a Cyrillic a too
        with pytest.raises(Refused):
            accounts.sign_up(taken, PASSWORD)


def test_a_closed_account_keeps_no_open_challenge_and_its_name_is_kept(
        tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path / "cl.db"))
    accounts = Accounts(store.engine)
    ann = accounts.sign_up("Leaving", PASSWORD)[0]
    bob = accounts.sign_up("Staying", PASSWORD)[0]
    challenges = Challenges(store.engine)
    link = challenges.make(ann.id, None, {"variant": "draw"})
    named = challenges.make(ann.id, "Staying", {"variant": "draw"})
    Own(store.engine, kept_days=30).close(ann.id)
    assert challenges.waiting(bob.id) == []
    for challenge in (link, named):
        with pytest.raises((ValueError, PermissionError)):
            challenges.take(challenge, bob.id)
    with pytest.raises(Refused, match="kept"):
        accounts.sign_up("Leaving", PASSWORD)
    Own(store.engine, kept_days=0).close(bob.id)  # an operator who frees names at once
    accounts.sign_up("Staying", PASSWORD)


def test_a_private_games_record_needs_what_watching_it_needs(server: Server) -> None:
    name = _tag("Pv")
    ann = server.account(name)
    made = server.create("draw", [{"kind": "human", "me": True},
                                  {"kind": "bot", "level": "easy"}],
                         client=ann, options={"target": None})
    table = made["table"]["id"]
    play_out(server.socket(table, made["token"]), random.Random(5))
    stranger = server.account(_tag("Str"))
    for part in ("record", "analysis?graded=false"):
        path = f"/api/games/{table}/{part}"
        assert httpx.get(server.url + path).status_code == 403, part
        assert stranger.get(path).status_code == 403, part
        assert ann.get(path).status_code == 200, part  # its player's account
        for secret in ({"bones-seat": made["token"]},
                       {"bones-invite": server.invites[table]}):
            assert httpx.get(server.url + path, headers=secret).status_code == 200
        assert httpx.get(server.url + path, headers={
            "bones-invite": "guessed"}).status_code == 403


def test_stores_and_backups_are_their_owners_alone(tmp_path: Path) -> None:
    """`bones backup` by hand and a new SQLite store were made 0644, world-readable with
    every account's hashes: now 0600; a failed backup leaves no partial file behind."""
    url = sqlite_url(tmp_path / "own.db")
    Store(url).engine.dispose()
    copy = tmp_path / "own.backup"
    backup(url, copy)
    for made in (tmp_path / "own.db", copy):
        assert made.stat().st_mode & 0o777 == 0o600, made
    with pytest.raises(BackupError):
        backup("postgresql+psycopg://nobody@127.0.0.1:1/none", tmp_path / "pg.backup")
    assert sorted(p.name for p in tmp_path.iterdir()
                  if p.name.startswith("pg")) == []


def test_a_game_that_ends_after_a_rename_keeps_the_new_name(tmp_path: Path) -> None:
    """The rename replaced the name in finished games, but a game still being played
    wrote the old name when it ended: a game is kept under its players' names as they
    are then."""
    store = Store(sqlite_url(tmp_path / "late.db"))
    accounts = Accounts(store.engine)
    rude = accounts.sign_up("Latename", PASSWORD)[0]
    store.create("live", {}, [])
    new = Moderation(store.engine).rename("operator", "Latename", "offends")
    store.finish("live", {
        "variant": "draw", "names": ["Latename", "bot:easy"], "sides": [0, 1],
        "accounts": [rude.id, None], "scores": [10, 0], "winner": 0, "loser": None,
        "public": True, "record": {}, "rating": None})
    kept = store.game("live")
    assert kept is not None and kept.names == [new, "bot:easy"]
