"""The app on the network: only its own addresses are served, no other site may use it from a browser,
and a phone without the table code watches; the server, not the page, refuses what a watcher sends."""

from __future__ import annotations

import sys

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.app_server import LAN, needs_lan
from companion.i18n import t

from ..loop import run
from .flet_client import Phone, connect

pytestmark = pytest.mark.slow


def get(app, path: str = "/", address: str = "127.0.0.1", **headers: str) -> httpx.Response:
    return httpx.get(app.at(address) + path, headers=headers, follow_redirects=False, timeout=15)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "127.0.0.1",
                                  "localhost.evil.example:{port}", "", "[::2]:{port}"])
def test_a_request_naming_another_host_is_refused(lan_app, host):
    answer = get(lan_app, Host=host.format(port=lan_app.port))
    assert answer.status_code == 400 and answer.text == "Invalid Host header\n"


def test_this_machines_own_names_are_served(lan_app):
    for name in ["127.0.0.1", "localhost", "LOCALHOST", *([LAN] if LAN else [])]:
        answer = get(lan_app, Host=f"{name}:{lan_app.port}")
        assert answer.status_code == 200 and "<html" in answer.text.lower(), name


def test_a_loopback_app_refuses_its_lan_name(start_app):
    app = start_app(host="127.0.0.1")
    assert app.code is None and get(app).status_code == 200
    if LAN:
        assert get(app, Host=f"{LAN}:{app.port}").status_code == 400


@pytest.mark.parametrize("path", ["/", "/ws", "/assets/fonts/XeriSuits.ttf", "/main.dart.js", "/nothing-here"])
def test_no_answer_lets_another_site_read_it_and_none_may_be_framed(lan_app, path):
    answer = get(lan_app, path, Origin="http://evil.example")
    assert "access-control-allow-origin" not in answer.headers
    assert answer.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/oauth_callback"])
def test_the_web_frameworks_own_pages_are_not_served(lan_app, path):
    assert get(lan_app, path).status_code == 404


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1:{port}",
                                    None])
def test_a_websocket_from_another_origin_is_refused(lan_app, origin):
    async def attempt():
        with pytest.raises(InvalidStatus) as refused:
            await connect(lan_app.url, origin=origin.format(port=lan_app.port) if origin else None)
        assert refused.value.response.status_code == 403

    run(attempt())


def test_a_websocket_naming_another_host_is_refused_even_from_that_origin(lan_app):
    async def attempt():
        with pytest.raises(InvalidStatus) as refused:
            await connect(lan_app.url, origin="http://evil.example", host="evil.example")
        assert refused.value.response.status_code == 403

    run(attempt())


def test_the_join_link_sets_a_private_cookie_and_leaves_no_code_in_the_address(lan_app):
    answer = get(lan_app, f"/?code={lan_app.code.lower()}&lang=el")
    assert answer.status_code == 303 and answer.headers["location"] == "/?lang=el"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"xeri_table_{lan_app.port}=") and lan_app.code not in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    wrong = get(lan_app, "/?code=WRONG1")
    assert wrong.status_code == 303 and "set-cookie" not in wrong.headers


def test_guessing_codes_is_slowed_down_per_address(start_app):
    app = start_app()
    for _ in range(5):
        assert get(app, "/?code=AAAAAA").status_code == 303
    assert get(app, "/?code=AAAAAA").status_code == 429
    assert get(app, f"/?code={app.code}").status_code == 429      # even the right one, for a while


@needs_lan
def test_a_phone_without_the_code_watches_and_its_taps_are_refused_by_the_server(lan_app):
    async def as_phone():
        phone = await Phone.open(lan_app.at(LAN))
        try:
            assert b"access watcher" in phone.seen
            # The server sends a watching phone no control that changes the table, so there is nothing to
            # send a tap to; a write intent reached some other way is refused (tests/ui/test_access.py).
            for ident in (b"new-match", b"open-settings", b"start-match"):
                assert ident not in phone.seen, ident
            assert b"join-code" in phone.seen
        finally:
            await phone.close()

    run(as_phone())


@needs_lan
def test_a_phone_that_gave_the_code_keeps_score(lan_app):
    cookie = get(lan_app, f"/?code={lan_app.code}", address=LAN).headers["set-cookie"].split(";")[0]

    async def as_phone():
        phone = await Phone.open(lan_app.at(LAN), cookie=cookie)
        try:
            assert b"access player" in phone.seen
            await phone.tap("new-match")
            await phone.read_until(b"start-match")           # the new-match form opened
        finally:
            await phone.close()

    run(as_phone())


def test_the_device_running_the_app_keeps_score_without_a_code(lan_app):
    async def on_the_laptop():
        phone = await Phone.open(lan_app.url)
        try:
            assert b"access owner" in phone.seen
        finally:
            await phone.close()

    run(on_the_laptop())


@pytest.mark.parametrize("header, lang", [("tr-TR,tr;q=0.9,en;q=0.8", "tr"), ("fr-FR,ko;q=0.7", "ko"),
                                          ("el;q=0,de", "en")])
def test_each_phone_first_sees_the_app_in_its_browsers_language(lan_app, header, lang):
    async def phone_in(language):
        phone = await Phone.open(lan_app.url, language=language)
        try:
            return phone.seen
        finally:
            await phone.close()

    seen = run(phone_in(header))
    assert t("home.new_match", lang).encode() in seen


@pytest.mark.parametrize("path, location", [("//evil.example/", "/evil.example/"),
                                            ("/%5Cevil.example/", "/%5Cevil.example/")])
def test_the_join_link_redirects_only_to_this_servers_own_paths(lan_app, path, location):
    answer = httpx.get(f"{lan_app.url}{path}?code={lan_app.code}", follow_redirects=False, timeout=15)
    assert answer.status_code == 303 and answer.headers["location"] == location


def test_a_line_break_in_the_join_links_path_is_no_traceback(start_app):
    app = start_app()                                          # a log of its own: nothing else was asked of it
    answer = httpx.get(f"{app.url}/%0D%0ASet-Cookie:%20x=1?code={app.code}", follow_redirects=False, timeout=15)
    assert answer.status_code == 303 and answer.headers["location"] == "/%0D%0ASet-Cookie:%20x=1"
    assert "set-cookie" in answer.headers and "x=1" not in answer.headers["set-cookie"]
    assert app.stop() == 0 and "Traceback" not in app.log.read_text()


@pytest.mark.skipif(sys.platform != "linux", reason="binds 127.0.1.x, which only Linux answers on loopback")
def test_guessing_codes_from_many_addresses_makes_every_address_wait(start_app):
    app = start_app()

    def guess(code: str, address: str) -> int:
        with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=15) as client:
            return client.get(f"{app.url}/?code={code}", follow_redirects=False).status_code

    # Every 127.x.y.z is this machine's, and reaches the app as an address of its own.
    assert [guess("AAAAAA", f"127.0.1.{k}") for k in range(1, 21)] == [303] * 20
    assert guess(app.code, "127.0.2.1") == 429                 # a new address, the right code: everyone waits


def test_served_on_every_ipv6_address_the_laptops_own_browser_is_its_owner(start_app):
    app = start_app(host="::")                                # 127.0.0.1 arrives as ::ffff:127.0.0.1

    async def on_the_laptop():
        phone = await Phone.open(app.url)
        try:
            return phone.seen
        finally:
            await phone.close()

    assert b"access owner" in run(on_the_laptop())
