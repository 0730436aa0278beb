"""The store evolves by Alembic migrations: a database written by bones before there
were migrations upgrades in place, with every table, move, game and record kept, and the
migrations build exactly the tables the models describe.

``data/store-2026-12-01.*.sql`` were written by bones' main of 2026-12-01 (commit
8381c4a, its own ``Store.create/append/expire``): three finished single-round games (the
draw game, the block game between two people, All Fives), a Kozel match some ten moves in,
a table waiting for a friend and one that expired; then dumped (``sqlite3``'s
``iterdump`` and ``pg_dump --inserts``).
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, select, text

from bones.cli import main
from bones.match import Match
from bones.rules import Rules
from bones.server.people.accounts import Accounts
from bones.server.people.players import Player
from bones.server.store.migrate import revision, upgrade
from bones.server.store.records import Store
from bones.server.store.schema import Base, EventRow
from bones.server.tables import endings
from bones.server.tables.seats import Seat
from bones.server.tables.table import Table
from tests.server.conftest import fresh_postgres
from tests.server.live import sqlite_url

DATA = Path(__file__).with_name("data")
HEAD = "0022"
"""The newest revision, which every store is upgraded to."""
KEPT = {"tables": 6, "seats": 14, "games": 3}
"""Rows of each kind in the old stores (and some fifty events)."""


def _old_sqlite(tmp_path: Path) -> str:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as connection:
        connection.executescript((DATA / "store-2026-12-01.sqlite.sql").read_text())
    return sqlite_url(path)


def _old_postgres() -> str:
    url = fresh_postgres()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql((DATA / "store-2026-12-01.postgresql.sql").read_text())
    engine.dispose()  # the dump emptied its session's search_path
    return url


def _rows(url: str) -> dict[str, list[Any]]:
    """Every old row of the tables that must survive, in a stable order."""
    engine = create_engine(url)
    order = {"tables": "id", "seats": "table_id, seat", "events": "table_id, seq",
             "games": "table_id"}
    with engine.connect() as connection:
        rows = {name: [tuple(row)[:9] for row in connection.execute(
                    text(f"SELECT * FROM {name} ORDER BY {key}"))]
                for name, key in order.items()}
    engine.dispose()
    return rows


@pytest.fixture(params=["sqlite", "postgresql"])
def old_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store as main wrote it on 2026-12-01, of each kind bones supports."""
    return _old_sqlite(tmp_path) if request.param == "sqlite" else _old_postgres()


def test_an_old_store_upgrades_in_place_with_everything_kept(old_store: str) -> None:
    before = _rows(old_store)
    assert {k: len(v) for k, v in before.items() if k != "events"} == KEPT
    assert len(before["events"]) > 40
    assert revision(create_engine(old_store)) is None

    store = Store(old_store)
    assert revision(store.engine) == HEAD
    after = _rows(old_store)
    for name in ("tables", "events"):
        assert after[name] == before[name], name
    assert [row[:6] for row in after["seats"]] == [row[:6] for row in before["seats"]]
    assert after["games"] == before["games"]

    # every finished game's record replays through the engine, as stored
    games = store.games()
    assert sorted(g.table_id for g in games) == ["g1", "g2", "g3"]
    for game in games:
        match = Match.from_record(game.record)
        assert match.is_over and list(match.scores) == game.scores
    # the open tables come back exactly, the half-played Kozel match at its last move
    saved = {table.id: table for table in store.open_tables()}
    assert set(saved) == {"o1", "w1"}
    kozel = Table.restore(saved["o1"])
    moves = [e.data["move"] for e in saved["o1"].events if e.kind == "move"]
    assert kozel.match is not None and len(moves) >= 9
    assert [move for _, move in kozel.match.round.history][-len(moves):] == moves
    assert Table.restore(saved["w1"]).status == "waiting"
    # typed names of before belong to nobody: they are no account's statistics
    assert store.totals("Ann") == [] and store.games("Ann") == []


def test_an_upgraded_store_counts_games_for_accounts(old_store: str) -> None:
    store = Store(old_store)
    ann, _ = Accounts(store.engine).sign_up("Ann", "correct horse")
    table = Table("new", Rules.preset("draw", target=None),
                  [Seat("human"), Seat("bot", level="easy")])
    table.join(Player(ann.name, ann.id), "hash")
    entries = table.start()
    rng = random.Random(3)
    while table.status == "playing":
        assert table.match is not None and table.turn is not None
        entries += table.play(table.turn, str(rng.choice(table.match.round.legal_moves())))[0]
    store.create(table.id, table.config(), [s.stored() for s in table.seats])
    store.append(table.id, 0, entries, endings.game(table))
    assert [g.table_id for g in store.games("ANN")] == ["new"]
    assert ("total", "", 1) in [t[:3] for t in store.totals("ann")]


def test_no_seat_token_is_kept_in_the_clear_after_the_upgrade(tmp_path: Path) -> None:
    """"Secrets at rest: every seat token kept as a hash": an accepted challenge's seat
    loses the token it kept, and the tournaments' tokens are emptied."""
    engine = create_engine(sqlite_url(tmp_path / "old.db"))
    upgrade(engine, "0014")
    seat = {"table": {"id": "t1"}, "seat": 0, "token": "secret", "invite": "/t/t1"}
    at = "2026-12-01 00:00:00"
    with engine.begin() as connection:  # as the version of 0014 wrote them
        connection.execute(text(
            "INSERT INTO accounts (id, name, name_key, bot, created) VALUES"
            " (1, 'Ann', 'ann', 0, :at)"), {"at": at})
        connection.execute(text(
            "INSERT INTO challenges (id, from_id, spec, created, expires, state, table_id,"
            " seat) VALUES ('c1', :ann, '{}', :at, :at, 'accepted', 't1', :seat)"),
            {"ann": 1, "at": at, "seat": json.dumps(seat)})
        connection.execute(text(
            "INSERT INTO tournaments (id, name, kind, spec, starts, created, state, public,"
            " bots)"
            " VALUES ('a1', 'Arena', 'arena', '{}', :at, :at, 'running', 1, 0)"), {"at": at})
        connection.execute(text(
            "INSERT INTO tournament_entries (tournament_id, account_id, joined, missed,"
            " table_id, seat, token) VALUES ('a1', :ann, :at, 0, 't1', 0, 'secret')"),
            {"ann": 1, "at": at})
        connection.execute(text(
            "INSERT INTO tournament_games (table_id, tournament_id, accounts, tokens,"
            " created) VALUES ('t1', 'a1', '[1]', '[\"secret\"]', :at)"), {"at": at})
    upgrade(engine)
    with engine.connect() as connection:
        kept = json.loads(connection.execute(text("SELECT seat FROM challenges")).scalar_one())
        tokens = [connection.execute(text(f"SELECT {column} FROM {table}")).scalar_one()
                  for table, column in (("tournament_entries", "token"),
                                        ("tournament_games", "tokens"))]
    assert kept == {"table": {"id": "t1"}, "seat": 0, "invite": "/t/t1"}
    assert tokens == [None, None]
    engine.dispose()


def test_starting_twice_upgrades_once(old_store: str) -> None:
    Store(old_store)
    Store(old_store)
    assert revision(create_engine(old_store)) == HEAD


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migrations_build_what_the_models_describe(kind: str, tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "new.db") if kind == "sqlite" else fresh_postgres()
    engine = create_engine(url)
    upgrade(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_a_tables_log_is_read_through_its_key(tmp_path: Path) -> None:
    """The events keep one index, their key (table, seq): reading a table's log in order
    goes through it, with no scan and no sort (SQLite's plan)."""
    store = Store(sqlite_url(tmp_path / "new.db"))
    query = select(EventRow).where(EventRow.table_id == "t").order_by(EventRow.seq)
    compiled = query.compile(store.engine, compile_kwargs={"literal_binds": True})
    with store.engine.connect() as connection:
        plan = " ".join(row[-1] for row in connection.exec_driver_sql(
            f"EXPLAIN QUERY PLAN {compiled}"))
        indexes = [row[1] for row in connection.exec_driver_sql("PRAGMA index_list(events)")]
    assert indexes == ["sqlite_autoindex_events_1"]
    assert "USING INDEX sqlite_autoindex_events_1 (table_id=?)" in plan, plan
    assert "TEMP B-TREE" not in plan, plan


def test_a_store_goes_back_a_release_and_forward_again(old_store: str) -> None:
    """``bones migrate --to``: the newest revision undone for the release before, every
    game kept, and made again."""
    store = Store(old_store)  # upgraded to the newest
    store.engine.dispose()
    kept = _rows(old_store)
    assert main(["migrate", "--to", "0015", "--db", old_store]) == 0
    assert revision(create_engine(old_store)) == "0015"
    assert _rows(old_store) == kept
    assert main(["migrate", "--to", "head", "--db", old_store]) == 0
    assert revision(create_engine(old_store)) == HEAD and _rows(old_store) == kept
