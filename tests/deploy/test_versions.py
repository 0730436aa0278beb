"""Two versions side by side, as an upgrade process by process has them: through the
shipped nginx, every page load gets one version's HTML, files and API, never a mix. The
page names its files under its version's path; a process serves only its own version's
(from memory: an install writing over them changes nothing it serves), and answers 404
for another's, which nginx answers by asking the other process. The page names its
version with each API call and socket; a process of the other turns them away with 503
before doing anything, and nginx asks the other process (a call that changes something
is not sent twice by nginx: the page asks again itself)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx

from tests.deploy.proxy import first_message, proxied
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


def _one_api(client: httpx.Client, url: str, version: str) -> None:
    """The page's calls and socket, naming its version, reach only that version's
    processes."""
    mine = {"bones-release": version}
    read = client.get("/api/variants", headers=mine)  # nginx asks on until it is served
    assert read.status_code == 200 and read.headers["bones-release"] == version
    made = client.post("/api/guest", headers=mine)  # served by its version, or turned away
    assert (made.status_code, made.headers["bones-release"] == version) in (
        (200, True), (503, False)), (made.status_code, made.text)
    if made.status_code == 503:
        assert made.json()["code"] == "release"
    socket = url.replace("https://", "wss://") + "/ws/lobby"
    _, message, release = first_message(socket, ("bones", f"bones.release.{version}"))
    assert message["type"] == "lobby" and release == version


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
            _one_api(client, site.url, version)
        assert sorted(seen.values()) == ["new", "old"], "both processes served pages"
        for app in site.apps:  # each, asked not through nginx, turns the other release away
            straight = httpx.Client(base_url=f"http://127.0.0.1:{app.port}")
            own = straight.get("/api/variants").headers["bones-release"]
            other = next(v for v in seen if v != own)
            turned = straight.post("/api/guest", headers={"bones-release": other})
            assert turned.status_code == 503 and turned.json()["code"] == "release"
            assert straight.post("/api/guest", headers={"bones-release": own}).status_code == 200
        assert client.get("/static/app.js").headers["cache-control"] == "no-cache"
        assert "immutable" in client.get(f"/static/{version}/app.js").headers["cache-control"]
