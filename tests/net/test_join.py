"""The join link, driven straight through the server's middleware (no sockets): it sends the browser only to
this server's own paths."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import given, settings, strategies as st

from companion.net.access import Access, CURRENT, TableCode
from companion.net.guard import Guard
from companion.net.hosts import is_loopback

from ..loop import run

PORT = 8550
CODE = "K7P2QX"
BASE = f"http://127.0.0.1:{PORT}/"


async def _served(scope, receive, send):
    """What the app behind the guard would answer: who it thinks the client is."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.close", "code": 1000, "reason": str(CURRENT.get())})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"the app"})


def guard() -> Guard:
    return Guard(_served, port=PORT, hostnames=frozenset({"127.0.0.1"}), code=TableCode(CODE, PORT))


async def ask(g: Guard, path: str, code: str = "AAAAAA", client: str = "192.0.2.1") -> tuple[int, dict[str, str]]:
    """A GET of `path?code=…` from `client`: the status and the headers of the answer."""
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "root_path": "", "query_string": f"code={code}".encode(),
             "headers": [(b"host", f"127.0.0.1:{PORT}".encode())], "client": (client, 50000)}
    await g(scope, receive, send)
    start = sent[0]
    return start["status"], {k.decode(): v.decode("latin-1") for k, v in start["headers"]}


def get(g: Guard, path: str, code: str = "AAAAAA", client: str = "192.0.2.1") -> tuple[int, dict[str, str]]:
    """`ask`, from a test's own thread."""
    return run(ask(g, path, code, client))


def lands_here(location: str) -> bool:
    """True when a browser sent to `location` stays on this server: it reads a backslash as a slash."""
    return urlsplit(urljoin(BASE, location.replace("\\", "/"))).netloc == f"127.0.0.1:{PORT}"


@pytest.mark.parametrize("path", ["//evil.example/", "/\\evil.example/", "///evil.example/", "/\\/evil.example",
                                  "/./\\evil.example", "\\\\evil.example/", "//evil.example\r\nSet-Cookie: x=1",
                                  "/a\r\nLocation: http://evil.example/"])
def test_the_join_link_sends_the_browser_only_to_this_servers_own_paths(path):
    status, headers = get(guard(), path, code=CODE)
    assert status == 303 and lands_here(headers["location"]), headers["location"]
    assert "set-cookie" in headers and "\r" not in headers["location"] and "\n" not in headers["location"]


@settings(max_examples=200, deadline=None)
@given(path=st.text(st.characters(codec="utf-8"), max_size=40).map(lambda text: "/" + text))
def test_any_path_in_the_join_link_redirects_to_a_path_of_this_server(path):
    status, headers = get(guard(), path, code=CODE)
    location = headers["location"]
    assert status == 303 and location.isascii() and lands_here(location)
    assert location.startswith("/") and not location.startswith("//") and "\\" not in location


def test_the_join_link_keeps_its_own_path_and_the_rest_of_the_query():
    _, headers = get(guard(), "/history/anna", code=CODE)
    assert headers["location"] == "/history/anna"


@pytest.mark.parametrize("address, loopback", [
    ("127.0.0.1", True), ("::1", True), ("::ffff:127.0.0.1", True), ("::ffff:192.0.2.1", False),
    ("2001:db8:1:2:3:4:5:6", False), ("192.0.2.1", False), ("localhost", True), ("", False)])
def test_an_address_is_read_as_the_client_has_it(address, loopback):
    assert is_loopback(address) is loopback


def test_the_laptops_own_browser_through_an_ipv6_socket_is_its_owner():
    said: list[dict] = []

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        said.append(message)

    code = TableCode(CODE, PORT)
    scope = {"type": "websocket", "path": "/ws", "headers": [(b"host", f"127.0.0.1:{PORT}".encode()),
                                                             (b"origin", f"http://127.0.0.1:{PORT}".encode())],
             "client": ("::ffff:127.0.0.1", 50000)}
    run(Guard(_served, port=PORT, hostnames=frozenset({"127.0.0.1"}), code=code)(scope, receive, send))
    assert said[-1]["reason"] == str(Access.OWNER)
