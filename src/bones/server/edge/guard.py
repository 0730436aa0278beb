"""What stands between the network and the app: security headers on every answer, the
Origin check on WebSocket upgrades and on requests that change things, a limit on the
size of a request's body, a per-address rate limit on REST calls and new sockets, and
one release's API for each page.

A page sends its release (``edge.pages``) with every API call, as the header
``bones-release``, and with every socket, as the subprotocol ``bones.release.<version>``.
While an upgrade has processes of two releases side by side, one of the other release
turns them away with 503 before doing anything (code ``release``), which the shipped
nginx answers by asking the next process (a change it may not pass on: the page then
asks again itself), and the page, once no process has its release, by loading the new
one.
A program that sends no release is served by any process.

The rate limit keeps its counts in a ``limits`` storage: in memory for one process, in
Redis when the server has one, so that an address counts the same at every process.

>>> allowed_origin("https://bones.example", "bones.example", ())
True
>>> allowed_origin("http://evil.example", "bones.example", ())
False
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from limits import RateLimitItemPerSecond
from limits.aio.strategies import MovingWindowRateLimiter

from bones.server import logs
from bones.server.edge.apidocs import PAGES
from bones.server.sites.counting import limit_storage

__all__ = ["CSP", "DOCS_CSP", "HSTS", "MAX_BODY", "RELEASE", "Guard", "allowed_origin",
           "unsealed"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 256 * 1024
"""The largest request body, in bytes (a long match's record is a few dozen KiB)."""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The app's pages run only their own files: no inline script, no other site's."""
DOCS_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
"""The API's documentation pages (``apidocs``) run the server's own files too; only
their styles may be inline (Swagger UI and ReDoc set them), and ReDoc's worker a blob."""
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
"""Sent on answers that went out over https (as the proxy says, with ``--trust-proxy``):
the browser then comes over https only."""
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
           (b"referrer-policy", b"no-referrer"),
           (b"cross-origin-opener-policy", b"same-origin")]
CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RELEASE = "bones.release."
"""A socket's subprotocol naming the page's release (its header is ``bones-release``)."""
SECRETS = ("token", "invite")
"""What a socket may carry that must not be in its URL (see :func:`unsealed`)."""

log = logging.getLogger("bones.server")


def allowed_origin(origin: str, host: str, extra: tuple[str, ...]) -> bool:
    """Whether a page from ``origin`` may act on the server reached as ``host``: its
    own pages, and the origins a deployment names (e.g. behind a proxy)."""
    if origin in extra:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host


class Guard:
    """ASGI middleware around the bones app."""

    def __init__(self, app: App, *, origins: tuple[str, ...] = (), rate: float = 20.0,
                 max_body: int = MAX_BODY, redis: str | None = None,
                 release: str | None = None) -> None:
        """``release``: this process's (None: no page, none checked)."""
        self.app, self.origins, self.max_body = app, origins, max_body
        self.release = release
        self.released = [] if release is None else [(b"bones-release", release.encode())]
        burst = max(1, round(rate * 3))
        self.item = RateLimitItemPerSecond(burst, 3)
        self.limiter = MovingWindowRateLimiter(limit_storage(redis))
        self._warned = -60.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):  # what the log names it by
            logs.REQUEST.set(logs.request_id(self._header(scope, b"x-request-id")))
            logs.ADDRESS.set(self._address(scope))
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    @staticmethod
    def _header(scope: Scope, name: bytes) -> str | None:
        for key, value in scope.get("headers", []):
            if key == name:
                return bytes(value).decode("latin-1")
        return None

    def _foreign(self, scope: Scope) -> bool:
        origin = self._header(scope, b"origin")
        host = self._header(scope, b"host") or ""
        return origin is not None and not allowed_origin(origin, host, self.origins)

    async def _allowed(self, scope: Scope) -> bool:
        """Whether the address has requests left; if the count cannot be read (Redis is
        away or swamped), yes: the limit guards the site, it must not stop it."""
        try:
            return await self.limiter.hit(self.item, self._address(scope))
        except Exception as error:
            if time.monotonic() - self._warned > 60:  # once a minute, not once a request
                self._warned = time.monotonic()
                log.warning("the rate limit could not be counted: %s", error)
            return True

    def _address(self, scope: Scope) -> str:
        client = scope.get("client")
        return str(client[0]) if client else "?"

    def _other_release(self, scope: Scope) -> str | None:
        """The release a page names, if this process is not of it."""
        if self.release is None:
            return None
        if scope["type"] == "websocket":
            named = next((p.removeprefix(RELEASE) for p in scope.get("subprotocols", [])
                          if p.startswith(RELEASE)), None)
        else:
            named = self._header(scope, b"bones-release")
        return named if named is not None and named != self.release else None

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Refused before the handshake completes: the browser sees HTTP 403.
        foreign = self._foreign(scope)
        if foreign or not await self._allowed(scope):
            logs.refused("origin" if foreign else "rate", path=scope["path"])
            await send({"type": "websocket.close", "code": 4403})
            return
        if self._other_release(scope) is not None:
            logs.refused("release", path=scope["path"])
            if "websocket.http.response" in scope.get("extensions", {}):
                await _answer(send, 503, self._another(), [(b"retry-after", b"1")],
                              "websocket.http.response", "release")
            else:  # 1013, try again later (no server of bones's runs without it)
                await send({"type": "websocket.close", "code": 1013})
            return
        scope = unsealed(scope)
        offered = "bones" in scope.get("subprotocols", [])

        async def agreed(message: Message) -> None:
            if message["type"] == "websocket.accept":
                message["headers"] = [*message.get("headers", []), *self.released]
                if offered and not message.get("subprotocol"):
                    message["subprotocol"] = "bones"
            await send(message)

        await self.app(scope, receive, agreed)

    def _another(self) -> str:
        return (f"this process runs release {self.release}: a page of another is served "
                "by another process, or loads this one")

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        if path.startswith("/api/") and self._other_release(scope) is not None:
            logs.refused("release", path=path)
            await _answer(send, 503, self._another(),
                          [(b"retry-after", b"1"), *self.released], code="release")
            return
        if scope["method"] in CHANGES and self._foreign(scope):
            logs.refused("origin", path=path)
            await _answer(send, 403, "requests from another site's pages are refused")
            return
        if path.startswith("/api/") and not await self._allowed(scope):
            logs.refused("rate", path=path)
            await _answer(send, 429, "too many requests from this address; slow down",
                          [(b"retry-after", b"3")])
            return
        length = self._header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            logs.refused("body", path=path)
            await _answer(send, 413, f"a request body is at most {self.max_body} bytes")
            return
        policy = (DOCS_CSP if path in PAGES else CSP).encode()
        secure = [HSTS] if scope.get("scheme") == "https" else []
        started = False
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    return {"type": "http.disconnect"}
            return message

        async def headed(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *HEADERS, *secure,
                                      *self.released, (b"content-security-policy", policy)]
            await send(message)

        await self.app(scope, counted, headed)
        if seen > self.max_body and not started:
            await _answer(send, 413, f"a request body is at most {self.max_body} bytes")


def unsealed(scope: Scope) -> Scope:
    """A socket's secrets where its endpoint reads them: a seat's token or an invite's
    secret comes as a subprotocol (``bones.token.<token>``, ``bones.invite.<secret>``,
    beside ``bones``), out of the URL that proxies log, and is handed on as the query
    parameter a program written for an older bones sends (which still works for a
    release, logged as deprecated). The server answers ``bones``, never a secret.

    >>> moved = unsealed({"subprotocols": ["bones", "bones.token.Tk-1"], "query_string": b""})
    >>> moved["subprotocols"], moved["query_string"]
    (['bones'], b'token=Tk-1')
    """
    offered = list(scope.get("subprotocols", []))
    prefixes = {kind: f"bones.{kind}." for kind in SECRETS}
    secrets = [(kind, p.removeprefix(prefix)) for p in offered
               for kind, prefix in prefixes.items() if p.startswith(prefix)]
    query = parse_qsl(bytes(scope.get("query_string", b"")).decode("latin-1"))
    if any(key in SECRETS for key, _ in query):
        log.warning("a secret came in a socket's URL, which proxies log (deprecated): send "
                    "it as the subprotocol bones.token.<token> or bones.invite.<secret>")
    if not secrets:
        return scope
    kept = [(key, value) for key, value in query if key not in SECRETS]
    return {**scope, "subprotocols": [p for p in offered
                                      if not p.startswith(tuple(prefixes.values()))],
        "query_string": urlencode(kept + secrets[:1]).encode()}


async def _answer(send: Send, status: int, detail: str,
                  headers: list[tuple[bytes, bytes]] | None = None,
                  kind: str = "http.response", code: str | None = None) -> None:
    """An answer made here (``kind``: ``websocket.http.response`` before a socket's
    handshake), its JSON's ``code`` for a page to act on."""
    body = json.dumps({"detail": detail, **({} if code is None else {"code": code})}).encode()
    await send({"type": f"{kind}.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *HEADERS,
                            *(headers or [])]})
    await send({"type": f"{kind}.body", "body": body})
