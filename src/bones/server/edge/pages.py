"""The web app's own pages: its files, the service worker that caches them, and every
path the app routes itself (the page reads the path).

The files are read once, when the process starts, and served from memory under a path
named for the release, ``/static/{version}/app.js``, which the page names (the version
is a hash of the web files and of the server's modules: two processes of one release
have the same, any change makes another; the page sends it with each API call and
socket, and a process of another release passes them on, ``edge.guard``): a
cache (the browser's, the proxy's, the service worker's) keeps them for good and never
serves a stale one, and a process goes on serving its own version's files whatever an
install writes over them meanwhile. Another version's path is not found here (404),
which the shipped nginx answers by asking the site's other processes: a page of one
version is never served another's files. The bare ``/static/app.js`` still answers,
uncached, for what names it so (an open page of the version before, the tests).
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import Response

__all__ = ["Web", "page_routes", "web_files"]

WEB = Path(str(resources.files("bones") / "web"))
mimetypes.add_type("application/manifest+json", ".webmanifest")
FOREVER = "public, max-age=31536000, immutable"
PAGES = ("/", "/account", "/play", "/pair/{code}", "/leaderboard", "/lobby", "/t/{table_id}",
         "/stats/{name}", "/replay/{table_id}", "/mod", "/reset", "/confirm",
         "/challenge/{challenge_id}", "/tournaments", "/tournament/{tournament_id}",
         "/tournament/{tournament_id}/boards")
"""The app's own pages: the client reads the path."""
OWN_PATHS = ("index.html", "sw.js")
"""Files served at paths of their own (every page, ``/sw.js``), never under /static."""


@dataclass(frozen=True)
class Web:
    """The web app's files as this process serves them, and their version."""

    files: dict[str, bytes]
    version: str

    @classmethod
    def read(cls, folder: Path = WEB) -> Web:
        """Every file of ``folder``, and a version that changes with any of them or with
        any module of the package beside it (the API the page talks to)."""
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
        digest = hashlib.sha256()
        for name, body in files.items():
            digest.update(name.encode() + b"\0" + body)
        for module in sorted(folder.parent.rglob("*.py")):
            digest.update(module.relative_to(folder.parent).as_posix().encode() + b"\0"
                          + module.read_bytes())
        return cls(files, digest.hexdigest()[:16])

    def page(self) -> bytes:
        """index.html, naming this version's files."""
        return self.files["index.html"].replace(b'"/static/', f'"/static/{self.version}/'.encode())

    def service_worker(self) -> str:
        """sw.js with this version and the files it caches."""
        listed = [f"/static/{self.version}/{name}" for name in self.files
                  if name not in OWN_PATHS]
        return (self.files["sw.js"].decode().replace("@VERSION@", self.version)
                .replace("@FILES@", json.dumps(listed)))

    def file(self, name: str, cache: str) -> Response:
        body = self.files.get(name)
        if body is None or name in OWN_PATHS:
            raise HTTPException(404, "no such file")
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return Response(body, media_type=kind, headers={"Cache-Control": cache})


def web_files() -> Web | None:
    """The web app as this install has it, if it has one."""
    return Web.read() if (WEB / "index.html").is_file() else None


def page_routes(app: FastAPI, web: Web | None) -> None:
    """The pages, on ``app`` itself (none without ``web``: the files are not there)."""
    if web is None:
        return
    page, worker = web.page(), web.service_worker()

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        """At the root, so that it may serve every page; no-cache, so that a new
        version is found at once."""
        return Response(worker, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/static/{version}/{name}", include_in_schema=False)
    def versioned(version: str, name: str) -> Response:
        """This version's file, for good; another version's is not here."""
        if version != web.version:
            raise HTTPException(404, f"this process serves version {web.version}")
        return web.file(name, FOREVER)

    @app.get("/static/{name}", include_in_schema=False)
    def bare(name: str) -> Response:
        """A file by its bare name: asked again each time."""
        return web.file(name, "no-cache")

    def show() -> Response:
        """A page of the app, naming its version's files; asked again each time."""
        return Response(page, media_type="text/html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.get(path, include_in_schema=False)(show)
