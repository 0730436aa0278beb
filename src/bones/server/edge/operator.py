"""What the operator and the proxy read: the figures (JSON and Prometheus' format, to the
operator only) and the process's health and readiness.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse, Response

from bones.server.edge.auth import (
    operator_only,
)
from bones.server.metrics import CONTENT_TYPE
from bones.server.tables.hub import Hub
from bones.server.thinking.jobs import Analyses

__all__ = ["operator_router"]

def operator_router(hub: Hub, analyses: Analyses) -> APIRouter:
    """The operator's routes; the figures answer only ``--metrics-from`` or the token."""
    router = APIRouter()

    operator = Depends(operator_only(hub.settings.metrics_from))

    @router.get("/api/metrics", dependencies=[operator],
             responses={403: {"description": "Not from an address `--metrics-from` names, "
                                             "nor with the operator's token"}})
    def metrics(since: int = Query(default=0, ge=0)) -> dict[str, Any]:
        """Human moves handled, and the latency from a human's move to its broadcast
        over the moves after the first ``since`` (for the operator only)."""
        return {**hub.timing.figures(since), "analyses": analyses.figures()}

    hub.metrics.watch("bones_analyses", "Analyses being worked out or waiting",
                      lambda: analyses.figures()["running"])

    @router.get("/metrics", include_in_schema=False, dependencies=[operator])
    def prometheus() -> Response:
        """The server's figures in Prometheus' text format (bones.server.metrics)."""
        return Response(hub.metrics.text(), media_type=CONTENT_TYPE)

    @router.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, bool]:
        """The process answers."""
        return {"ok": True}

    @router.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Ready for players: the tables are loaded and the store answers."""
        ok = await hub.ready()
        return JSONResponse({"ok": ok}, status_code=200 if ok else 503)

    return router
