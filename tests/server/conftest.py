"""One bones server for the tests of this folder that do not restart it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import Server, sqlite_url


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
