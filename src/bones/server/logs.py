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

What a player's account does is said on ``bones.audit`` (:func:`audit`), one line each,
with the address the request came from and never a password, token or secret. A line
said again and again (an outage seen by every loop of the server) is written at most
once every few seconds, with how many like it were not; an outage's error is its
reason in one line, never a traceback.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

import redis
from sqlalchemy import exc as sql

__all__ = ["ADDRESS", "FORMATS", "OUTAGES", "REQUEST", "SEAT", "TABLE", "audit", "reason",
           "refused", "request_id", "setup"]

FORMATS = ("text", "json")
TABLE: ContextVar[str | None] = ContextVar("table", default=None)
"""The table whose socket, move or bot this task serves."""
SEAT: ContextVar[int | None] = ContextVar("seat", default=None)
REQUEST: ContextVar[str | None] = ContextVar("request", default=None)
"""The HTTP request or WebSocket this task serves."""
ADDRESS: ContextVar[str | None] = ContextVar("address", default=None)
"""Its client's address, as the proxy gave it."""
OUTAGES: tuple[type[BaseException], ...] = (
    sql.OperationalError, sql.InterfaceError, sql.TimeoutError, redis.ConnectionError,
    redis.TimeoutError, ConnectionError, TimeoutError)
"""Errors that mean the store or Redis is away, not that bones is wrong: logged as one
line, their reason, however deep they were raised."""
SELDOM = 5.0
"""Seconds within which a line said again is not written again (but counted)."""
_AUDIT = logging.getLogger("bones.audit")
_GIVEN = re.compile(r"[\w.-]{1,64}")


def request_id(given: str | None) -> str:
    """The id a request is logged under: the proxy's, if it looks like one, else new."""
    return given if given is not None and _GIVEN.fullmatch(given) else secrets.token_hex(6)


def reason(error: BaseException) -> str:
    r"""An error in one line: its kind and the first line of what it says (an outage's
    is the driver's words, not a traceback).

    >>> reason(ConnectionRefusedError("connection refused\nat 127.0.0.1:5432"))
    'ConnectionRefusedError: connection refused'
    """
    said = str(error).strip().splitlines()
    return type(error).__name__ + (f": {said[0][:200]}" if said else "")


def audit(event: str, **fields: Any) -> None:
    """One line of what an account did or was refused (``login``, ``login_failed``,
    ``signup``, ``password_reset``, ``sanction``, ``refused``), with the request's
    address. ``fields`` name accounts and reasons: never a password, token or secret.

    >>> import io
    >>> out = io.StringIO()
    >>> setup("json", out)
    >>> ADDRESS.set("203.0.113.9") and None
    >>> audit("login_failed", name="Ann")
    >>> line = json.loads(out.getvalue())
    >>> line["event"], line["name"], line["address"], line["level"]
    ('login_failed', 'Ann', '203.0.113.9', 'INFO')
    """
    _AUDIT.info("%s %s", event, " ".join(f"{k}={v}" for k, v in fields.items()),
                extra={"fields": {"event": event, **fields}})


def refused(what: str, **fields: Any) -> None:
    """A request refused, by its class (``origin``, ``rate``, ``body``, ``unavailable``,
    ``sockets``...): a warning, so a flood of them is one line every few seconds."""
    said = f"refused {what}"  # its words are its class: one line a class every few seconds
    _AUDIT.warning(said, extra={"fields": {"event": "refused", "what": what, **fields}})


class _Where(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.table, record.seat, record.request = TABLE.get(), SEAT.get(), REQUEST.get()
        record.address = ADDRESS.get()
        return True


class _Seldom(logging.Filter):
    """An outage's error as its reason in one line; a warning said again within
    :data:`SELDOM` seconds (the same words, whatever the table) counted, not written."""

    def __init__(self) -> None:
        super().__init__()
        self.said: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], OUTAGES):
            record.msg = f"{record.getMessage()}: {reason(record.exc_info[1])}"
            record.args, record.exc_info, record.exc_text = None, None, None
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, str(record.msg))
        now = time.monotonic()
        last, unsaid = self.said.get(key, (-SELDOM, 0))
        if now - last < SELDOM:
            self.said[key] = (last, unsaid + 1)
            return False
        if len(self.said) > 1000:
            self.said.clear()
        self.said[key] = (now, 0)
        if unsaid:
            record.msg = f"{record.getMessage()} (and {unsaid} more like it)"
            record.args = None
        return True


class _JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(),
                "level": record.levelname, "logger": record.name,
                "message": record.getMessage(), "table": getattr(record, "table", None),
                "seat": getattr(record, "seat", None),
                "request": getattr(record, "request", None),
                "address": getattr(record, "address", None),
                **getattr(record, "fields", {})}
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class _Text(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        where = " ".join(f"{key}={value}" for key in ("table", "seat", "request", "address")
                         if (value := getattr(record, key, None)) is not None)
        text = super().format(record)
        return f"{text} [{where}]" if where else text


def setup(log_format: str = "text", stream: TextIO | None = None) -> None:
    """Send bones' log (warnings and worse, the accounts' lines, and uvicorn's and
    asyncio's warnings) to ``stream`` (standard error) in ``log_format``."""
    if log_format not in FORMATS:
        raise ValueError(f"the log's format is one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler(stream)
    handler.addFilter(_Where())
    handler.addFilter(_Seldom())
    handler.setFormatter(_JsonLines() if log_format == "json" else _Text(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("bones", "uvicorn", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    _AUDIT.setLevel(logging.INFO)
