"""The REST API's own documentation pages, ``/docs`` (Swagger UI) and ``/redoc``,
served from this server alone: their scripts and styles come from a kept package
(``fastapi-offline``'s copies), and the pages start them from a file, never inline, so
the pages run under a Content-Security-Policy that allows only the server's own scripts.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["PAGES", "docs_routes"]

PAGES = ("/docs", "/redoc")
"""The documentation's pages (``guard.DOCS_CSP`` is theirs)."""
HERE = Path(str(resources.files("bones.server.edge.apidocs")))
VENDOR = Path(str(resources.files("fastapi_offline") / "static"))


def docs_routes(app: FastAPI) -> None:
    """``/docs`` and ``/redoc``, their start-up script and the vendored files."""
    page = (HERE / "page.html").read_text()
    swagger = page.replace("@HEAD@", '<link rel="stylesheet" href="/docs-files/swagger-ui.css">'
                           ).replace("@BODY@", '<div id="swagger-ui"></div>\n'
                                     '<script src="/docs-files/swagger-ui-bundle.js"></script>\n'
                                     '<script src="/docs-files/start.js"></script>')
    redoc = page.replace("@HEAD@", "").replace("@BODY@", (
        '<redoc spec-url="/openapi.json"></redoc>\n'
        '<script src="/docs-files/redoc.standalone.js"></script>'))
    start = (HERE / "start.js").read_text()

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(swagger)

    @app.get("/redoc", include_in_schema=False)
    def redoc_page() -> HTMLResponse:
        return HTMLResponse(redoc)

    @app.get("/docs-files/start.js", include_in_schema=False)
    def started() -> Response:
        return Response(start, media_type="text/javascript")

    app.mount("/docs-files", StaticFiles(directory=VENDOR), name="docs-files")
