"""An account's own data: its owner downloads everything bones holds about them (the
export validates against ``docs/export.schema.json``, which is the model's schema), and
closes the account: the person is erased, the games stay for the others, replayable and
verifiable, under a closed account's name."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import jsonschema

from bones.server.protocol import AccountExport
from tests.server.live import Server, played

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "export.schema.json"


def _played(server: Server, ann: httpx.Client, bob: httpx.Client) -> str:
    """A finished single-round draw game between Ann and Bob, with a line said: its table."""
    table, seats = played(server, ann, bob, said="good luck, Bob")
    for socket in seats:
        socket.close()
    return table


def _tournament(host: httpx.Client, player: httpx.Client) -> str:
    """An arena made by ``host`` that ``player`` joined: its id."""
    made = host.post("/api/tournaments", json={
        "kind": "arena", "name": "Export arena", "minutes": 30,
        "starts": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
        "table": {"variant": "draw", "seats": [{"kind": "human"}] * 2}}).json()["id"]
    player.post(f"/api/tournaments/{made}/join").raise_for_status()
    return made


def test_the_schema_document_is_the_models() -> None:
    """``docs/export.schema.json`` is written from the model: when they differ, write it
    again with ``python -c "import json; from bones.server.protocol import AccountExport;
    print(json.dumps(AccountExport.model_json_schema(), indent=2, sort_keys=True))"``."""
    assert json.loads(SCHEMA.read_text()) == AccountExport.model_json_schema()


def test_an_export_holds_everything_and_keeps_its_schema(server: Server) -> None:
    tag = random.randrange(10**7)
    ann, bob = server.account(f"Exa{tag}"), server.account(f"Exb{tag}")
    table = _played(server, ann, bob)
    ann.post("/api/tokens", json={"label": "my robot"}).raise_for_status()
    ann.post("/api/reports", json={"kind": "player", "name": f"Exb{tag}",
                                   "reason": "slow"}).raise_for_status()
    entered = _tournament(bob, ann)
    export = ann.get("/api/me/export")
    assert export.status_code == 200, export.text
    data = export.json()
    jsonschema.validate(data, json.loads(SCHEMA.read_text()))
    assert data["account"]["name"] == f"Exa{tag}"
    assert [g["table"] for g in data["games"]] == [table] and data["games"][0]["record"]
    assert [line["text"] for line in data["chat"]] == ["good luck, Bob"]
    assert [t["label"] for t in data["api_tokens"]] == ["my robot"]
    assert [r["reason"] for r in data["reports_made"]] == ["slow"]
    assert data["sessions"] and "token_hash" not in export.text
    assert [(t["id"], t["withdrawn"]) for t in data["tournaments"]] == [(entered, None)]
    token = ann.post("/api/tokens", json={"label": "other"}).json()["token"]
    assert httpx.get(f"{server.url}/api/me/export",
                     headers={"authorization": f"Bearer {token}"}).status_code == 403


def test_a_closed_account_is_erased_and_its_games_stay(server: Server, tmp_path: Path) -> None:
    tag = random.randrange(10**7)
    ann_name = f"Cla{tag}"
    ann, bob = server.account(ann_name), server.account(f"Clb{tag}")
    waiting = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                            client=ann)
    assert ann.post("/api/me/close", json={"password": "wrong horse"}).status_code == 401
    seated = ann.post("/api/me/close", json={"password": "correct horse"})
    assert seated.status_code == 409, seated.text  # a seat at a table not over
    assert ann.post(f"/api/tables/{waiting['table']['id']}/leave",
                    json={"token": waiting["token"]}).status_code == 204
    table = _played(server, ann, bob)
    kept = ann.get("/api/me/export").json()["games"][0]["record"]
    entered = _tournament(bob, ann)
    assert ann.post("/api/me/close", json={"password": "correct horse"}).status_code == 204
    assert ann.get("/api/me").status_code == 401
    assert server.get(f"/api/tournaments/{entered}")["entrants"] == []  # nobody pairs it
    assert httpx.post(f"{server.url}/api/login", json={
        "name": ann_name, "password": "correct horse"}).status_code == 401
    games = bob.get(f"/api/games?name=Clb{tag}").json()
    shown = next(g for g in games if g["id"] == table)
    assert ann_name not in json.dumps(shown) and shown["names"][0].startswith("deleted-")
    record = server.get(f"/api/games/{table}/record")
    assert ann_name not in json.dumps(record) and record == kept
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    verified = subprocess.run([sys.executable, "-m", "bones", "verify", str(path)],
                              capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    lines = server.socket(table, signed_in=bob)
    lines.until(lambda m: m["type"] == "state")
    lines.drain()
    assert "good luck" not in json.dumps(lines.received)
    taken = httpx.post(f"{server.url}/api/signup", json={"name": f"deleted-{tag}",
                                                          "password": "correct horse"})
    assert taken.status_code == 409  # the closed accounts' names are kept
