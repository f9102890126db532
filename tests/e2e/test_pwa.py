"""The browser build (`make pwa`, dist-pwa/) in Chromium: the app with its Python in the tab, served by a
plain static server, its data in IndexedDB, offline once installed.

The site is built once a session (tests/e2e/site.py). Here, a phone's first visit on a browser profile of
its own (a persistent one, as a phone keeps): a match kept across a reload and a browser restart with the
server gone (the service worker serves everything), in the phone's language; an installable manifest; and
what the build leaves out of a first visit.
Its everyday use, on a warm profile: test_pwa_everyday.py.
"""

from __future__ import annotations

import json
import re
import socket

import pytest

from companion.i18n import t
from tests.flows import enter_hand, start_two_player_match, total

from .site import BOOT, device, offline_ready, xeris

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.pwa]


@pytest.fixture
def fresh(site, playwright, tmp_path):
    """A phone's browser on a profile of its own: the app's first visit."""
    with device(site, playwright, tmp_path / "profile") as phone:
        yield phone


def test_a_match_survives_a_reload_and_a_browser_restart_offline_and_goes_on_there(fresh):
    app = fresh.open()
    start_two_player_match(app)
    app.tap("xeri-0")
    enter_hand(app)                                   # Anna's live xeri is in the hand saved
    saved = (total(app, 0), total(app, 1))
    assert saved == (3 + 12 + 1 + 10, 8 + 1)      # most cards, counting, 10♦, the xeri; counting, 2♣
    app.tap("xeri-1")                                 # a live xeri of the next hand
    assert xeris(app, 1) == 1

    fresh.load(app, again=True)
    assert app.wait_any("continue-match", "end-hand", timeout=BOOT) == "end-hand"   # back at its table
    assert (total(app, 0), total(app, 1)) == saved
    assert xeris(app, 1) == 1

    ready = offline_ready(app)
    assert ready["snapshot"] in ("used", "done"), ready   # "used": the page before the reload made it
    # Issue #27: the script fonts are not part of a first visit; an English page never fetched them.
    assert not [name for name in cached(app) if "/fonts/XeriHangul" in name or "/fonts/XeriEmoji" in name]
    # The same phone shows Korean once while online: the worker keeps the Hangul font it fetched then.
    fresh.close()
    app = fresh.open(lang="ko-KR")
    app.see(t("nav.rules", "ko"), timeout=BOOT)
    app.wait_page(HANGUL_CACHED, None, 60_000, lambda: f"the Hangul font kept by the worker (cached: {cached(app)})")
    fresh.close()
    fresh.server.stop()                               # from now on nothing answers at that address
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", fresh.server.port), timeout=1)

    app = fresh.open()
    assert app.page.evaluate("navigator.serviceWorker.controller !== null")
    assert app.wait_any("continue-match", "end-hand", timeout=BOOT) == "end-hand"   # a restart too
    assert (total(app, 0), total(app, 1)) == saved
    assert xeris(app, 1) == 1
    enter_hand(app, most=1, counting=(1, 12), ten=1, two=0)
    assert (total(app, 0), total(app, 1)) == (saved[0] + 8 + 1, saved[1] + 3 + 12 + 1 + 10)  # Ben's live xeri
    marks = app.page.evaluate("(window.xeriMarks || []).map(m => m.name)")
    assert "worker:pyodide-loaded-from-snapshot" in marks   # the second start came from the snapshot

    # In Korean again, offline: the app speaks the phone's language, and the Hangul font, shown once
    # online, comes from the worker's cache at the path the app asks for.
    fresh.close()
    app = fresh.open(lang="ko-KR")
    app.see(t("nav.rules", "ko"), timeout=BOOT)       # back at the table it was at, in Korean
    fonts = """() => performance.getEntriesByType("resource").filter(e => e.name.includes("/fonts/Xeri"))
                     .map(e => [e.name.split("/").pop(), e.responseStatus])"""
    app.wait_page(f"() => ({fonts})().some(([name, status]) => name === 'XeriHangul.woff2' && status === 200)",
                  None, 60_000, lambda: f"the Hangul font from the service worker (fonts loaded: {app.page.evaluate(fonts)})")
    assert all(status == 200 for _, status in app.page.evaluate(fonts)), app.page.evaluate(fonts)


HANGUL_CACHED = """async () => { for (const n of await caches.keys()) for (const r of await (await caches.open(n)).keys())
                                   if (r.url.endsWith('/fonts/XeriHangul.woff2')) return true; return false; }"""


def cached(app) -> list[str]:
    """The URLs the app's service worker has cached."""
    return app.page.evaluate("""async () => { const out = [];
        for (const n of await caches.keys()) for (const r of await (await caches.open(n)).keys()) out.push(r.url);
        return out; }""")


def test_a_korean_first_visit_keeps_the_hangul_font_for_offline_use(site, playwright, tmp_path):
    # The font is fetched before the service worker takes over (a first visit): the page tells the worker
    # what it fetched, and the worker keeps its lazy files (head.html, "cache-urls"). Then offline, Korean
    # still draws in Hangul.
    with device(site, playwright, tmp_path / "profile") as phone:
        app = phone.open(lang="ko-KR")
        app.wait_id("new-match", timeout=BOOT)
        offline_ready(app)
        app.wait_page(HANGUL_CACHED, None, 60_000, lambda: f"the Hangul font kept by the worker (cached: {cached(app)})")
        phone.close()
        phone.server.stop()
        app = phone.open(lang="ko-KR")
        app.wait_id("new-match", timeout=BOOT)
        fonts = """() => performance.getEntriesByType("resource").filter(e => e.name.includes("/fonts/XeriHangul"))
                         .map(e => e.responseStatus)"""
        app.wait_page(f"() => ({fonts})().includes(200)", None, 60_000,
                      lambda: f"the Hangul font offline (statuses: {app.page.evaluate(fonts)})")
        assert not [u for u in cached(app) if "/fonts/XeriEmoji" in u]   # no emoji shown: not downloaded


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


def test_the_built_site_leaves_out_what_a_first_visit_need_not_download(site):
    # Issue #27: the Material icon font cut to the app's icons, no Cupertino icons, the Python archives stored
    # (the host compresses them) and without the SBOMs and the standard library the app never imports.
    import zipfile

    from fontTools.ttLib import TTFont

    from pwa import build

    cmap = TTFont(site / build.ICON_FONT).getBestCmap()
    client = (site / "main.dart.js").read_text(encoding="utf-8")
    used = build.icon_codepoints(client, build.icons_used())
    assert not sorted(name for name, code in used.items() if code not in cmap)
    assert (site / build.ICON_FONT).stat().st_size < 40_000
    fonts = (site / "assets" / "FontManifest.json").read_text()
    assert "MaterialIcons" in fonts and "upertino" not in fonts
    assert not (site / "assets" / "packages" / "cupertino_icons").exists()
    with zipfile.ZipFile(site / "app.zip") as app, zipfile.ZipFile(site / "pyodide" / "python_stdlib.zip") as stdlib:
        for archive in (app, stdlib):
            assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        assert not [n for n in app.namelist() if "/sboms/" in n or n.endswith("direct_url.json")]
        assert any(n.startswith("__pypackages__/flet/") for n in app.namelist())
        assert not [n for n in app.namelist() if n.startswith(("__pypackages__/filelock/", "__pypackages__/platformdirs/"))]
        names = stdlib.namelist()
        # What a first visit imports is bytecode (Pyodide ships sources, compiled at every import); the rest stays.
        # Built without node, both stay sources (build-info.json says so).
        if json.loads((site / "build-info.json").read_text())["bytecode"]:
            assert {"typing.pyc", "encodings/__init__.pyc", "_pyodide/_base.pyc", "asyncio/__init__.pyc"} <= set(names)
            assert "typing.py" not in names and "csv.py" in names and "csv.pyc" not in names
        assert not [n for n in names if n.startswith(build.STDLIB_UNUSED)]
    # The script fonts only for a page that shows them: fetched then, and kept by the worker for offline use.
    from companion.ui.fonts import SCRIPT_FONTS

    worker = (site / "flutter_service_worker.js").read_text(encoding="utf-8")
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", worker, re.S).group(1))
    lazy = json.loads(re.search(r"const LAZY = new Set\((\[.*?\])\);", worker, re.S).group(1))
    for font in SCRIPT_FONTS:
        assert font.web_file not in precache and font.web_file in lazy and (site / font.web_file).is_file()
