"""`bones serve` as whoever runs it meets it: Ctrl+C in its terminal stops the server
and its worker processes quietly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.live import free_port, sqlite_url


def test_ctrl_c_stops_the_server_and_its_workers_without_tracebacks(tmp_path: Path) -> None:
    """A terminal's Ctrl+C reaches every process of its group: each bot worker printed
    a KeyboardInterrupt traceback of its own."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "bones", "serve", "--port", str(port),
         "--db", sqlite_url(tmp_path / "ctrl-c.db"), "--bot-workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=1).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    time.sleep(2)  # the workers are starting (or have started)
    os.killpg(server.pid, signal.SIGINT)  # as a terminal's Ctrl+C does
    _, printed = server.communicate(timeout=60)
    assert b"KeyboardInterrupt" not in printed and b"Traceback" not in printed, printed[-2000:]
