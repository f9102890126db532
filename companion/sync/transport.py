"""One HTTP request with a deadline and a size bound: httpx on CPython, the browser's `fetch` in Pyodide.

The CouchDB client asks a `Transport` for one request at a time and gets the whole answer back, or a
`SyncError` saying why not. Both transports stop reading at `max_bytes` (a body one byte larger is refused
without being kept) and give up at the deadline, whatever the server does: a server that streams 200 MB,
trickles a byte a second or sends headers and then nothing costs at most `max_bytes` of memory and
`timeout` seconds. Neither follows a redirect: it could carry the `Authorization` header to another host
or from HTTPS to plain HTTP.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from ..formats.matchfile import size
from .errors import Answer, SyncError, SyncSays

if TYPE_CHECKING:
    import httpx


class Transport(Protocol):
    """Sends one request and returns the whole answer, within `timeout` seconds and `max_bytes` of body.

    Raises `SyncError`: `UNREACHABLE` (no connection), `CUT_OFF` (the connection broke mid-answer),
    `TOO_SLOW` (the deadline passed; `received` holds what had arrived if the headers had), `TOO_LARGE`,
    `CORS_REFUSED` (a browser only). Any status, 5xx included, is an answer, not an error."""

    async def request(self, method: str, url: str, *, headers: Mapping[str, str], body: bytes | None,
                      timeout: float, max_bytes: int) -> Answer: ...

    async def aclose(self) -> None: ...


def origin(url: str) -> str:
    """`https://host:port` of a URL: how a message names the server (never with a user or a password)."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    host = f"[{host}]" if ":" in host else host
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def _declared_too_large(headers: Mapping[str, str], max_bytes: int) -> bool:
    length = headers.get("content-length", "").strip()
    return length.isdigit() and int(length) > max_bytes


class _Body:
    """A body read chunk by chunk, refused as soon as it grows past the bound."""

    def __init__(self, url: str, max_bytes: int):
        self.url, self.max_bytes = url, max_bytes
        self.chunks: list[bytes] = []
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.max_bytes:
            self.chunks.clear()
            raise SyncError(SyncSays.TOO_LARGE, server=origin(self.url), size=size(self.max_bytes),
                            detail=f"more than {self.max_bytes} bytes")
        self.chunks.append(chunk)

    def bytes(self) -> bytes:
        return b"".join(self.chunks)


def _too_slow(url: str, timeout: float, received: Answer | None) -> SyncError:
    return SyncError(SyncSays.TOO_SLOW, server=origin(url), seconds=max(1, round(timeout)), received=received,
                     detail=f"no complete answer within {timeout:.1f} s")


class HttpxTransport:
    """CPython's transport: one `httpx.AsyncClient` (its connections kept for the next request), used from
    one event loop; `aclose()` closes it.

    The environment is not trusted (`trust_env=False`): no proxy from `HTTP_PROXY`, no password from
    `~/.netrc`; the app talks to the server it was given. Compressed answers are not asked for
    (`Accept-Encoding: identity`) and refused if sent anyway: the bound counts the bytes that arrive, and a
    small compressed body can unpack to gigabytes.
    """

    def __init__(self, client: httpx.AsyncClient | None = None):
        import httpx

        self._httpx = httpx
        self._client = client or httpx.AsyncClient(follow_redirects=False, trust_env=False, timeout=None)

    async def request(self, method: str, url: str, *, headers: Mapping[str, str], body: bytes | None,
                      timeout: float, max_bytes: int) -> Answer:
        httpx = self._httpx
        received: Answer | None = None
        reading = _Body(url, max_bytes)
        try:
            async with asyncio.timeout(timeout):
                async with self._client.stream(method, url, headers={**headers, "accept-encoding": "identity"},
                                               content=body) as response:
                    got = {name.lower(): value for name, value in response.headers.items()}
                    received = Answer(response.status_code, got, b"")
                    if got.get("content-encoding", "identity").lower() not in ("identity", ""):
                        raise SyncError(SyncSays.WRONG_SHAPE, server=origin(url), couchdb="CouchDB",
                                        where="Content-Encoding", detail="a compressed answer, not asked for")
                    if _declared_too_large(got, max_bytes):
                        raise SyncError(SyncSays.TOO_LARGE, server=origin(url), size=size(max_bytes),
                                        detail=f"Content-Length {got['content-length'][:20]}")
                    async for chunk in response.aiter_raw():  # as it arrives (a chunk size would hold bytes back)
                        reading.add(chunk)
                    return Answer(response.status_code, got, reading.bytes())
        except TimeoutError:
            if received is not None:
                received = received._replace(body=reading.bytes())
            raise _too_slow(url, timeout, received) from None
        except httpx.TimeoutException:  # not set (timeout=None), but a client passed in may have one
            raise _too_slow(url, timeout, None) from None
        except (httpx.ConnectError, httpx.UnsupportedProtocol) as exc:
            raise SyncError(SyncSays.UNREACHABLE, server=origin(url), detail=_said(exc)) from None
        except httpx.TransportError as exc:  # read, write, protocol errors: the connection broke
            if received is None:  # before any answer (closed or reset on us): as good as unreachable
                raise SyncError(SyncSays.UNREACHABLE, server=origin(url), detail=_said(exc)) from None
            raise SyncError(SyncSays.CUT_OFF, server=origin(url), detail=_said(exc)) from None

    async def aclose(self) -> None:
        await self._client.aclose()


def _said(exc: BaseException) -> str:
    """What the library said, short: its messages name the error, never the request's headers."""
    return f"{type(exc).__name__}: {exc}"[:300]


class FetchTransport:
    """The browser build's transport: `fetch` from Pyodide's web worker (`pyodide.http.pyfetch`).

    Not tested here beyond a fake browser (no Pyodide runs in the tests' CPython), so it is kept small:
    - the deadline is an `AbortController` aborted when `asyncio.timeout` passes, which stops the request
      and the body's stream alike;
    - the body is read from `response.body.getReader()` chunk by chunk (pyfetch only offers whole-body
      reads: `bytes()`, `text()`), so the bound holds; the reader is cancelled past it;
    - the browser decompresses on its own (a page cannot ask for `identity`); the bound counts the bytes
      after that, so it holds all the same;
    - `fetch` fails with the same `TypeError` for a server it cannot reach and for one whose CORS settings
      refuse this page. A second `fetch(…, {mode: "no-cors"})` of the server tells them apart: it resolves
      (with an opaque answer) only if the server answered at all.
    """

    def __init__(self) -> None:
        import js  # noqa: F401 -- fails at once outside Pyodide

    async def request(self, method: str, url: str, *, headers: Mapping[str, str], body: bytes | None,
                      timeout: float, max_bytes: int) -> Answer:
        import js
        from pyodide.ffi import JsException
        from pyodide.http import pyfetch

        stop = js.AbortController.new()
        received: Answer | None = None
        reading = _Body(url, max_bytes)
        try:
            async with asyncio.timeout(timeout):
                try:
                    response = await pyfetch(url, method=method, headers=dict(headers), signal=stop.signal,
                                             body=None if body is None else body.decode("utf-8"),
                                             redirect="manual", credentials="omit", cache="no-store")
                except OSError as exc:  # pyfetch's AbortError: fetch rejected (no answer, or CORS)
                    raise await self._unanswered(url, exc, stop.signal) from None
                if response.type == "opaqueredirect":
                    return Answer(302, {}, b"")  # a redirect (`redirect: "manual"` hides where to)
                got = {str(k).lower(): str(v) for k, v in response.headers.items()}
                received = Answer(response.status, got, b"")
                if _declared_too_large(got, max_bytes) and "content-encoding" not in got:
                    raise SyncError(SyncSays.TOO_LARGE, server=origin(url), size=size(max_bytes),
                                    detail=f"Content-Length {got['content-length'][:20]}")
                stream = response.js_response.body
                if stream is not None:  # null for a body-less answer (204, HEAD)
                    reader = stream.getReader()
                    try:
                        while not (step := await reader.read()).done:
                            reading.add(step.value.to_bytes())
                    except SyncError:
                        reader.cancel()
                        raise
                    except JsException as exc:  # the stream failed: the connection broke
                        raise SyncError(SyncSays.CUT_OFF, server=origin(url), detail=_said(exc)) from None
                return Answer(response.status, got, reading.bytes())
        except TimeoutError:
            if received is not None:
                received = received._replace(body=reading.bytes())
            raise _too_slow(url, timeout, received) from None
        finally:
            stop.abort()  # after an answer this does nothing; else it frees the request

    async def _unanswered(self, url: str, exc: BaseException, signal: Any) -> SyncError:
        """`fetch` got no answer it may show: CORS refused it if the server answers a `no-cors` request."""
        import js
        from pyodide.ffi import JsException, to_js

        options = to_js({"mode": "no-cors", "credentials": "omit", "cache": "no-store", "signal": signal},
                        dict_converter=js.Object.fromEntries)
        try:
            await js.fetch(origin(url) + "/", options)
        except JsException:
            return SyncError(SyncSays.UNREACHABLE, server=origin(url), detail=_said(exc))
        try:
            here = str(js.location.origin)  # the worker's origin is the page's
        except AttributeError:
            here = "?"
        return SyncError(SyncSays.CORS_REFUSED, server=origin(url), cors="CORS", origin=here, detail=_said(exc))

    async def aclose(self) -> None:
        pass


def in_browser() -> bool:
    """Is this Python running in a browser (Pyodide)?"""
    return sys.platform == "emscripten"


def default_transport() -> Transport:
    """The transport for where this runs: `fetch` in the browser build, httpx everywhere else."""
    return FetchTransport() if in_browser() else HttpxTransport()
