"""The browser build (`make pwa`, dist-pwa/) in Chromium: the app with its Python in the tab, served by a
plain static server, its data in IndexedDB, offline once installed.

The site is built here when dist-pwa/ is missing or older than its inputs (pwa/build.py): first the
pinned wheels are fetched (the package index only, cached in build/pwa/), then the build runs with
every proxy pointing nowhere and pip told to use no index, so a step that downloaded anything else
would fail the test. Each test has its own browser profile (a persistent one, as a phone keeps).

What a phone with no laptop needs: a match kept across a reload, a browser restart with the server gone
(the service worker serves everything) and a browser killed right after a save; a backup taken in
through the file picker and given back as a download; a second tab and a browser that refuses storage
told in words; an installable manifest.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.i18n import t
from companion.storage import Store
from tests.play import backups, play

from .conftest import CHROMIUM, CHROMIUM_ARGS, HOW_TO, PHONE, ROOT, free_port
from .driver import Driver
from .test_flows import enter_hand, start_two_player_match, total
from .test_history import hand, wait_rows, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.pwa]

DIST = ROOT / "dist-pwa"
NO_NETWORK = {"HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9",
              "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "NO_PROXY": "", "no_proxy": "",
              "PIP_NO_INDEX": "1"}
"""Every way out closed: only what is already on the machine can be used."""
BOOT = 180_000
"""Milliseconds a start may take on a loaded 2-core machine (a first start is 10-15 s when quiet)."""


def build_site() -> Path:
    """dist-pwa/, built now unless it is fresh. Returns the folder."""
    subprocess.run([sys.executable, "-m", "pwa.build", "--fetch-only"], cwd=ROOT, check=True)
    done = subprocess.run([sys.executable, "-m", "pwa.build", "--if-stale"], cwd=ROOT, env={**os.environ, **NO_NETWORK},
                          capture_output=True, text=True)
    assert done.returncode == 0, f"the build failed with the network closed:\n{done.stdout}\n{done.stderr}"
    return DIST


@pytest.fixture(scope="module")
def site():
    if not Path(CHROMIUM).exists():
        pytest.skip(HOW_TO)
    return build_site()


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
        placeholder = app.page.locator("flt-semantics-placeholder")
        placeholder.wait_for(state="attached", timeout=BOOT)
        placeholder.dispatch_event("click")
        if screen:
            app.by_id("app-seen").wait_for(state="attached", timeout=BOOT)
        return app

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


@pytest.fixture
def phone(site, playwright, tmp_path):
    server = StaticServer(site).start()
    device = Phone(playwright, tmp_path / "profile", server.url)
    device.server = server
    yield device
    try:
        device.close()
    except Exception:  # killed, or the test failed with it half-closed
        pass
    server.stop()


def resume(app: Driver) -> None:
    """From the first screen to the match in progress."""
    if app.wait_any("continue-match", "end-hand", timeout=BOOT) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")


def xeris(app: Driver, seat: int) -> int:
    return int(app.text_of(f"xeri-{seat}").split()[-1])


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


def test_a_match_survives_a_reload_and_a_browser_restart_offline_and_goes_on_there(phone):
    app = phone.open()
    start_two_player_match(app)
    app.tap("xeri-0")
    enter_hand(app)                                   # Anna's live xeri is in the hand saved
    saved = (total(app, 0), total(app, 1))
    assert saved == (3 + 12 + 1 + 10, 8 + 1)      # most cards, counting, 10♦, the xeri; counting, 2♣
    app.tap("xeri-1")                                 # a live xeri of the next hand
    assert xeris(app, 1) == 1

    phone.load(app, again=True)
    resume(app)
    assert (total(app, 0), total(app, 1)) == saved
    assert xeris(app, 1) == 1

    ready = offline_ready(app)
    assert ready["snapshot"] in ("used", "done"), ready   # "used": the page before the reload made it
    phone.close()
    phone.server.stop()                               # from now on nothing answers at that address
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", phone.server.port), timeout=1)

    app = phone.open()
    assert app.page.evaluate("navigator.serviceWorker.controller !== null")
    resume(app)
    assert (total(app, 0), total(app, 1)) == saved
    assert xeris(app, 1) == 1
    enter_hand(app, most=1, counting=(1, 12), ten=1, two=0)
    assert (total(app, 0), total(app, 1)) == (saved[0] + 8 + 1, saved[1] + 3 + 12 + 1 + 10)  # Ben's live xeri
    marks = app.page.evaluate("(window.xeriMarks || []).map(m => m.name)")
    assert "worker:pyodide-loaded-from-snapshot" in marks   # the second start came from the snapshot

    # The same phone set to Korean, still offline: the app speaks the phone's language, and the Hangul
    # font, never asked for before, comes from the worker's cache at the path the app asks for.
    phone.close()
    app = phone.open(lang="ko-KR")
    app.see(t("home.continue", "ko"), timeout=BOOT)
    fonts = """() => performance.getEntriesByType("resource").filter(e => e.name.includes("/fonts/Xeri"))
                     .map(e => [e.name.split("/").pop(), e.responseStatus])"""
    wait_until(lambda: ["XeriHangul.woff2", 200] in app.page.evaluate(fonts),
               lambda: f"the Hangul font from the service worker (fonts loaded: {app.page.evaluate(fonts)})", timeout=60)
    assert all(status == 200 for _, status in app.page.evaluate(fonts)), app.page.evaluate(fonts)


def test_a_hand_shown_as_saved_is_there_after_the_browser_is_killed_at_once(phone):
    app = phone.open()
    start_two_player_match(app)
    enter_hand(app)
    first = (total(app, 0), total(app, 1))
    enter_hand(app, most=1, counting=(1, 12), ten=1, two=0)   # returns once the page shows it saved
    second = (total(app, 0), total(app, 1))
    assert second != first
    phone.kill()

    app = phone.open()
    resume(app)
    assert (total(app, 0), total(app, 1)) == second
    assert "Hand 2" in app.screen_text()


def test_the_phone_takes_a_backup_from_the_file_picker_and_gives_one_as_a_download(phone, tmp_path):
    # The history of another device, as its export wrote it (`python -m companion export`, or its
    # history screen): two finished matches.
    with Store(tmp_path / "laptop") as store:
        matches = {play(store).start(Match(rules=preset("classic"), sides=(Side(a), Side(b)), goal=Goal(hands=1),
                                           hands=(hand(12, 0, 1),))).id for a, b in (("Eleni", "Nikos"), ("Anna", "Ben"))}
        backup = tmp_path / "xeri-history-laptop.zip"
        backup.write_bytes(backups(store).archive())

    app = phone.open()
    app.tap("open-history")
    app.wait_id("export-all")
    with app.page.expect_file_chooser(timeout=BOOT) as chooser:
        app.tap("import-files", wait=False)           # the app hears of it once a file is chosen
    chooser.value.set_files(str(backup))
    app.see("2 matches imported.", timeout=60_000)
    wait_rows(app, matches)

    with app.page.expect_download(timeout=60_000) as download:
        app.tap("export-all")
    app.see("History exported: the zip is being downloaded.", timeout=60_000)
    assert download.value.suggested_filename.startswith("xeri-history")
    with zipfile.ZipFile(download.value.path()) as zf:
        exported = {json.loads(zf.read(n))["meta"]["id"] for n in zf.namelist() if n.startswith("matches/")}
        assert "history.csv" in zf.namelist()
    assert exported == matches

    phone.load(app, again=True)                       # the import was kept in this browser
    app.tap("open-history")
    app.wait_id("export-all")
    wait_rows(app, matches)


def test_a_second_tab_is_told_the_app_is_open_in_another(phone):
    app = phone.open()
    app.wait_id("new-match")
    other = phone.load(Driver(phone.context.new_page(), phone.url), screen=False)
    other.see("already open in another tab", timeout=BOOT)
    other.wait_id("try-again")
    app.tap("new-match")                              # the first tab goes on as before
    app.wait_id("start-match")


def test_a_browser_that_refuses_storage_says_so_and_the_app_still_runs(phone):
    # No quota for the origin (DevTools' Storage.overrideQuotaForOrigin; 0 would mean "no override"):
    # IndexedDB opens and reads, but refuses every write, as on a full phone. The first save says so (after
    # the flush's time limit: IDBFS never answers a refused transaction); later ones show at once.
    def no_quota(page):
        page.context.new_cdp_session(page).send("Storage.overrideQuotaForOrigin",
                                                {"origin": phone.server.origin, "quotaSize": 1})

    app = phone.open(before_open=no_quota)
    start_two_player_match(app)
    app.see("This browser did not keep the last change", timeout=60_000)
    app.tap("xeri-0")                                 # shown at once from now on, without waiting
    assert xeris(app, 0) == 1


def test_the_built_site_is_installable_and_names_the_app(site):
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "Xeri Companion" and manifest["short_name"] == "Xeri"
    assert manifest["theme_color"].upper() == "#1B6B2F" and manifest["display"] == "standalone"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        data = (site / icon["src"]).read_bytes()
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == icon["sizes"]
    info = json.loads((site / "build-info.json").read_text())
    worker = (site / "flutter_service_worker.js").read_text()
    assert info["build"] in worker and "app.zip?b=" + info["build"] in worker
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "xeri-loading" in index and "Xeri Companion" in index
