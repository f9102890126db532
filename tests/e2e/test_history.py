"""The history in a real browser, through taps only: lists and filters, a past match with its chart and
what-if, a player's page, exporting everything, and deleting a match and bringing it back.

The data folder is filled through the Store API before the app starts (the `server` fixture below
replaces conftest's empty one for this module, so `app` opens the seeded app).
"""

from __future__ import annotations

import json
import zipfile

import pytest

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.storage import Store

from tests.app_server import AppServer
from tests.play import books, play
from tests.seed import Seeded, hand, seed_history
from datetime import UTC

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def seeded(tmp_path) -> Seeded:
    return seed_history(tmp_path / "data")


@pytest.fixture
def server(seeded):
    """The app on the seeded data folder (overrides conftest's `server`, which starts on an empty one)."""
    srv = AppServer(seeded.folder).start()
    yield srv
    srv.stop()


def open_history(app, seeded: Seeded) -> None:
    app.tap("open-history")
    app.wait_id("export-all")
    app.wait_rows(set(seeded.all))


def test_a_past_match_shows_its_sheet_chart_and_a_what_if_side_by_side(app, seeded):
    open_history(app, seeded)
    app.tap(f"history-{seeded.anna_ben}")
    app.wait_id("record-summary")
    assert "Ben wins the match." in app.text_of("record-status")
    app.see("1 hand, most hands won")
    app.wait_id("totals-chart")
    app.wait_id("hand-0")
    assert app.by_id("continue-abandoned").count() == 0

    app.tap("whatif-plain")                            # a jack xeri is worth 10: Ben 19, Anna wins
    app.wait_id("whatif-result")
    verdict = app.text_of("whatif-verdict")
    assert "Anna would win." in verdict and "A different result!" in verdict
    result = app.text_of("whatif-result")
    assert "played" in result and "what if" in result and "19" in result

    app.tap("whatif-jack25")                           # the same under plain rules, with the jack xeri worth 25
    app.wait_text("whatif-verdict", "Ben would win.")
    assert "34" in app.text_of("whatif-result")
    assert "different" not in app.text_of("whatif-verdict")

    # Pişti counts other cards: these hands cannot be rescored under it, so it is not offered, and it says why.
    assert app.by_id("whatif-pisti").count() == 0
    app.see("Not offered: Greek online, Pişti, because these hands were counted with another set of counting cards.")
    assert "Ben wins the match." in app.text_of("record-status")   # the stored match is unchanged

    app.tap("back")
    app.tap(f"history-{seeded.abandoned}")
    app.wait_id("continue-abandoned")
    assert "Stopped unfinished." in app.text_of("record-status")


def test_export_all_writes_a_zip_of_every_match_into_the_exports_folder(app, seeded):
    exports = seeded.folder / "exports"
    open_history(app, seeded)
    with app.page.expect_download() as download:      # a phone gets its own copy, too
        app.tap("export-all")
    app.see("History exported to")
    assert download.value.suggested_filename.startswith("xeri-history-")
    with zipfile.ZipFile(download.value.path()) as zf:
        assert "history.csv" in zf.namelist()
    archives = list(exports.glob("xeri-history-*.zip"))
    assert len(archives) == 1, archives
    assert str(archives[0]) in app.text_of("status")
    with zipfile.ZipFile(archives[0]) as zf:
        names = zf.namelist()
        assert "history.csv" in names
        files = [n for n in names if n.startswith("matches/") and n.endswith(".json")]
        assert len(files) == 4
        ids = {json.loads(zf.read(n))["meta"]["id"] for n in files}
        csv = zf.read("history.csv").decode("utf-8")
    assert ids == set(seeded.all)
    for match_id in seeded.all:
        assert any(match_id[:8] in n for n in files)
    assert "Anna" in csv and "Reds" in csv


def test_deleting_a_match_asks_first_and_the_match_can_be_brought_back(app, seeded):
    match_file = seeded.folder / "matches" / f"{seeded.anna_chris}.json"
    open_history(app, seeded)
    app.tap(f"history-{seeded.anna_chris}")
    app.wait_id("record-summary")
    app.tap("delete-match")
    app.see("Delete this match?")
    app.tap("confirm-no")                              # cancelled: nothing happens
    app.wait_gone("confirm-box")
    assert match_file.exists()
    app.tap("delete-match")
    app.tap("confirm-yes")
    app.wait_id("undo-delete")                         # back on the history, without the match
    app.see("The match was deleted.")
    app.wait_rows(set(seeded.all) - {seeded.anna_chris})
    assert not match_file.exists()
    app.tap("undo-delete")
    app.see("The match is back.")
    app.wait_rows(set(seeded.all))
    assert match_file.exists()
    app.tap(f"history-{seeded.anna_chris}")           # and it opens as before
    app.wait_id("record-summary")
    assert "Chris wins the match." in app.text_of("record-status")


def test_match_files_from_another_device_are_imported_from_the_history(app, seeded, tmp_path):
    """A match file from another phone, picked in the browser's file chooser; importing it twice keeps one."""
    other = tmp_path / "other"
    with Store(other) as store:
        record = play(store).start(Match(rules=preset("classic"), sides=(Side("Eleni"), Side("Nikos")),
                                          goal=Goal(hands=1), hands=(hand(12, 0, 1),)))
        path = tmp_path / "eleni-nikos.json"
        path.write_text(books(store).export_match(record.id), encoding="utf-8")
    open_history(app, seeded)
    for expected in ("1 match imported.", "0 matches imported. 1 was already here."):
        with app.page.expect_file_chooser() as chooser:
            app.tap("import-files", wait=False)     # the app hears of it once a file is chosen
        chooser.value.set_files(str(path))
        app.see(expected)
    app.wait_rows(set(seeded.all) | {record.id})


def test_a_player_page_in_greek_says_plurals_and_decimals_as_greek_does(app, seeded):
    app.tap("open-settings")
    app.tap("lang-el")
    app.see("Γλώσσα")
    app.tap("back")
    open_history(app, seeded)
    app.tap("player-Anna")
    app.wait_id("stat-matches")
    app.see("1 νίκη · 1 ήττα · 0 ισοπαλίες")         # head to head with Ben: one of each, CLDR plurals
    points = app.text_of("stat-points")
    assert "," in points and "." not in points.split(":")[-1], points   # a decimal comma: 22,33
    from datetime import datetime

    from companion.i18n.fmt import month_year

    app.see(month_year(datetime.now(UTC).date(), "el"))   # a month's name ("Δεκ 2026"), not "26-12"


def test_the_leaderboard_leads_to_a_players_rating_and_the_match_that_moved_it(app, seeded):
    app.tap("open-ratings")
    app.wait_id("rating-1")
    assert app.text_of("ratings-counted") == "3 matches rated"        # the stopped match is not rated
    names = [app.text_of(f"rating-{k}").split(",")[0][3:] for k in range(1, 5)]
    assert sorted(names) == ["Anna", "Ben", "Chris", "Dora"]
    assert "provisional" in app.text_of("rating-1")                   # nobody has played 5 matches
    anna = names.index("Anna") + 1
    app.tap(f"rating-{anna}")
    app.wait_id("rating-chart")
    assert "Rating over 3 matches" in app.text_of("rating-chart")
    assert app.text_of("rating-move-0").startswith("Beat Ben and Chris (rated higher)")   # the partnership,
    app.tap("rating-move-0")                                          # the newest; the match that moved it opens
    app.see("Reds")
    app.tap("back")
    app.tap("back")
    app.scroll_to("records")
    assert "Highest hand" in app.text_of("records")
