"""The security middleware in front of the Flet app: Host and Origin checks, headers, the table code."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl, quote, urlencode

from .access import CURRENT, WANTED_LANGUAGES, TableCode, wanted_languages
from .hosts import is_loopback, source_of, split_host

log = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
"""Tried with Flet 1.0.5's web client in Chromium: the app loads and works. 'unsafe-inline' is needed
for the inline scripts of Flet's index.html; `frame-ancestors 'none'` forbids framing; it also stops
the client's one request to a CDN (a Rive runtime the app does not use)."""
HEADERS = [(b"x-frame-options", b"DENY"), (b"content-security-policy", CSP.encode()),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]
DROPPED = {b"access-control-allow-origin"}
CLIENT_GONE = {"WebSocketDisconnect", "ClientDisconnected"}
"""What Starlette and Uvicorn raise when a page is sent to a socket the phone has closed (by name: `net`
imports nothing it does not need)."""
"""Flet answers every request with `Access-Control-Allow-Origin: *`, letting any web page read the app's
responses; nothing here is meant for another origin."""
HIDDEN = {"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"}
"""FastAPI's generated pages and Flet's OAuth callback: the app uses none of them."""
WS_GRACE = 2.0
"""Seconds a Flet WebSocket handler may run on after its client left before it is cancelled."""


def own_path(path: str) -> str:
    """A request's path as a place on this server to send the browser to: percent-encoded, beginning with one
    `/`. Taken as it came, `//evil.example/` (and `/\\evil.example/`, which browsers read alike) would send
    the browser to another site, and a line break in it would end the header."""
    return "/" + quote(path, safe="/!$&'()*+,;=:@").lstrip("/")


class Guard:
    """Pure ASGI middleware around the Flet app (see docs/security.md).

    - A request whose Host is not one of this machine's names with our port is refused (400): a page of
      another site that made its name point at us (DNS rebinding) reaches nothing.
    - A WebSocket whose Origin is not `http://<its Host>` is refused (403): another site's page cannot
      drive the app from a phone's browser.
    - Flet's `Access-Control-Allow-Origin: *` is dropped; framing is forbidden; no sniffing, no referrer.
    - `GET …?code=XXXXXX` with the table code sets the code's cookie and sends the browser to the same
      address without the code (303), so it leaves neither the address bar nor the history.
    - Each WebSocket's access (owner, player, watcher) is set in `access.CURRENT` while the app serves it.
    - A Flet handler still running `WS_GRACE` s after its client left is cancelled: Flet 1.0.5 waits
      forever for a client that connected and never registered, and uvicorn then ignores SIGTERM.
    """

    def __init__(self, app: Callable, *, port: int, hostnames: frozenset[str], code: TableCode,
                 refresh_hostnames: Callable[[], frozenset[str]] | None = None, ws_grace: float = WS_GRACE):
        self.app, self.port, self.code = app, port, code
        self.hostnames = frozenset(h.lower() for h in hostnames)
        self.refresh_hostnames = refresh_hostnames
        """Reads this machine's names again (at most every 10 s, on a miss): a laptop may get a new address."""
        self._refreshed = time.monotonic()
        self.ws_grace = ws_grace

    # --- checks --------------------------------------------------------------------------------------
    def host_ok(self, host: str | None) -> bool:
        """True for a Host header naming this machine with our port."""
        try:
            name, port = split_host(host or "")
        except ValueError:
            return False
        if (port or 80) != self.port:
            return False
        if name not in self.hostnames and self.refresh_hostnames and time.monotonic() - self._refreshed > 10:
            self._refreshed = time.monotonic()
            self.hostnames = self.refresh_hostnames()
        return name in self.hostnames

    @staticmethod
    def header(scope: Scope, name: bytes) -> str | None:
        for key, value in scope.get("headers", []):
            if key == name:
                return value.decode("latin-1")
        return None

    @staticmethod
    def client(scope: Scope) -> str:
        return (scope.get("client") or ("",))[0] or ""

    # --- answers of its own ----------------------------------------------------------------------------
    @staticmethod
    async def plain(send: Send, status: int, text: str, extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        body = text.encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store"),
                                *HEADERS, *extra]})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def refuse_ws(receive: Receive, send: Send) -> None:
        # Closing before accepting makes uvicorn answer the upgrade with HTTP 403.
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 1008})

    # --- the middleware --------------------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)  # lifespan: Flet starts and stops its sessions
        host = self.header(scope, b"host")
        if not self.host_ok(host):
            log.warning("refused a %s request for Host %r from %s", kind, host, self.client(scope))
            if kind == "http":
                return await self.plain(send, 400, "Invalid Host header\n")
            return await self.refuse_ws(receive, send)
        if kind == "websocket":
            return await self.websocket(scope, receive, send, host or "")
        return await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["path"] in HIDDEN:
            return await self.plain(send, 404, "Not Found\n")
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        if scope["method"] in ("GET", "HEAD") and any(key == "code" for key, _ in query):
            return await self.join(scope, send, query)

        async def send_guarded(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in DROPPED]
                message = {**message, "headers": kept + HEADERS}
            await send(message)

        await self.app(scope, receive, send_guarded)

    async def join(self, scope: Scope, send: Send, query: list[tuple[str, str]]) -> None:
        """The join link: the cookie for the right code, then the same address without the code."""
        source = source_of(self.client(scope))
        given = next(value for key, value in query if key == "code")
        rest = [(k, v) for k, v in query if k != "code"]
        location = own_path(scope.get("root_path", "") + scope["path"]) + ("?" + urlencode(rest) if rest else "")
        extra = [(b"location", location.encode("ascii"))]
        if self.code.throttled(source):
            return await self.plain(send, 429, "Too many wrong codes; wait a while, then open the link again.\n")
        if self.code.matches(given):
            extra.append((b"set-cookie", self.code.cookie().encode()))
        elif self.code.code is not None:
            self.code.failed(source)
        await self.plain(send, 303, "See Other\n", tuple(extra))

    async def websocket(self, scope: Scope, receive: Receive, send: Send, host: str) -> None:
        origin = self.header(scope, b"origin")
        if origin is None or origin.lower() != f"http://{host}".lower():
            log.warning("refused a WebSocket from Origin %r for Host %r", origin, host)
            return await self.refuse_ws(receive, send)
        access = self.code.access_for(is_loopback(self.client(scope)), self.header(scope, b"cookie") or "")
        token = CURRENT.set(access)
        languages = WANTED_LANGUAGES.set(wanted_languages(self.header(scope, b"accept-language")))
        try:
            await self.serve_ws(scope, receive, send)
        finally:
            WANTED_LANGUAGES.reset(languages)
            CURRENT.reset(token)

    async def serve_ws(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app on a WebSocket; cancel it if it still runs `ws_grace` s after the client left."""
        gone = asyncio.Event()

        async def watched_receive() -> dict[str, Any]:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                gone.set()
            return message

        task = asyncio.create_task(self.app(scope, watched_receive, send))  # copies the context: CURRENT
        waiter = asyncio.create_task(gone.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                done, _ = await asyncio.wait({task}, timeout=self.ws_grace)
                if not done:
                    log.info("cancelling a Flet WebSocket handler left running after its client went away")
                    task.cancel()  # also cancels the send loop it is waiting for
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                    return
            try:
                await task
            except Exception as exc:
                if not (gone.is_set() or type(exc).__name__ in CLIENT_GONE):
                    raise
                # The phone closed its tab while Flet still sent it a page: nothing is lost (the page is
                # drawn again when it comes back), so not the traceback of "Exception in ASGI application".
                log.debug("a phone left while its page was sent: %r", exc)
        finally:
            waiter.cancel()
            if not task.done():  # this coroutine was cancelled itself (the server is stopping)
                task.cancel()
