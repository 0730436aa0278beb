"""Where ``bones serve`` and ``bones worker`` take their options from: the command line,
then the environment, then a TOML file, then the built-in default.

Every option ``--some-thing`` of those commands is also the environment variable
``BONES_SOME_THING`` and the key ``some_thing`` (or ``some-thing``) of the file's
``[serve]`` or ``[worker]`` table, given with ``--config FILE`` or ``BONES_CONFIG``.
A secret (a store's or Redis's URL with its password) is best kept out of the process
list, where every user of the machine reads the command line: ``BONES_DB_FILE`` names a
file that holds ``BONES_DB``'s value, as systemd's credentials and container secrets
hand them over, and so for every variable.

>>> import argparse
>>> serve = argparse.ArgumentParser()
>>> _ = serve.add_argument("--rest-rate", type=float, default=20.0)
>>> _ = serve.add_argument("--origin", action="append", default=[])
>>> configure(serve, "serve", {"BONES_REST_RATE": "5"}, {"serve": {"origin": ["https://a"]}})
>>> serve.parse_args([])
Namespace(rest_rate=5.0, origin=['https://a'])
>>> serve.parse_args(["--rest-rate", "9"]).rest_rate
9.0
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = ["ConfigError", "configure", "configured", "env_name", "options", "read_file",
           "table", "without_password"]

PREFIX = "BONES_"


class ConfigError(ValueError):
    """A configuration file or variable that cannot be read: the text says which."""


def env_name(dest: str) -> str:
    """The environment variable of an option: ``BONES_REST_RATE`` for ``rest_rate``."""
    return PREFIX + dest.upper()


TYPED = frozenset({"help", "config", "replace", "to"})
"""Options only the command line gives: a restore over a store with games, or the
revision a store is migrated to, is asked for each time, never left on in the
environment."""


def options(command: argparse.ArgumentParser) -> list[argparse.Action]:
    """A command's options that configuration may set (not those in :data:`TYPED`)."""
    return [a for a in command._actions  # argparse keeps no public list of them
            if a.option_strings and a.dest not in TYPED]


def read_file(path: str) -> dict[str, Any]:
    """A TOML configuration file's tables."""
    try:
        return tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"cannot read the configuration {path}: {error}") from None


def _from_env(dest: str, env: Mapping[str, str]) -> str | None:
    name = env_name(dest)
    if name in env:
        return env[name]
    if f"{name}_FILE" in env:
        try:
            return Path(env[f"{name}_FILE"]).read_text().strip()
        except OSError as error:
            raise ConfigError(f"{name}_FILE: {error}") from None
    return None


def _value(action: argparse.Action, raw: Any, where: str) -> Any:
    """``raw`` (text from the environment, or a TOML value) as the option takes it."""
    if isinstance(action, argparse._AppendAction):
        items = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(items, list):
            raise ConfigError(f"{where}: a list is wanted")
        return [_one(action, item, where) for item in items if item != ""]
    if isinstance(action, argparse._StoreTrueAction):
        if isinstance(raw, bool):
            return raw
        if str(raw).lower() in ("1", "true", "yes", "on"):
            return True
        if str(raw).lower() in ("0", "false", "no", "off", ""):
            return False
        raise ConfigError(f"{where}: true or false is wanted, not {raw!r}")
    return _one(action, raw, where)


def _one(action: argparse.Action, raw: Any, where: str) -> Any:
    convert = action.type if callable(action.type) else str
    try:
        return convert(raw if not isinstance(raw, str) or convert is str else raw.strip())
    except (TypeError, ValueError, argparse.ArgumentTypeError) as error:
        raise ConfigError(f"{where}: {raw!r} will not do ({error})") from None


def configure(command: argparse.ArgumentParser, name: str, env: Mapping[str, str],
              file: Mapping[str, Any] | None = None) -> None:
    """Make ``env`` and the ``[name]`` table of ``file`` the defaults of ``command``'s
    options (the command line still wins); an option found so is no longer required."""
    table = dict((file or {}).get(name, {}))
    known = {a.dest for a in options(command)}
    unknown = {k.replace("-", "_") for k in table} - known
    if unknown:
        raise ConfigError(f"[{name}] has no option {', '.join(sorted(unknown))}")
    found: dict[str, Any] = {}
    for action in options(command):
        raw = _from_env(action.dest, env)
        where = env_name(action.dest)
        if raw is None:
            keys = [k for k in (action.dest, action.dest.replace("_", "-")) if k in table]
            if not keys:
                continue
            raw, where = table[keys[0]], f"[{name}] {keys[0]}"
        found[action.dest] = _value(action, raw, where)
        action.required = False
    command.set_defaults(**found)


def configured(top: argparse.ArgumentParser, commands: Mapping[str, argparse.ArgumentParser],
               argv: list[str], env: Mapping[str, str] | None = None) -> argparse.Namespace:
    """Parse ``argv`` with each of ``commands`` configured from the environment and the
    file its ``--config`` (or ``BONES_CONFIG``) names."""
    env = os.environ if env is None else env
    required = [a for c in commands.values() for a in options(c) if a.required]
    for action in required:  # which command, and which file, before what it requires
        action.required = False
    try:
        first, _ = top.parse_known_args(argv)
    finally:
        for action in required:
            action.required = True
    command = commands.get(first.command)
    if command is not None:
        path = getattr(first, "config", None) or env.get(f"{PREFIX}CONFIG")
        configure(command, first.command, env, read_file(path) if path else None)
    return top.parse_args(argv)


def without_password(url: str) -> str:
    """``url`` fit to print: its password, if any, hidden.

    >>> without_password("redis://:s3cret@cache:6379/0")
    'redis://:***@cache:6379/0'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))


def table(commands: Mapping[str, argparse.ArgumentParser]) -> str:
    """Every configurable option of ``commands`` as a Markdown table, for
    docs/operating.md (whose test compares the two)."""
    rows = ["| command | option | environment | file key | default | what it sets |",
            "|---|---|---|---|---|---|"]
    for name, command in commands.items():
        for action in options(command):
            default = "required" if action.required else (
                "" if action.default in (None, [], False) else repr(action.default)
                if isinstance(action.default, str) else str(action.default))
            meaning = (action.help or "").replace("|", "\\|")
            rows.append(f"| {name} | `{action.option_strings[-1]}` | `{env_name(action.dest)}` "
                        f"| `{action.dest}` | {default} | {meaning} |")
    return "\n".join(rows)
