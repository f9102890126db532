"""The table code in a real browser: a phone that opens the app's address watches; the join link (or the QR
code, which holds it) lets it keep score; a page of another site cannot open the app's WebSocket."""

from __future__ import annotations

import http.server
import threading

import pytest

from tests.app_server import LAN, needs_lan

from .chromium import PHONE
from .driver import Driver

pytestmark = [pytest.mark.e2e, pytest.mark.slow, needs_lan]

WATCHING = "This phone is watching."


def access_of(driver: Driver) -> str:
    """The access the app gave this page, as its test hook says (`… access watcher`)."""
    node = driver.by_id("app-seen")
    label = (node.get_attribute("aria-label") or "") + " " + (node.text_content() or "")
    return label.split("access ")[-1].split()[0]


def wait_access(driver: Driver, wanted: str, seconds: float = 30) -> None:
    driver.wait_text("app-seen", f"access {wanted}", int(seconds * 1000))   # the label ends `… access watcher`


def test_a_phone_without_the_code_watches_and_with_the_join_link_keeps_score(browser, lan_app):
    context = browser.new_context(viewport=PHONE)
    try:
        phone = Driver(context.new_page(), lan_app.at(LAN) + "/")
        phone.open()
        assert access_of(phone) == "watcher"
        phone.see(WATCHING)
        phone.wait_id("join-code")
        # Nothing that changes the table is offered (and the server refuses such an intent anyway:
        # tests/ui/test_access.py, tests/net/test_guard.py).
        for control in ("new-match", "open-settings"):
            assert phone.by_id(control).count() == 0, control
        phone.tap("open-history")
        phone.wait_id("filter-rules-classic")
        for control in ("import-files", "export-all"):
            assert phone.by_id(control).count() == 0, control
        phone.tap("back")

        phone.type("join-code", lan_app.code)                  # typed as a person reads it off the laptop
        phone.tap("join", wait=False)                           # the tab opens the join link and comes back
        phone.page.wait_for_url(lan_app.at(LAN) + "/")
        phone.enable_semantics()
        assert phone.page.url == lan_app.at(LAN) + "/"         # the code left the address bar
        assert "xeri_table" not in phone.page.evaluate("document.cookie")  # HttpOnly: no script reads it
        wait_access(phone, "player")
        phone.tap("new-match")
        phone.wait_id("start-match")

        phone.url = lan_app.at(LAN) + f"/?code={lan_app.code}"  # the link the QR code holds works the same
        phone.open()
        wait_access(phone, "player")
    finally:
        context.close()


class _Page(http.server.BaseHTTPRequestHandler):
    """A page of another site that tries the app's WebSocket, and says what happened in its title."""

    target = ""

    def do_GET(self):
        body = (f"<html><head><title>trying</title></head><body><script>"
                f"const ws = new WebSocket({self.target!r});"
                "ws.onopen = () => document.title = 'opened';"
                "ws.onerror = () => document.title = 'refused';"
                "</script></body></html>").encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_page_of_another_site_cannot_open_the_apps_websocket(browser, lan_app):
    _Page.target = f"ws://{LAN}:{lan_app.port}/ws"
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        page.wait_for_function("() => document.title !== 'trying'", timeout=15_000)
        assert page.title() == "refused"
        # The same browser opens the app's WebSocket from the app's own page: only the origin differs.
        page.goto(lan_app.at(LAN) + "/")
        opened = page.evaluate("""() => new Promise(done => {
            const ws = new WebSocket('ws://' + location.host + '/ws');
            ws.onopen = () => { ws.close(); done('opened'); };
            ws.onerror = () => done('refused');
        })""")
        assert opened == "opened"
    finally:
        context.close()
        other.shutdown()
