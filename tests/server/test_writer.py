"""The store's writer: moves of many tables in one transaction, each told its own fate."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from bones.server.store import Append, Store
from bones.server.writer import Writer


def _store(path: Path, tables: int) -> Store:
    store = Store(f"sqlite:///{path / 'bones.db'}")
    for n in range(tables):
        store.create(f"t{n}", {"rules": {}}, [{"kind": "bot", "level": "easy"}])
    return store


def _moves(store: Store) -> dict[str, list[int]]:
    return {t.id: [e.seq for e in t.events] for t in store.open_tables()}


def test_appends_asked_while_a_transaction_is_written_share_the_next(tmp_path: Path) -> None:
    """Fifty tables move while the writer is busy: one transaction stores all fifty."""
    store = _store(tmp_path, 50)
    batches: list[int] = []
    append_all = store.append_all

    def counted(appends: list[Append]) -> list[Exception | None]:
        batches.append(len(appends))
        return append_all(appends)

    store.append_all = counted  # type: ignore[method-assign]

    async def play() -> None:
        writer = Writer(store)
        busy = threading.Event()
        held = asyncio.ensure_future(writer.run(busy.wait))
        moves = [asyncio.ensure_future(writer.append(f"t{n}", 0, [("move", 0, {"n": n})]))
                 for n in range(50)]
        await asyncio.sleep(0.05)
        assert not any(m.done() for m in moves), "a move was told stored before it was"
        busy.set()
        await asyncio.gather(held, *moves)
        await writer.close()

    asyncio.run(play())
    assert batches == [50]
    assert _moves(store) == {f"t{n}": [0] for n in range(50)}


def test_a_number_taken_twice_fails_only_its_own_append(tmp_path: Path) -> None:
    """A stale holder's append clashes with the log; the other tables in its transaction
    are stored all the same."""
    store = _store(tmp_path, 3)
    store.append("t1", 0, [("move", 0, {"by": "the holder"})])

    async def play() -> list[Any]:
        writer = Writer(store)
        busy = threading.Event()
        held = asyncio.ensure_future(writer.run(busy.wait))
        moves = [asyncio.ensure_future(writer.append(f"t{n}", 0, [("move", 0, {"by": "me"})]))
                 for n in range(3)]
        await asyncio.sleep(0.01)
        busy.set()
        await held
        told = await asyncio.gather(*moves, return_exceptions=True)
        await writer.close()
        return told

    told = asyncio.run(play())
    assert told[0] is None and told[2] is None
    assert isinstance(told[1], IntegrityError)
    assert _moves(store) == {"t0": [0], "t1": [0], "t2": [0]}
    assert store.open_tables()[1].events[0].data == {"by": "the holder"}


def test_a_database_away_refuses_every_waiting_append(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path, 2)

    def away(appends: list[Append]) -> list[Exception | None]:
        raise OperationalError("INSERT", {}, Exception("the database is away"))

    monkeypatch.setattr(store, "append_all", away)

    async def play() -> list[Any]:
        writer = Writer(store)
        told = await asyncio.gather(*(writer.append(f"t{n}", 0, [("move", 0, {})])
                                      for n in range(2)), return_exceptions=True)
        await writer.close()
        return told

    assert all(isinstance(t, OperationalError) for t in asyncio.run(play()))
    assert _moves(store) == {"t0": [], "t1": []}
