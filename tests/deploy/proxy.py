"""deploy/nginx/bones.conf made runnable here: its certificate one made for the test,
its ports free ones, its cache and temporary files in a folder of the test's."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "bones.conf"


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
    ports = "\n".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;"
                      for port in apps)
    site = site.replace("    server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;\n"
                        "    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s;", ports)
    for old, new in (("/etc/letsencrypt/live/bones.example/fullchain.pem", str(cert)),
                     ("/etc/letsencrypt/live/bones.example/privkey.pem", str(key)),
                     ("/var/lib/nginx/bones", str(folder / "cache")),
                     ("listen 80;", f"listen 127.0.0.1:{http};"),
                     ("listen [::]:80;", ""), ("listen [::]:443 ssl http2;", ""),
                     ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;")):
        assert old in site, old
        site = site.replace(old, new)
    conf = folder / "nginx.conf"
    # As root (CI), nginx's workers would be "nobody", who cannot write the test's folder.
    user = "user root root;" if os.geteuid() == 0 else ""
    conf.write_text(f"""daemon off;
{user}
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
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
