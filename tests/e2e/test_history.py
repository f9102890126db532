"""The history in a real browser, through taps only: lists and filters, a past match with its chart and
what-if, a player's page, exporting everything, and deleting a match and bringing it back.

The data folder is filled through the Store API before the app starts (the `server` fixture below
replaces conftest's empty one for this module, so `app` opens the seeded app).
"""

from __future__ import annotations

import json
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.engine import Goal, HandEntry, Match, Side
from companion.formats.presets import preset
from companion.storage import Store

from .conftest import AppServer
from tests.play import play, books
from datetime import UTC

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def hand(anna_side_counting: int, ten: int, two: int, xeris=(0, 0), jack_xeris=(0, 0), cards=(30, 22)) -> HandEntry:
    """A valid classic count-mode hand of two sides (20 counting cards between them)."""
    return HandEntry(cards=cards, counting=(anna_side_counting, 20 - anna_side_counting), ten_of_diamonds=ten,
                     two=two, xeris=xeris, jack_xeris=jack_xeris)


@dataclass(frozen=True)
class Seeded:
    folder: Path
    anna_ben: str
    """Classic, one hand: Anna 26, Ben 29 with a jack xeri; Ben wins (Anna would under plain rules)."""
    anna_chris: str
    """Classic, one hand: Anna 5, Chris 40; Chris wins."""
    abandoned: str
    """Ben v Chris, classic to 151, stopped after one hand."""
    partners: str
    """Partnership, one hand: Reds (Anna & Dora) 27, Blues (Ben & Chris) 18."""

    @property
    def all(self) -> tuple[str, ...]:
        return self.anna_ben, self.anna_chris, self.abandoned, self.partners


def seed(folder: Path) -> Seeded:
    classic = preset("classic")
    store = Store(folder)
    try:
        one_hand = Goal(hands=1)
        anna_ben = play(store).start(Match(
            rules=classic, sides=(Side("Anna"), Side("Ben")), goal=one_hand,
            hands=(hand(12, 0, 1, xeris=(1, 0), jack_xeris=(0, 1)),)))
        anna_chris = play(store).start(Match(
            rules=classic, sides=(Side("Anna"), Side("Chris")), goal=one_hand,
            hands=(hand(5, 1, 1, xeris=(0, 2), cards=(20, 32)),)))
        stopped = play(store).start(Match.new(classic, [Side("Ben"), Side("Chris")]))
        stopped = play(store).record_hand(stopped.id, hand(11, 0, 0))
        play(store).abandon(stopped.id)
        partners = play(store).start(Match(
            rules=preset("partnership"), sides=(Side("Reds", ("Anna", "Dora")), Side("Blues", ("Ben", "Chris"))),
            goal=one_hand, hands=(hand(13, 0, 1, xeris=(1, 1)),)))
        seeded = Seeded(folder, anna_ben.id, anna_chris.id, stopped.id, partners.id)
        summaries = {s.id: s for s in store.list_matches()}
        assert [summaries[m].winner for m in (seeded.anna_ben, seeded.anna_chris, seeded.partners)] == [1, 1, 0]
        assert summaries[seeded.abandoned].abandoned
        return seeded
    finally:
        store.close()


@pytest.fixture
def seeded(tmp_path) -> Seeded:
    return seed(tmp_path / "data")


@pytest.fixture
def server(seeded):
    """The app on the seeded data folder (overrides conftest's `server`, which starts on an empty one)."""
    srv = AppServer(seeded.folder).start()
    yield srv
    srv.stop()


def rows(app) -> set[str]:
    """The match ids of the history rows on screen."""
    found = app.page.evaluate("""() => Array.from(document.querySelectorAll('[flt-semantics-identifier^="history-"]'))
                                 .map(n => n.getAttribute('flt-semantics-identifier'))""")
    return {ident.removeprefix("history-") for ident in found}


def wait_until(check, what, timeout: float = 10) -> None:
    """Poll `check` until true; `what` (words, or a function giving them at the time) says what was awaited."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
        time.sleep(0.05)


def wait_rows(app, expected: set[str]) -> None:
    wait_until(lambda: rows(app) == expected, lambda: f"history rows {expected} (on screen: {rows(app)})")


def open_history(app, seeded: Seeded) -> None:
    app.tap("open-history")
    app.wait_id("export-all")
    wait_rows(app, set(seeded.all))


def test_the_history_lists_finished_and_abandoned_matches_and_filters_them(app, seeded):
    app.see("Recent matches")                          # the home screen shows three of them
    wait_until(lambda: len(rows(app)) == 3, "three recent matches on the home screen")
    assert rows(app) <= set(seeded.all)
    open_history(app, seeded)
    app.see("Anna · Ben 26 : 29")
    app.see("Ben won")
    app.see("Ben · Chris 16 : 9")
    app.see("abandoned")
    app.see("Reds · Blues 27 : 18")

    app.tap("filter-player-Chris")                     # in a partnership too
    wait_rows(app, {seeded.anna_chris, seeded.abandoned, seeded.partners})
    app.tap("filter-rules-partnership")                # both filters at once
    wait_rows(app, {seeded.partners})
    app.tap("filter-player-Chris")                     # tapped again: off
    wait_rows(app, {seeded.partners})
    app.tap("filter-rules-classic")                    # another rule set replaces the first
    wait_rows(app, {seeded.anna_ben, seeded.anna_chris, seeded.abandoned})
    app.tap("filter-player-Dora")
    wait_rows(app, set())
    app.see("No finished matches yet.")
    app.tap("filter-rules-classic")
    wait_rows(app, {seeded.partners})
    app.tap("filter-player-Dora")
    wait_rows(app, set(seeded.all))


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
    wait_until(lambda: "Ben would win." in app.text_of("whatif-verdict"), "the verdict with a 25-point jack xeri")
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


def test_a_player_page_shows_figures_and_charts(app, seeded):
    open_history(app, seeded)
    app.tap("player-Anna")
    app.wait_id("stat-matches")
    assert "matches: 3" in app.text_of("stat-matches")   # the abandoned match is Ben and Chris's
    assert "won: 1" in app.text_of("stat-won")           # the partnership, with Dora
    assert "win rate: 33%" in app.text_of("stat-win-rate")
    assert "hands won: 1/3" in app.text_of("stat-hands-won")
    assert "best hand: 27" in app.text_of("stat-best")
    app.wait_id("points-chart")
    app.wait_id("wins-chart")
    app.see("Head to head")
    app.see("Partners")
    app.see("Anna & Dora")

    app.tap("back")
    app.tap("player-Ben")
    app.wait_id("stat-matches")
    assert "matches: 2" in app.text_of("stat-matches")
    assert "won: 1" in app.text_of("stat-won")


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
    wait_rows(app, set(seeded.all) - {seeded.anna_chris})
    assert not match_file.exists()
    app.tap("undo-delete")
    app.see("The match is back.")
    wait_rows(app, set(seeded.all))
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
    wait_rows(app, set(seeded.all) | {record.id})


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
