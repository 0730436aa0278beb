"""One bones server for the tests of this folder that do not restart it."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from bones.server import create_app
from bones.server.tables.hub import Settings
from tests.server.chaos import Site
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
    return fresh_redis()


def fresh_redis() -> str:
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


ROOT = Path(__file__).resolve().parents[2]


def pg(command: str, folder: Path) -> str:
    """Start, stop or resume the PostgreSQL in ``folder`` (scripts/pg-temp)."""
    done = subprocess.run(["bash", str(ROOT / "scripts/pg-temp"), command, str(folder)],
                          check=True, capture_output=True, text=True)
    return done.stdout.strip()


@pytest.fixture
def postgres() -> Iterator[tuple[str, Path]]:
    """A PostgreSQL of this test's own, which the test may stop and start (in a folder
    of /tmp's own: pytest's are closed to the postgres user)."""
    folder = Path(tempfile.mkdtemp(prefix="bones-pg-"))
    try:
        url = pg("start", folder)
    except (subprocess.CalledProcessError, FileNotFoundError) as error:
        pytest.fail(f"the outage test needs PostgreSQL (scripts/test installs it): {error}")
    yield url, folder
    pg("stop", folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def site(postgres_url: str, redis_url: str) -> Iterator[list[Server]]:
    """Three app processes and two bot workers over one PostgreSQL and one Redis."""
    started = Site(postgres_url, redis_url)
    try:
        yield started.start().servers
    finally:
        started.stop()


@pytest.fixture
def client() -> Iterator[TestClient]:
    """The app in this process with the shipped login limits (5 a name, 20 an address,
    in five minutes)."""
    with TestClient(create_app("sqlite://", Settings(bot_workers=0))) as test_client:
        yield test_client
