"""The browser build (dist-pwa/) on a phone's everyday browser: one profile shared by these tests, warm from
the start (the site in the service worker's cache and the Python snapshot made), as a phone is on every day
after its first visit (that one is test_pwa.py's). Without it every start here booted Python without a
snapshot and made one in the background, which the next close threw away: 8-10 s a start instead of 3-4. Each test starts its own match; the one that looks at the whole
history runs first. What they show: a backup taken in through the file picker (and its leaderboard, offline)
and given back as a download,
a hand kept through a killed browser, a second tab and a browser that refuses storage told in words.
"""

from __future__ import annotations

import contextlib
import json
import zipfile

import pytest

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.storage import Store
from tests.flows import enter_hand, new_match, start_two_player_match, total
from tests.play import backups, play
from tests.seed import hand

from .driver import Driver
from .pixels import decode_png
from .site import BOOT, after_first_visit, device, resume, xeris

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.pwa]


@pytest.fixture(scope="module")
def everyday(site, playwright, tmp_path_factory):
    with device(site, playwright, tmp_path_factory.mktemp("pwa") / "profile") as kept:
        yield after_first_visit(kept)


@pytest.fixture
def warm(everyday):
    """One phone's browser profile for the tests where a first visit is not the point: it starts from the
    Python snapshot and the service worker's cache, as a phone does every day. Each
    test starts its own match; the browser is closed (or was killed) between tests."""
    yield everyday
    with contextlib.suppress(Exception):
        everyday.close()


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

    app.page.context.set_offline(True)               # the leaderboard of what came in, with no network:
    try:                                              # openskill ships in the build
        app.tap("back")
        app.tap("open-ratings")
        app.wait_id("rating-4")
        assert app.text_of("ratings-counted") == "2 matches rated"
        assert {app.text_of(f"rating-{k}").split(",")[0][3:] for k in range(1, 5)} == {"Eleni", "Nikos", "Anna", "Ben"}
        assert "1,1" in app.text_of("rating-1")     # a rating over 1,000, said by Babel (it failed in the zip)
        app.tap("rating-1")                          # a player's page: percentages and decimals, Babel's too
        app.wait_id("rating-chart")
        assert app.text_of("stat-win-rate").startswith("win rate: 100%")
        app.tap("back")
        app.tap("back")
        app.tap("open-history")
        app.wait_id("export-all")
    finally:
        app.page.context.set_offline(False)

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


def test_the_phone_saves_the_picture_of_a_past_match_drawn_by_its_own_flutter(warm, tmp_path):
    # After the backup above: its matches are in this browser's history. A window wider than the picture and
    # less tall than it: the picture is captured in bands and joined (`ui.pngcut`), in Pyodide's Python.
    app = warm.open()
    app.page.set_viewport_size({"width": 1100, "height": 1000})
    if app.wait_any("open-history", "end-hand", timeout=BOOT) == "end-hand":
        app.tap("back")
    app.tap("open-history")
    app.wait_id("export-all")
    past = sorted(app.rows())[0]
    app.tap(f"history-{past}")
    app.wait_id("record-summary")
    with app.page.expect_download(timeout=BOOT) as download:
        app.tap("save-picture-past", wait=False)      # a page action: no intent for the app to count
    app.see("Picture saved to your downloads.", timeout=BOOT)
    assert download.value.suggested_filename.startswith("xeri-score-sheet-")
    data = download.value.path().read_bytes()
    (tmp_path / "picture.png").write_bytes(data)      # to look at
    width, height, rows = decode_png(data)
    assert width == 1080 and 1000 < height < 3000, (width, height)
    assert len({row[x:x + 3] for row in rows[::9] for x in range(0, width * 3, 27)}) > 20    # drawn on, not blank


def test_a_hand_shown_as_saved_is_there_after_the_browser_is_killed_at_once(warm):
    app = warm.open()
    start_two_player_match(app)
    assert (total(app, 0), total(app, 1)) == (0, 0)
    enter_hand(app)                                   # returns once the page shows it saved
    saved = (total(app, 0), total(app, 1))
    assert saved == (3 + 12 + 1, 8 + 1)               # most cards, counting, the 10♦; counting, the 2♣
    warm.kill()

    app = warm.open()
    resume(app)
    assert (total(app, 0), total(app, 1)) == saved
    assert "Hand 2" in app.screen_text()


def test_a_second_tab_is_told_the_app_is_open_in_another(warm):
    app = warm.open()
    app.wait_any("new-match", "end-hand", timeout=BOOT)   # home, or the table this phone was at
    other = warm.load(Driver(warm.context.new_page(), warm.url), screen=False)
    other.see("already open in another tab", timeout=BOOT)
    other.wait_id("try-again")
    new_match(app)                                    # the first tab goes on as before
    app.wait_id("start-match")


def test_a_browser_that_refuses_storage_says_so_and_the_app_still_runs(warm):
    # No quota for the origin (DevTools' Storage.overrideQuotaForOrigin; 0 would mean "no override"):
    # IndexedDB opens and reads, but refuses every write, as on a full phone. The first save says so (after
    # the flush's time limit: IDBFS never answers a refused transaction); later ones show at once.
    def no_quota(page):
        page.context.new_cdp_session(page).send("Storage.overrideQuotaForOrigin",
                                                {"origin": warm.server.origin, "quotaSize": 1})

    app = warm.open(before_open=no_quota)
    if app.wait_any("new-match", "end-hand", timeout=BOOT) == "end-hand":
        app.tap("back")        # the phone opened at its table: its first write is the place it keeps, at home
        app.see("This browser did not keep the last change", timeout=60_000)
        start_two_player_match(app)
    else:
        start_two_player_match(app)                       # its first write is the match
        app.see("This browser did not keep the last change", timeout=60_000)
    app.tap("xeri-0")                                 # shown at once from now on, without waiting
    assert xeris(app, 0) == 1
