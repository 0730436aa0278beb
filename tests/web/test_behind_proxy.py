"""A site as deploy/ ships it: nginx (Debian's, with deploy/nginx/bones.conf and a
certificate made for the test) before two app processes over PostgreSQL and Redis, and
a bot worker. Chromium plays a whole game through ``https://``; the process that runs
its table is killed in the middle and the game goes on; the per-address limit counts
each player's own address, not the proxy's."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.deploy.proxy import Proxied, proxied
from tests.web.driver import Player

RATE = 5.0
"""The app processes' REST requests a second an address (bursts of three times that)."""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Proxied]:
    with proxied(tmp_path, {"rest-rate": RATE}) as running:
        yield running


def _from(address: str, url: str) -> httpx.Client:
    """A client whose requests come from ``address`` (another loopback address)."""
    return httpx.Client(base_url=url, verify=False,
                        transport=httpx.HTTPTransport(local_address=address, verify=False))


def test_a_whole_game_through_nginx_survives_its_process(site: Proxied,
                                                         browser: Browser) -> None:
    context = browser.new_context(ignore_https_errors=True)  # the test's own certificate
    page = context.new_page()
    player = Player(page, site.apps[0], random.Random(7))
    table = player.new_game("draw", target="null", name=None)
    player.play_match(drag_once=False, stop_after=2)
    leases = redis.Redis.from_url(site.redis_url)
    owner = leases.get(f"bones:lease:{table}")
    assert owner is not None
    pid = int(owner.decode().split(":")[1])
    [running] = [app for app in site.apps if app.process and app.process.pid == pid]
    running.kill()  # SIGKILL: the other process takes the table over
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and leases.get(f"bones:lease:{table}") in (owner, None):
        time.sleep(0.2)
    assert leases.get(f"bones:lease:{table}") not in (owner, None), "nobody took the table"
    for _ in range(3):  # a tile tapped while the page was away is lost: it is tapped again
        try:
            last = player.play_match(drag_once=False)
            break
        except PlaywrightTimeout:
            continue
    else:
        pytest.fail("the game never went on after its process died")
    assert last["status"] == "over"
    assert page.url.startswith(site.url)
    context.close()


def test_every_answer_says_https_only_once(site: Proxied) -> None:
    """HSTS, nginx's, on the page, its cached files and the API, never twice (the app says
    it too behind a proxy; a location that adds a header of its own loses the server's)."""
    with httpx.Client(base_url=site.url, verify=False) as client:
        for path in ("/", "/static/app.js", "/static/app.js", "/api/me", "/readyz"):
            said = client.get(path).headers.get_list("strict-transport-security")
            assert said == ["max-age=63072000; includeSubDomains"], (path, said)


def test_the_limits_count_each_player_s_own_address(site: Proxied) -> None:
    first, second = _from("127.0.0.2", site.url), _from("127.0.0.3", site.url)
    answers = [first.get("/api/variants").status_code for _ in range(int(RATE * 3) + 10)]
    assert 429 in answers, "the first address was never limited"
    assert second.get("/api/variants").status_code == 200, "the limit counted the proxy"
    assert first.get("/api/variants", headers={"x-forwarded-for": "10.9.9.9"}).status_code \
        == 429, "a client's own X-Forwarded-For was believed"
