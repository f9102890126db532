"""The browser build's transport (`fetch` from Pyodide), against a fake browser: no Pyodide runs here, so these
tests play `js`, `pyodide.http` and `pyodide.ffi` with just what the transport uses of them. What they prove is the
transport's own logic (the bound, the deadline, CORS told from unreachable); that the real browser behaves as
the fake does is checked only by reading Pyodide 314's `pyodide/http/_pyfetch.py` and the Fetch standard."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import types
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.sync import couch as couch_module
from companion.sync.address import CouchAddress
from companion.sync.couch import CouchClient
from companion.sync.errors import SyncError, SyncSays
from companion.sync.transport import FetchTransport
from tests.loop import run

ORIGIN = "https://xeri.example"
"""Where the fake page is served from."""


class JsException(Exception):
    pass


@dataclass
class Step:
    done: bool
    value: Any = None


class Bytes:
    def __init__(self, data: bytes):
        self.data = data

    def to_bytes(self) -> bytes:
        return self.data


@dataclass
class Reader:
    chunks: list[bytes]
    stall: bool = False
    read_count: int = 0
    cancelled: bool = False

    async def read(self) -> Step:
        if self.stall and not self.chunks:
            await asyncio.Event().wait()  # a server that stopped sending
        self.read_count += 1
        return Step(False, Bytes(self.chunks.pop(0))) if self.chunks else Step(True)

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Stream:
    reader: Reader

    def getReader(self) -> Reader:
        return self.reader


@dataclass
class Response:
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"content-type": "application/json"})
    type: str = "cors"
    chunks: list[bytes] = field(default_factory=list)
    stall: bool = False

    def __post_init__(self) -> None:
        self.reader = Reader(list(self.chunks), self.stall)
        self.js_response = types.SimpleNamespace(body=Stream(self.reader))


class Controller:
    def __init__(self) -> None:
        self.signal = object()
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True


class Browser:
    """The fake browser: `answer` is what `fetch` resolves to, or None for a `TypeError` (unreachable or CORS);
    `server_answers` says whether a `no-cors` request of the server resolves."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.answer: Response | None = Response(chunks=[b'{"version": "3.3.3"}'])
        self.server_answers = True
        self.requests: list[tuple[str, dict]] = []
        self.probes: list[tuple[str, dict]] = []
        self.controllers: list[Controller] = []
        # Namespaces will do for modules: `import js` and `from pyodide.http import pyfetch` read sys.modules.
        js = types.SimpleNamespace(AbortController=types.SimpleNamespace(new=self._controller),
                                   Object=types.SimpleNamespace(fromEntries=dict), fetch=self._probe,
                                   location=types.SimpleNamespace(origin=ORIGIN))
        ffi = types.SimpleNamespace(JsException=JsException, to_js=lambda value, dict_converter=None: value)
        http = types.SimpleNamespace(pyfetch=self._pyfetch)
        pyodide = types.SimpleNamespace(ffi=ffi, http=http)
        for name, module in {"js": js, "pyodide": pyodide, "pyodide.ffi": ffi, "pyodide.http": http}.items():
            monkeypatch.setitem(sys.modules, name, module)

    def _controller(self) -> Controller:
        self.controllers.append(Controller())
        return self.controllers[-1]

    async def _pyfetch(self, url: str, **options: Any) -> Response:
        self.requests.append((url, options))
        if self.answer is None:
            raise OSError("TypeError: Failed to fetch")  # pyfetch's AbortError is an OSError
        return self.answer

    async def _probe(self, url: str, options: dict) -> object:
        self.probes.append((url, options))
        if not self.server_answers:
            raise JsException("TypeError: Failed to fetch")
        return object()  # an opaque answer: the server is there


@pytest.fixture
def browser(monkeypatch) -> Browser:
    return Browser(monkeypatch)


def attempt(action, *, timeout: float = 5.0):
    async def scenario():
        client = CouchClient(CouchAddress.from_url("https://anna:pw@couch.example.org/club"),
                             transport=FetchTransport(), timeout=timeout)
        async with client:
            return await action(client)
    return run(scenario())


def failure(action, **kwargs) -> SyncError:
    with pytest.raises(SyncError) as caught:
        attempt(action, **kwargs)
    return caught.value


def test_an_answer_is_read_chunk_by_chunk_and_the_request_is_made_as_couchdb_wants(browser):
    browser.answer = Response(chunks=[b'{"couchdb": "Welcome", ', b'"version": "3.3.3"', b"}"])
    info = attempt(lambda c: c.server_info())
    assert info.version == "3.3.3" and browser.answer.reader.read_count == 4
    ((url, options),) = browser.requests
    assert url == "https://couch.example.org/"
    assert options["method"] == "GET" and options["body"] is None
    assert options["headers"]["authorization"].startswith("Basic ") and options["headers"]["accept"] == "application/json"
    assert (options["redirect"], options["credentials"], options["cache"]) == ("manual", "omit", "no-store")
    assert options["signal"] is browser.controllers[0].signal


def test_a_body_is_sent_as_json_text(browser):
    browser.answer = Response(status=201, chunks=[json.dumps({"ok": True, "id": "m1", "rev": "1-ab"}).encode()])
    attempt(lambda c: c.put({"_id": "m1", "name": "Ξερή"}))
    ((url, options),) = browser.requests
    assert url == "https://couch.example.org/club/m1" and options["method"] == "PUT"
    assert json.loads(options["body"]) == {"_id": "m1", "name": "Ξερή"}
    assert options["headers"]["content-type"] == "application/json"


def test_an_answer_past_the_bound_is_refused_and_its_stream_cancelled(browser):
    browser.answer = Response(chunks=[b" " * 100_000] * 100)  # 10 MB against a bound of 5 MB
    error = failure(lambda c: c.get("m1"))
    assert error.reason == SyncSays.TOO_LARGE
    assert browser.answer.reader.cancelled and browser.answer.reader.read_count < 60


def test_an_answer_that_declares_a_length_past_the_bound_is_not_read(browser):
    browser.answer = Response(headers={"content-length": str(10**9)}, chunks=[b"{}"])
    assert failure(lambda c: c.get("m1")).reason == SyncSays.TOO_LARGE
    assert browser.answer.reader.read_count == 0


def test_a_stalled_answer_ends_at_the_deadline_and_the_request_is_aborted(browser):
    browser.answer = Response(chunks=[b'{"results":'], stall=True)
    started = time.monotonic()
    error = failure(lambda c: c.changes(0), timeout=0.5)
    assert error.reason == SyncSays.TOO_SLOW and time.monotonic() - started < 3
    assert browser.controllers[0].aborted


def test_a_quiet_longpoll_in_the_browser_is_quiet(browser, monkeypatch):
    monkeypatch.setattr(couch_module, "LONGPOLL_GRACE", 0.2)
    browser.answer = Response(chunks=[b'{"results":[\n'], stall=True)
    feed = attempt(lambda c: c.changes(5, longpoll=True, wait=0.3))
    assert feed.quiet and feed.last_seq == 5


def test_a_server_that_answers_but_not_to_this_page_is_a_cors_refusal(browser, monkeypatch):
    monkeypatch.setattr(couch_module, "in_browser", lambda: True)
    browser.answer = None
    error = failure(lambda c: c.get("m1"))
    assert error.reason == SyncSays.CORS_REFUSED and ORIGIN in str(error) and "CORS" in str(error)
    (url, options), *_ = browser.probes
    assert url == "https://couch.example.org/" and options["mode"] == "no-cors"
    check = attempt(lambda c: c.check())
    assert (check.reachable, check.cors, check.problem.reason) == (True, False, SyncSays.CORS_REFUSED)


def test_a_server_that_does_not_answer_at_all_is_unreachable(browser):
    browser.answer, browser.server_answers = None, False
    assert failure(lambda c: c.get("m1")).reason == SyncSays.UNREACHABLE


def test_a_redirect_is_not_followed(browser):
    browser.answer = Response(status=0, type="opaqueredirect")
    assert failure(lambda c: c.get("m1")).reason == SyncSays.REDIRECTED


def test_a_check_in_the_browser_says_cors_is_fine_once_the_server_answered(browser, monkeypatch):
    monkeypatch.setattr(couch_module, "in_browser", lambda: True)
    answers = iter([Response(chunks=[b'{"version": "3.3.3"}']),
                    Response(chunks=[b'{"ok": true, "userCtx": {"name": "anna", "roles": []}}']),
                    Response(chunks=[b'{"db_name": "club", "doc_count": 3, "update_seq": "3-x"}'])])

    async def next_answer(url: str, **options: Any) -> Response:
        return next(answers)

    sys.modules["pyodide.http"].pyfetch = next_answer
    check = attempt(lambda c: c.check())
    assert check.ok and check.cors is True and check.may_create is False


def test_outside_a_browser_the_fetch_transport_cannot_be_made():
    code = "from companion.sync.transport import FetchTransport\ntry:\n    FetchTransport()\nexcept ImportError:\n" \
           "    print('refused')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "refused"
