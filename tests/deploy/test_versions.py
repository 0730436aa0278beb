"""Two versions side by side, as an upgrade process by process has them: through the
shipped nginx, every page load gets one version's HTML and files, never a mix. The page
names its files under its version's path; a process serves only its own version's
(from memory: an install writing over them changes nothing it serves), and answers 404
for another's, which nginx answers by asking the other process."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx

from tests.deploy.proxy import proxied
from tests.server.live import Server

SOURCE = Path(__file__).resolve().parents[2] / "src" / "bones"
IMPORTS = re.compile(rb'from "\./([\w.]+)"')


def _next_release(folder: Path) -> Path:
    """A copy of this bones whose page differs, as the next release's would: its web
    folder."""
    shutil.copytree(SOURCE, folder / "bones", ignore=shutil.ignore_patterns("__pycache__"))
    app = folder / "bones" / "web" / "app.js"
    app.write_bytes(app.read_bytes() + b"// the next release\n")
    return folder / "bones" / "web"


def _loaded(client: httpx.Client) -> tuple[str, dict[str, bytes]]:
    """One page load: the version its HTML names, and every file it then loads (the
    page's links and every module app.js imports, and theirs)."""
    page = client.get("/")
    assert page.status_code == 200
    [version] = set(re.findall(r'/static/([0-9a-f]{16})/', page.text))
    wanted = re.findall(rf'/static/{version}/([\w.-]+)', page.text)
    got: dict[str, bytes] = {}
    while wanted:
        name = wanted.pop()
        if name in got:
            continue
        answer = client.get(f"/static/{version}/{name}")
        assert answer.status_code == 200, (version, name, answer.status_code)
        got[name] = answer.content
        if name.endswith(".js"):
            wanted += [m.decode() for m in IMPORTS.findall(answer.content)]
    return version, got


def test_every_page_load_gets_one_version_s_files(tmp_path: Path) -> None:
    web = {"old": SOURCE / "web", "new": _next_release(tmp_path / "next")}
    (tmp_path / "site").mkdir()
    with proxied(tmp_path / "site", {}) as site:
        upgraded = site.apps[1]
        upgraded.stop()  # the second process restarted on the next release
        site.apps[1] = Server(upgraded.db, port=upgraded.port, limits=upgraded.limits,
                              env={"PYTHONPATH": str(tmp_path / "next")}).start()
        client = httpx.Client(base_url=site.url, verify=False)
        seen: dict[str, str] = {}
        for _ in range(30):
            version, files = _loaded(client)
            mine = [kind for kind, folder in web.items()
                    if all((folder / name).read_bytes() == body for name, body in files.items())]
            assert len(mine) == 1, f"version {version}'s page got a mix of files"
            assert seen.setdefault(version, mine[0]) == mine[0]
            assert len(files) > 15  # the page, its style, and every module
        assert sorted(seen.values()) == ["new", "old"], "both processes served pages"
        assert client.get("/static/app.js").headers["cache-control"] == "no-cache"
        assert "immutable" in client.get(f"/static/{version}/app.js").headers["cache-control"]
