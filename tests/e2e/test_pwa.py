"""The browser build (`make pwa`, dist-pwa/) in Chromium: the app with its Python in the tab, served by a
plain static server, its data in IndexedDB, offline once installed.

The site is built once a session (tests/e2e/site.py). The first test has a browser profile of its own (a
persistent one, as a phone keeps): the first visit, the reload, the restart offline. The others share one
profile, warm after the first of them, as a phone is on every day after the first.

What a phone with no laptop needs: a match kept across a reload, a browser restart with the server gone
(the service worker serves everything) and a browser killed right after a save; a backup taken in
through the file picker and given back as a download; a second tab and a browser that refuses storage
told in words; an installable manifest.
"""

from __future__ import annotations

import contextlib
import json
import socket
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.i18n import t
from companion.storage import Store
from tests.flows import enter_hand, start_two_player_match, total
from tests.play import backups, play
from tests.seed import hand

from .driver import Driver, wait_until
from .site import BOOT, Phone, StaticServer, offline_ready

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.pwa]


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


@pytest.fixture
def phone(site, playwright, tmp_path):
    """A phone's browser on a profile of its own: the app's first visit."""
    with device(site, playwright, tmp_path / "profile") as fresh:
        yield fresh


@pytest.fixture(scope="module")
def everyday(site, playwright, tmp_path_factory):
    with device(site, playwright, tmp_path_factory.mktemp("pwa") / "profile") as kept:
        yield kept


@pytest.fixture
def warm(everyday):
    """One phone's browser profile for the tests where a first visit is not the point: after the first of
    them it starts from the Python snapshot and the service worker's cache, as a phone does every day. Each
    test starts its own match; the browser is closed (or was killed) between tests."""
    yield everyday
    with contextlib.suppress(Exception):
        everyday.close()


def resume(app: Driver) -> None:
    """From the first screen to the match in progress."""
    if app.wait_any("continue-match", "end-hand", timeout=BOOT) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")


def xeris(app: Driver, seat: int) -> int:
    return int(app.text_of(f"xeri-{seat}").split()[-1])


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


def test_the_phone_takes_a_backup_from_the_file_picker_and_gives_one_as_a_download(warm, tmp_path):
    # The history of another device, as its export wrote it (`python -m companion export`, or its
    # history screen): two finished matches.
    with Store(tmp_path / "laptop") as store:
        matches = {play(store).start(Match(rules=preset("classic"), sides=(Side(a), Side(b)), goal=Goal(hands=1),
                                           hands=(hand(12, 0, 1),))).id for a, b in (("Eleni", "Nikos"), ("Anna", "Ben"))}
        backup = tmp_path / "xeri-history-laptop.zip"
        backup.write_bytes(backups(store).archive())

    app = warm.open()
    app.tap("open-history")
    app.wait_id("export-all")
    with app.page.expect_file_chooser(timeout=BOOT) as chooser:
        app.tap("import-files", wait=False)           # the app hears of it once a file is chosen
    chooser.value.set_files(str(backup))
    app.see("2 matches imported.", timeout=60_000)
    app.wait_rows(matches)

    with app.page.expect_download(timeout=60_000) as download:
        app.tap("export-all")
    app.see("History exported: the zip is being downloaded.", timeout=60_000)
    assert download.value.suggested_filename.startswith("xeri-history")
    with zipfile.ZipFile(download.value.path()) as zf:
        exported = {json.loads(zf.read(n))["meta"]["id"] for n in zf.namelist() if n.startswith("matches/")}
        assert "history.csv" in zf.namelist()
    assert exported == matches

    warm.load(app, again=True)                       # the import was kept in this browser
    app.tap("open-history")
    app.wait_id("export-all")
    app.wait_rows(matches)


def test_a_hand_shown_as_saved_is_there_after_the_browser_is_killed_at_once(warm):
    app = warm.open()
    start_two_player_match(app)
    enter_hand(app)
    first = (total(app, 0), total(app, 1))
    enter_hand(app, most=1, counting=(1, 12), ten=1, two=0)   # returns once the page shows it saved
    second = (total(app, 0), total(app, 1))
    assert second != first
    warm.kill()

    app = warm.open()
    resume(app)
    assert (total(app, 0), total(app, 1)) == second
    assert "Hand 2" in app.screen_text()


def test_a_second_tab_is_told_the_app_is_open_in_another(warm):
    app = warm.open()
    app.wait_id("new-match")
    other = warm.load(Driver(warm.context.new_page(), warm.url), screen=False)
    other.see("already open in another tab", timeout=BOOT)
    other.wait_id("try-again")
    app.tap("new-match")                              # the first tab goes on as before
    app.wait_id("start-match")


def test_a_browser_that_refuses_storage_says_so_and_the_app_still_runs(warm):
    # No quota for the origin (DevTools' Storage.overrideQuotaForOrigin; 0 would mean "no override"):
    # IndexedDB opens and reads, but refuses every write, as on a full phone. The first save says so (after
    # the flush's time limit: IDBFS never answers a refused transaction); later ones show at once.
    def no_quota(page):
        page.context.new_cdp_session(page).send("Storage.overrideQuotaForOrigin",
                                                {"origin": warm.server.origin, "quotaSize": 1})

    app = warm.open(before_open=no_quota)
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
