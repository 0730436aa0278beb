"""`bones backup` copies the store while the server runs; `bones restore` brings it back
after it is destroyed: every game's record replays and proves its deals fair, every
rating, statistic and history is as it was; a restore never goes over a store with games
unless told to."""

from __future__ import annotations

import gc
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from bones import Match
from bones.cli import main
from bones.fair import verify
from bones.server.store.backup import backup, restore
from bones.server.store.records import Store
from tests.server.live import Server, both_move, play_all, play_out, sqlite_url


def _site(server: Server) -> dict[str, Any]:
    """Everything a player sees of the site's past: games, records, ratings, statistics."""
    seen: dict[str, Any] = {}
    for name in ("Ann", "Ben"):
        games = server.account(name).get("/api/games", params={"name": name}).json()
        seen[name] = {"games": games, "stats": server.get(f"/api/stats/{name}"),
                      "profile": server.get(f"/api/profile/{name}")}
        for game in games:
            seen[game["id"]] = server.get(f"/api/games/{game['id']}/record")
    seen["board"] = server.get("/api/leaderboard?variant=draw&players=2")
    return seen


def _destroy(url: str) -> None:
    if url.startswith("sqlite"):
        path = Path(url.removeprefix("sqlite:///"))
        for gone in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            gone.unlink(missing_ok=True)
        return
    with create_engine(url, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))


def test_a_store_destroyed_comes_back_from_its_backup(
        store_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = Server(store_url).start()
    ann, ben = server.account("Ann"), server.account("Ben")
    try:
        made = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                             options={"target": None}, rated=True, client=ann)
        table = made["table"]["id"]
        joined = server.join(table, None, client=ben)
        seats = [server.socket(table, made["token"]), server.socket(table, joined["token"])]
        both_move(*seats)
        play_all(seats, seed=3)
        for seed in range(2):
            alone = server.create("block", [{"kind": "human", "me": True},
                                            {"kind": "bot", "level": "easy"}],
                                  options={"target": None}, client=ann)
            play_out(server.socket(alone["table"]["id"], alone["token"]), random.Random(seed))
        before = _site(server)
        copy = tmp_path / "bones.backup"
        assert main(["backup", str(copy), "--db", store_url]) == 0  # while it runs
    finally:
        server.stop()
    assert main(["restore", str(copy), "--db", store_url]) == 2  # it has games
    assert "restore over it only with --replace" in capsys.readouterr().err
    _destroy(store_url)
    assert main(["restore", str(copy), "--db", store_url]) == 0
    again = Server(store_url, port=server.port).start()
    try:
        after = _site(again)
    finally:
        again.stop()
    assert after == before
    assert len(before["Ann"]["games"]) == 3 and before["Ann"]["profile"]["ratings"]
    for game in before["Ann"]["games"]:
        record = after[game["id"]]
        assert Match.from_record(record).is_over
        assert verify(record)
    assert main(["restore", str(copy), "--db", store_url, "--replace"]) == 0


def test_a_sqlite_store_is_restored_again_and_again_in_one_process(tmp_path: Path) -> None:
    """A restore lets go of the store it migrated: the next one (which removes the
    journal files) found them held open, and SQLite's copy failed ("disk I/O error")
    when the collector had not yet run, as once on a busy machine. Collection is held off
    here, so the old code fails every time."""
    url = sqlite_url(tmp_path / "bones.db")
    Store(url).engine.dispose()
    copy = tmp_path / "bones.backup"
    backup(url, copy)
    gc.disable()
    try:
        for _ in range(3):
            restore(url, copy, replace=True)
    finally:
        gc.enable()
