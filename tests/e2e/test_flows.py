"""The app in a real browser, through taps and typing only, as a person at the table uses it."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def new_match(app) -> None:
    """Open the new-match form; a match still in play is stopped for it ("Stop it, start anew")."""
    app.tap("new-match")
    if app.wait_any("start-match", "confirm-yes") == "confirm-yes":
        app.tap("confirm-yes")
        app.wait_id("start-match")


def start_two_player_match(app, a="Anna", b="Ben", goal=None):
    new_match(app)
    app.type("name-0", a)
    app.type("name-1", b)
    if goal == "hands":
        app.tap("goal-hands")
    app.tap("start-match")
    app.wait_id("end-hand")


def total(app, side: int) -> int:
    """The side's total as its box says it, in any language ("Anna: 26", "… 18점", "26 puan")."""
    text = app.text_of(f"total-{side}")
    numbers = re.findall(r"-?\d+", text.split(":")[-1]) if ":" in text else re.findall(r"-?\d+", text)[-1:]
    return int(numbers[0])


def enter_hand(app, most=0, counting=(0, 12), ten=0, two=1, xeris_plus=(0, 0), then="end-hand", save=True):
    """End the hand and tap in a typical hand: most cards, one side's counting cards, the 10♦, the special two."""
    app.tap("end-hand")
    app.wait_id("save-hand")
    app.tap(f"most-{most}")
    side, count = counting
    if side:
        app.tap(f"counting-side-{side}")
    app.tap(f"counting-{side}-{count}")
    app.tap(f"ten-{ten}")
    app.tap(f"two-{two}")
    if any(xeris_plus):
        app.tap("open-xeris")
    for s, extra in enumerate(xeris_plus):
        for _ in range(extra):
            app.tap(f"xeris-{s}-plus")
    if save:
        app.tap("save-hand")
        app.wait_id(then)


def test_a_classic_match_to_151_with_live_xeris_a_jack_xeri_and_the_251_extension(app):
    start_two_player_match(app)
    app.see("first to 151")
    app.tap("xeri-0")
    app.tap("jack-xeri-1")
    app.see("Jack xeri for Ben (now 1)")
    # Hand 1: Anna most cards, 12 counting, 10♦; Ben 8 counting, 2♣, the jack xeri tapped live.
    enter_hand(app, most=0, counting=(0, 12), ten=0, two=1)
    assert (total(app, 0), total(app, 1)) == (26, 29)
    enter_hand(app, xeris_plus=(6, 6))            # 26+76, 29+69
    assert (total(app, 0), total(app, 1)) == (102, 98)
    enter_hand(app, xeris_plus=(6, 6))            # both pass 151 in the same hand
    assert (total(app, 0), total(app, 1)) == (178, 167)
    app.see("played on to 251")
    app.see("Both passed 151: played on to 251")   # the sheet marks the hand that did it
    enter_hand(app, xeris_plus=(6, 0), then="winner")
    app.see("Anna wins!")
    assert total(app, 0) == 254


def test_a_four_player_partnership_match_over_an_agreed_number_of_hands(app):
    new_match(app)
    app.tap("layout-partners")
    for i, name in enumerate(["Nikos", "Sofia", "Eleni", "Petros"]):
        app.type(f"name-{i}", name)
    app.tap("goal-hands")
    for _ in range(5):
        app.tap("hands-minus")   # 7 → 2 hands
    app.see("2 hands, most hands won")
    app.tap("start-match")
    app.wait_id("end-hand")
    app.see("Nikos & Sofia")
    app.see("Nikos deals, Eleni leads")
    app.tap("xeri-1")            # Eleni (team 2) sits second
    enter_hand(app, most=1, counting=(1, 11), ten=1, two=1)
    app.see("Eleni deals, Sofia leads")
    enter_hand(app, most=1, counting=(1, 11), ten=1, two=1, then="winner")
    app.see("Eleni & Petros win!")
    assert (total(app, 0), total(app, 1)) == (18, 42)


def test_an_impossible_hand_is_explained_and_nothing_is_saved(app):
    start_two_player_match(app)
    enter_hand(app, save=False)
    app.tap("open-xeris")
    for _ in range(3):
        app.tap("jack-xeris-1-plus")
    app.see("3 jack xeris in one hand: four jacks allow at most 2.")
    assert "3 jack xeris" in app.text_of("status")
    assert app.is_disabled("save-hand")
    app.tap("back")
    app.wait_id("end-hand")
    app.see("No hands yet")
    assert (total(app, 0), total(app, 1)) == (0, 0)


def test_undo_and_edit_a_hand_change_the_totals(app):
    start_two_player_match(app)
    enter_hand(app, most=0, counting=(0, 12), ten=0, two=1)
    enter_hand(app, most=1, counting=(0, 5), ten=1, two=1)
    assert (total(app, 0), total(app, 1)) == (16 + 5, 9 + 3 + 15 + 1 + 1)
    app.tap("undo-hand")
    app.tap("confirm-yes")
    app.see("Hand 2 was undone")
    assert (total(app, 0), total(app, 1)) == (16, 9)
    app.tap("hand-0")
    app.tap("edit-hand-0")
    app.tap("confirm-yes")
    app.wait_id("save-hand")
    app.tap("counting-0-15")
    app.tap("save-hand")
    app.wait_id("end-hand")
    assert (total(app, 0), total(app, 1)) == (3 + 15 + 1, 5 + 1)
    app.see("Hand 1 changed: 16 : 9 → 19 : 6.")       # old → new, in the strip


def reopen_match(app):
    if app.wait_any("continue-match", "end-hand", timeout=60_000) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")


def test_live_xeri_taps_survive_a_page_reload_and_a_killed_app(app, server):
    start_two_player_match(app)
    app.tap("xeri-0")
    app.tap("xeri-0")
    app.tap("jack-xeri-1")
    app.see("Jack xeri for Ben (now 1)")
    app.reload()
    reopen_match(app)
    assert "now 2" in app.text_of("xeri-0") and "now 1" in app.text_of("jack-xeri-1")
    server.restart()                     # the app is killed mid-hand and started again
    app.url = server.url
    app.open()
    reopen_match(app)
    assert "now 2" in app.text_of("xeri-0") and "now 1" in app.text_of("jack-xeri-1")
    app.tap("end-hand")
    app.wait_id("save-hand")
    app.tap("open-xeris")
    assert app.text_of("xeris-0-value").strip().endswith("2")


def test_switching_to_greek_shows_greek_labels(app):
    app.tap("open-settings")
    app.tap("lang-el")
    app.see("Γλώσσα")
    app.tap("back")
    app.see("Νέα παρτίδα")


def test_a_typical_hand_takes_five_taps_from_end_hand_to_saved(app):
    start_two_player_match(app)
    app.tap("xeri-0")
    app.tap("end-hand")
    app.wait_id("save-hand")
    before = app.taps
    app.tap("most-0")          # who has most cards
    app.tap("counting-0-11")   # counting cards of one side; the other is filled in
    app.tap("ten-1")           # who took the 10♦
    app.tap("two-0")           # who took the 2♣
    app.see("Anna 25 → 25 · Ben 10 → 10")   # the points, before Save
    app.tap("save-hand")       # and Save
    app.see("Hand 1 saved")
    assert app.taps - before == 5
    assert (total(app, 0), total(app, 1)) == (3 + 11 + 1 + 10, 9 + 1)


def test_counted_piles_fill_in_the_other_side_and_show_in_the_breakdown(app):
    start_two_player_match(app)
    app.tap("end-hand")
    app.wait_id("save-hand")
    app.tap("toggle-counts")
    app.type("cards-0", "30")
    app.see("filled in")
    for ident in ("counting-0-12", "ten-0", "two-1"):
        app.tap(ident)
    app.tap("save-hand")
    app.see("Hand 1 saved")
    app.tap("status")                           # the hand just saved, line by line
    app.wait_id("breakdown")
    app.see("most cards (30 of 52): 3 points")
    app.tap("detail-ok")
    app.wait_gone("breakdown")
    assert (total(app, 0), total(app, 1)) == (16, 9)


def test_the_saved_hand_is_named_for_a_moment_then_the_strip_makes_way(app):
    from .conftest import FLASH_SECONDS

    start_two_player_match(app)
    enter_hand(app)
    app.see("Hand 1 saved: 16 : 9")
    app.see("0 taps this hand", timeout=(FLASH_SECONDS + 10) * 1000)
    assert "Hand 1 saved" not in app.text_of("status")


def test_two_phones_at_one_table_see_each_others_taps(app, browser, server):
    from .conftest import PHONE
    from .driver import Driver

    start_two_player_match(app)
    context = browser.new_context(viewport=PHONE)
    try:
        other = Driver(context.new_page(), server.url)
        other.open()
        reopen_match(other)
        app.tap("xeri-0")
        other.see("Xeri for Anna (now 1)")      # without a tap on the second phone
        other.tap("jack-xeri-1")
        app.see("Jack xeri for Ben (now 1)")
    finally:
        context.close()
