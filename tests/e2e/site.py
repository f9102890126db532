"""The browser build's site for the browser tests: built once a session (`build_site`, conftest's `site`),
served by a plain static server, and opened in a phone's browser profile that can be closed or killed.

The site is built when dist-pwa/ is missing or older than its inputs (pwa/build.py): first the pinned wheels
are fetched (the package index only, cached in build/pwa/), then the build runs with every proxy pointing
nowhere and pip told to use no index, so a step that downloaded anything else would fail the test.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock

from tests.ports import free_port

from tests.app_server import ROOT

from .chromium import CHROMIUM, CHROMIUM_ARGS, PHONE
from .driver import Driver

DIST = ROOT / "dist-pwa"
NO_NETWORK = {"HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9",
              "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "NO_PROXY": "", "no_proxy": "",
              "PIP_NO_INDEX": "1"}
"""Every way out closed: only what is already on the machine can be used."""
BOOT = 180_000
"""Milliseconds a start may take on a loaded 2-core machine (a first start is 10-15 s when quiet)."""


@functools.cache
def build_site() -> Path:
    """dist-pwa/, built now unless it is fresh (once a test session; test processes started together take
    turns, and the later ones find it fresh). Returns the folder."""
    (ROOT / "build").mkdir(exist_ok=True)
    with FileLock(ROOT / "build" / "pwa-site.lock"):
        subprocess.run([sys.executable, "-m", "pwa.build", "--fetch-only"], cwd=ROOT, check=True)
        done = subprocess.run([sys.executable, "-m", "pwa.build", "--if-stale"], cwd=ROOT,
                              env={**os.environ, **NO_NETWORK}, capture_output=True, text=True)
    assert done.returncode == 0, f"the build failed with the network closed:\n{done.stdout}\n{done.stderr}"
    return DIST


class StaticServer:
    """`python -m http.server` on 127.0.0.1 serving the site; `stop()` takes the origin off the network."""

    def __init__(self, root: Path):
        self.root, self.port, self.proc = root, free_port(), None
        self.origin = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.origin}/?hooks=1&flash=2"

    def start(self) -> StaticServer:
        self.proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(self.port),
                                      "-d", str(self.root)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("http.server did not start")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Phone:
    """One browser profile, opened and closed (or killed) as a phone's browser is."""

    def __init__(self, playwright, profile: Path, url: str):
        self.playwright, self.profile, self.url = playwright, profile, url
        self.context = None

    def open(self, lang: str = "en-US", before_open=None, wait: bool = True) -> Driver:
        """Start the browser on this profile, in `lang` (the phone's language), and load the app;
        `before_open(page)` runs first (to watch the page's requests, to take its quota away). `wait=False`:
        only until the page is loaded, not the app (it starts while the test does something else)."""
        self.context = self.playwright.chromium.launch_persistent_context(
            str(self.profile), executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, f"--lang={lang}"],
            locale=lang, viewport=PHONE, service_workers="allow")
        page = self.context.pages[0] if self.context.pages else self.context.new_page()
        if before_open is not None:
            before_open(page)
        if not wait:
            page.goto(self.url)
            return Driver(page, self.url)
        return self.load(Driver(page, self.url))

    def load(self, app: Driver, again: bool = False, screen: bool = True) -> Driver:
        """Load the page (`again`: reload it; a new Python, the data read back from IndexedDB) and wait
        until the app is up, with the time a first start on a busy machine may take (`screen=False`: only
        until Flutter is; a page with a message has none of the app's screens)."""
        app.page.reload() if again else app.page.goto(self.url)
        return app.enable_semantics(BOOT, screen)

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None

    def kill(self) -> None:
        """SIGKILL every Chromium process of this profile (only the ones this test started), as a phone
        does to a tab it needs the memory of."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and b"chrom" in cmd[0] and any(str(self.profile).encode() in part for part in cmd):
                pids.append(int(entry.name))
        assert pids, "no Chromium process found for the profile"
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.context = None  # its connection is gone with the browser
        # The next launch on this profile must not find the old browser still holding it.
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in pids):
            assert time.monotonic() < deadline, "the killed Chromium processes did not end"
            time.sleep(0.05)


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie (dead, waiting for its parent to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def offline_ready(app: Driver, timeout: float = BOOT / 1000) -> dict:
    """Wait until the service worker controls the page and has cached the site, and the Python snapshot
    for the next start is made, or was there already ("used"), or failed (which a start survives)."""
    deadline = time.monotonic() + timeout
    state = {}
    while time.monotonic() < deadline:
        state = app.page.evaluate("""async () => {
            const controlled = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
            const caches_ = (await caches.keys()).filter(n => n.startsWith('xeri-'));
            let entries = 0;
            if (caches_.length) entries = (await (await caches.open(caches_[0])).keys()).length;
            return {controlled, entries, snapshot: (window.xeriSnapshot || {}).state,
                    persisted: (window.xeriStorage || {}).persisted};
        }""")
        if state["controlled"] and state["entries"] > 20 and state["snapshot"] in ("used", "done", "failed"):
            return state
        time.sleep(0.5)
    raise AssertionError(f"the site never became ready offline: {state}")


@contextlib.contextmanager
def device(site, playwright, profile: Path) -> Iterator[Phone]:
    server = StaticServer(site).start()
    phone = Phone(playwright, profile, server.url)
    phone.server = server  # type: ignore[attr-defined]
    try:
        yield phone
    finally:
        with contextlib.suppress(Exception):  # killed, or the test failed with it half-closed
            phone.close()
        server.stop()


def after_first_visit(phone: Phone) -> Phone:
    """A phone's browser after its first visit: the site cached by the service worker and the Python snapshot
    made (a start without one makes it in a second worker, about as long as a start: a test that closes the
    browser first leaves the next start without it again, and pays for both). Then closed."""
    offline_ready(phone.open())
    phone.close()
    return phone


def resume(app: Driver) -> None:
    """From the first screen to the match in progress."""
    if app.wait_any("continue-match", "end-hand", timeout=BOOT) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")


def xeris(app: Driver, seat: int) -> int:
    return int(app.text_of(f"xeri-{seat}").split()[-1])
