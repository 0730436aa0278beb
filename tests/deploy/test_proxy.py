"""The proxy configurations in deploy/ are ones their servers take: nginx's passes
`nginx -t` as shipped (with a certificate and ports of the test's), Caddy's
`caddy validate`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy.proxy import configuration
from tests.server.live import free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_nginx_site_is_one_nginx_takes(tmp_path: Path) -> None:
    conf = configuration(tmp_path, free_port(), free_port(), [free_port(), free_port()])
    checked = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-c", str(conf)],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr and "warn" not in checked.stderr


def test_the_caddyfile_is_one_caddy_takes() -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.fail("the proxy's tests need Debian's caddy (scripts/test installs it)")
    checked = subprocess.run([caddy, "validate", "--adapter", "caddyfile", "--config",
                              str(DEPLOY / "caddy" / "Caddyfile")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "Valid configuration" in checked.stdout + checked.stderr
