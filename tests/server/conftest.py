"""One bones server for the tests of this folder that do not restart it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.server.live import OPEN, Server, close_left_open, sqlite_url


@pytest.fixture(autouse=True)
def no_socket_left_open() -> Iterator[None]:
    kept = set(OPEN)
    yield
    close_left_open(kept)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db: Path = tmp_path_factory.mktemp("store") / "bones.db"
    running = Server(sqlite_url(db)).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def api_schema(server: Server) -> object:
    import schemathesis

    return schemathesis.openapi.from_url(f"{server.url}/openapi.json")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store of each kind bones supports."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "bones.db")
    return fresh_postgres()


@pytest.fixture
def postgres_url() -> str:
    return fresh_postgres()


def fresh_postgres() -> str:
    """A new, empty database on the PostgreSQL of ``BONES_TEST_POSTGRES`` (scripts/test
    starts one); CI must have it."""
    base = os.environ.get("BONES_TEST_POSTGRES")
    if not base:
        if os.environ.get("CI"):
            pytest.fail("CI runs the store tests on PostgreSQL: set BONES_TEST_POSTGRES")
        pytest.skip("no PostgreSQL here (scripts/test starts one)")
    from sqlalchemy import create_engine, text

    name = f"bones_{secrets.token_hex(6)}"
    with create_engine(base, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    return base.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def redis_url() -> str:
    """An empty Redis database from ``BONES_TEST_REDIS`` (scripts/test starts one); CI
    must have it. Each of pytest-xdist's workers empties a database of its own, so that
    tests running side by side never clear each other's keys."""
    url = os.environ.get("BONES_TEST_REDIS")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CI runs the fleet tests on Redis: set BONES_TEST_REDIS")
        pytest.skip("no Redis here (scripts/test starts one)")
    import redis

    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ...; None without xdist
    db = 0 if worker is None else int(worker.removeprefix("gw")) + 1
    url = urlsplit(url)._replace(path=f"/{db}").geturl()  # with or without a database
    redis.Redis.from_url(url).flushdb()
    return url
