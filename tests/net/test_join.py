"""The join link, driven straight through the server's middleware (no sockets): it sends the browser only to
this server's own paths, and wrong codes are counted per source (an IPv4 address, an IPv6 /64) and from all
sources together, on a clock of the test's own."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import given, settings, strategies as st

from companion.net.access import Access, CURRENT, TableCode, Throttle
from companion.net.guard import Guard
from companion.net.hosts import is_loopback, source_of

from ..loop import run

PORT = 8550
CODE = "K7P2QX"
BASE = f"http://127.0.0.1:{PORT}/"


class Ticking:
    """A clock that moves only when told to."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _served(scope, receive, send):
    """What the app behind the guard would answer: who it thinks the client is."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.close", "code": 1000, "reason": str(CURRENT.get())})
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"the app"})


def guard(clock: Ticking | None = None) -> Guard:
    throttle = Throttle(clock=clock) if clock else Throttle()
    return Guard(_served, port=PORT, hostnames=frozenset({"127.0.0.1"}),
                 code=TableCode(CODE, PORT, throttle=throttle))


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


def test_wrong_codes_from_one_ipv6_network_count_as_one_source():
    g = guard(Ticking())
    for k in range(1, 6):                                       # one phone, a new privacy address each time
        assert get(g, "/", client=f"2001:db8:1:2::{k:x}")[0] == 303
    assert get(g, "/", client="2001:db8:1:2:ffff::1")[0] == 429
    assert get(g, "/", code=CODE, client="2001:db8:1:2::99")[0] == 429   # even the right code, for a while
    assert get(g, "/", client="2001:db8:1:3::1")[0] == 303     # the next network is another home


def test_ipv4_clients_of_an_ipv6_socket_are_counted_each_by_its_own_address():
    g = guard(Ticking())
    for _ in range(5):
        get(g, "/", client="::ffff:192.0.2.1")
    assert get(g, "/", client="::ffff:192.0.2.1")[0] == 429
    assert get(g, "/", client="192.0.2.1")[0] == 429              # the same phone, however the socket saw it
    assert get(g, "/", client="::ffff:192.0.2.2")[0] == 303       # not every IPv4 phone at once


def test_two_hundred_addresses_get_few_guesses_and_fewer_each_hour():
    """The probe made 1,000 guesses at 22 a second from 200 IPv6 addresses; per address alone they would
    have had 60,000 an hour."""
    clock = Ticking()
    g = guard(clock)

    async def attack() -> dict[int, int]:
        start, heard, tries = clock.now, {1: 0, 2: 0}, 0
        while clock.now - start < 2 * 3600:
            address = f"2001:db8:{tries % 200:x}::1"               # 200 networks, a guess from each in turn
            if (await ask(g, "/", client=address))[0] == 303:
                heard[1 if clock.now - start < 3600 else 2] += 1
                clock.now += 1 / 22
            else:
                clock.now += 1  # refused, it asks again each second: asking faster only slows the test
            tries += 1
        return heard

    heard = run(attack())
    assert heard[1] <= 120 and heard[2] <= 20, heard


def test_a_person_who_mistypes_the_code_gets_in_and_the_wait_shrinks_again_after_a_quiet_hour():
    clock = Ticking()
    g = guard(clock)
    assert get(g, "/", code="K7P2OX", client="192.0.2.7")[0] == 303          # a typo
    status, headers = get(g, "/", code="k7p2qx", client="192.0.2.7")
    assert status == 303 and "set-cookie" in headers
    for round_ in range(3):                                                  # three attacks in a row
        for k in range(20):
            get(g, "/", client=f"198.51.100.{k + 20 * round_}")
        clock.now += 60 * 2 ** round_ - 1
        assert get(g, "/", code=CODE, client="192.0.2.8")[0] == 429
        clock.now += 1
    assert get(g, "/", code=CODE, client="192.0.2.8")[0] == 303
    clock.now += 2 * 3600                                                    # a quiet evening later
    for k in range(20):
        get(g, "/", client=f"203.0.113.{k}")
    clock.now += 61
    assert get(g, "/", code=CODE, client="192.0.2.9")[0] == 303              # a minute's wait, not eight


@pytest.mark.parametrize("address, loopback, source", [
    ("127.0.0.1", True, "127.0.0.1"), ("::1", True, "::/64"), ("::ffff:127.0.0.1", True, "127.0.0.1"),
    ("::ffff:192.0.2.1", False, "192.0.2.1"), ("2001:db8:1:2:3:4:5:6", False, "2001:db8:1:2::/64"),
    ("192.0.2.1", False, "192.0.2.1")])
def test_an_address_is_read_as_the_client_has_it(address, loopback, source):
    assert (is_loopback(address), source_of(address)) == (loopback, source)


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
