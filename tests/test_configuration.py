"""`bones serve` and `bones worker` take every option from the command line, the
environment or a TOML file, in that order; secrets from a file; one table of them in
docs/operating.md, which must say what the code does."""

from __future__ import annotations

from pathlib import Path

import pytest

from bones.cli import main, parsers
from bones.configuration import ConfigError, configured, table

ROOT = Path(__file__).resolve().parents[1]


def _parse(argv: list[str], env: dict[str, str]):  # type: ignore[no-untyped-def]
    top, commands = parsers()
    return configured(top, commands, argv, env)


def test_the_command_line_then_the_environment_then_the_file(tmp_path: Path) -> None:
    config = tmp_path / "bones.toml"
    config.write_text('[serve]\nport = 8101\nrest_rate = 7\norigin = ["https://a.example"]\n'
                      'trust-proxy = "127.0.0.1"\n[worker]\nprocesses = 3\n')
    env = {"BONES_CONFIG": str(config), "BONES_REST_RATE": "12.5"}
    args = _parse(["serve"], env)
    assert (args.port, args.rest_rate, args.origin, args.trust_proxy) == (
        8101, 12.5, ["https://a.example"], "127.0.0.1")
    args = _parse(["serve", "--rest-rate", "3", "--port", "9000"], env)
    assert (args.port, args.rest_rate) == (9000, 3.0)
    assert _parse(["serve"], {}).port == 8000  # nothing set: the default
    args = _parse(["worker", "--config", str(config)], {"BONES_REDIS": "redis://c:6379/2"})
    assert (args.redis, args.processes) == ("redis://c:6379/2", 3)  # --redis not required now


def test_a_secret_comes_from_a_file_a_list_from_commas(tmp_path: Path) -> None:
    secret = tmp_path / "db"
    secret.write_text("postgresql+psycopg://bones:s3cret@db/bones\n")
    args = _parse(["serve"], {"BONES_DB_FILE": str(secret), "BONES_ORIGIN": "https://a,https://b"})
    assert args.db == "postgresql+psycopg://bones:s3cret@db/bones"
    assert args.origin == ["https://a", "https://b"]


def test_the_operators_commands_take_the_stores_password_from_the_environment(
        tmp_path: Path) -> None:
    """``bones admin``, ``backup`` and ``restore`` read the same ``BONES_DB`` (and the
    admin's ban its ``BONES_REDIS``) as the services, never needing it on the command line."""
    env = {"BONES_DB": "postgresql+psycopg://bones:s3cret@db/bones",
           "BONES_REDIS": "redis://:s3cret@cache:6379/0"}
    args = _parse(["admin", "ban", "spammer", "--reason", "links"], env)
    assert (args.db, args.redis, args.action, args.name) == (
        env["BONES_DB"], env["BONES_REDIS"], "ban", "spammer")
    assert _parse(["backup", "copy.backup"], env).db == env["BONES_DB"]
    assert _parse(["restore", "copy.backup"], env).replace is False  # only ever typed
    assert _parse(["admin", "--db", "sqlite:///x.db", "reports"], env).db == "sqlite:///x.db"


@pytest.mark.parametrize(("text", "env", "said"), [
    ("[serve]\nport = 1\nnoise = 2\n", {}, "[serve] has no option noise"),
    ("[serve]\nport = 'eighty'\n", {}, "[serve] port: 'eighty' will not do"),
    ("[serve\n", {}, "cannot read the configuration"),
    ("", {"BONES_RATE": "fast"}, "BONES_RATE: 'fast' will not do"),
    ("", {"BONES_DB_FILE": "/nowhere/db"}, "BONES_DB_FILE"),
])
def test_a_bad_configuration_is_named_and_nothing_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        text: str, env: dict[str, str], said: str) -> None:
    config = tmp_path / "bones.toml"
    config.write_text(text)
    with pytest.raises(ConfigError, match=said.replace("[", r"\[")):
        _parse(["serve", "--config", str(config)], env)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--config", str(config)]) == 2
    assert said in capsys.readouterr().err


def test_the_operating_page_lists_every_option_as_the_code_has_it() -> None:
    page = (ROOT / "docs" / "operating.md").read_text()
    shown = page.split("<!-- options: generated from the code by tests/test_configuration.py -->\n",
                       1)[1].split("\n\n", 1)[0].strip()
    assert shown == table(parsers()[1]), (
        "docs/operating.md's table differs from the code; put this one in its place:\n"
        + table(parsers()[1]))
