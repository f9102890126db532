"""A hostile (or just broken) CouchDB server on 127.0.0.1: it misbehaves the way a test tells it to.

    with Hostile() as server:
        server.misbehave("huge", size=200 * 2**20)       # 200 MB of body, streamed
        server.misbehave("status", code=503)             # a CouchDB-style refusal
        server.misbehave("stall", path="/db/_changes")   # only there; elsewhere it answers as CouchDB would

Kinds (`misbehave(kind, **options)`):
- `couch`: a plausible CouchDB 3 (the default): `GET /`, `/_session`, `/{db}` answer as it does; `_bulk_docs`
  takes every document, `_changes` has nothing new: a whole round of sync works against it.
- `huge`: `size` bytes of body (200 MB by default), chunked; `declared=True` sends a `Content-Length` too.
- `garbage`: 200 with bytes that are not JSON.
- `json`: 200 with `body` (any JSON value): the wrong shape, a malformed revision, …; `raw`: 200 with `body`
  (text) as it is.
- `gzip`: a compressed answer that unpacks to `size` bytes (100 MB), which the client did not ask for.
- `echo`: a 500 whose reason holds the user and password the request signed in with.
- `endless_changes`: `{"results":[` and then changes, forever (`pause` seconds between them).
- `flood`: `_changes` pages of `rows` well-formed documents, each `template` (a document) about a new match
  and `pad` characters longer, with more always pending: a server filling the device's disk.
- `stall`: the status and headers, then nothing. `silent`: not even those.
- `redirect`: 302 to `location`.
- `status`: `code` (401, 403, 404, 500, 503, …) with CouchDB's `error` and `reason`.
- `trickle`: `body` one byte every `pause` seconds (0.05 by default).

Every answer's handler ends when the server closes: no thread is left writing into the void.
"""

from __future__ import annotations

import base64
import json
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlparse

STATUS_WORDS = {400: ("bad_request", "Bad request"), 401: ("unauthorized", "Name or password is incorrect."),
                403: ("forbidden", "You are not allowed to access this db."),
                404: ("not_found", "Database does not exist."), 409: ("conflict", "Document update conflict."),
                500: ("internal_server_error", "badarg"), 503: ("service_unavailable", "Service unavailable")}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 10  # a write the client never reads ends with the socket's timeout
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: pytest shows what a failing test printed, and this is not it

    def do_GET(self) -> None:
        self._answer()

    do_PUT = do_POST = do_DELETE = do_HEAD = do_GET

    def _answer(self) -> None:
        hostile = self.server.hostile
        length = int(self.headers.get("content-length") or 0)
        self.body = self.rfile.read(min(length, 10 * 2**20)) if length else b""
        hostile.seen.append((self.command, self.path, self.headers.get("authorization")))
        kind, options = hostile.kind, hostile.options
        if options.get("path") and not self.path.startswith(options["path"]):
            kind, options = "couch", {}
        hostile.sent = 0
        try:
            getattr(self, "_" + kind)(**{k: v for k, v in options.items() if k != "path"})
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the client hung up: exactly what it should do with most of these
        self.close_connection = True

    # --- plumbing ------------------------------------------------------------------------------------

    def _head(self, code: int, headers: dict[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()

    def _whole(self, code: int, body: bytes) -> None:
        self._head(code, {"Content-Length": str(len(body))})
        self._write(body)

    def _write(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()
        self.server.hostile.sent += len(data)

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()
        self.server.hostile.sent += len(data)

    def _closing(self, seconds: float = 0) -> bool:
        return self.server.hostile.closing.wait(seconds)

    # --- kinds ---------------------------------------------------------------------------------------

    def _couch(self) -> None:
        path = self.path.split("?")[0]
        if path == "/":
            said: Any = {"couchdb": "Welcome", "version": "3.3.3", "vendor": {"name": "hostile"}}
        elif path == "/_session":
            said = {"ok": True, "userCtx": {"name": "anna", "roles": []}}
        elif path.count("/") == 1:
            said = {"db_name": path[1:], "doc_count": 0, "update_seq": "0-abc"}
        elif "/_local/" in path:            # the history's mark: kept as CouchDB keeps a local document
            local = self.server.hostile.local
            if self.command == "PUT" and path not in local:
                local[path] = json.loads(self.body or b"{}")
                self._whole(201, json.dumps({"ok": True, "id": path.split("/", 2)[2], "rev": "0-1"}).encode())
            elif self.command == "PUT":
                self._whole(409, b'{"error":"conflict","reason":"Document update conflict."}')
            elif path in local:
                self._whole(200, json.dumps({**local[path], "_rev": "0-1"}).encode())
            else:
                self._whole(404, b'{"error":"not_found","reason":"missing"}')
            return
        elif path.endswith("/_bulk_docs"):  # every document taken, as a first revision
            docs = json.loads(self.body or b"{}").get("docs", [])
            said = [{"ok": True, "id": d["_id"], "rev": "1-" + "a" * 32} for d in docs]
            self._whole(201, json.dumps(said).encode())
            return
        elif path.endswith("/_changes"):    # nothing written by anyone else
            said = {"results": [], "last_seq": "0-abc", "pending": 0}
        else:
            said = {}
        self._whole(200, json.dumps(said).encode())

    def _huge(self, size: int = 200 * 2**20, declared: bool = False) -> None:
        headers = {"Content-Length": str(size)} if declared else {"Transfer-Encoding": "chunked"}
        self._head(200, headers)
        block = b'{"results":[' + b" " * (64 * 1024 - 12)
        left = size
        while left > 0 and not self._closing():
            part = block[:left]
            if declared:
                self._write(part)
            else:
                self._chunk(part)
            left -= len(part)
        if not declared:
            self.wfile.write(b"0\r\n\r\n")

    def _garbage(self) -> None:
        self._whole(200, b"\x00\xff<html>this is not JSON {{{ ]]]")

    def _json(self, body: Any = None) -> None:
        self._whole(200, json.dumps(body).encode())

    def _raw(self, body: str = "") -> None:
        self._whole(200, body.encode())

    def _gzip(self, body: bytes = b"") -> None:
        """A compressed answer (made by `misbehave`), sent although the client asked for none."""
        self._head(200, {"Content-Encoding": "gzip", "Content-Length": str(len(body))})
        self._write(body)

    def _echo(self) -> None:
        """A 500 whose reason is the request's user and password, decoded: what a log line must never hold."""
        said = base64.b64decode(self.headers.get("authorization", "").removeprefix("Basic ")).decode()
        self._whole(500, json.dumps({"error": "unknown_error", "reason": f"could not sign in {said}"}).encode())

    def _endless_changes(self, pause: float = 0.0) -> None:
        self._head(200, {"Transfer-Encoding": "chunked"})
        self._chunk(b'{"results":[\n')
        n = 0
        rows = 1 if pause else 1000  # without a pause, as fast as it goes: many rows a chunk
        while not self._closing(pause):
            self._chunk(b"".join(b'{"seq":%d,"id":"doc-%d","changes":[{"rev":"1-abc"}]},\n' % (k, k)
                                 for k in range(n + 1, n + rows + 1)))
            n += rows

    def _pages_forever(self) -> None:
        """`_changes` pages that each say one more is pending, for ever (design documents: nothing to keep)."""
        hostile = self.server.hostile
        hostile.pages += 1
        n = hostile.pages
        rev = "1-" + "a" * 32
        said = {"results": [{"seq": n, "id": f"_design/x{n}", "changes": [{"rev": rev}],
                             "doc": {"_id": f"_design/x{n}", "_rev": rev}}], "last_seq": n, "pending": 1}
        self._whole(200, json.dumps(said).encode())

    def _flood(self, template: dict[str, Any] | None = None, rows: int = 50, pad: int = 30_000) -> None:
        hostile = self.server.hostile
        hostile.pages += 1
        results = []
        for k in range(rows):
            match = f"{hostile.pages:08x}{k:08x}".rjust(32, "f")
            doc = {**(template or {}), "_id": f"{match}.start", "match": match, "_rev": "1-" + "b" * 32}
            doc["body"] = {**doc.get("body", {}), "pad": "x" * pad}
            results.append({"seq": hostile.pages * rows + k, "id": doc["_id"], "changes": [{"rev": doc["_rev"]}],
                            "doc": doc})
        self._whole(200, json.dumps({"results": results, "last_seq": hostile.pages * rows + rows,
                                     "pending": 1}).encode())

    def _backwards(self) -> None:
        """A `_changes` feed whose checkpoint goes back: 10 and more to come, then one less than asked from."""
        since = parse_qs(urlparse(self.path).query).get("since", ["0"])[0].split("-")[0]
        after = int(since) - 1 if since.isdigit() and int(since) > 0 else 10
        self._whole(200, json.dumps({"results": [], "last_seq": after, "pending": 1}).encode())

    def _stall(self) -> None:
        self._head(200, {"Transfer-Encoding": "chunked"})
        self._closing(60)

    def _silent(self) -> None:
        self._closing(60)

    def _redirect(self, location: str = "http://127.0.0.1:9/elsewhere") -> None:
        self._head(302, {"Location": location, "Content-Length": "0"})

    def _status(self, code: int = 500) -> None:
        error, reason = STATUS_WORDS.get(code, ("error", "error"))
        self._whole(code, json.dumps({"error": error, "reason": reason}).encode())

    def _trickle(self, body: Any = None, pause: float = 0.05) -> None:
        data = json.dumps(body if body is not None else {"couchdb": "Welcome", "version": "3.3.3"}).encode()
        self._head(200, {"Content-Length": str(len(data))})
        for k in range(len(data)):
            if self._closing(pause):
                return
            self._write(data[k:k + 1])


def _gzipped(size: int) -> bytes:
    """`{"results":[` and `size` spaces, gzipped: about 100 KB for 100 MB. Fed a megabyte at a time, since
    this server's memory is the test process's, which the tests measure."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    block = b" " * 2**20
    parts = [packer.compress(b'{"results":[')] + [packer.compress(block) for _ in range(size // 2**20)]
    return b"".join(parts) + packer.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    hostile: Hostile


class Hostile:
    """The server; `misbehave()` sets what every later request gets (see the module's docstring)."""

    def __init__(self) -> None:
        self.kind = "couch"
        self.options: dict[str, Any] = {}
        self.sent = 0
        """Bytes of body written for the latest request (until the client hung up)."""
        self.seen: list[tuple[str, str, str | None]] = []
        """(method, path, Authorization header) of every request, in order."""
        self.local: dict[str, Any] = {}
        """Local documents written (the history's mark), by path."""
        self.pages = 0
        """`_changes` pages answered by `pages_forever` and `flood`."""
        self.closing = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.hostile = self
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def database_url(self, database: str = "club", user: str = "anna", password: str = "s3cret-pw") -> str:
        return f"http://{user}:{password}@127.0.0.1:{self.port}/{database}"

    def misbehave(self, kind: str, **options: Any) -> None:
        if not hasattr(_Handler, "_" + kind):
            raise ValueError(f"no such misbehaviour: {kind}")
        if kind == "gzip":  # made here, not while the client waits for an answer
            options = {"body": _gzipped(options.pop("size", 100 * 2**20)), **options}
        self.kind, self.options = kind, options

    def close(self) -> None:
        self.closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
