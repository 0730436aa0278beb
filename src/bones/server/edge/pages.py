"""The web app's own pages: its files, the service worker that caches them, and every
path the app routes itself (the page reads the path).
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["page_routes"]

WEB = Path(str(resources.files("bones") / "web"))
mimetypes.add_type("application/manifest+json", ".webmanifest")


def _service_worker() -> str:
    """sw.js with the web files it caches and a version that changes with any of them."""
    files = sorted(p for p in WEB.iterdir() if p.is_file() and p.name != "sw.js")
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    listed = [f"/static/{p.name}" for p in files if p.name != "index.html"]
    return ((WEB / "sw.js").read_text().replace("@VERSION@", digest.hexdigest()[:16])
            .replace("@FILES@", json.dumps(listed)))


def page_routes(app: FastAPI) -> None:
    """The pages, on ``app`` itself (a mount of the static files is no router's)."""
    if not (WEB / "index.html").is_file():
        return
    index = WEB / "index.html"
    worker = _service_worker()

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        """At the root, so that it may serve every page; no-cache, so that a new
        version is found at once."""
        return Response(worker, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/account", include_in_schema=False)
    @app.get("/play", include_in_schema=False)
    @app.get("/pair/{code}", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/lobby", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/stats/{name}", include_in_schema=False)
    @app.get("/replay/{table_id}", include_in_schema=False)
    @app.get("/mod", include_in_schema=False)
    @app.get("/reset", include_in_schema=False)
    @app.get("/challenge/{challenge_id}", include_in_schema=False)
    @app.get("/tournaments", include_in_schema=False)
    @app.get("/tournament/{tournament_id}", include_in_schema=False)
    @app.get("/tournament/{tournament_id}/boards", include_in_schema=False)
    def page() -> FileResponse:
        """The app's own pages: the client reads the path."""
        return FileResponse(index)

    app.mount("/static", StaticFiles(directory=WEB), name="static")
