"""Running a site: what an operator meets besides the players. A process of a site never
starts on a store of its own; a backup never writes over another; the password link
goes to the site's own address; the admin's tables are whole in a pipe; the log says,
one JSON line each, who signed in or up, failed to, reset a password, was sanctioned,
or was refused, with the address the request came from and never a secret; an outage
is one line every few seconds, never a traceback."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import httpx
import pytest

from bones.cli import main
from bones.server import logs
from bones.server.store.backup import BackupError, backup
from bones.server.store.records import Store
from tests.server.live import Server, admin_run, sqlite_url

PASSWORD = "correct horse"


def test_a_site_without_its_store_refuses_to_start(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A missing environment file started a process on a new SQLite file of its own,
    which answered /readyz: nginx sent players to a second, empty site."""
    monkeypatch.chdir(tmp_path)
    for name in ("BONES_DB", "BONES_DB_FILE", "BONES_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    for flags in (["--redis", "redis://127.0.0.1:1/0"], ["--origin", "https://bones.example"]):
        assert main(["serve", *flags]) == 2
        assert "needs its store" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no store made


def test_two_backups_never_write_one_file(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "site.db")
    Store(url).engine.dispose()
    copy = tmp_path / "night.backup"
    backup(url, copy)
    first = copy.read_bytes()
    with pytest.raises(BackupError, match="already"):
        backup(url, copy)
    assert copy.read_bytes() == first
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []
    store = Store(url)  # noted, for the alert on the last backup's age
    assert store.last_backup() is not None
    store.engine.dispose()


def test_the_password_link_goes_to_the_configured_site(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "site.db")
    store = Store(db)
    from bones.server.people.accounts import Accounts
    Accounts(store.engine).sign_up("Anna", PASSWORD)
    store.engine.dispose()
    unsaid = admin_run(db, "reset-password", "Anna")
    assert unsaid.returncode == 1 and "which site?" in unsaid.stderr  # never a made-up one
    config = tmp_path / "bones.toml"
    config.write_text('[serve]\norigin = ["https://bones.example"]\n')
    link = admin_run(db, "reset-password", "Anna", env={"BONES_CONFIG": str(config)})
    assert link.stdout.startswith("https://bones.example/reset#"), link
    link = admin_run(db, "reset-password", "Anna", env={"BONES_ORIGIN": "https://b.example"})
    assert link.stdout.startswith("https://b.example/reset#"), link


def test_the_admin_tables_are_whole_in_a_pipe(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "site.db")
    server = Server(db).start()
    try:
        reporter, name = server.account("Reporter"), "Rudeplayer"
        server.account(name)
        reason = "said something long enough to be cut at eighty columns " * 3
        assert reporter.post("/api/reports", json={
            "kind": "player", "name": name, "reason": "abuse",
            "note": reason.strip()}).status_code == 201
    finally:
        server.stop()
    shown = admin_run(db, "reports")
    assert shown.returncode == 0, shown.stderr
    assert reason.strip() in shown.stdout


def _lines(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def test_the_log_says_who_signed_in_and_never_a_secret(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    server = Server(sqlite_url(tmp_path / "site.db"), log=log,
                    extra=["--log-format", "json"]).start()
    secrets = ["a very secret horse", "another secret horse"]
    try:
        ann = httpx.Client(base_url=server.url)
        assert ann.post("/api/signup", json={"name": "Loggedann",
                                              "password": secrets[0]}).status_code == 201
        assert ann.post("/api/password", json={"old": secrets[0], "new": secrets[1],
                                                "revoke_tokens": False}).status_code == 204
        stranger = httpx.Client(base_url=server.url)
        for _ in range(2):
            stranger.post("/api/login", json={"name": "Loggedann", "password": "guess"})
        assert ann.post("/api/login", json={"name": "Loggedann",
                                             "password": secrets[1]}).status_code == 200
        made = ann.post("/api/tables", json={"variant": "draw", "seats": [
            {"kind": "human", "me": True}, {"kind": "human"}]}).json()
        secrets += [made["token"], made["invite"].split("#invite=")[1],
                    ann.cookies["bones_session"]]
        seat = server.socket(made["table"]["id"], made["token"])
        seat.until(lambda m: m["type"] == "state")
        seat.close()
        foreign = stranger.post("/api/login", json={"name": "x", "password": "y"},
                                headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403
    finally:
        server.stop()
    lines = _lines(log)
    events = [(line.get("event"), line.get("name")) for line in lines if line.get("event")]
    assert ("signup", "Loggedann") in events and ("login", "Loggedann") in events
    assert ("login_failed", "Loggedann") in events and ("password_change", None) in events
    assert any(event == "refused" for event, _ in events)
    text = log.read_text()
    for secret in secrets:
        assert secret not in text, "a secret was logged"
    assert all(line.startswith("{") for line in text.splitlines() if line), "not JSON"


def test_an_outage_is_one_line_every_few_seconds() -> None:
    """Every loop of a server that meets the store away logged its traceback, a second
    each: now its reason, in one line, and the same line once in a few seconds."""
    from sqlalchemy.exc import OperationalError

    out = io.StringIO()
    kept = {name: (logging.getLogger(name).handlers[:], logging.getLogger(name).propagate,
                   logging.getLogger(name).level) for name in ("bones", "bones.audit")}
    logs.setup("json", out)
    try:
        log = logging.getLogger("bones.server")
        away = OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))
        for _ in range(50):
            try:
                raise away
            except OperationalError:
                log.exception("the lobby's list could not be made")
        log.warning("something else")
    finally:
        for name, (handlers, propagate, level) in kept.items():
            logger = logging.getLogger(name)
            logger.handlers[:], logger.propagate = handlers, propagate
            logger.setLevel(level)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["message"].split(":")[0] for line in lines] == [
        "the lobby's list could not be made", "something else"]
    assert "connection refused" in lines[0]["message"] and "error" not in lines[0]
