"""At the table: nothing moves under a finger, a stale phone cannot double a hand, every hand fits one
screen, and every tappable thing is big enough. One app server for the module: each test starts its own
match (a new match stops the one before)."""

from __future__ import annotations

import pytest

from tests.app_server import AppServer
from tests.flows import enter_hand, new_match, reopen, start_two_player_match, total
from .driver import same_boxes

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = AppServer(tmp_path_factory.mktemp("table") / "data").start()
    yield srv
    srv.stop()


@pytest.fixture
def open_phone(phones):
    """Opens a page of the given size on the app (390x844 unless told), closed at the end of the test."""
    return lambda width=390, height=844: phones(viewport={"width": width, "height": height})


def test_no_control_moves_when_a_tap_a_saved_hand_a_problem_or_another_phone_is_said(open_phone):
    app = open_phone()
    start_two_player_match(app)
    app.wait_id("xeri-0")
    start = app.tappable_boxes()
    app.tap("xeri-0")                                  # the first xeri of the hand: its notice
    app.see("Xeri for Anna (now 1)")
    same_boxes(start, app.tappable_boxes(), "the first xeri")
    app.tap("xeri-1", scroll=False)                    # the second tap lands where the finger expects
    app.see("Xeri for Ben (now 1)")
    same_boxes(start, app.tappable_boxes(), "the second xeri")
    app.tap("undo-tap")
    app.see("Took back a xeri of Ben")
    same_boxes(start, app.tappable_boxes(), "an undone tap")
    enter_hand(app)
    app.see("Hand 1 saved")                            # the saved hand is named in the strip
    same_boxes(start, app.tappable_boxes(), "a saved hand")
    other = open_phone()
    reopen(other)
    other.tap("xeri-1")                                # another phone's tap reaches this one
    app.see("Xeri for Ben (now 1)")
    same_boxes(start, app.tappable_boxes(), "another phone's tap")

    app.tap("end-hand")                                # the entry: a problem is said without moving anything
    app.wait_id("save-hand")
    app.tap("open-xeris")
    entry = app.tappable_boxes()
    for _ in range(3):
        app.tap("jack-xeris-0-plus")
    app.see("3 jack xeris in one hand")
    same_boxes(entry, app.tappable_boxes(), "a problem in the hand entry")


def test_a_stale_save_edit_undo_and_tap_are_refused_in_words_and_a_rematch_moves_the_other_phone(open_phone):
    a, b = open_phone(), open_phone()
    start_two_player_match(a, goal="hands")            # 7 hands
    reopen(b)
    # Phone A opens the hand; phone B saves that hand first.
    a.tap("end-hand")
    a.wait_id("save-hand")
    for ident in ("most-0", "counting-0-12", "ten-0", "two-1"):
        a.tap(ident)
    enter_hand(b)
    # A's form says so at once, where A is looking, and offers to discard or go on; Save is gone (and a save
    # made before the news arrives is refused by the service: tests/service/test_table.py).
    a.see("Hand 1 was saved on another phone, so this one was not")
    assert a.by_id("save-hand").count() == 0
    a.visible_box("status")                            # said where the person is looking
    a.visible_box("reopen-hand")
    assert (total(b, 0), total(b, 1)) == (16, 9)
    a.tap("reopen-hand")                               # go on with hand 2: its scoreboard, where its taps are
    a.wait_id("end-hand")                              # made (not an empty entry for a hand nobody played)
    a.see("Hand 2")
    assert (total(a, 0), total(a, 1)) == (16, 9)       # one hand 1, not two

    # Undo from a stale question: A asks "Undo hand 1?", B saves hand 2 meanwhile, A says yes.
    a.tap("undo-hand")
    a.see("Undo hand 1?")
    enter_hand(b)
    a.tap("confirm-yes")
    a.see("changed on another phone")
    assert (total(a, 0), total(a, 1)) == (32, 18)      # nothing undone; A now shows both hands

    # Edit from a stale form: A opens hand 1, B undoes hand 2 meanwhile.
    a.tap("hand-0")
    a.tap("edit-hand-0")
    a.tap("confirm-yes")
    a.wait_id("save-hand")
    a.tap("counting-0-15")
    b.tap("undo-hand")
    b.tap("confirm-yes")
    b.see("Hand 2 was undone")
    a.see("The match changed on another phone")        # at once, above Discard and Reopen
    a.tap("discard-hand")
    a.wait_id("end-hand")
    b.tap("discard-reopened")                          # B's undo reopened hand 2 there: B leaves it out
    b.wait_id("end-hand")
    assert (total(b, 0), total(b, 1)) == (16, 9)       # the edit was not saved over B's undo

    # B plays to the end: A follows (the stale tap itself, made before the news arrives, is refused in
    # words by the view model and the service: tests/ui/test_viewmodel.py and tests/service/test_table.py).
    for n in range(6):
        enter_hand(b, then="end-hand" if n < 5 else "winner")
    a.wait_id("winner")
    # A rematch on B moves A.
    b.tap("rematch")
    b.wait_id("end-hand")
    a.see("A rematch was started on another phone")
    a.wait_id("end-hand")
    assert (total(a, 0), total(a, 1)) == (0, 0)


def test_undo_reopens_the_hand_with_its_taps_to_correct_and_save_at_360x640(open_phone):
    """Undo last hand opens that hand again, filled in as saved, its xeri back on the scoreboard: one number
    corrected and Save puts it back; the other phone shows the corrected hand."""
    app, other = open_phone(360, 640), open_phone()
    start_two_player_match(app)
    reopen(other)
    app.tap("xeri-1", scroll=False)
    enter_hand(app)
    assert (total(app, 0), total(app, 1)) == (16, 19)
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.see("Hand 1 was undone: correct it and save it again, or discard it.")
    for ident in ("reopened-line", "discard-reopened", "save-hand"):
        app.visible_box(ident)                         # on the one screen, with the form
    other.wait_id("xeri-1")
    other.see("Xeri for Ben (now 1)")                  # the reopened hand's tap is back on every phone
    app.tap("counting-0-10")
    app.tap("save-hand")
    app.wait_id("end-hand")
    assert (total(app, 0), total(app, 1)) == (14, 21)
    assert (total(other, 0), total(other, 1)) == (14, 21)


@pytest.mark.parametrize("locale, scheme", [("el-GR", "dark"), ("ko-KR", "light"), ("tr-TR", "dark")])
def test_the_reopened_hand_fits_360_by_640_in_every_language_light_and_dark(phones, locale, scheme):
    import json
    from pathlib import Path

    catalog = json.loads((Path(__file__).resolve().parents[2] / "data" / "i18n" / f"{locale[:2]}.json")
                         .read_text(encoding="utf-8"))
    app = phones(viewport={"width": 360, "height": 640}, locale=locale, color_scheme=scheme)
    start_two_player_match(app)
    enter_hand(app)
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.wait_id("discard-reopened")
    assert catalog["entry.reopened"].format(n=1) in app.text_of("reopened-line")
    assert catalog["entry.discard_reopened"] in app.text_of("discard-reopened")
    for ident in ("reopened-line", "discard-reopened", "save-hand"):
        box = app.visible_box(ident)                   # whole, uncovered, without a scroll
        assert box["height"] >= 48 or ident == "reopened-line"


def test_a_typical_two_player_hand_is_entered_at_360x640_without_scrolling(open_phone):
    app = open_phone(360, 640)
    start_two_player_match(app)
    app.tap("xeri-0", scroll=False)
    app.tap("end-hand", scroll=False)
    app.wait_id("save-hand")
    for ident in ("most-0", "counting-0-12", "ten-0", "two-1", "save-hand"):
        app.tap(ident, scroll=False)
    app.see("Hand 1 saved")
    assert (total(app, 0), total(app, 1)) == (26, 9)


def test_a_phone_held_sideways_keeps_every_xeri_button_and_end_hand_in_reach(open_phone):
    app = open_phone(844, 390)
    start_two_player_match(app)
    for ident in ("xeri-0", "jack-xeri-0", "xeri-1", "jack-xeri-1", "end-hand", "total-0", "total-1"):
        assert app.box_if_visible(ident) is not None, f"{ident} is not wholly on screen at 844x390"
    app.tap("jack-xeri-1", scroll=False)
    app.tap("xeri-0", scroll=False)
    assert total(app, 0) == 0 and total(app, 1) == 0
    app.tap("end-hand", scroll=False)
    app.wait_id("save-hand")


def test_a_tablet_uses_its_width_big_totals_across_it_then_buttons_and_sheet_and_a_two_column_entry(open_phone):
    """At 768×1024 the scoreboard was a 343 px phone column with the right half empty, the entry stretched."""
    app = open_phone(768, 1024)
    start_two_player_match(app)
    enter_hand(app)
    half = 768 / 2
    totals = [app.visible_box(f"total-{i}") for i in (0, 1)]
    assert totals[0]["x"] + totals[0]["width"] / 2 < half < totals[1]["x"] + totals[1]["width"] / 2   # across it
    xeri, sheet = app.visible_box("xeri-0"), app.visible_box("hand-0")
    assert xeri["x"] + xeri["width"] <= half + 8 and sheet["x"] >= half - 8            # side by side, halves
    assert xeri["width"] * 2 + 6 >= half - 40                                         # the left half, used
    app.tap("end-hand")
    app.wait_id("save-hand")
    most, counting = app.visible_box("most-0"), app.visible_box("counting-0-0")
    assert most["x"] < half and counting["x"] >= half - 8                             # two columns


def test_a_partnership_with_an_unnamed_team_and_a_40_letter_name_fits_360x640_with_every_row(open_phone):
    """The team was "Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλ…" everywhere, the fourth player's xeri row was under
    the status strip and the entry was one button a row."""
    from tests.flows import fill_partnership

    app = open_phone(360, 640)
    long = "Χαραλάμπης-Κωνσταντίνος Παπαδημητρόπουλος"[:40]
    fill_partnership(app, (long, "Eleni", "Νίκος", "Petros"))
    app.type("team-1", "Οι Αετοί")
    app.tap("start-match")
    app.wait_id("end-hand")
    for seat in range(4):                               # every player's row, on the screen without a scroll
        for ident in (f"xeri-{seat}", f"jack-xeri-{seat}"):
            box = app.visible_box(ident)
            assert box["height"] >= 47.5, f"{ident} is squeezed: {box}"
    app.visible_box("end-hand")
    assert "Eleni" in app.text_of("total-0") or "Eleni" in app.screen_text()     # both players named
    app.tap("end-hand", scroll=False)
    app.wait_id("save-hand")
    for left, right in (("most-0", "most-1"), ("counting-side-0", "counting-side-1")):
        a, b = app.visible_box(left), app.visible_box(right)
        assert abs(a["y"] - b["y"]) < 2 and a["x"] < b["x"], f"{left} and {right} are not side by side"
    assert "…" not in app.text_of("most-0")             # the name is never cut in what the app holds


def test_a_four_player_hand_is_entered_at_390x844_without_scrolling(open_phone):
    app = open_phone(390, 844)
    new_match(app)
    app.tap("layout-four")
    for i, name in enumerate(["Nikos", "Sofia", "Eleni", "Petros"]):
        app.type(f"name-{i}", name)
    app.tap("start-match")
    app.wait_id("end-hand")
    for ident in ("xeri-2", "jack-xeri-3", "end-hand"):
        app.tap(ident, scroll=False)
    app.wait_id("save-hand")
    # Greek-online rules: 16 counting cards. The picker moves on from side to side; the last is worked out.
    for ident in ("most-0", "counting-0-5", "counting-1-4", "counting-2-3", "ten-0", "two-1", "save-hand"):
        app.tap(ident, scroll=False)
    app.see("Hand 1 saved")
    app.wait_id("end-hand")


def test_every_tappable_control_is_at_least_48_by_48(open_phone):
    app = open_phone(390, 2400)                              # tall: every control of a screen is on it at once
    found = {}

    def check(screen: str) -> None:
        found[screen] = app.small_targets()

    check("home")
    new_match(app)
    check("new match")
    app.tap("layout-partners")
    app.tap("goal-custom")
    check("new match, partners, own target")
    app.tap("layout-two")
    for i, name in enumerate(["Zoe", "Yan"]):
        app.type(f"name-{i}", name)
    app.tap("start-match")
    app.wait_id("end-hand")
    app.tap("xeri-0")
    check("scoreboard")
    enter_hand(app, save=False)
    app.tap("open-xeris")
    check("hand entry")
    app.tap("toggle-counts")
    check("hand entry, counted piles")
    app.tap("exact-mode")
    check("hand entry, card by card")
    app.tap("back")
    app.tap("match-rules")
    check("rules")
    app.tap("back")
    app.tap("back")
    app.tap("open-settings")
    check("settings")
    app.tap("back")
    app.tap("open-history")
    check("history")
    app.tap("back")
    app.tap("new-match")                                # a match is in play: both answers of the question
    app.wait_id("confirm-yes")
    check("stop or continue the match in play")
    assert {screen: small for screen, small in found.items() if small} == {}


def test_the_card_counts_sit_level_when_one_is_filled_in(open_phone):
    # The filled-in field's helper line lifted it 10 px above the one typed into.
    app = open_phone(360, 640)
    start_two_player_match(app)
    app.tap("end-hand", scroll=False)
    app.tap("toggle-counts")
    app.type("cards-0", "30")
    app.see("filled in")
    typed, filled = (app.visible_box(f"cards-{i}") for i in (0, 1))
    assert abs(typed["y"] - filled["y"]) <= 1, (typed, filled)
