"""deploy/nginx/bones.conf made runnable here: its certificate one made for the test,
its ports free ones, its cache and temporary files in a folder of the test's."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin, Subprotocol

from tests.server.conftest import fresh_postgres, fresh_redis
from tests.server.live import Server, Worker, free_port

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "bones.conf"
MAIN = CONF.with_name("main.conf")
"""What bones needs of nginx.conf's own settings: the connections and files."""


INSECURE = ssl.create_default_context()
INSECURE.check_hostname, INSECURE.verify_mode = False, ssl.CERT_NONE
"""TLS that takes the test's own certificate."""


def first_message(url: str, subprotocols: tuple[str, ...] = (), origin: str | None = None,
                  timeout: float = 30) -> tuple[str | None, Any, str | None]:
    """The subprotocol a socket at ``url`` (wss://, the test's certificate) was answered
    with, the first message it was sent, and the release of the process that took it.
    With the asyncio client: the threaded one
    reads and writes one TLS connection from two threads at once, which OpenSSL does not
    allow (now and then nginx saw "bad record type" and dropped the connection, or never
    read its request)."""
    async def run() -> tuple[str | None, Any, str | None]:
        async with connect(url, ssl=INSECURE, open_timeout=timeout,
                           origin=None if origin is None else Origin(origin),
                           subprotocols=[Subprotocol(p) for p in subprotocols] or None) as ws:
            assert ws.response is not None
            return (ws.subprotocol, json.loads(await asyncio.wait_for(ws.recv(), timeout)),
                    ws.response.headers.get("bones-release"))

    return asyncio.run(run())


def certificate(folder: Path, host: str = "bones.test") -> tuple[Path, Path]:
    """A self-signed certificate for ``host`` and 127.0.0.1, and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={host}", "-addext", f"subjectAltName=DNS:{host},IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def configuration(folder: Path, http: int, https: int, apps: list[int]) -> Path:
    """A whole nginx.conf around deploy/nginx/bones.conf, for ``nginx -p folder -c``."""
    if shutil.which("nginx") is None:
        pytest.fail("the proxy's tests need Debian's nginx (scripts/test installs it)")
    cert, key = certificate(folder)
    site = CONF.read_text()
    ports = "\n".join(f"    server 127.0.0.1:{port} max_fails=0;" for port in apps)
    site = site.replace("    server 127.0.0.1:8001 max_fails=0;\n"
                        "    server 127.0.0.1:8002 max_fails=0;", ports)
    for old, new in (("/etc/letsencrypt/live/bones.example/fullchain.pem", str(cert)),
                     ("/etc/letsencrypt/live/bones.example/privkey.pem", str(key)),
                     ("/var/lib/nginx/bones", str(folder / "cache")),
                     ("listen 80;", f"listen 127.0.0.1:{http};"),
                     ("listen [::]:80;", ""), ("listen [::]:443 ssl http2;", ""),
                     ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
                     ("/var/log/nginx/access.log", str(folder / "access.log"))):
        assert old in site, old
        site = site.replace(old, new)
    conf = folder / "nginx.conf"
    # As root (CI), nginx's workers would be "nobody", who cannot write the test's folder.
    user = "user root root;" if os.geteuid() == 0 else ""
    conf.write_text(f"""daemon off;
{user}
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
{MAIN.read_text()}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include /etc/nginx/mime.types;
{site}
}}
""")
    return conf


@dataclass
class Proxied:
    """The site at ``url`` (nginx), its app processes and the Redis they share."""

    url: str
    apps: list[Server]
    redis_url: str
    folder: Path
    """Where nginx keeps its configuration and its logs."""


@contextmanager
def proxied(folder: Path, limits: dict[str, Any]) -> Iterator[Proxied]:
    """A site as deploy/ ships it: nginx (with ``configuration``) before two app
    processes over a fresh PostgreSQL and Redis (``limits``: their flags besides those),
    and a bot worker."""
    db, shared = fresh_postgres(), fresh_redis()
    flags = {"redis": shared, "bot-workers": 0, "trust-proxy": "127.0.0.1", **limits}
    apps = [Server(db, limits=flags, log=folder / "apps.log") for _ in range(2)]
    for app in apps:
        app.start()
    worker = Worker(shared)
    https = free_port()
    conf = configuration(folder, free_port(), https, [app.port for app in apps])
    nginx = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(conf)])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(f"https://127.0.0.1:{https}/readyz", verify=False, timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        for app in apps:  # the trusted address is the proxy's: tell it to the processes
            app.url = f"https://127.0.0.1:{https}"
        yield Proxied(f"https://127.0.0.1:{https}", apps, shared, folder)
    finally:
        nginx.send_signal(signal.SIGTERM)  # at once: a quit waits for every open socket
        nginx.wait(timeout=30)
        worker.stop()
        for app in apps:
            app.stop()
