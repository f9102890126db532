"""What a full evening of play still tripped over (issue 18), in Chromium at the sizes a table uses: a new
match never silently replaces the one in play, each table size keeps its rules, names of every length and
script are shown whole, a phone held sideways enters a hand without scrolling, the score sheet shows the
hand just saved, partnerships name who made a xeri, the preview says what a hand will do, and number
fields explain what they refuse. One app server for the module: each test starts its own match."""

from __future__ import annotations

import pytest

from .conftest import AppServer
from .driver import Driver
from .test_flows import enter_hand, new_match, start_two_player_match, total

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = AppServer(tmp_path_factory.mktemp("evening") / "data").start()
    yield srv
    srv.stop()


@pytest.fixture
def phone(browser, server):
    """Opens a page of the given size and language on the app, closed at the end of the test."""
    contexts = []

    def open_page(width: int = 360, height: int = 640, locale: str = "en-US") -> Driver:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        contexts.append(context)
        driver = Driver(context.new_page(), server.url)
        driver.open()
        return driver

    yield open_page
    for context in contexts:
        context.close()


def reopen(app: Driver) -> None:
    if app.wait_any("continue-match", "end-hand", timeout=60_000) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")


def test_new_match_asks_before_it_stops_the_match_in_play_and_the_other_phone_is_told(phone):
    a = phone()
    start_two_player_match(a)
    enter_hand(a)                                        # 16 : 9
    b = phone()
    reopen(b)
    a.tap("back")
    a.tap("new-match")                                   # a match is in play: asked first
    a.see("A match is still in play: Anna · Ben, 16 : 9 (1 hand played)")
    assert a.small_targets() == []                       # both answers are full-size targets
    a.tap("confirm-no")                                  # "Continue it"
    a.wait_id("end-hand")
    assert (total(a, 0), total(a, 1)) == (16, 9)
    a.tap("back")
    a.tap("new-match")
    a.tap("confirm-yes")                                 # "Stop it, start anew": the form, names prefilled
    a.wait_id("start-match")
    assert a.by_id("name-0").get_attribute("aria-label") == "Anna"
    a.tap("start-match")
    a.wait_id("end-hand")
    assert (total(a, 0), total(a, 1)) == (0, 0)
    b.see("Another phone stopped the match Anna · Ben (16 : 9, 1 hand played) and started a new one")
    assert (total(b, 0), total(b, 1)) == (0, 0)


def test_each_table_size_keeps_its_own_rules_and_the_form_gives_back_a_choice(phone):
    app = phone(390, 844)
    new_match(app)
    app.tap("layout-three")
    for i, name in enumerate(["Anna", "Ben", "Chris"]):
        app.type(f"name-{i}", name)
    app.see("Greek online · first to 151, then 251")
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("back")
    new_match(app)
    app.tap("layout-two")                                # two never played here: their usual rules
    app.see("Classic · first to 151, then 251")
    app.tap("preset-plain")
    app.tap("layout-partners")
    app.see("Partnership")
    app.tap("layout-two")                                # back: the choice made for two is given back
    app.see("Plain · 7 hands")
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("back")
    new_match(app)                                       # the last match was two players on Plain
    app.see("Plain · 7 hands")
    app.tap("layout-three")
    app.see("Greek online · first to 151, then 251")
