"""The server's log: lines of text for a person at a terminal, or JSON lines for a log
collector (``bones serve --log-format json``), each naming where it happened: the
request (its ``X-Request-ID``, as a proxy sets it, or one made here), the table and the
seat.

>>> import io
>>> out = io.StringIO()
>>> setup("json", out)
>>> TABLE.set("2Jeolbtvgk0") and None
>>> logging.getLogger("bones.server").warning("the store is away")
>>> line = json.loads(out.getvalue())
>>> line["level"], line["message"], line["table"], line["seat"]
('WARNING', 'the store is away', '2Jeolbtvgk0', None)
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TextIO

__all__ = ["FORMATS", "REQUEST", "SEAT", "TABLE", "request_id", "setup"]

FORMATS = ("text", "json")
TABLE: ContextVar[str | None] = ContextVar("table", default=None)
"""The table whose socket, move or bot this task serves."""
SEAT: ContextVar[int | None] = ContextVar("seat", default=None)
REQUEST: ContextVar[str | None] = ContextVar("request", default=None)
"""The HTTP request or WebSocket this task serves."""
_GIVEN = re.compile(r"[\w.-]{1,64}")


def request_id(given: str | None) -> str:
    """The id a request is logged under: the proxy's, if it looks like one, else new."""
    return given if given is not None and _GIVEN.fullmatch(given) else secrets.token_hex(6)


class _Where(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.table, record.seat, record.request = TABLE.get(), SEAT.get(), REQUEST.get()
        return True


class _JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(),
                "level": record.levelname, "logger": record.name,
                "message": record.getMessage(), "table": getattr(record, "table", None),
                "seat": getattr(record, "seat", None),
                "request": getattr(record, "request", None)}
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class _Text(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        where = " ".join(f"{key}={value}" for key in ("table", "seat", "request")
                         if (value := getattr(record, key, None)) is not None)
        text = super().format(record)
        return f"{text} [{where}]" if where else text


def setup(log_format: str = "text", stream: TextIO | None = None) -> None:
    """Send bones' log (warnings and worse, and uvicorn's) to ``stream`` (standard error)
    in ``log_format``."""
    if log_format not in FORMATS:
        raise ValueError(f"the log's format is one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler(stream)
    handler.addFilter(_Where())
    handler.setFormatter(_JsonLines() if log_format == "json" else _Text(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("bones", "uvicorn"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)
