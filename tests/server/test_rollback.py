"""Rolling back, as docs/operating.md tells it: the release before, started on a store a
newer release migrated, runs on it as it is (its migrations add tables and columns the
release before does not read) and plays on the games the newer one left in progress;
``bones migrate --to`` with the newer release takes the store back for good."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine

from bones.server.store.migrate import MIGRATIONS, revision
from tests.server.live import Server, both_move, play_all, sqlite_url

SOURCE = Path(__file__).resolve().parents[2] / "src" / "bones"
HEAD = max(p.name[:4] for p in (MIGRATIONS / "versions").glob("0*.py"))
NEXT = f'''"""The next release's migration: a table and a column this one does not know.

Revision ID: 9999
Revises: {HEAD}
"""

import sqlalchemy as sa
from alembic import op

revision = "9999"
down_revision = "{HEAD}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("next_things", sa.Column("id", sa.Integer(), primary_key=True))
    with op.batch_alter_table("accounts") as altered:
        altered.add_column(sa.Column("next_thing", sa.String(20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as altered:
        altered.drop_column("next_thing")
    op.drop_table("next_things")
'''


def _newer_release(folder: Path) -> Path:
    """A copy of this bones with one migration more, as the next release would have:
    the folder to put on ``PYTHONPATH``."""
    shutil.copytree(SOURCE, folder / "bones", ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "bones" / "server" / "store" / "migrations" / "versions" / "9999_next.py"
     ).write_text(NEXT)
    return folder


def _revision(db: str) -> str | None:
    engine = create_engine(db)
    try:
        return revision(engine)
    finally:
        engine.dispose()


def test_the_release_before_plays_on_over_a_newer_store(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "site.db")
    newer = {"PYTHONPATH": str(_newer_release(tmp_path / "next"))}
    site = Server(db, env=newer).start()
    try:
        ann, ben = site.account("Back-Ann"), site.account("Back-Ben")
        made = site.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                           options={"target": None}, rated=True, client=ann)
        table = made["table"]["id"]
        tokens = [made["token"], site.join(table, None, client=ben)["token"]]
        seats = [site.socket(table, token) for token in tokens]
        both_move(*seats, moves=1)
        before = max((seat.last_state()["view"]["history"] for seat in seats), key=len)
        for seat in seats:
            seat.close()
    finally:
        site.stop()
    assert _revision(db) == "9999"

    back = Server(db).start()  # rolled back: the release before, on the newer store
    try:
        assert _revision(db) == "9999"  # left as it is
        seats = [back.socket(table, token) for token in tokens]
        shown = seats[0].until(lambda m: m["type"] == "state")
        assert shown["view"]["history"] == before  # the game as it stood
        play_all(seats, seed=5)
        record = back.get(f"/api/games/{table}/record")
        assert record["moves"][:len(before)] == [move for _, move in before]
        assert back.account("Back-Cy").get("/api/me").json()["name"] == "Back-Cy"
    finally:
        back.stop()

    down = subprocess.run([sys.executable, "-m", "bones", "migrate", "--db", db, "--to", HEAD],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **newer})
    assert down.returncode == 0, down.stderr
    assert _revision(db) == HEAD

