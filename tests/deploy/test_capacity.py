"""The capacity the guide states, through the configuration deploy/ ships: nginx with
deploy/nginx/main.conf's connections and files before two app processes carries 5,000
WebSockets, every one served; a process that holds its cap (``--max-sockets``) refuses
the next socket before its handshake (503, which nginx answers by trying the other
process), and says so in a line every few seconds at most, never a flood."""

from __future__ import annotations

import asyncio
import json
import resource
import ssl
from collections import Counter
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.deploy.proxy import proxied
from tests.server.live import Server, sqlite_url

SOCKETS = 5_000
LIFTED = {"sockets-per-address": 100_000, "rest-rate": 100_000}
"""Every test socket comes from one address: its limits lifted, not the process's."""


def _room(files: int) -> None:
    """This test process may open ``files`` files (its sockets and nginx's)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < files:
        pytest.fail(f"the test needs {files} open files; this machine allows {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, files), hard))


async def _open(url: str, count: int, at_once: int = 100,
                context: ssl.SSLContext | None = None) -> list[ClientConnection | int]:
    """``count`` lobby sockets at ``url``, ``at_once`` handshakes at a time: each one
    open once its first list came, or the HTTP status it was refused with (0: no answer,
    -1: dropped before its first list)."""
    gate = asyncio.Semaphore(at_once)

    async def one() -> ClientConnection | int:
        async with gate:
            try:
                ws = await connect(f"{url}/ws/lobby", ssl=context, open_timeout=60,
                                   max_queue=None, ping_interval=None)
            except InvalidStatus as refused:
                return refused.response.status_code
            except (OSError, TimeoutError):
                return 0  # no answer at all
            try:
                first = json.loads(await asyncio.wait_for(ws.recv(), 60))
            except (ConnectionClosed, TimeoutError):
                return -1  # opened, then dropped
            assert first["type"] in ("lobby", "chat"), first
            return ws

    return await asyncio.gather(*(one() for _ in range(count)))


async def _close(opened: list[ClientConnection | int]) -> None:
    await asyncio.gather(*(ws.close() for ws in opened if not isinstance(ws, int)))


def _held(url: str) -> int:
    metrics = httpx.get(f"{url}/metrics").text
    [line] = [x for x in metrics.splitlines() if x.startswith("bones_sockets ")]
    return int(float(line.split()[1]))


def test_five_thousand_sockets_through_nginx(tmp_path: Path) -> None:
    _room(4 * SOCKETS)
    insecure = ssl.create_default_context()
    insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE
    with proxied(tmp_path, LIFTED) as site:
        wss = site.url.replace("https://", "wss://")

        async def run() -> tuple[list[ClientConnection | int], list[int]]:
            opened = await _open(wss, SOCKETS, context=insecure)
            held = [_held(f"http://127.0.0.1:{app.port}") for app in site.apps]
            await _close(opened)
            return opened, held

        opened, held = asyncio.run(run())
        refused = [status for status in opened if isinstance(status, int)]
        assert refused == [], f"{len(refused)} of {SOCKETS} refused: {set(refused)}"
        closed = Counter(ws.close_code for ws in opened if not isinstance(ws, int)
                         and ws.close_code not in (None, 1000))  # before the test closed them
        assert closed == Counter(), f"closed while open, by code: {closed}"
        assert sum(held) >= SOCKETS and min(held) > 0, held  # both processes took some
        errors = (tmp_path / "error.log").read_text()
        assert "worker_connections are not enough" not in errors
        assert "Too many open files" not in errors


def test_a_process_at_its_cap_refuses_cleanly(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    server = Server(sqlite_url(tmp_path / "cap.db"), log=log,
                    limits={**LIFTED, "max-sockets": 40}).start()
    try:
        async def run() -> list[ClientConnection | int]:
            opened = await _open(server.url.replace("http://", "ws://"), 40)
            more = await _open(server.url.replace("http://", "ws://"), 200, at_once=50)
            await _close(opened + more)
            return opened + more

        opened = asyncio.run(run())
    finally:
        server.stop()
    statuses = [s if isinstance(s, int) else 101 for s in opened]
    assert statuses == [101] * 40 + [503] * 200
    lines = [x for x in log.read_text().splitlines() if "refused sockets" in x]
    assert 1 <= len(lines) <= 3, lines  # one every few seconds, with how many more

