"""The store on its own: a game's last move and its end in one transaction, a restart
that finishes what a crash left half done, moments read back with their zone, and
statistics kept as running totals that always equal a recount."""

from __future__ import annotations

import random
import tempfile
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from bones.rules import Rules
from bones.server.names import name_key
from bones.server.people.accounts import Accounts
from bones.server.store.records import Append, Store
from bones.server.store.results import lines
from bones.server.store.schema import AccountRow, GameRow, RatedRow
from bones.server.tables import endings
from bones.server.tables.hub import Hub, Settings
from bones.server.tables.seats import Seat
from bones.server.tables.table import Table
from tests.server.fakes import in_a_thread


def _ann(store: Store) -> int:
    """Ann's account."""
    return Accounts(store.engine).sign_up("Ann", "correct horse")[0].id


def _finished(seed: int, account: int | None = None) -> tuple[Table, list[Any]]:
    """A single-round table played to its end, and every log entry it made."""
    table = Table(f"t{seed}", Rules.preset("draw", target=None),
                  [Seat("human", name="Ann", account_id=account), Seat("bot", level="easy")])
    entries = table.start()
    rng = random.Random(seed)
    while table.status == "playing":
        assert table.match is not None and table.turn is not None
        move = rng.choice(table.match.round.legal_moves())
        entries += table.play(table.turn, str(move))[0]
    assert table.status == "over"
    return table, entries


def test_the_last_move_and_the_end_are_one_transaction(store_url: str) -> None:
    """Hardening: a kill between the last move and the finished game left the table over,
    its record 404 and the game out of every list. Now both are written or neither."""
    store = Store(store_url)
    table, entries = _finished(1, _ann(store))
    store.create(table.id, table.config(), [s.stored() for s in table.seats])
    broken = {**endings.game(table), "variant": None}  # the game's row cannot be written
    with pytest.raises(Exception):  # noqa: B017 - whatever the database raises
        store.append(table.id, 0, entries, broken)
    saved = store.table(table.id)
    assert saved is not None and saved.events == [] and not saved.finished
    store.append(table.id, 0, entries, endings.game(table))
    assert store.game(table.id) is not None
    assert [g.table_id for g in store.games("ann")] == [table.id]


def test_a_restart_finishes_a_game_whose_end_was_not_stored(store_url: str) -> None:
    store = Store(store_url)
    table, entries = _finished(2, _ann(store))
    store.create(table.id, table.config(), [s.stored() for s in table.seats])
    store.append(table.id, 0, entries)  # what a crash left: the moves, not the end
    assert store.game(table.id) is None

    async def start() -> None:
        hub = Hub(store, Settings(bot_workers=0))  # no worker processes for this
        await hub.load()
        await hub.close()

    in_a_thread(start())
    game = store.game(table.id)
    assert game is not None and game.scores == list(endings.game(table)["scores"])
    assert store.totals("ANN")


def test_moments_come_back_with_their_zone(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'zone.db'}")
    store.create("z", {"rules": {}}, [])
    saved = store.table("z")
    assert saved is not None and saved.created.tzinfo is not None


def _reads_back(store: Store) -> None:
    """A deal appended, then a move through ``append_moves``: both read back as written,
    with their moment in UTC."""
    store.create("log", {"rules": {}}, [])
    entries = [("deal", None, {"tiles": [[6, 6], [0, 1]], "note": "é"}),
               ("move", 0, {"move": "6-6"})]
    store.append("log", 0, entries[:1])
    with store.engine.connect() as connection:
        Store.append_moves(connection, [Append("log", 1, entries[1:])])
        connection.commit()
    saved = store.table("log")
    assert saved is not None
    assert [(e.seq, e.kind, e.seat, e.data) for e in saved.events] == [
        (n, *entry) for n, entry in enumerate(entries)]
    assert all(e.at is not None and e.at.utcoffset() == timedelta(0) for e in saved.events)


def test_a_log_reads_back_as_written(store_url: str) -> None:
    """Moves go to the driver as plain SQL, their values bound by the columns' types."""
    _reads_back(Store(store_url))


def test_a_driver_of_another_style_gets_sqlalchemys_insert(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver whose parameter style has no plain form here (``named``: SQLite's driver
    takes it too) is given SQLAlchemy's insert instead, and the log reads back the same."""
    url = f"sqlite:///{tmp_path / 'named.db'}"
    store = Store(url)
    monkeypatch.setattr(store, "engine", create_engine(url, paramstyle="named"))
    _reads_back(store)


GAMES = st.lists(st.tuples(
    st.sampled_from(["Ann", "ANN", "ann", "Ben", "Zoë", "Zoe\u0308"]),
    st.sampled_from(["Ben", "bot:easy", "bot:hard", "Cy"]),
    st.sampled_from(["draw", "block", "allfives"]),
    st.sampled_from([0, 1, None]), st.integers(0, 200), st.integers(0, 200),
    st.booleans()), max_size=12)


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_totals_always_equal_a_recount(games: list[tuple[Any, ...]]) -> None:
    """Running totals per account (named in any case and Unicode form), per variant and
    level, are what counting every unassisted game again gives."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/totals.db")
        accounts: dict[str, int] = {}
        with Session(store.engine) as session, session.begin():
            for name in ("Ann", "Ben", "Zoë", "Cy"):
                row = AccountRow(name=name, name_key=name_key(name), bot=False)
                session.add(row)
                session.flush()
                accounts[name_key(name)] = row.id
        kept = []
        for number, (first, second, variant, winner, a, b, assisted) in enumerate(games):
            if name_key(first) == name_key(second):
                continue
            table_id = f"g{number}"
            store.create(table_id, {}, [])
            game = {"variant": variant, "names": [first, second], "sides": [0, 1],
                    "accounts": [accounts.get(name_key(n)) for n in (first, second)],
                    "scores": [a, b], "winner": winner, "loser": None,
                    "record": {"assists": [{"kind": "hint"}] if assisted else []}}
            store.finish(table_id, game)
            if not assisted:
                kept.append(store.game(table_id))
        _recount(store, kept, accounts)


def _recount(store: Store, kept: list[Any], accounts: dict[str, int]) -> None:
    for name in ("ann", "ZOË", "ben"):
        expected: dict[tuple[str, str], list[int]] = {}
        for game in kept:
            for key, grouping, group, won, lost, points in lines(game):
                if key == accounts[name_key(name)]:
                    row = expected.setdefault((grouping, group), [0, 0, 0, 0])
                    for i, value in enumerate((1, won, lost, points)):
                        row[i] += value
        counted = {(g, k): [n, w, lo, p] for g, k, n, w, lo, p in store.totals(name)}
        assert counted == expected


def test_servers_starting_at_once_make_the_schema_once(postgres_url: str) -> None:
    """Several processes of one site open an empty database at the same moment."""
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            Store(postgres_url).ping()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_two_opponents_rate_three_games_a_day(store_url: str) -> None:
    """The fourth rated game Ann and Ben finish within a day is kept, counted in their
    statistics and marked unrated: it moves neither rating (``results.REPEATS``)."""
    store = Store(store_url)
    accounts = Accounts(store.engine)
    ann, ben = (accounts.sign_up(name, "correct horse")[0].id for name in ("Ann", "Ben"))
    for number in range(4):
        table = Table(f"r{number}", Rules.preset("draw", target=None),
                      [Seat("human", name="Ann", account_id=ann),
                       Seat("human", name="Ben", account_id=ben)], rated=True)
        entries = table.start()
        while table.status == "playing":
            assert table.match is not None and table.turn is not None
            entries += table.play(table.turn, str(table.match.round.legal_moves()[0]))[0]
        store.create(table.id, table.config(), [s.stored() for s in table.seats])
        store.append(table.id, 0, entries, endings.game(table))
    with Session(store.engine) as session:
        rated = session.scalars(select(RatedRow.table_id).where(RatedRow.account_id == ann)
                                .order_by(RatedRow.table_id)).all()
        fourth = session.get(GameRow, "r3")
    assert rated == ["r0", "r1", "r2"]
    assert fourth is not None and fourth.rating is not None
    assert fourth.rating["unrated"] == "met"
