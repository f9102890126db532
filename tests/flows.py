"""What a person does at the table, in taps: one flow for the browser driver (tests/e2e/driver.py) and for
the phone without a browser (tests/screens.py), which share their words."""

from __future__ import annotations

import re


def new_match(app) -> None:
    """Open the new-match form; a match still in play is stopped for it ("Stop it, start anew"). A phone of its
    own (the browser build) may open at the table it was at: home first."""
    if app.wait_any("new-match", "end-hand", timeout=60_000) == "end-hand":
        app.tap("back")
    app.tap("new-match")
    if app.wait_any("start-match", "confirm-yes") == "confirm-yes":
        app.tap("confirm-yes")
        app.wait_id("start-match")


def start_two_player_match(app, a="Anna", b="Ben", goal=None):
    new_match(app)
    if app.wait_any("name-2", "name-1") == "name-2":
        # The form opened at a bigger table: the last one played here, or before any match the one of the
        # phone's language's own game (a Korean phone's first form is for two partnerships).
        app.tap("layout-two")
    app.type("name-0", a)
    app.type("name-1", b)
    if goal == "hands":
        app.tap("goal-hands")
    app.tap("start-match")
    app.wait_id("end-hand")


PARTNERS = ("Nikos", "Sofia", "Eleni", "Petros")
"""Four players in two partnerships, in the order the form asks for them (Nikos & Sofia against Eleni & Petros)."""


def fill_partnership(app, names=PARTNERS) -> None:
    """Open the new-match form for two partnerships and type the four names (the goal and Start are the test's)."""
    new_match(app)
    app.tap("layout-partners")
    for i, name in enumerate(names):
        app.type(f"name-{i}", name)


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


def reopen(app) -> None:
    """Back to the match in play from the start screen (a phone that opened the app, or came back)."""
    if app.wait_any("continue-match", "end-hand", timeout=60_000) == "continue-match":
        app.tap("continue-match")
    app.wait_id("end-hand")
