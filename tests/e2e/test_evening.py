"""What a full evening of play still tripped over (issue 18), where only the browser shows it, at the sizes a
table uses: names of every length and script drawn whole, emoji drawn offline, a phone held sideways enters a
hand without scrolling, the score sheet shows the hand just saved. (The flows of that evening, asking before
a match in play is stopped, each table size's rules, the preview, number fields, a partnership's xeris: on
the screens without a browser, tests/ui/test_screens.py.) One app server for the module: each test starts
its own match."""

from __future__ import annotations

import time

import pytest

from tests.app_server import AppServer
from .driver import Driver
from .pixels import label_shape, text_lines, unlike
from tests.flows import enter_hand, new_match, start_two_player_match, total

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = AppServer(tmp_path_factory.mktemp("evening") / "data").start()
    yield srv
    srv.stop()


@pytest.fixture
def open_phone(phones):
    """Opens a page of the given size and language on the app, closed at the end of the test."""
    return lambda width=360, height=640, locale="en-US": phones(locale, viewport={"width": width, "height": height})


def shape(app: Driver, ident: str) -> frozenset:
    return label_shape(app.page.screenshot(clip=app.scroll_to(ident)))


def settled_shapes(app: Driver, first: str, second: str, timeout: float = 15) -> tuple[frozenset, frozenset]:
    """The ink of two controls once both are drawn and hold still (the same in two looks 0.2 s apart): a
    look taken while the screen still slides in, or a button still shows its press, is not the screen."""
    deadline = time.monotonic() + timeout
    last = (shape(app, first), shape(app, second))
    while True:
        time.sleep(0.2)
        now = (shape(app, first), shape(app, second))
        if (now == last and all(now)) or time.monotonic() > deadline:
            return now
        last = now


def drawn_apart(app: Driver, first: str, second: str, timeout: float = 15) -> bool:
    """True once two controls whose names differ only at their ends show differently shaped ink: both names
    are drawn to their last letter (cut, or wrapped, both would show "Κωνσταντί…" alike)."""
    deadline = time.monotonic() + timeout
    while True:
        a, b = settled_shapes(app, first, second, timeout)
        if a and b and unlike(a, b, share=0.05):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


GREEK = ["Κωνσταντίνος", "Κωνσταντίνα"]
"""Two ordinary Greek names, 12 and 11 letters, the same but for their last letters."""
LONGEST = "Chrysanthemumalexandrinapapadopouloukara"
"""A 40-letter name (the limit), with nowhere to break it."""


def test_twelve_letter_greek_names_are_drawn_whole_on_one_line_in_every_name_button_at_360x640(open_phone):
    app = open_phone(360, 640, "el-GR")
    new_match(app)
    app.tap("layout-two")
    for i, name in enumerate(GREEK):
        app.type(f"name-{i}", name)
    app.tap("start-match")
    app.wait_id("end-hand")
    assert drawn_apart(app, "xeri-0", "xeri-1"), "the xeri buttons cut the names"
    app.tap("end-hand")
    app.wait_id("save-hand")
    app.tap("counting-side-1")                           # both tabs outlined alike (the chosen one is filled)
    app.tap("counting-side-0")
    for first, second in (("most-0", "most-1"), ("ten-0", "ten-1"), ("two-0", "two-1")):
        assert drawn_apart(app, first, second), f"{first} and {second} cut the names"
        assert text_lines(shape(app, first)) == 1, f"{first} wraps the name"
    for ident in ("most-0", "most-tie", "counting-0-12", "ten-0", "two-1", "save-hand"):
        assert app.box_if_visible(ident) is not None, f"{ident} needs a scroll at 360x640"


def test_emoji_in_names_are_drawn_offline_and_a_40_letter_name_breaks_no_layout(open_phone):
    app = open_phone(360, 640)
    new_match(app)
    app.tap("layout-three")
    for i, name in enumerate(["Mia 🐱", "Mia 🐶", LONGEST]):
        app.type(f"name-{i}", name)
    app.tap("start-match")
    app.wait_id("end-hand")
    assert drawn_apart(app, "xeri-0", "xeri-1"), "the emoji are not drawn (boxes alike, or nothing)"
    assert app.small_targets() == []
    for ident in ("xeri-2", "jack-xeri-2", "end-hand", "total-2"):
        assert app.box_if_visible(ident) is not None, f"{ident} is pushed off a 360 px screen by a 40-letter name"
    app.tap("end-hand")
    app.wait_id("save-hand")
    assert drawn_apart(app, "most-0", "most-1")
    for ident in ("most-2", "most-tie", "counting-side-2", "ten-2", "two-2", "save-hand"):
        box = app.scroll_to(ident)                       # wholly on the screen once scrolled to, and full-size
        assert box["width"] >= 47.5 and box["height"] >= 47.5, f"{ident} is squeezed: {box}"


def test_without_the_emoji_font_emoji_names_would_not_be_drawn(open_phone):
    # The negative control of the test above: with the font refused, the two names look alike once the screen
    # holds still. (Once, under -n 4, it told them apart: the two looks are two screenshots, and a screen that
    # changed between them, as it does when the refused font's fallback is drawn, differs. Not reproduced.)
    app = open_phone(360, 640)
    app.page.route("**/fonts/XeriEmoji*", lambda route: route.abort())
    app.page.reload()
    app.enable_semantics()
    new_match(app)
    app.tap("layout-two")
    for i, name in enumerate(["Mia 🐱", "Mia 🐶"]):
        app.type(f"name-{i}", name)
    app.tap("start-match")
    app.wait_id("end-hand")
    assert not drawn_apart(app, "xeri-0", "xeri-1", timeout=3)


def test_a_phone_held_sideways_enters_a_typical_hand_and_lays_the_form_out_without_scrolling(open_phone):
    app = open_phone(844, 390)
    new_match(app)
    app.tap("layout-two")
    for ident in ("name-0", "name-1"):                   # both name fields at once, not one a scroll
        assert app.box_if_visible(ident) is not None, f"{ident} needs a scroll sideways"
    app.type("name-0", "Anna")
    app.type("name-1", "Ben")
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("xeri-0", scroll=False)
    app.tap("end-hand", scroll=False)
    app.wait_id("save-hand")
    for ident in ("most-0", "counting-0-12", "ten-0", "two-1", "save-hand"):
        app.tap(ident, scroll=False)                     # fails if any of it is off the screen
    app.see("Hand 1 saved")
    assert (total(app, 0), total(app, 1)) == (26, 9)


def test_the_newest_hand_and_the_totals_are_on_screen_after_a_save_at_360x640(open_phone):
    app = open_phone(360, 640)
    start_two_player_match(app)
    enter_hand(app)
    enter_hand(app, most=1, counting=(0, 5), ten=1, two=1)
    app.see("Hand 2 saved")
    for ident in ("hand-1", "total-0", "total-1", "xeri-0", "xeri-1", "end-hand"):
        assert app.box_if_visible(ident) is not None, f"{ident} needs a scroll at 360x640 after a save"
    assert "dealt" not in app.text_of("hand-1").split(":")[0]       # the row says its hand, not an unlabelled name
