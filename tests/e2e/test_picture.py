"""The score sheet as a picture, made by Flutter in a real browser (server mode): a past match's Share and Save
picture give a PNG of the whole match, a phone's width, small enough for a chat, with something drawn on it;
at the end of a match at the table, the picture and the text sheet are downloaded with a word where the
browser cannot share files (Chromium on Linux cannot).

The data folder is filled through the Store API before the app starts (this module's `server`).
"""

from __future__ import annotations

import pytest

from companion.engine import Goal, Match, Side
from companion.formats.presets import preset
from companion.storage import Store

from tests.app_server import AppServer
from tests.flows import enter_hand, reopen
from tests.play import play
from tests.seed import hand

from .pixels import decode_png

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MOST_BYTES = 300_000
"""The most a picture of a 20-hand match may weigh (a chat sends it in a moment, on any network)."""
LONG = ("Konstantina Papadopoulou-Alexandropoulou", "Chrysanthemum Oyelaran")
"""Two long names (the first at the 40-letter limit)."""


def twenty_hands() -> tuple:
    """Twenty valid classic hands of two sides, the lead changing hands."""
    return tuple(hand(4 + (k * 7) % 13, k % 2, (k // 2) % 2, xeris=(k % 3, (k + 1) % 2), cards=(27 + k % 5, 25 - k % 5))
                 for k in range(20))


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("picture") / "data"
    store = Store(folder)
    try:
        pair = play(store).start(Match(rules=preset("classic"), sides=(Side(LONG[0]), Side(LONG[1])),
                                       goal=Goal(hands=20), hands=twenty_hands()))
        partners = play(store).start(Match(
            rules=preset("partnership"),
            sides=(Side("The Red Team of Thessaloniki", ("Anastasia", "Dimitrios")),
                   Side("Blues", ("Ben", "Chris"))),
            goal=Goal(hands=20), hands=twenty_hands()))
        at_table = play(store).start(Match(rules=preset("classic"), sides=(Side("Anna"), Side("Ben")),
                                           goal=Goal(hands=2), hands=(hand(12, 0, 1),)))
    finally:
        store.close()
    return folder, pair.id, partners.id, at_table.id


@pytest.fixture(scope="module")
def server(seeded):
    srv = AppServer(seeded[0]).start()
    yield srv
    srv.stop()


@pytest.fixture
def phone(phones):
    """A phone as most are: 390 × 844 at 3 device pixels per pixel (its window 1170 × 2532 pixels, so a
    picture of 20 hands is taller than the window: it is captured in bands)."""
    return phones(device_scale_factor=3)


def check_picture(data: bytes, where) -> tuple[int, int]:
    """The picture is a PNG a phone's width, taller than wide for a long match, at most `MOST_BYTES`, and not
    blank: the background and the drawing on it; (width, height)."""
    where.write_bytes(data)        # kept beside the test's temp folder, to look at
    width, height, rows = decode_png(data)
    assert 900 <= width <= 1080, (width, height)
    assert 1.2 * width < height < 6 * width, (width, height)
    assert len(data) <= MOST_BYTES, f"{len(data)} bytes"
    colours: dict[bytes, int] = {}
    for row in rows[::7]:
        for x in range(0, width * 3, 21):
            colours[row[x:x + 3]] = colours.get(row[x:x + 3], 0) + 1
    looked = sum(colours.values())
    background = max(colours.values())
    assert background < 0.9 * looked, "the picture is (nearly) one colour"
    assert len(colours) > 20, f"only {len(colours)} colours: nothing much drawn"
    return width, height


def test_a_past_match_is_shared_and_saved_as_a_picture_of_every_hand(phone, seeded, tmp_path):
    app = phone
    _folder, pair, partners, _at_table = seeded
    app.tap("open-history")
    for match_id, name in ((pair, "two"), (partners, "partners")):
        app.tap(f"history-{match_id}")
        app.wait_id("record-summary")
        with app.page.expect_download(timeout=30_000) as download:
            app.tap("save-picture-past", wait=False)
        app.see("Picture saved to your downloads.", timeout=30_000)
        assert download.value.suggested_filename.startswith("xeri-score-sheet-")
        assert download.value.suggested_filename.endswith(".png")
        width, _height = check_picture(download.value.path().read_bytes(), tmp_path / f"{name}.png")
        assert width == 1080 or name != "two"                         # two sides fit 300 KB at full width
        app.tap("back")
    app.tap(f"history-{pair}")
    with app.page.expect_download(timeout=30_000) as download:       # Share: this browser cannot share files
        app.tap("share-past", wait=False)
    app.see("Sharing files is not available here: the picture was saved to your downloads.", timeout=30_000)
    check_picture(download.value.path().read_bytes(), tmp_path / "shared.png")
    assert app.by_id("record-summary").count() == 1                  # the page stays where it was


def test_at_the_end_of_a_match_the_picture_and_the_text_sheet_are_downloaded_with_a_word(phone, tmp_path):
    app = phone
    reopen(app)
    enter_hand(app, then="match-over")
    with app.page.expect_download(timeout=30_000) as download:
        app.tap("share", wait=False)
    app.see("Sharing files is not available here: the picture was saved to your downloads.", timeout=30_000)
    width, height = check_picture_small(download.value.path().read_bytes(), tmp_path / "over.png")
    assert width == 1080 and height > width
    with app.page.expect_download(timeout=30_000) as download:
        app.tap("share-sheet", wait=False)
    app.see("Sharing files is not available here: the score sheet was saved to your downloads.")
    assert download.value.suggested_filename == "xeri-score-sheet.txt"
    assert "Anna" in download.value.path().read_text(encoding="utf-8")


def check_picture_small(data: bytes, where) -> tuple[int, int]:
    """A two-hand match's picture: a PNG a phone's width, with something drawn on it."""
    where.write_bytes(data)
    width, height, rows = decode_png(data)
    assert len({row[x:x + 3] for row in rows[::9] for x in range(0, width * 3, 27)}) > 20
    return width, height
