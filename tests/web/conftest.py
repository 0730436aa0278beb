"""A real Chromium (Debian's, driven by Playwright) against a real bones server.

The pages' Content-Security-Policy forbids eval, and the tests keep it on: a condition
given to ``wait_for_function`` is a function (``"() => ..."``), which Playwright calls,
not an expression, which it would evaluate as a string."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.server.live import Server, sqlite_url

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(sqlite_url(tmp_path_factory.mktemp("web") / "web.db")).start()
    yield running
    running.stop()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """Playwright's sync API runs an event loop in the test's thread while it is open.
    Kept for the web tests alone, so that a test elsewhere that runs its own loop never
    finds one running (when pytest-xdist hands a worker other tests after these)."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("the browser tests need Debian's chromium (scripts/test installs it)")
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
    yield launched
    launched.close()
