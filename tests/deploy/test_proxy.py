"""The proxy configurations in deploy/ are ones their servers take: nginx's passes
`nginx -t` as shipped (with a certificate and ports of the test's), Caddy's
`caddy validate`, and Caddy before a running app process serves its pages and sockets
(nginx's runs in tests/web/test_behind_proxy.py)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.deploy.proxy import configuration, first_message
from tests.server.live import Server, free_port, sqlite_url

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_nginx_site_is_one_nginx_takes(tmp_path: Path) -> None:
    conf = configuration(tmp_path, free_port(), free_port(), [free_port(), free_port()])
    checked = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(conf)],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr and "warn" not in checked.stderr


def _caddy() -> str:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.fail("the proxy's tests need Debian's caddy (scripts/test installs it)")
    return caddy


def test_the_caddyfile_is_one_caddy_takes() -> None:
    caddy = _caddy()
    checked = subprocess.run([caddy, "validate", "--adapter", "caddyfile", "--config",
                              str(DEPLOY / "caddy" / "Caddyfile")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "Valid configuration" in checked.stdout + checked.stderr


def test_caddy_before_an_app_process_serves_its_pages_and_sockets(tmp_path: Path) -> None:
    """The shipped Caddyfile, its name a port of the test's with Caddy's own certificate
    (no ACME here), before one app process: the page with HTTPS-only said once, /metrics
    refused, and a socket upgraded with the proxy's address trusted."""
    app = Server(sqlite_url(tmp_path / "caddy.db"), limits={"trust-proxy": "127.0.0.1"})
    app.start()
    https = free_port()
    site = (DEPLOY / "caddy" / "Caddyfile").read_text()
    for old, new in (("bones.example {", f"https://localhost:{https} {{\n\ttls internal"),
                     ("127.0.0.1:8001 127.0.0.1:8002", f"127.0.0.1:{app.port}")):
        assert old in site, old
        site = site.replace(old, new)
    conf = tmp_path / "Caddyfile"
    conf.write_text(f"{{\n\tadmin off\n\tskip_install_trust\n\thttp_port {free_port()}\n"
                    f"\tstorage file_system {tmp_path / 'caddy'}\n}}\n{site}")
    caddy = subprocess.Popen([_caddy(), "run", "--adapter", "caddyfile", "--config", str(conf)],
                             env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"https://localhost:{https}"
    try:
        with httpx.Client(base_url=url, verify=False) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    ready = client.get("/readyz")
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline, "caddy did not answer"
                    time.sleep(0.2)
            assert ready.json() == {"ok": True}
            for path in ("/", "/static/app.js"):
                said = client.get(path).headers.get_list("strict-transport-security")
                assert said == ["max-age=63072000; includeSubDomains"], (path, said)
            assert client.get("/metrics").status_code == 403
        assert first_message(f"wss://localhost:{https}/ws/lobby", origin=url)[1]["type"]
    finally:
        caddy.terminate()
        caddy.wait(timeout=30)
        app.stop()
